"""What the forms templates share: reading submissions and slots, stating values in goals,
placing files for uploads, and the moves of the portal's oracles."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from itertools import pairwise
from typing import Any

from webenv.answers import as_typed
from webenv.axtree import AxTree, Node, NotFound
from webenv.changes import RowChange
from webenv.tasks import ADD, Allowance, Checks, May, Moves
from webenv.world import World

PERSONA_ID = 1
SITE = "forms"


def filling(form: str) -> Allowance:
    """What going through the steps of form ``form`` (its slug) changes: its draft is created
    and saved on every step. A draft of it started in the episode is an added row however
    often it is saved; a new draft of another form is not the task's, and the drafts the user
    had saved before (another form's, or an earlier try's) stay as they were."""
    return {"drafts": OwnDraft(add=True, adds=(("form_slug", form),))}


def submitting(form: str) -> Allowance:
    """What submitting form ``form`` changes: its draft, the submission and the files uploaded
    with it."""
    return {**filling(form), "submissions": ADD, "uploads": ADD}


@dataclass(frozen=True)
class OwnDraft(May):
    """Drafts: new ones of the task's form (:attr:`May.adds`), and anything to the one saved
    draft the task is about (``draft``, its id), which a task that resumes it submits; every
    other saved draft stays as it was."""

    draft: int = 0

    def allows(self, change: RowChange) -> bool:
        if change.kind == "added":
            return super().allows(change)
        return change.key == (self.draft,)


def resuming(allowance: Allowance, draft_id: int) -> Allowance:
    """``allowance`` (of the forms site) with the saved draft ``draft_id`` the task's own."""
    drafts = allowance["drafts"]
    return {**allowance, "drafts": OwnDraft(add=True, adds=drafts.adds, draft=draft_id)}


# -- stating values -----------------------------------------------------------------------


def spoken_date(iso: str) -> str:
    """``2026-03-11`` as ``March 11, 2026``."""
    day = date.fromisoformat(iso)
    return f"{day:%B} {day.day}, {day.year}"


def calendar_date(iso: str) -> str:
    """``2026-03-11`` as the portal's calendar names it: ``Wednesday 11 March 2026``."""
    day = date.fromisoformat(iso)
    return f"{day:%A} {day.day} {day:%B %Y}"


def clock(hhmm: str) -> str:
    """``15:30`` as ``3:30 PM``."""
    hour, minute = (int(part) for part in hhmm.split(":"))
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def typed_amount(cents: int) -> str:
    """Cents as typed in a money field: ``1234.50``."""
    return f"{cents // 100}.{cents % 100:02d}"


# -- reading the portal's state ---------------------------------------------------------


def persona(world: World) -> Mapping[str, Any]:
    return world.initial_query(SITE, "SELECT * FROM users WHERE id = ?", (PERSONA_ID,))[0]


def own_contact(world: World) -> dict[str, str]:
    """The persona's contact details as the episode started, as a form's "Your details"
    prefills and stores them: "use my details" is met by all four, not some."""
    user = persona(world)
    return {key: user[key] for key in ("first_name", "last_name", "email", "phone")}


def new_submissions(world: World) -> list[dict[str, Any]]:
    """Submissions made during the episode, with their answers parsed as ``data``."""
    last = world.initial_query(SITE, "SELECT COALESCE(MAX(id), 0) AS id FROM submissions")
    rows = world.query(SITE, "SELECT * FROM submissions WHERE id > ? ORDER BY id", (last[0]["id"],))
    return [{**dict(row), "data": json.loads(row["data_json"])} for row in rows]


def expect_one_submission(
    checks: Checks, world: World, slug: str, changes_accounts: bool = False
) -> dict[str, Any] | None:
    """Expect exactly one new submission, of form ``slug``, still standing (not withdrawn or
    cancelled since), and (unless the form changes them) the accounts as they were; return
    the submission's row if so."""
    found = new_submissions(world)
    forms = [row["form_slug"] for row in found]
    one = len(found) == 1 and forms == [slug]
    checks.expect(f"one new {slug} submission", one, f"new submissions: {forms}")
    if one:
        # Made, then withdrawn or cancelled: not made.
        status = found[0]["status"]
        checks.expect("the submission stands", status == "submitted", f"status {status}")
    if not changes_accounts:
        expect_unchanged(checks, world, "accounts", "SELECT * FROM users ORDER BY id")
    return found[0] if one else None


def expect_no_submission(checks: Checks, world: World) -> None:
    forms = [row["form_slug"] for row in new_submissions(world)]
    checks.expect("nothing submitted", not forms, f"new submissions: {forms}")


def expect_answers(checks: Checks, data: Mapping[str, Any], wanted: Mapping[str, Any]) -> None:
    """One condition per answer: the stored value is the wanted one, as typed (its case,
    spaces, quotes and final period aside: :func:`webenv.answers.as_typed`)."""
    for name, value in wanted.items():
        same = as_typed(data.get(name)) == as_typed(value)
        checks.expect(name, same, f"{name} = {data.get(name)!r}")


def expect_files(checks: Checks, data: Mapping[str, Any], name: str, files: list[Any]) -> None:
    """The submission's files of field ``name`` are exactly ``[(filename, sha256), ...]``."""
    found = [[file["filename"], file["sha256"]] for file in data.get(name) or []]
    wanted = [list(file) for file in files]
    checks.expect(f"{name} uploaded", found == wanted, f"{name}: {[f[0] for f in found]}")


def unchanged(world: World, sql: str) -> bool:
    """Whether a query gives the same rows now as when the episode started."""
    now = [tuple(row) for row in world.query(SITE, sql)]
    return now == [tuple(row) for row in world.initial_query(SITE, sql)]


def expect_unchanged(checks: Checks, world: World, what: str, sql: str) -> None:
    checks.expect(f"{what} unchanged", unchanged(world, sql), "")


SLOTS = (
    "SELECT o.code, s.starts_at, s.taken FROM slots s JOIN offices o ON o.id = s.office_id "
    "ORDER BY o.code, s.starts_at"
)


def taken_slots(world: World) -> list[list[str]]:
    """Slots booked during the episode, as ``[office code, starts_at]``."""
    before = {(r["code"], r["starts_at"]): r["taken"] for r in world.initial_query(SITE, SLOTS)}
    return [
        [row["code"], row["starts_at"]]
        for row in world.query(SITE, SLOTS)
        if row["taken"] and not before.get((row["code"], row["starts_at"]))
    ]


def free_times(world: World, office_code: str, day: str) -> list[str]:
    """The bookable ``HH:MM`` times of an office on a day, as the time step offers them."""
    rows = world.query(
        SITE,
        "SELECT substr(s.starts_at, 12, 5) AS hhmm FROM slots s JOIN offices o "
        "ON o.id = s.office_id WHERE o.code = ? AND s.starts_at LIKE ? AND s.starts_at > ? "
        "AND s.taken = 0 ORDER BY s.starts_at",
        (office_code, f"{day}T%", world.now.isoformat()),
    )
    return [row["hhmm"] for row in rows]


def booking_days(world: World, office_code: str) -> dict[str, int]:
    """The days the calendar offers at an office, with their number of free times."""
    last_day = (world.now.date() + timedelta(days=21)).isoformat()
    rows = world.query(
        SITE,
        "SELECT substr(s.starts_at, 1, 10) AS day, SUM(s.taken = 0) AS free FROM slots s "
        "JOIN offices o ON o.id = s.office_id WHERE o.code = ? AND s.starts_at > ? "
        "AND s.starts_at < ? GROUP BY day ORDER BY day",
        (office_code, world.now.isoformat(), last_day),
    )
    return {row["day"]: row["free"] for row in rows}


def offices(world: World) -> list[Mapping[str, Any]]:
    return world.query(SITE, "SELECT code, name FROM offices ORDER BY code")


# -- files for uploads --------------------------------------------------------------------

_HEADERS = {"pdf": b"%PDF-1.4\n", "txt": b"", "docx": b"PK\x03\x04", "jpg": b"\xff\xd8\xff\xe0"}


def place_file(world: World, rng: random.Random, name: str) -> list[str]:
    """Write a small file of bytes drawn from ``rng`` to the episode's files folder;
    returns ``[name, sha256]``."""
    extension = name.rsplit(".", 1)[-1]
    body = bytes(rng.getrandbits(8) for _ in range(rng.randint(900, 2400)))
    if extension == "txt":
        body = body.hex().encode()
    content = _HEADERS.get(extension, b"") + body
    (world.files_dir / name).write_bytes(content)
    return [name, hashlib.sha256(content).hexdigest()]


# -- oracle moves ---------------------------------------------------------------------------


def option_in(tree: AxTree, group: str, starts: str) -> Node:
    """The radio of group ``group`` whose name starts with ``starts``."""
    parent = tree.find("group", group)
    for node in tree.children(parent):
        if node.role == "radio" and node.name.startswith(starts):
            return node
    raise NotFound(f"no option {starts!r} in {group!r}")


def select_label(tree: AxTree, combobox: str, contains: str) -> str:
    """The label of the option of ``combobox`` that contains ``contains``."""
    for node in tree.children(tree.find("combobox", combobox)):
        if node.role == "option" and contains in node.name:
            return node.name
    raise NotFound(f"no option with {contains!r} in {combobox!r}")


#: One answer on a step: ``(how, label, value)``; ``how`` is fill, select, choose (a radio of
#: the group ``label``), tick (a checkbox), untick or upload.
Entry = tuple[str, str, Any]


def _action(tree: AxTree, how: str, label: str, value: Any) -> str:
    if how == "fill":
        return f'fill("{tree.id("textbox", label)}", {json.dumps(value)})'
    if how == "select":
        option = select_label(tree, label, value)
        return f'select_option("{tree.id("combobox", label)}", {json.dumps(option)})'
    if how == "choose":
        return f'check("{option_in(tree, label, value).id}")'
    if how in ("tick", "untick"):
        return f'{"check" if how == "tick" else "uncheck"}("{tree.id("checkbox", label)}")'
    if how == "upload":
        return f'upload_file("{tree.id("button", label)}", {json.dumps(value)})'
    raise ValueError(how)


def answer_step(
    observation: Mapping[str, Any], entries: Iterable[Entry], press: str = "Continue"
) -> Moves:
    """Answer a step's questions and press ``press``, in one step."""
    tree = AxTree(observation["axtree"])
    actions = [_action(tree, *entry) for entry in entries]
    actions.append(f'click("{tree.id("button", press)}")')
    observation = yield "\n".join(actions)
    return observation


def click(observation: Mapping[str, Any], role: str, name: str) -> Moves:
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id(role, name)}")'
    return observation


def start_form(title: str, observation: Mapping[str, Any]) -> Moves:
    """From the portal's home page: open a form and start it."""
    observation = yield from click(observation, "link", f"Start – {title}")
    observation = yield from click(observation, "link", "Start now")
    return observation


def read_definition(observation: Mapping[str, Any], term: str) -> str:
    """The text of the definition that follows ``term`` on a summary list."""
    nodes = AxTree(observation["axtree"]).nodes
    for node, following in pairwise(nodes):
        if node.role == "term" and node.name == term and following.role == "definition":
            return following.name
    raise NotFound(f"no {term!r} on the page")

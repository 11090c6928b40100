"""What the mail templates share: reading the mailbox, checking what changed in it, and the
moves of the mail oracles."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from webenv.sites.mail.store import FOLDERS

from webenv.answers import normalize_text
from webenv.axtree import AxTree, Node, NotFound
from webenv.tasks import ADD, Allowance, Checks, May, Moves
from webenv.world import World

SITE = "mail"
#: The relationships of people (not businesses) in the address book, as an SQL list.
PEOPLE = "('colleague', 'friend', 'family')"
#: Most actions an oracle puts in one step.
ACTIONS_PER_STEP = 9


#: Where a message the user adds may end: sent, or thrown away, not left in Drafts.
_NOT_DRAFTS = frozenset(FOLDERS) - {"drafts"}


#: How many unread messages a task that reads mail may open: the ones it needs and a few
#: more, as a person looking for one does; not every unread message in the mailbox.
OPENS = 8


def opening(*columns: str, add: bool = False, opens: int | None = OPENS) -> May:
    """Messages read by opening them (their thread's page marks them read and records when),
    at most ``opens`` of them (None: any number), and ``columns`` changed as well; never one
    marked read from a list, nor made unread."""
    return May(
        add=add,
        edit=frozenset({"is_read", "opened_at", *columns}),
        only_to=(("is_read", 1),),
        only_with=(("is_read", 1, "opened_at"),),
        at_most=(("opened_at", opens),) if opens is not None else (),
        adds=(("folder", _NOT_DRAFTS),) if add else (),
    )


#: What reading mail changes: opening a message marks it read.
READING: Allowance = {"messages": opening()}
#: What writing mail changes: a message is added and recorded as sent, not left in Drafts (a
#: reply or forward also opens the original, and a forward copies its attachments). How many
#: may be sent is the check's to count, from the record (:func:`sent_records`).
SENDING: Allowance = {"messages": opening(add=True), "attachments": ADD, "sent_log": ADD}


# -- reading the mailbox ----------------------------------------------------------------------


def persona_email(world: World) -> str:
    return str(world.query(SITE, "SELECT email FROM users WHERE id = 1")[0]["email"])


def received(world: World, where: str = "1", params: Iterable[Any] = ()) -> list[sqlite3.Row]:
    """Messages others sent to the persona, outside Trash and Spam, oldest first."""
    return world.query(
        SITE,
        "SELECT m.*, t.subject AS thread_subject FROM messages m"
        " JOIN threads t ON t.id = m.thread_id"
        " WHERE m.sender != (SELECT email FROM users WHERE id = 1) AND m.is_draft = 0"
        f" AND m.folder NOT IN ('trash', 'spam') AND ({where}) ORDER BY m.sent_at, m.id",
        tuple(params),
    )


def unique_threads(world: World) -> dict[int, str]:
    """Threads whose subject no other thread shares: ``{thread id: subject}``."""
    rows = world.query(
        SITE,
        "SELECT id, subject FROM threads WHERE subject_key IN"
        " (SELECT subject_key FROM threads GROUP BY subject_key HAVING COUNT(*) = 1)",
    )
    return {row["id"]: row["subject"] for row in rows}


def people(world: World) -> list[sqlite3.Row]:
    """The persona's contacts who are people, with names no other contact has."""
    rows = world.query(
        SITE,
        f"SELECT * FROM contacts WHERE relationship IN {PEOPLE}"
        " AND name IN (SELECT name FROM contacts GROUP BY name HAVING COUNT(*) = 1) ORDER BY id",
    )
    return list(rows)


def pick(rng: random.Random, rows: list[Any], what: str) -> Any:
    """One of ``rows``; a clear error if the world has none."""
    if not rows:
        raise LookupError(f"this mailbox has no {what}")
    return rng.choice(rows)


def attached_documents(world: World) -> list[dict[str, Any]]:
    """Receipts and itineraries in the Inbox or Archive: ``{filename, code, thread_id}``;
    ``code`` is the order number or booking code, which the subject also carries."""
    rows = world.query(
        SITE,
        "SELECT a.filename, m.thread_id FROM attachments a JOIN messages m ON m.id = a.message_id"
        " WHERE m.sender != ? AND m.folder IN ('inbox', 'archive')"
        " AND (a.filename LIKE 'receipt-%' OR a.filename LIKE 'itinerary-%') ORDER BY a.id",
        (persona_email(world),),
    )
    return [
        {
            "filename": row["filename"],
            "code": row["filename"].split("-", 1)[1].removesuffix(".pdf"),
            "thread_id": row["thread_id"],
        }
        for row in rows
    ]


# -- what changed -----------------------------------------------------------------------------


def _max_id(world: World, table: str) -> int:
    return int(world.initial_query(SITE, f"SELECT COALESCE(MAX(id), 0) AS n FROM {table}")[0]["n"])


def new_rows(world: World, table: str) -> list[sqlite3.Row]:
    """Rows of ``table`` created during the episode."""
    return world.query(
        SITE, f"SELECT * FROM {table} WHERE id > ? ORDER BY id", (_max_id(world, table),)
    )


def sent_records(world: World) -> list[sqlite3.Row]:
    """What the persona sent during the episode, from the mail site's record of sent mail:
    a message deleted since (to the Trash, or forever) still counts, for it went out."""
    return new_rows(world, "sent_log")


def _message_states(rows: list[sqlite3.Row], labels: list[sqlite3.Row]) -> dict[int, Any]:
    by_message: dict[int, set[int]] = {}
    for row in labels:
        by_message.setdefault(row["message_id"], set()).add(row["label_id"])
    return {
        row["id"]: (
            row["folder"],
            row["is_starred"],
            row["is_draft"],
            row["recipients"],
            row["subject"],
            row["body"],
            frozenset(by_message.get(row["id"], ())),
        )
        for row in rows
    }


def message_states(world: World, initial: bool = False) -> dict[int, Any]:
    """Every message's folder, star, draft state, content and labels, by id."""
    query = world.initial_query if initial else world.query
    return _message_states(
        query(SITE, "SELECT * FROM messages"), query(SITE, "SELECT * FROM message_labels")
    )


def changed_messages(world: World) -> set[int]:
    """Ids of the messages that existed at the start and were moved, (un)starred, relabelled,
    edited or deleted since (reading does not count)."""
    before, after = message_states(world, initial=True), message_states(world)
    return {message_id for message_id, state in before.items() if after.get(message_id) != state}


def _rows(world: World, table: str, initial: bool) -> dict[int, tuple[Any, ...]]:
    query = world.initial_query if initial else world.query
    return {row["id"]: tuple(row) for row in query(SITE, f"SELECT * FROM {table}")}


def changed_rows(world: World, table: str) -> set[int]:
    """Ids of the rows of ``table`` that existed at the start and were edited or deleted."""
    before, after = _rows(world, table, True), _rows(world, table, False)
    return {row_id for row_id, row in before.items() if after.get(row_id) != row}


@dataclass(frozen=True)
class Allowed:
    """What a task may change: messages (by id), contacts (by id), and how many new messages,
    contacts and labels it may create."""

    messages: frozenset[int] = frozenset()
    contacts: frozenset[int] = frozenset()
    new_messages: int = 0
    new_contacts: int = 0
    new_labels: int = 0


def expect_untouched(checks: Checks, world: World, allowed: Allowed = Allowed()) -> None:
    """Expect nothing changed beyond ``allowed``: other messages, contacts and labels stay as
    they were, and no more new rows than allowed were created."""
    others = sorted(changed_messages(world) - allowed.messages)
    checks.expect("other messages untouched", not others, f"changed messages {others}")
    contacts = sorted(changed_rows(world, "contacts") - allowed.contacts)
    checks.expect("other contacts untouched", not contacts, f"changed contacts {contacts}")
    labels = sorted(changed_rows(world, "labels"))
    checks.expect("labels untouched", not labels, f"changed labels {labels}")
    for table, limit in (
        ("messages", allowed.new_messages),
        ("contacts", allowed.new_contacts),
        ("labels", allowed.new_labels),
    ):
        count = len(new_rows(world, table))
        checks.expect(f"at most {limit} new {table}", count <= limit, f"{count} new {table}")


def expect_one_sent(checks: Checks, world: World) -> sqlite3.Row | None:
    """Expect exactly one message sent (counting any deleted since) and no other new message
    (a draft left behind), the sent one still in Sent; return it."""
    rows = new_rows(world, "messages")
    records = sent_records(world)
    sent = [row for row in rows if row["folder"] == "sent" and not row["is_draft"]]
    one = len(records) == 1 and len(rows) == 1 and len(sent) == 1
    one = one and records[0]["message_id"] == sent[0]["id"]
    checks.expect("one message sent", one, f"{len(records)} sent, {len(rows)} new messages")
    return sent[0] if one else None


def expect_addressed(checks: Checks, message: sqlite3.Row, to: str) -> None:
    """Expect ``message`` to go to ``to`` only: no other recipient, no Cc or Bcc."""
    found = {"to": message["recipients"], "cc": message["cc"], "bcc": message["bcc"]}
    checks.expect("recipients", found == {"to": to, "cc": "", "bcc": ""}, json.dumps(found)[:300])


def expect_forwarded_file(
    checks: Checks, world: World, message: sqlite3.Row, params: Mapping[str, Any], what: str
) -> None:
    """Expect ``message`` forwarded to ``params["email"]`` alone from its conversation
    (``params["thread_id"]``), with ``params["filename"]`` (``what``) its one attachment."""
    expect_addressed(checks, message, params["email"])
    files = [
        row["filename"]
        for row in world.query(
            SITE, "SELECT filename FROM attachments WHERE message_id = ?", (message["id"],)
        )
    ]
    checks.expect(f"{what} is attached", files == [params["filename"]], f"files {files}")
    checks.expect(
        "forwarded from its conversation",
        message["thread_id"] == params["thread_id"],
        f"thread {message['thread_id']}",
    )


def contains_text(body: str, text: str) -> bool:
    """Whether ``text`` appears in ``body``, ignoring case, punctuation and spacing."""
    return normalize_text(text) in normalize_text(body)


def says_only(body: str, text: str, others: Iterable[str]) -> tuple[bool, str]:
    """Whether ``body`` says ``text`` (:func:`contains_text`) and none of ``others``, the other
    messages a task of its kind asks for (an e-mail that says them all says nothing in
    particular, "count me in" and "I can't make it" at once); with the reason."""
    if not contains_text(body, text):
        return False, f"does not say it: {body[:200]!r}"
    said = [o for o in others if contains_text(body, o) and not contains_text(text, o)]
    if said:
        return False, f"also says {said[0]!r}: a hedge"
    return True, "says it"


# -- oracle moves -----------------------------------------------------------------------------


def search(query: str, observation: Mapping[str, Any]) -> Moves:
    """Search the mailbox from any page."""
    tree = AxTree(observation["axtree"])
    box = tree.id("searchbox", "Search mail")
    observation = yield f'fill("{box}", {json.dumps(query)})\npress("{box}", "Enter")'
    return observation


def quoted(subject: str) -> str:
    """A search term for a subject: ``subject:"…"``."""
    return f'subject:"{subject}"'


def list_rows(tree: AxTree) -> list[tuple[Node, Node, Node]]:
    """The rows of a message list: (checkbox, star button, link), in order."""
    rows = []
    for item in tree.find_all("listitem"):
        children = tree.children(item)
        boxes = [node for node in children if node.role == "checkbox"]
        links = [node for node in children if node.role == "link"]
        buttons = [node for node in children if node.role == "button"]
        if boxes and links and buttons:
            rows.append((boxes[0], buttons[0], links[0]))
    return rows


def row_subject(checkbox: Node) -> str:
    """The subject of a list row, from its checkbox's name ``Select “…”``."""
    return checkbox.name.removeprefix("Select “").removesuffix("”")


def thread_link(tree: AxTree, subject: str) -> Node:
    """The link of the first list row of the thread about ``subject``."""
    wanted = {subject, f"Re: {subject}", f"Fwd: {subject}"}
    for checkbox, _star, link in list_rows(tree):
        if row_subject(checkbox) in wanted:
            return link
    raise NotFound(f"no message about {subject!r} in the list")


def open_thread(subject: str, observation: Mapping[str, Any], where: str = "") -> Moves:
    """Search for a thread by subject and open it."""
    observation = yield from search(f"{where} {quoted(subject)}".strip(), observation)
    link = thread_link(AxTree(observation["axtree"]), subject)
    observation = yield f'click("{link.id}")'
    return observation


def click(tree: AxTree, role: str, name: str) -> str:
    return f'click("{tree.id(role, name)}")'


def fill_fields(tree: AxTree, values: Mapping[str, str]) -> list[str]:
    """``fill`` actions for compose fields named by their labels (To, Cc and Bcc are
    comboboxes, the others textboxes)."""
    actions = []
    for label, value in values.items():
        role = "combobox" if label in ("To", "Cc", "Bcc") else "textbox"
        actions.append(f'fill("{tree.id(role, label)}", {json.dumps(value)})')
    return actions


def send(values: Mapping[str, str], observation: Mapping[str, Any]) -> Moves:
    """On the compose form: fill the given fields and send."""
    tree = AxTree(observation["axtree"])
    actions = [*fill_fields(tree, values), click(tree, "button", "Send")]
    observation = yield "\n".join(actions)
    return observation


def select_and_apply(checkboxes: list[Node], action: str, observation: Mapping[str, Any]) -> Moves:
    """Tick the given rows of a list, then run a toolbar action (actions of several steps if
    there are many rows): ``action`` is one or more action lines using the current ids."""
    ticks = [f'check("{box.id}")' for box in checkboxes]
    while len(ticks) >= ACTIONS_PER_STEP:
        observation = yield "\n".join(ticks[:ACTIONS_PER_STEP])
        ticks = ticks[ACTIONS_PER_STEP:]
    observation = yield "\n".join([*ticks, action])
    return observation


def open_contacts(observation: Mapping[str, Any], query: str = "") -> Moves:
    """Open the address book, filtered by ``query`` if given."""
    observation = yield click(AxTree(observation["axtree"]), "link", "Contacts")
    if query:
        tree = AxTree(observation["axtree"])
        box = tree.id("searchbox", "Search contacts")
        observation = yield f'fill("{box}", {json.dumps(query)})\n{click(tree, "button", "Filter")}'
    return observation


def contact_cells(tree: AxTree, name: str) -> list[str]:
    """The cells of a contact's row of the address book: email, phone, company."""
    header = tree.find("columnheader", name)
    row = next(
        node for node in reversed(tree.nodes[: tree.nodes.index(header)]) if node.role == "row"
    )
    cells = [node for node in tree.children(row) if node.role == "cell"]
    return [cell.name for cell in cells[:3]]

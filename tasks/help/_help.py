"""What the help centre's templates share: reading its articles and tickets, the moves of its
oracles (search, open an article, fill in the contact form), and its collateral damage."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from webenv.sites.common import APP_NAMES

from webenv.answers import Grade, clean, normalize_text
from webenv.axtree import AxTree, NotFound
from webenv.tasks import ADD, Checks, Moves, Task, edit, register_collateral
from webenv.world import World

SITE = "help"
PERSONA_ID = 1

#: What opening one support ticket adds: the ticket and its first message.
TICKET = {"tickets": ADD, "ticket_messages": ADD}

_CURRENT = (
    "SELECT a.id, a.slug, a.title, a.is_policy, c.name AS category, r.number AS revision,"
    " r.published_at AS updated_at FROM articles a JOIN categories c ON c.id = a.category_id"
    " JOIN revisions r ON r.article_id = a.id"
    " AND r.number = (SELECT MAX(number) FROM revisions WHERE article_id = a.id)"
)


def current_articles(world: World) -> list[dict[str, Any]]:
    """Every article with its current revision's number and date, by id."""
    return [dict(row) for row in world.query(SITE, f"{_CURRENT} ORDER BY a.id")]


def revisions(world: World, article_id: int) -> list[dict[str, Any]]:
    """An article's revisions, oldest first."""
    return [
        dict(row)
        for row in world.query(
            SITE, "SELECT * FROM revisions WHERE article_id = ? ORDER BY number", (article_id,)
        )
    ]


def tickets(world: World, initial: bool = False) -> list[dict[str, Any]]:
    read = world.initial_query if initial else world.query
    return [dict(row) for row in read(SITE, "SELECT * FROM tickets ORDER BY id")]


def new_tickets(world: World) -> list[dict[str, Any]]:
    """Tickets opened during the episode, each with its messages' bodies."""
    known = {row["id"] for row in tickets(world, initial=True)}
    found = [t for t in tickets(world) if t["id"] not in known]
    for ticket in found:
        ticket["messages"] = [
            row["body"]
            for row in world.query(
                SITE,
                "SELECT body FROM ticket_messages WHERE ticket_id = ? ORDER BY id",
                (ticket["id"],),
            )
        ]
    return found


def expect_no_new_ticket(checks: Checks, world: World) -> None:
    opened = new_tickets(world)
    checks.expect("no support ticket opened", not opened, f"{len(opened)} tickets opened")


def expect_one_ticket(checks: Checks, world: World) -> dict[str, Any] | None:
    opened = new_tickets(world)
    checks.expect("one support ticket opened", len(opened) == 1, f"{len(opened)} opened")
    return opened[0] if len(opened) == 1 else None


#: An e-mail address as written in a message: the whole address, not a part of a longer one.
_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def says(text: str, phrase: str) -> bool:
    """Whether ``text`` says ``phrase`` in whole words (ignoring case, accents, punctuation and
    runs of white space): "a weekend" does not say "a week"."""
    return f" {normalize_text(phrase)} " in f" {normalize_text(text)} "


def grade_address(text: str, address: str, allowed: Iterable[str] = ()) -> Grade:
    """Whether ``text`` gives the e-mail ``address`` as a whole address and no other one (a
    second address is a hedge), ``allowed`` ones (the account's current address) aside."""
    want = address.casefold()
    passed_over = {a.casefold() for a in allowed} - {want}
    found = list(dict.fromkeys(a.casefold() for a in _ADDRESS.findall(clean(text))))
    given = [a for a in found if a not in passed_over]
    if want not in given:
        return Grade(False, f"does not give the address {address}: gives {given or 'none'}")
    if len(given) > 1:
        return Grade(False, f"gives {len(given)} addresses ({', '.join(given)}): a hedge")
    return Grade(True, f"gives {address}", want)


def account_email(world: World) -> str:
    """The address on the persona's help centre account."""
    return str(world.query(SITE, "SELECT email FROM users WHERE id = ?", (PERSONA_ID,))[0][0])


# -- oracle moves -----------------------------------------------------------------------


def help_url(observation: Mapping[str, Any], path: str = "/") -> str:
    parts = urlsplit(observation["url"])
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{SITE}.localhost{port}{path}"


def open_help(observation: Mapping[str, Any]) -> Moves:
    """From any page: the help centre's home, by its logo or the "Your apps" menu."""
    tree = AxTree(observation["axtree"])
    if urlsplit(observation["url"]).hostname == f"{SITE}.localhost":
        observation = yield f'click("{tree.id("link", contains=APP_NAMES[SITE])}")'
        return observation
    menu = tree.children(tree.find("navigation", "Your apps"))
    link = next(node for node in menu if node.role == "link" and node.name == APP_NAMES[SITE])
    observation = yield f'click("{link.id}")'
    return observation


def search(text: str, observation: Mapping[str, Any]) -> Moves:
    """On any help page: search the articles for ``text``."""
    box = AxTree(observation["axtree"]).id("searchbox", "Search help articles")
    observation = yield f'fill("{box}", {json.dumps(text)})\npress("{box}", "Enter")'
    return observation


def open_article(title: str, observation: Mapping[str, Any]) -> Moves:
    """On any help page: search for the article's title and open it."""
    observation = yield from search(title, observation)
    observation = yield f'click("{AxTree(observation["axtree"]).id("link", title)}")'
    return observation


def last_updated(tree: AxTree) -> str:
    """On an article: its "Last updated" date as shown (``March 3, 2026``)."""
    line = tree.find("StaticText", contains="Last updated ").name
    return line.split("Last updated ", 1)[1].split(" ·")[0].strip()


def contact(values: Mapping[str, str], observation: Mapping[str, Any]) -> Moves:
    """On any help page: open Contact support, fill in the form with ``values`` (topic,
    reference, subject, message) and send it."""
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("link", "Contact support")}")'
    tree = AxTree(observation["axtree"])
    actions = [f'select_option("{tree.id("combobox", "Topic")}", {json.dumps(values["topic"])})']
    for label, key in (
        ("Order number or reference (optional)", "reference"),
        ("Subject", "subject"),
        ("Message", "message"),
    ):
        if values.get(key):
            actions.append(f'fill("{tree.id("textbox", label)}", {json.dumps(values[key])})')
    actions.append(f'click("{tree.id("button", "Send request")}")')
    observation = yield "\n".join(actions)
    return observation


# -- collateral damage --------------------------------------------------------------------


@register_collateral(
    SITE,
    "replied on an unrelated support ticket",
    {"ticket_messages": ADD, "tickets": edit("status", "updated_at")},
)
def reply_on_another_ticket(task: Task, observation: Mapping[str, Any]) -> Moves:
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("link", "My tickets")}")'
    tree = AxTree(observation["axtree"])
    for row in tree.find_all("row"):
        inside = tree.children(row)
        links = [node for node in inside if node.role == "link" and node.id]
        statuses = {node.name for node in inside if node.role in ("cell", "StaticText")}
        if links and links[0].name not in task.goal and "Resolved" not in statuses:
            observation = yield f'click("{links[0].id}")'
            break
    else:
        raise NotFound("no other ticket that takes a reply")
    tree = AxTree(observation["axtree"])
    observation = yield (
        f'fill("{tree.id("textbox", "Your reply")}", "Any update on this?")\n'
        f'click("{tree.id("button", "Send reply")}")'
    )
    return observation

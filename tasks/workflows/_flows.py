"""What the cross-site workflows share: reading state across sites, seeding e-mail, and
oracle moves that travel between the shop, the mailbox and the forms portal."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from webenv.sites.common import APP_NAMES, Message
from webenv.sites.mail import deliver
from webenv.sites.mail.drafting import quoted

from webenv.axtree import AxTree
from webenv.tasks import Checks, Moves, NearMiss, Oracle, Task
from webenv.world import World

from ..shop._shop import expect_return_stands

PERSONA_ID = 1
SHOP_SENDER = "orders@northwindmarket.example"
ORDER_NUMBER = re.compile(r"\bNM-\d{5}-\d\b")
_AMOUNT = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})\b")


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def amounts(text: str) -> list[int]:
    """Every dollar amount written in ``text``, in cents."""
    return [
        int(whole.replace(",", "")) * 100 + int(cents) for whole, cents in _AMOUNT.findall(text)
    ]


# -- reading the world ------------------------------------------------------------------


def rows(world: World, site: str, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
    return [dict(row) for row in world.query(site, sql, params)]


def new_rows(world: World, site: str, table: str, where: str = "1") -> list[dict[str, Any]]:
    """Rows of ``table`` added during the episode (ids above the episode start's highest)."""
    sql = f"SELECT COALESCE(MAX(id), 0) AS id FROM {table}"
    last = world.initial_query(site, sql)[0]["id"]
    return rows(world, site, f"SELECT * FROM {table} WHERE id > ? AND {where} ORDER BY id", (last,))


def expect_one_return(
    checks: Checks,
    world: World,
    params: Mapping[str, Any],
    reason: str,
    reason_name: str = "reason",
) -> dict[str, Any] | None:
    """Expect one return requested in the episode: of ``params``' order item and quantity, for
    ``reason``, refunded by ``params["refund_method"]``. Returns it, or None."""
    returns = new_rows(world, "shop", "returns")
    checks.expect("one return requested", len(returns) == 1, f"{len(returns)} returns")
    if len(returns) != 1:
        return None
    found = returns[0]
    expect_return_stands(checks, found)
    sql = "SELECT * FROM return_items WHERE return_id = ?"
    lines = [
        (row["order_item_id"], row["quantity"]) for row in rows(world, "shop", sql, (found["id"],))
    ]
    wanted = [(params["order_item_id"], params["quantity"])]
    checks.expect("returned items", lines == wanted, f"returned {lines}")
    checks.expect(reason_name, found["reason"] == reason, found["reason"])
    checks.expect(
        "refund method", found["refund_method"] == params["refund_method"], found["refund_method"]
    )
    return found


def sent_messages(world: World) -> list[dict[str, Any]]:
    """Messages the persona sent during the episode, from the mail site's record of sent mail:
    one moved to the Trash or deleted forever since still counts (it went out)."""
    return new_rows(world, "mail", "sent_log")


def persona_orders(world: World) -> list[dict[str, Any]]:
    return rows(world, "shop", "SELECT * FROM orders WHERE user_id = ? ORDER BY id", (PERSONA_ID,))


def order_items(world: World, order_id: int) -> list[dict[str, Any]]:
    return rows(
        world, "shop", "SELECT * FROM order_items WHERE order_id = ? ORDER BY id", (order_id,)
    )


def contacts(world: World, relationships: Iterable[str]) -> list[dict[str, Any]]:
    wanted = tuple(relationships)
    marks = ", ".join("?" for _ in wanted)
    sql = f"SELECT name, email FROM contacts WHERE relationship IN ({marks}) ORDER BY id"
    return rows(world, "mail", sql, wanted)


def pick_contacts(
    rng: random.Random,
    world: World,
    count: int = 2,
    relationships: Iterable[str] = ("friend", "family"),
) -> list[dict[str, Any]]:
    """``count`` distinct people from the address book: the first is the task's, the rest decoys."""
    return rng.sample(contacts(world, relationships), count)


def confirmation_id(world: World, order_number: str) -> int:
    """The id of an order's confirmation e-mail in the mailbox."""
    found = rows(
        world,
        "mail",
        "SELECT id FROM messages WHERE sender = ? AND subject LIKE ?",
        (SHOP_SENDER, f"%{order_number}"),
    )
    return int(found[0]["id"])


def deliver_mail(
    world: World, sender: Mapping[str, str], subject: str, body: str, minutes_ago: int = 45
) -> int:
    """Put an e-mail from ``sender`` (``name``, ``email``) into the persona's Inbox."""
    assert world.persona is not None
    message = Message(
        sender=sender["email"],
        sender_name=sender["name"],
        to=world.persona.email,
        subject=subject,
        body=body,
        date=world.now - timedelta(minutes=minutes_ago),
    )
    return deliver(str(world.db_path("mail")), message)


def first_name(person: Mapping[str, str]) -> str:
    return person["name"].split()[0]


# -- checks -----------------------------------------------------------------------------


def expect_one_email(
    checks: Checks,
    world: World,
    to: str,
    contains: Iterable[str] = (),
    reply_to: int | Sequence[int] | None = None,
) -> dict[str, Any] | None:
    """Exactly one e-mail sent, to ``to`` alone, naming each of ``contains``; when the goal
    asks for a reply to the message ``reply_to`` (or to one of several), sent as a reply in
    its conversation (not a new message, nor a forward)."""
    sent = sent_messages(world)
    checks.expect("one e-mail sent", len(sent) == 1, f"{len(sent)} e-mails sent")
    if len(sent) != 1:
        return None
    message = sent[0]
    if reply_to is not None:
        ids = [reply_to] if isinstance(reply_to, int) else list(reply_to)
        marks = ", ".join("?" for _ in ids)
        sql = f"SELECT thread_id FROM messages WHERE id IN ({marks})"
        threads = {row["thread_id"] for row in rows(world, "mail", sql, ids)}
        checks.expect(
            "sent as a reply to their e-mail",
            message["in_reply_to"] is not None and message["thread_id"] in threads,
            "not a reply (a new message or a forward)"
            if message["in_reply_to"] is None
            else "a reply to another e-mail",
        )
    recipients = ", ".join(filter(None, (message["recipients"], message["cc"], message["bcc"])))
    checks.expect(
        "sent to the right person only", recipients == to.lower(), f"sent to {recipients}"
    )
    text = f"{message['subject']}\n{message['body']}"
    for value in contains:
        checks.expect(f"e-mail mentions {value}", value.casefold() in text.casefold(), "")
    return message


#: What a mail client puts before a subject it replies to or forwards: "Re: ", "Fwd: ", "AW: ".
_SUBJECT_PREFIX = re.compile(r"^(?:\s*(?:re|fwd?|aw|sv|tr)\s*(?:\[[0-9]+\])?\s*:)+", re.I)


def own_subject(subject: str, given: Iterable[str] = ()) -> str:
    """The words the user wrote into ``subject``: without the "Re:"/"Fwd:" a mail client adds
    and without the subjects they were given (the message replied to, the one a goal asks for).
    A value put there is read with the body: the recipient sees both."""
    text = _SUBJECT_PREFIX.sub("", subject)
    for words in sorted({w.strip() for w in given if w.strip()}, key=len, reverse=True):
        text = re.sub(re.escape(_SUBJECT_PREFIX.sub("", words).strip()), " ", text, flags=re.I)
    return _SUBJECT_PREFIX.sub("", text).strip(" \t-\u2013\u2014:|,;/")


def reply_text(world: World, message: Mapping[str, Any], given: Iterable[str] = ()) -> str:
    """What the user wrote in the sent ``message``: the words they put in its subject
    (:func:`own_subject`; ``given``: subjects a goal asked for), on a line of their own, and its
    body without the lines of the mail site's quote of the message it replies to. Any other line
    is the user's, whatever it looks like (a line the user starts with ">", or "On … wrote:", is
    graded like the rest)."""
    replied = message.get("in_reply_to")
    found = rows(world, "mail", "SELECT * FROM messages WHERE id = ?", (replied,))
    quote = {line.rstrip() for m in found for line in quoted(m).splitlines() if line.strip()}
    body = [line for line in message["body"].splitlines() if line.rstrip() not in quote]
    subject = own_subject(message.get("subject") or "", [*given, *(m["subject"] for m in found)])
    return "\n".join([subject, *body] if subject else body)


def order_numbers_named(text: str) -> set[str]:
    """The shop's order numbers ``text`` names, in any case."""
    return {number.upper() for number in re.findall(ORDER_NUMBER.pattern, text, re.IGNORECASE)}


def expect_no_orders(checks: Checks, world: World) -> None:
    orders = new_rows(world, "shop", "orders")
    checks.expect("no order placed", not orders, f"{len(orders)} new orders")


# -- oracle moves -----------------------------------------------------------------------


def site_url(observation: Mapping[str, Any], site: str, path: str = "/") -> str:
    """The address of ``path`` on ``site``, derived from the current page's address."""
    parts = urlsplit(observation["url"])
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{site}.localhost{port}{path}"


#: The links a user follows from a site's home page to reach a page of it.
_PATHS = {
    "/": (),
    "/account/orders": ("Orders",),
    "/account/addresses": ("Account", "Manage addresses"),
}


def go(site: str, path: str, observation: Mapping[str, Any]) -> Moves:
    """Go to ``path`` on ``site`` as a user would: through the "Your apps" menu of the page
    the agent is on, then the site's own links."""
    tree = AxTree(observation["axtree"])
    if urlsplit(observation["url"]).hostname == f"{site}.localhost":
        app = tree.find("link", contains=APP_NAMES[site])  # the site's own logo: its home
    else:
        menu = tree.children(tree.find("navigation", "Your apps"))
        app = next(node for node in menu if node.role == "link" and node.name == APP_NAMES[site])
    observation = yield f'click("{app.id}")'
    for name in _PATHS[path]:
        tree = AxTree(observation["axtree"])
        link = tree.find("link", name) if name != "Account" else tree.find("link", contains=name)
        observation = yield f'click("{link.id}")'
    return observation


def search(query: str, observation: Mapping[str, Any]) -> Moves:
    """On any mail page: search the mailbox for ``query``."""
    tree = AxTree(observation["axtree"])
    box = tree.id("searchbox", "Search mail")
    observation = yield f'fill("{box}", {json.dumps(query)})\npress("{box}", "Enter")'
    return observation


def search_mail(query: str, link: str, observation: Mapping[str, Any]) -> Moves:
    """On any mail page: search for ``query``; open the first result whose link holds ``link``."""
    observation = yield from search(query, observation)
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.find("link", contains=link).id}")'
    return observation


def open_mail(query: str, link: str, observation: Mapping[str, Any]) -> Moves:
    """From any page of any site: open the mailbox, search, and open a conversation."""
    observation = yield from go("mail", "/", observation)
    observation = yield from search_mail(query, link, observation)
    return observation


def fill_message(
    observation: Mapping[str, Any], body: str, to: str | None = None, subject: str | None = None
) -> Moves:
    """On a compose page: fill in what is given, then send."""
    tree = AxTree(observation["axtree"])
    actions = []
    if to is not None:
        actions.append(f'fill("{tree.id("combobox", "To")}", {json.dumps(to)})')
    if subject is not None:
        actions.append(f'fill("{tree.id("textbox", "Subject")}", {json.dumps(subject)})')
    actions.append(f'fill("{tree.id("textbox", "Body")}", {json.dumps(body)})')
    actions.append(f'click("{tree.id("button", "Send")}")')
    observation = yield "\n".join(actions)
    return observation


def respond(
    kind: str,
    body: str,
    observation: Mapping[str, Any],
    to: str | None = None,
    subject: str | None = None,
) -> Moves:
    """On a conversation: ``Reply`` to (or ``Forward``) its last message, ``body`` above what
    the site puts in, and send; or
    ``Compose`` a new message to ``to`` about ``subject`` (a near-miss of a reply: what was
    asked, but out of the conversation)."""
    tree = AxTree(observation["axtree"])
    if kind == "Compose":
        observation = yield f'click("{tree.id("link", "Compose")}")'
        return (yield from fill_message(observation, body, to, f"Re: {subject}"))
    observation = yield f'click("{tree.find_all("link", kind)[-1].id}")'
    tree = AxTree(observation["axtree"])
    # The site starts a reply below a quote of the message, a forward above the message
    # itself: what is written goes above them, and they stay.
    prefilled = tree.find("textbox", "Body").value or ""
    body = f"{body}\n\n{prefilled}" if body else prefilled
    observation = yield from fill_message(observation, body, to)
    return observation


def confirmation(world: World, order_number: str) -> Mapping[str, Any]:
    """An order's confirmation e-mail as it was at the start of the episode."""
    return world.initial_query(
        "mail",
        "SELECT * FROM messages WHERE sender = ? AND subject LIKE ? ORDER BY id LIMIT 1",
        (SHOP_SENDER, f"%{order_number}"),
    )[0]


def email_contact(name: str, subject: str, body: str, observation: Mapping[str, Any]) -> Moves:
    """From any page: open the mailbox, its Contacts, start a message to ``name``, and send."""
    observation = yield from go("mail", "/", observation)
    observation = yield f'click("{AxTree(observation["axtree"]).id("link", "Contacts")}")'
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("link", f"Email {name}")}")'
    observation = yield from fill_message(observation, body, subject=subject)
    return observation


def open_order(number: str, observation: Mapping[str, Any]) -> Moves:
    """From any page: open an order of the shop's order history; from its confirmation
    e-mail, through the e-mail's link to it."""
    links = AxTree(observation["axtree"]).find_all(
        "link", f"View order {number} on Northwind Market"
    )
    if links:
        observation = yield f'click("{links[0].id}")'
        return observation
    observation = yield from go("shop", "/account/orders", observation)
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("link", number)}")'
    return observation


#: How the shop's order history names each order status.
STATUS_LABELS = {
    "placed": "Order placed",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Cancelled",
    "returned": "Returned",
}


def order_rows(observation: Mapping[str, Any]) -> list[dict[str, str]]:
    """The rows of the shop's order history (newest first): number, link id, date, total,
    status."""
    found: list[dict[str, str]] = []
    cells: list[str] = []
    for node in AxTree(observation["axtree"]):
        if node.role == "link" and ORDER_NUMBER.fullmatch(node.name) and node.id:
            cells = []
            found.append({"number": node.name, "link": node.id})
        elif node.role == "cell" and found and len(cells) < 4:
            cells.append(node.name)
            if len(cells) == 4:
                found[-1].update(zip(("date", "items", "total", "status"), cells, strict=True))
    return found


def open_order_history(observation: Mapping[str, Any]) -> Moves:
    """From any page: the shop's order history."""
    if "shop." not in observation["url"]:
        observation = yield from go("shop", "/", observation)
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("link", "Orders")}")'
    return observation


def unique_items(
    world: World, orders: Iterable[Mapping[str, Any]], among_all: bool = True
) -> list[dict[str, Any]]:
    """Items of ``orders`` whose product name appears in no other of the persona's orders
    (``among_all``) or in no other of ``orders``."""
    orders = list(orders)
    pool = persona_orders(world) if among_all else orders
    names = Counter(
        name for order in pool for name in {i["name"] for i in order_items(world, order["id"])}
    )
    return [
        {**item, "order_number": order["number"]}
        for order in orders
        for item in order_items(world, order["id"])
        if names[item["name"]] == 1
    ]


def solving(
    solve: Callable[..., Oracle], **overrides: Callable[[Mapping[str, Any]], Any]
) -> NearMiss:
    """A near-miss: ``solve(params, observation, **values)``, each value computed from the
    task's parameters by its override (the wrong item, a decoy recipient…)."""

    def run(task: Task, observation: Mapping[str, Any]) -> Oracle:
        values = {key: value(task.params) for key, value in overrides.items()}
        return solve(task.params, observation, **values)

    return run


def read(pattern: str, observation: Mapping[str, Any]) -> re.Match[str]:
    """The first match of ``pattern`` in the page's text."""
    found = re.search(pattern, observation["axtree"])
    if found is None:
        raise LookupError(f"{pattern!r} is not on the page")
    return found

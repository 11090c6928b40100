"""The answer checks of the question templates and of the workflows' written replies, on a
real world without a browser: a careful person's sentence earns 1, a hedge earns 0."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from typing import Any

import pytest
from webenv.sites.mail.drafting import quoted

from webenv.tasks import Answer, Task
from webenv.world import World

SEED = 1
Params = Mapping[str, Any]


def grouped(tracking: str) -> str:
    """A tracking number as a carrier prints it: in groups of four."""
    return " ".join(tracking[i : i + 4] for i in range(0, len(tracking), 4))


def _unlisted(p: Params) -> str:
    """A tracking number of another of the account's orders than the near-miss's."""
    return next(t for t in p["others"] if t != p["other_tracking"])


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def spelled_date(iso: str) -> str:
    day = date.fromisoformat(iso)
    return f"{day:%B} {day.day}"


@pytest.fixture(scope="module")
def worlds(
    fresh_task: Callable[[str, int], tuple[World, Task]],
) -> Callable[[str], tuple[World, Task]]:
    """A template's task of this module's seed on a world just restored (see conftest)."""
    return lambda name: fresh_task(name, SEED)


def reward(worlds: Callable[[str], tuple[World, Any]], name: str, text: Callable[[Params], str]):
    world, task = worlds(name)
    result = task.check(world, Answer("message", text(task.params)))
    return result.success, result.to_dict()


#: (template, an answer, whether it earns 1); each scored the other way before answers were
#: graded by kind.
ANSWERS = [
    ("shop.top_rated_under_price", lambda p: f"It's the {p['product']}.", True),
    ("shop.top_rated_under_price", lambda p: f"The {p['product']}, {p['budget']} or less.", True),
    ("shop.tracking_number", lambda p: f"Tracking number: {p['tracking']}", True),
    ("shop.tracking_number", lambda p: f"The UPS number is “{p['tracking'].lower()}”.", True),
    ("shop.tracking_number", lambda p: f"Tracking: {grouped(p['tracking'])}.", True),
    # Another order's number beside it, in a carrier's groups: any order of the account's.
    (
        "shop.tracking_number",
        lambda p: f"Tracking numbers: {grouped(p['tracking'])}, {grouped(_unlisted(p))}",
        False,
    ),
    ("shop.order_total", lambda p: f"Order {p['number']} came to {money(p['total_cents'])}.", True),
    ("mail.attachment_name", lambda p: f"The file is {p['filename']}", True),
    ("mail.contact_phone", lambda p: "".join(c for c in p["phone"] if c.isdigit()), True),
    ("mail.contact_phone", lambda p: f"+1 {p['phone']}", True),
    ("mail.meeting_date", lambda p: f"They proposed {spelled_date(p['day'])}.", True),
    ("forms.past_confirmation_number", lambda p: f"It's {p['confirmation']}.", True),
    (
        "forms.past_expense_total",
        lambda p: (
            f"The {p['destination']} report (filed 2025-11-03) came to {money(p['total_cents'])}."
        ),
        True,
    ),
    # a total said to leave a part out of it is another amount; a price may ("plus tax")
    ("shop.order_total", lambda p: f"{money(p['total_cents'])} plus tax", False),
    ("shop.order_total", lambda p: f"{money(p['total_cents'])}, shipping not included", False),
    ("shop.order_total", lambda p: f"{money(p['total_cents'])}, tax and shipping included", True),
    ("mail.receipt_total", lambda p: f"{money(p['total'])} before tax", False),
    ("mail.receipt_total", lambda p: f"{money(p['total'])} including tax", True),
    ("forms.past_expense_total", lambda p: f"{money(p['total_cents'])} + fees", False),
    ("shop.cheapest_by_brand", lambda p: f"{money(p['price_cents'])} plus tax", True),
    ("shop.cheapest_by_brand", lambda p: f"{money(p['price_cents'])} + shipping", True),
    # The names of a set in a sentence, read as the contacts they are.
    ("mail.colleagues_on_topic", lambda p: f"It's {' and '.join(p['names'])}.", True),
    ("mail.colleagues_on_topic", lambda p: f"{', '.join(p['names'])} wrote about it.", True),
    ("mail.colleagues_on_topic", lambda p: f"Yes — {', '.join(p['names'])}.", True),
    (
        "mail.colleagues_on_topic",
        lambda p: f"It's {', '.join(p['names'])} and maybe {p['decoy']}.",
        False,
    ),
    ("mail.colleagues_on_topic", lambda p: f"It's {', '.join([*p['names'], p['decoy']])}.", False),
    # The facts an answer cites as its reasons, each named as what it is: no second amount.
    (
        "help.expense_claimable",
        lambda p: f"Each item is capped at {money(p['limit'])}, so {money(p['claimable'])}.",
        True,
    ),
    (
        "help.expense_claimable",
        lambda p: f"With the {money(p['limit'])} cap, you can claim {money(p['claimable'])}.",
        True,
    ),
    (
        "help.expense_claimable",
        lambda p: (
            f"- Limit: {money(p['limit'])}\n"
            f"- Claimable: {', '.join(money(min(a, p['limit'])) for a in p['amounts'])}\n"
            f"- **Total: {money(p['claimable'])}**"
        ),
        True,
    ),
    # ... named bare, or beside an "or", it is one
    ("help.expense_claimable", lambda p: f"{money(p['limit'])}, {money(p['claimable'])}", False),
    (
        "help.expense_claimable",
        lambda p: f"The limit is {money(p['limit'])}, or {money(p['claimable'])} in all.",
        False,
    ),
    (
        "workflows.help_free_shipping_gap",
        lambda p: (
            f'Free shipping starts at {money(p["threshold"])} and the "{p["product"]}" costs '
            f"{money(p['price'])}, so you'd need {money(p['gap'])} more."
        ),
        True,
    ),
    (
        "workflows.help_free_shipping_gap",
        lambda p: (
            f"- Item price: {money(p['price'])}\n- Free-shipping minimum: "
            f"{money(p['threshold'])}\n- **Still needed: {money(p['gap'])}**"
        ),
        True,
    ),
    (
        "workflows.help_free_shipping_gap",
        lambda p: f"{money(p['threshold'])}, {money(p['price'])}, {money(p['gap'])}",
        False,
    ),
    (
        "workflows.help_free_shipping_gap",
        lambda p: f"Free shipping starts at {money(p['threshold'])}; maybe {money(p['gap'])}.",
        False,
    ),
    (
        "workflows.receipts_tax",
        lambda p: f"Two delivered orders carry the label. Total tax: {money(p['tax_cents'])}.",
        True,
    ),
    (
        "shop.order_date",
        lambda p: f"You ordered it on {p['date']}, and it was delivered a few days later.",
        True,
    ),
    # the order history spans less than a year: a day and month name one day of it
    ("shop.order_date", lambda p: f"{date.fromisoformat(p['date']):%A, %B %-d}", True),
    ("shop.order_date", lambda p: f"On {spelled_date(p['date'])}.", True),
    (
        "shop.order_date",
        lambda p: spelled_date((date.fromisoformat(p["date"]) + timedelta(days=1)).isoformat()),
        False,
    ),
]


@pytest.mark.parametrize(("name", "text", "earns"), ANSWERS)
def test_an_answer_in_a_sentence_is_graded_by_its_value(worlds, name, text, earns):
    success, check = reward(worlds, name, text)
    assert success is earns, check


def test_an_impossible_date_is_a_wrong_answer_not_an_error(worlds):
    success, check = reward(worlds, "mail.meeting_date", lambda p: "It was on 2026-02-30")
    assert not success
    assert "not a calendar date" in str(check)


# -- written replies -------------------------------------------------------------------------


def send(world: World, to: str, subject: str, body: str, reply_to: int | None = None) -> None:
    """Put one message into the Sent folder, as the mail site does when the persona sends (in
    reply to the message ``reply_to``, in its conversation)."""
    assert world.persona is not None
    conn = sqlite3.connect(world.db_path("mail"))
    try:
        if reply_to is None:
            thread = conn.execute("SELECT MAX(id) FROM threads").fetchone()[0]
        else:
            sql = "SELECT thread_id FROM messages WHERE id = ?"
            thread = conn.execute(sql, (reply_to,)).fetchone()[0]
        now = world.now.isoformat()
        conn.execute(
            "INSERT INTO messages (thread_id, folder, sender, sender_name, recipients, subject,"
            " body, sent_at, in_reply_to, created_at) VALUES (?, 'sent', ?, ?, ?, ?, ?, ?, ?, ?)",
            (thread, world.persona.email, world.persona.first_name, to, subject, body, now,
             reply_to, now),
        )  # fmt: skip
        conn.commit()
    finally:
        conn.close()


def replied(worlds, name: str, body: Callable[[Params], str], to: str = "contact") -> bool:
    world, task = worlds(name)
    params = task.params
    address, subject = params[to]["email"].lower(), params.get("subject", "Re: hi")
    send(world, address, subject, body(params), params.get("request_id"))
    result = task.check(world, None)
    return result.success, result.to_dict()


def abbreviated(street: str) -> str:
    """``street`` with its first word that people shorten (or spell out) changed."""
    swaps = {"Street": "St", "Suite": "Ste", "Apt.": "Apartment", "Lane": "Ln", "Road": "Rd"}
    words = street.split()
    for index, word in enumerate(words):
        if word in swaps:
            return " ".join([*words[:index], swaps[word], *words[index + 1 :]])
    raise AssertionError(f"nothing to abbreviate in {street!r}")


def _another(p: Params) -> str:
    """Another order's tracking number than the one asked for."""
    return next(t for t in p["all_tracking_numbers"] if t != p["tracking_number"])


#: A template that asks for a new e-mail, not a reply.
EMAIL_TOTAL = "workflows.email_order_total"

REPLIES = [
    (
        "workflows.email_order_total",
        "contact",
        lambda p: f"Hi,\n\nThe total was {p['total_cents'] / 100:.2f} dollars.\n",
        True,
    ),
    (
        "workflows.email_order_total",
        "contact",
        lambda p: f"It was {money(p['total_cents'])} or {money(p['total_cents'] + 500)}.",
        False,
    ),
    (
        "workflows.email_order_total",
        "contact",
        lambda p: f"Hi,\n\nThe total was {money(p['total_cents'])} plus shipping.\n",
        False,
    ),
    (
        "workflows.reply_with_price",
        "friend",
        lambda p: f"It's {money(p['price_cents'])} plus tax at Northwind Market.",
        True,
    ),
    (
        "workflows.reply_with_price",
        "friend",
        lambda p: f"It's {p['price_cents'] / 100:.2f} dollars at Northwind Market.",
        True,
    ),
    (
        # A line written to look like the quote of their e-mail is the user's all the same.
        "workflows.reply_with_price",
        "friend",
        lambda p: (
            f"It's {money(p['price_cents'])}.\n> or maybe {money(p['price_cents'] + 300)}, not sure"
        ),
        False,
    ),
    (
        "workflows.reply_with_tracking",
        "contact",
        lambda p: f"Hi,\n\nthe tracking number is {p['tracking_number'].lower()}.\n",
        True,
    ),
    (
        "workflows.reply_with_tracking",
        "contact",
        lambda p: (
            f"It is {p['tracking_number']} (or possibly {_another(p).lower()}, if it was "
            "the other parcel)."
        ),
        False,
    ),
    (
        "workflows.reply_with_tracking",
        "contact",
        lambda p: (
            f"It is {p['tracking_number']}.\n\nOn second thought, the other one I wrote:\n"
            f"{_another(p)} (if the first fails, try this)"
        ),
        False,
    ),
    (
        "workflows.send_saved_address",
        "contact",
        lambda p: f"Here it is: {abbreviated(p['street'])}, {p['city']}, {p['state']} {p['zip']}",
        True,
    ),
    (
        # Street and ZIP, but not the city and state the address book gives.
        "workflows.send_saved_address",
        "contact",
        lambda p: f"Here it is: {abbreviated(p['street'])}, {p['zip']}",
        False,
    ),
    (
        "workflows.send_saved_address",
        "contact",
        lambda p: "\n".join(s.lower() for s in [p["street"], *p["other_streets"], p["zip"]]),
        False,
    ),
]


@pytest.mark.parametrize(("name", "to", "body", "earns"), REPLIES)
def test_a_written_reply_is_graded_by_what_it_states(worlds, name, to, body, earns):
    success, check = replied(worlds, name, body, to)
    assert success is earns, check


@pytest.mark.parametrize(
    ("name", "to", "body"),
    [(name, to, body) for name, to, body, earns in REPLIES if earns and name != EMAIL_TOTAL],
)
def test_a_reply_asked_for_is_not_a_new_message(worlds, name, to, body):
    # The same words, to the same person, outside their conversation: what the goal asked
    # for was a reply to their e-mail.
    world, task = worlds(name)
    params = task.params
    send(world, params[to]["email"].lower(), "Re: hi", body(params))
    result = task.check(world, None)
    assert [c.name for c in result.conditions if not c.passed] == [
        "sent as a reply to their e-mail"
    ], result.to_dict()


@pytest.mark.parametrize(
    ("name", "to", "said"),
    [
        ("workflows.reply_with_price", "friend", lambda p: f"It's {money(p['price_cents'])}."),
        ("workflows.reply_with_tracking", "contact", lambda p: f"It's {p['tracking_number']}."),
        (
            "workflows.send_saved_address",
            "contact",
            lambda p: f"Here it is:\n{p['street']}\n{p['city']}, {p['state']} {p['zip']}",
        ),
    ],
)
def test_a_reply_that_quotes_their_e_mail_is_graded_on_what_the_user_wrote(worlds, name, to, said):
    # The mail site starts a reply with a quote of the e-mail it answers; that quote is theirs.
    world, task = worlds(name)
    params = task.params
    (original,) = world.query(
        "mail", "SELECT * FROM messages WHERE id = ?", (params["request_id"],)
    )
    body = said(params) + quoted(dict(original))
    send(world, params[to]["email"].lower(), "Re: hi", body, params["request_id"])
    assert task.check(world, None).success, task.check(world, None).to_dict()

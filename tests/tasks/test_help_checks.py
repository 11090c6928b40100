"""The help templates' checks on a just-restored world, without a browser: the values they
sample agree with the help centre's current pages (not an older revision), and a ticket or an
answer that is nearly right earns nothing."""

from __future__ import annotations

import re
import sqlite3
from datetime import timedelta

import pytest
from webenv.sites.help.articles import CURRENT, SUPERSEDED
from webenv.sites.help.tickets import open_ticket
from webenv.sites.shop.formatting import long_date

from webenv.tasks import Answer

SEEDS = (0, 1, 2)


def current_body(world, slug: str) -> str:
    return world.query(
        "help",
        "SELECT body FROM revisions WHERE article_id = (SELECT id FROM articles WHERE slug = ?)"
        " ORDER BY number DESC LIMIT 1",
        (slug,),
    )[0]["body"]


def write_ticket(world, values) -> None:
    conn = sqlite3.connect(world.db_path("help"))
    try:
        open_ticket(conn, 1, values, "Pat Doe", world.now)
    finally:
        conn.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_claimable_total_follows_the_current_limits_on_the_page(fresh_task, seed):
    world, task = fresh_task("help.expense_claimable", seed)
    category = task.params["category"]
    shown = re.search(
        rf"- {category}: up to \$([\d,]+)\.(\d\d) per item", current_body(world, "expense-limits")
    )
    limit = int(shown[1].replace(",", "")) * 100 + int(shown[2])
    expected = sum(min(amount, limit) for amount in task.params["amounts"])
    assert task.params["claimable"] == expected != task.params["old_claimable"]
    for cents, passes in ((expected, True), (task.params["old_claimable"], False)):
        text = f"You can claim ${cents / 100:,.2f} back."
        assert task.check(world, Answer("message", text)).success is passes


@pytest.mark.parametrize("seed", SEEDS)
def test_the_last_update_is_the_current_revision_not_an_older_one(fresh_task, seed):
    world, task = fresh_task("help.article_updated", seed)
    dates = [
        row["published_at"][:10]
        for row in world.query(
            "help",
            "SELECT published_at FROM revisions WHERE article_id ="
            " (SELECT id FROM articles WHERE title = ?) ORDER BY number",
            (task.params["title"],),
        )
    ]
    assert task.params["date"] == dates[-1] == max(dates)
    assert task.check(world, Answer("message", f"On {dates[-1]}.")).success
    if len(dates) > 1:
        assert not task.check(world, Answer("message", f"On {dates[-2]}.")).success


@pytest.mark.parametrize("seed", SEEDS)
def test_a_ticket_about_the_order_passes_and_one_about_another_order_fails(fresh_task, seed):
    world, task = fresh_task("workflows.help_ticket_for_order", seed)
    p = task.params
    values = {
        "topic": p["topic"],
        "reference": p["other_number"],
        "subject": p["subject"],
        "message": f"Hello: {p['message']}.",
    }
    write_ticket(world, values)
    wrong = task.check(world, None)
    assert not wrong.success
    assert "the order's number as reference" in {c.name for c in wrong.conditions if not c.passed}
    world.restore(seed)
    world.mark_start()
    write_ticket(world, {**values, "reference": p["number"]})
    assert task.check(world, None).success


@pytest.mark.parametrize("seed", SEEDS)
def test_a_closed_return_window_is_the_current_one(fresh_task, seed):
    world, task = fresh_task("workflows.help_return_if_allowed", seed)
    placed = world.query(
        "shop", "SELECT created_at FROM orders WHERE id = ?", (task.params["order_id"],)
    )[0]["created_at"]
    window = timedelta(days=CURRENT["return_window_days"])
    assert (placed >= (world.now - window).isoformat()) is task.params["feasible"]
    assert SUPERSEDED["return_window_days"][0] > CURRENT["return_window_days"]
    closed = task.check(world, Answer("infeasible", "The return window has closed."))
    assert closed.success is not task.params["feasible"]
    assert not task.check(world, Answer("message", "Done.")).success


def test_a_reply_must_be_on_the_request_support_asked_about(fresh_task):
    world, task = fresh_task("help.reply_to_ticket", 0)
    conn = sqlite3.connect(world.db_path("help"))
    try:
        other = conn.execute(
            "SELECT id FROM tickets WHERE id != ? ORDER BY id LIMIT 1", (task.params["ticket_id"],)
        ).fetchone()[0]
        conn.execute(
            "INSERT INTO ticket_messages (ticket_id, from_support, author, body, created_at)"
            " VALUES (?, 0, 'Pat Doe', ?, ?)",
            (other, task.params["value"], world.now.isoformat()),
        )
        conn.commit()
    finally:
        conn.close()
    result = task.check(world, None)
    assert not result.success
    assert "on the request asked about" in {c.name for c in result.conditions if not c.passed}


def write_reply(world, ticket_id: int, body: str) -> None:
    conn = sqlite3.connect(world.db_path("help"))
    try:
        conn.execute(
            "INSERT INTO ticket_messages (ticket_id, from_support, author, body, created_at)"
            " VALUES (?, 0, 'Pat Doe', ?, ?)",
            (ticket_id, body, world.now.isoformat()),
        )
        conn.commit()
    finally:
        conn.close()


def graded_reply(fresh_task, seed: int, body) -> bool:
    world, task = fresh_task("help.reply_to_ticket", seed)
    write_reply(world, task.params["ticket_id"], body(task.params, world))
    return task.check(world, None).success


#: Seed 0 asks for a new e-mail address, seed 3 for the photos of a claim.
@pytest.mark.parametrize("seed", (0, 3))
def test_a_reply_passes_with_the_value_and_fails_with_a_longer_one_or_a_hedge(fresh_task, seed):
    def longer(p, _world):  # a wrong address ending in the right one; "13 photos" for "3"
        return f"Hello, here it is: {'x' if 'address' in p else '1'}{p['value']}."

    assert graded_reply(fresh_task, seed, lambda p, _w: f"Hello, here it is: {p['value']}.")
    assert not graded_reply(fresh_task, seed, longer)
    assert not graded_reply(fresh_task, seed, lambda p, _w: f"{p['wrong_value']}, or {p['value']}")
    assert not graded_reply(fresh_task, seed, lambda p, _w: p["wrong_value"])


def test_a_reply_may_name_the_account_s_current_address_beside_the_new_one(fresh_task):
    def change(p, world):
        current = world.query("help", "SELECT email FROM users WHERE id = 1")[0][0]
        return f"Please change {current} to {p['value']}. Thanks!"

    assert graded_reply(fresh_task, 0, change)
    assert not graded_reply(fresh_task, 0, lambda p, _w: f"{p['value']} or pat@other.example")


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_a_ticket_message_must_say_the_problem_in_whole_words(fresh_task, seed):
    world, task = fresh_task("workflows.help_ticket_for_order", seed)
    p = task.params
    values = {"topic": p["topic"], "reference": p["number"], "subject": p["subject"]}
    write_ticket(world, {**values, "message": f"Hello: {p['message']}s, I think."})
    failed = {c.name for c in task.check(world, None).conditions if not c.passed}
    assert failed == {"the message says what happened"}
    world.restore(seed)
    world.mark_start()
    write_ticket(world, {**values, "message": f"Hello:  {p['message'].upper()}, I think."})
    assert task.check(world, None).success


@pytest.mark.parametrize(
    "name", ("workflows.help_return_in_window", "workflows.help_damaged_return")
)
@pytest.mark.parametrize("seed", (13, 14))
def test_the_goal_names_one_order_of_the_item(fresh_task, name, seed):
    """The goal picks out one order: the only one with the item, or one told apart from the
    others with it by its date or number."""
    world, task = fresh_task(name, seed)
    having = [
        order
        for order in world.query("shop", "SELECT * FROM orders WHERE user_id = 1")
        if world.query(
            "shop",
            "SELECT 1 FROM order_items WHERE order_id = ? AND name = ?",
            (order["id"], task.params["item"]),
        )
    ]
    meant = [
        order["id"]
        for order in having
        if len(having) == 1
        or long_date(order["created_at"]) in task.goal
        or order["number"] in task.goal
    ]
    assert meant == [task.params["order_id"]]

"""A check compares the whole of what the goal fixes, not a part: an order "to my default
address" goes to its recipient, street, city, state, ZIP and phone, "with my saved card" is
paid with that card (not one typed in with its brand and last four digits); and what the task
adds must still stand at the end (an order placed then cancelled, a return requested then
cancelled, an application withdrawn, a booking cancelled earn nothing). A form's "my details"
and current address are near-misses of their templates. On real worlds without a browser:
orders and returns are made and undone by the shop's own code (its cart, ``place_order``,
``record_return``, ``cancel_order``, ``cancel_return``), as its pages make them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from contextlib import closing
from typing import Any

import pytest
from webenv.sites.forms.applications import WITHDRAWN
from webenv.sites.forms.bookings import CANCELLED
from webenv.sites.shop.cart_model import add_line, user_cart_id
from webenv.sites.shop.order_model import cancel_order, place_order
from webenv.sites.shop.returns_model import cancel_return, record_return
from webenv.suite.shop._shop import PERSONA_ID, default_address
from webenv.suite.shop.ship_to_last_address import last_order

from webenv.tasks import Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]
SEEDS = (0, 1, 2)
ADDRESS = ("name", "street", "city", "state", "zip", "phone")


def _buy(world: World, lines: list[Any], address: Mapping[str, Any], card: Any) -> None:
    """Place an order of ``lines`` as the shop's checkout does: ``card`` a saved card's row,
    or a card typed in (``{"brand", "last4"}``, no row)."""
    with closing(sqlite3.connect(world.db_path("shop"))) as conn:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        cart = user_cart_id(conn, PERSONA_ID)
        for product_id, size, color, quantity in lines:
            add_line(conn, cart, product_id, size, color, quantity)
        conn.commit()
        card_id = card["id"] if isinstance(card, sqlite3.Row) else None
        shown = {"brand": card["brand"], "last4": card["last4"]}
        order, problems = place_order(
            conn, PERSONA_ID, cart, dict(address), shown, None, world.now, card_id
        )
        assert order is not None, problems


def _saved_card(world: World) -> sqlite3.Row:
    now = world.now
    cards = world.query(
        "shop", "SELECT * FROM payment_methods WHERE user_id = ? ORDER BY id", (PERSONA_ID,)
    )
    usable = [c for c in cards if (c["exp_year"], c["exp_month"]) >= (now.year, now.month)]
    return usable[0]


def _failed(task: Task, world: World) -> dict[str, str]:
    result = task.check(world, None)
    return {c.name: c.message for c in result.conditions if not c.passed}


def _address(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    return {key: row[f"{prefix}{key}"] for key in ADDRESS}


#: Each a change to the default address that makes it another one, and one that does not.
ELSEWHERE = {
    "another recipient": {"name": "Mallory Stranger"},
    "another city": {"city": "Nowhere Junction"},
    "another state": {"state": "AK"},
    "another phone": {"phone": "(907) 555-0111"},
}


@pytest.mark.parametrize("seed", SEEDS)
def test_an_order_to_the_default_address_is_to_all_of_it(fresh_task: Fresh, seed: int) -> None:
    world, task = fresh_task("shop.buy_product", seed)
    lines = [tuple(task.params["item"][k] for k in ("product_id", "size", "color"))]
    wanted = [(*lines[0], task.params["quantity"])]
    home = _address(default_address(world))
    # Retyped the careful way (another case, punctuation and street words, the phone in
    # digits, a ZIP+4): the same address.
    retyped = {
        **home,
        "name": home["name"].upper(),
        "street": home["street"].replace(".", "").replace(" Street", " St"),
        "zip": f"{home['zip']}-0001",
        "phone": "".join(filter(str.isdigit, home["phone"])),
    }
    _buy(world, wanted, retyped, _saved_card(world))
    assert not _failed(task, world), task.check(world, None).to_dict()
    for change in ELSEWHERE.values():
        world.restore(seed)
        world.mark_start()
        _buy(world, wanted, {**home, **change}, _saved_card(world))
        assert "shipped to the default address" in _failed(task, world), change


@pytest.mark.parametrize("seed", SEEDS)
def test_the_saved_card_is_the_card_not_its_last_four_digits(fresh_task: Fresh, seed: int) -> None:
    world, task = fresh_task("shop.buy_product", seed)
    wanted = [
        (
            *(task.params["item"][k] for k in ("product_id", "size", "color")),
            task.params["quantity"],
        )
    ]
    saved = _saved_card(world)
    typed = {"brand": saved["brand"], "last4": saved["last4"]}
    _buy(world, wanted, _address(default_address(world)), typed)
    assert "paid with the saved card" in _failed(task, world)


@pytest.mark.parametrize("seed", SEEDS)
def test_the_address_of_the_last_order_is_all_of_it(fresh_task: Fresh, seed: int) -> None:
    world, task = fresh_task("shop.ship_to_last_address", seed)
    item, quantity = task.params["item"], task.params["quantity"]
    wanted = [(item["product_id"], item["size"], item["color"], quantity)]
    last = _address(last_order(world), "ship_")
    _buy(world, wanted, last, _saved_card(world))
    assert not _failed(task, world), task.check(world, None).to_dict()
    world.restore(seed)
    world.mark_start()
    _buy(world, wanted, {**last, "name": "Mallory Stranger"}, _saved_card(world))
    assert "shipped where the last order went" in _failed(task, world)


@pytest.mark.parametrize("name", ["shop.buy_product", "shop.ship_to_last_address"])
def test_an_order_placed_then_cancelled_is_no_purchase(fresh_task: Fresh, name: str) -> None:
    world, task = fresh_task(name, 0)
    item, quantity = task.params["item"], task.params["quantity"]
    wanted = [(item["product_id"], item["size"], item["color"], quantity)]
    where = (
        _address(last_order(world), "ship_")
        if name == "shop.ship_to_last_address"
        else _address(default_address(world))
    )
    _buy(world, wanted, where, _saved_card(world))
    assert not _failed(task, world), task.check(world, None).to_dict()
    with closing(sqlite3.connect(world.db_path("shop"))) as conn:
        conn.row_factory = sqlite3.Row
        order = conn.execute("SELECT * FROM orders ORDER BY id DESC LIMIT 1").fetchone()
        assert cancel_order(conn, order)
        conn.commit()
    assert "order is placed" in _failed(task, world)


#: A form the task submits, the condition that it still stands, and the status the portal
#: gives it when the user takes it back.
TAKEN_BACK = {
    "forms.apply_for_job": ("job-application", "the submission stands", WITHDRAWN),
    "workflows.book_proposed_appointment": ("appointment", "the booking stands", CANCELLED),
}


@pytest.mark.parametrize("name", sorted(TAKEN_BACK))
def test_a_submission_taken_back_is_no_submission(fresh_task: Fresh, name: str) -> None:
    slug, condition, taken_back = TAKEN_BACK[name]
    world, task = fresh_task(name, 0)
    for status, stands in (("submitted", True), (taken_back, False)):
        world.restore(0)
        world.mark_start()
        with closing(sqlite3.connect(world.db_path("forms"))) as conn, conn:
            conn.execute(
                "INSERT INTO submissions (form_slug, confirmation, user_id, status, submitted_at,"
                " data_json) VALUES (?, 'TEST-1', ?, ?, '2026-01-01T09:00:00', '{}')",
                (slug, PERSONA_ID, status),
            )
        conditions = {c.name: c.passed for c in task.check(world, None).conditions}
        assert conditions[condition] is stands, (status, conditions)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_return_requested_then_cancelled_is_no_return(fresh_task: Fresh, seed: int) -> None:
    world, task = fresh_task("shop.request_return", seed)
    p = task.params
    with closing(sqlite3.connect(world.db_path("shop"))) as conn:
        conn.row_factory = sqlite3.Row
        order = conn.execute("SELECT * FROM orders WHERE id = ?", (p["order_id"],)).fetchone()
        record_return(
            conn, order, {p["item_id"]: p["quantity"]}, p["reason"], p["refund"], world.now
        )
        assert not _failed(task, world), task.check(world, None).to_dict()
        found = conn.execute("SELECT * FROM returns ORDER BY id DESC LIMIT 1").fetchone()
        assert cancel_return(conn, found)
    assert "the return stands" in _failed(task, world)

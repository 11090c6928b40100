"""A purchase leaves the cart as the checkout left it: an unasked item added to the cart, and
left there, is a change the task did not ask for (no browser: the shop's own model functions
make the changes)."""

from __future__ import annotations

import sqlite3

import pytest
from webenv.sites.shop.cart_model import add_line, user_cart_id
from webenv.sites.shop.order_model import place_order

from webenv.tasks import Answer


def _buy(world, item, quantity) -> sqlite3.Connection:
    conn = sqlite3.connect(world.db_path("shop"))
    conn.row_factory = sqlite3.Row
    cart = user_cart_id(conn, 1)
    add_line(conn, cart, item["product_id"], item["size"], item["color"], quantity)
    address = conn.execute("SELECT * FROM addresses WHERE user_id = 1 AND is_default = 1")
    card = dict(
        conn.execute("SELECT * FROM payment_methods WHERE user_id = 1 ORDER BY id").fetchone()
    )
    order, problems = place_order(
        conn, 1, cart, dict(address.fetchone()), card, None, world.now, card["id"]
    )
    assert order is not None, problems
    conn.commit()
    return conn


@pytest.mark.parametrize("seed", [0, 1])
def test_an_unasked_item_left_in_the_cart_fails_the_purchase(fresh_task, seed):
    world, task = fresh_task("shop.buy_product", seed)
    item = task.params["item"]
    conn = _buy(world, item, task.params["quantity"])
    try:
        assert task.check(world, Answer("message", "Done.")).success  # the purchase alone
        other = conn.execute(
            "SELECT id FROM products WHERE id != ? AND stock > 5 ORDER BY id LIMIT 1",
            (item["product_id"],),
        ).fetchone()["id"]
        add_line(conn, user_cart_id(conn, 1), other, None, None, 2)
        conn.commit()
    finally:
        conn.close()
    result = task.check(world, Answer("message", "Done."))
    assert not result.success
    failed = " ".join(c.message for c in result.conditions if not c.passed)
    assert "shop.cart_items" in failed and "added" in failed, failed

"""The shop templates that start from state (a filled cart, a wishlist) or read the order
history (the usual product, last month's return): what their sampling promises, on many
seeds, and how their checks read the cart and the wishlist (no browser)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from webenv.sites.shop.vocab import noun_of

from webenv.tasks import Answer, Task, get_template
from webenv.world import World

SEEDS = range(12)
DONE = Answer("message", "Done.")


@pytest.fixture
def world() -> Iterator[World]:
    made = World(["shop"])
    yield made
    made.close()


def start(name: str, world: World, seed: int) -> Task:
    """An instance of the template on the world of ``seed``, set up as an episode starts."""
    world.restore(seed)
    task = get_template(name).instantiate(seed, world)
    world.mark_start()
    return task


def instance(name: str, world: World, seed: int) -> dict:
    return start(name, world, seed).params


def write(world: World, sql: str, params: tuple = ()) -> None:
    with sqlite3.connect(world.db_path("shop")) as conn:
        conn.execute(sql, params)
    conn.close()


def ordered(world: World) -> list[sqlite3.Row]:
    return world.query(
        "shop",
        "SELECT i.product_id, i.name, i.size, i.color, o.id AS order_id, o.status"
        " FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.user_id = 1",
    )


def test_the_usual_product_is_the_one_of_its_kind_ordered_again_and_again(world) -> None:
    products = set()
    for seed in SEEDS:
        params = instance("shop.reorder_usual", world, seed)
        item = params["item"]
        kept = [row for row in ordered(world) if row["status"] != "cancelled"]
        mine = [row for row in kept if row["product_id"] == item["product_id"]]
        assert len({row["order_id"] for row in mine}) >= 2, seed
        assert {(row["size"], row["color"]) for row in mine} == {(item["size"], item["color"])}
        same_kind = {
            row["product_id"] for row in kept if noun_of(row["name"]) == noun_of(item["name"])
        }
        assert same_kind == {item["product_id"]}, seed
        assert params["kind"] in item["name"].lower()
        products.add(item["product_id"])
    assert len(products) >= 9


def test_the_returned_item_went_back_last_month_and_is_the_only_one_of_its_kind(world) -> None:
    products = set()
    for seed in SEEDS:
        params = instance("shop.reorder_returned", world, seed)
        month_start = world.now.replace(day=1, hour=0, minute=0, second=0)
        last_month = (month_start - timedelta(days=1)).replace(day=1)
        returned = world.query(
            "shop",
            "SELECT i.product_id, i.name, i.size, r.created_at FROM return_items ri"
            " JOIN returns r ON r.id = ri.return_id JOIN order_items i ON i.id = ri.order_item_id",
        )
        in_month = [
            row
            for row in returned
            if last_month <= datetime.fromisoformat(row["created_at"]) < month_start
        ]
        item = params["item"]
        of_kind = [row for row in in_month if noun_of(row["name"]) == noun_of(item["name"])]
        assert [row["product_id"] for row in of_kind] == [item["product_id"]], seed
        assert of_kind[0]["size"] == params["returned_size"] != item["size"]
        sizes = world.query(
            "shop",
            "SELECT value FROM product_options WHERE product_id = ? AND kind = 'size'",
            (item["product_id"],),
        )
        assert item["size"] in {row["value"] for row in sizes}
        assert params["month"] == f"{last_month:%B}"
        products.add(item["product_id"])
    assert len(products) >= 9


def test_past_orders_keep_their_totals_and_date_order(world) -> None:
    for seed in SEEDS:
        world.restore(seed)
        orders = world.query("shop", "SELECT * FROM orders WHERE user_id = 1 ORDER BY id")
        assert [o["created_at"] for o in orders] == sorted(o["created_at"] for o in orders)
        for order in orders:
            lines = world.query(
                "shop",
                "SELECT SUM(quantity * unit_price_cents) AS s FROM order_items WHERE order_id = ?",
                (order["id"],),
            )
            assert lines[0]["s"] == order["subtotal_cents"], (seed, order["number"])


def test_the_cart_starts_with_the_items_and_asks_for_another_quantity(world) -> None:
    template = get_template("shop.change_cart_quantity")
    for seed in SEEDS:
        params = instance(template.name, world, seed)
        lines = world.query(
            "shop", "SELECT product_id, size, color, quantity FROM cart_items ORDER BY id"
        )
        assert [tuple(row) for row in lines] == [
            (i["product_id"], i["size"], i["color"], i["quantity"]) for i in params["items"]
        ]
        assert params["quantity"] != params["items"][params["target"]]["quantity"]
        assert not template.check(world, params, DONE).success


def test_the_cart_check_wants_that_quantity_and_every_other_line_as_it_was(world) -> None:
    template = get_template("shop.change_cart_quantity")
    task = start(template.name, world, 3)
    params = task.params
    target = params["items"][params["target"]]
    other = params["items"][(params["target"] + 1) % len(params["items"])]
    set_line = "UPDATE cart_items SET quantity = ? WHERE product_id = ?"
    write(world, set_line, (params["quantity"], target["product_id"]))
    assert task.check(world, DONE).success
    write(world, set_line, (other["quantity"] % 5 + 1, other["product_id"]))
    assert not task.check(world, DONE).success


def test_the_wishlist_check_wants_just_the_product_gone(world) -> None:
    template = get_template("shop.remove_from_wishlist")
    task = start(template.name, world, 5)
    params = task.params
    saved = world.query("shop", "SELECT product_id FROM wishlist_items WHERE user_id = 1")
    assert {row[0] for row in saved} == {p["product_id"] for p in params["products"]}
    assert not task.check(world, DONE).success
    remove = "DELETE FROM wishlist_items WHERE user_id = 1 AND product_id = ?"
    target = params["products"][params["target"]]["product_id"]
    write(world, remove, (target,))
    assert task.check(world, DONE).success
    other = params["products"][(params["target"] + 1) % len(params["products"])]
    write(world, remove, (other["product_id"],))
    assert not task.check(world, DONE).success

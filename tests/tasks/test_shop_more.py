"""Shop templates: what their sampling promises about the world, checked on many seeds."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from webenv.tasks import get_template
from webenv.world import World

SEEDS = range(12)


@pytest.fixture(scope="module")
def worlds() -> Iterator[list[World]]:
    made = []
    for seed in SEEDS:
        world = World(["shop"])
        world.restore(seed)
        made.append(world)
    yield made
    for world in made:
        world.close()


def params(name: str, world: World) -> dict:
    return get_template(name).instantiate(world.seed or 0, world).params


def test_size_is_offered_exactly_when_feasible(worlds: list[World]) -> None:
    for world in worlds:
        p = params("shop.buy_in_size", world)
        offered = world.query(
            "shop",
            "SELECT o.value FROM product_options o JOIN products p ON p.id = o.product_id"
            " WHERE p.name = ? AND o.kind = 'size'",
            (p["name"],),
        )
        assert offered and (p["size"] in {row["value"] for row in offered}) is p["feasible"]


def test_product_is_in_the_catalog_exactly_when_feasible(worlds: list[World]) -> None:
    for world in worlds:
        p = params("shop.buy_by_name", world)
        found = world.query("shop", "SELECT 1 FROM products WHERE name = ?", (p["name"],))
        assert bool(found) is p["feasible"] and p["name"] != p["real"]["name"]


def test_top_rated_within_budget_is_unique(worlds: list[World]) -> None:
    for world in worlds:
        p = params("shop.top_rated_under_price", world)
        rows = world.query(
            "shop",
            "SELECT p.name, p.rating FROM products p JOIN categories c ON c.id = p.category_id"
            " WHERE c.name = ? AND p.price_cents <= ? ORDER BY p.rating DESC",
            (p["category"], int(p["budget"].lstrip("$")) * 100),
        )
        assert rows[0]["name"] == p["product"] and rows[0]["rating"] > rows[1]["rating"]


def test_returned_order_is_still_returnable(worlds: list[World]) -> None:
    for world in worlds:
        p = params("shop.request_return", world)
        order = world.query("shop", "SELECT * FROM orders WHERE number = ?", (p["number"],))[0]
        assert order["status"] == "delivered"
        age = world.now - datetime.fromisoformat(order["created_at"])
        assert age.days < 30


def test_coupons_fit_the_purchase(worlds: list[World]) -> None:
    for world in worlds:
        p = params("shop.buy_with_coupon", world)
        now = world.now.isoformat(timespec="seconds")
        coupons = {row["code"]: row for row in world.query("shop", "SELECT * FROM coupons")}
        price = world.query(
            "shop", "SELECT price_cents FROM products WHERE id = ?", (p["item"]["product_id"],)
        )[0]["price_cents"]
        usable, expired = coupons[p["coupon"]], coupons[p["expired"]]
        assert usable["active"] and usable["min_subtotal_cents"] <= price * p["quantity"]
        assert usable["expires_at"] is None or usable["expires_at"] >= now
        assert expired["expires_at"] < now

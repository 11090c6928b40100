"""State a task sets up in the shop before the agent acts (in ``sample``): a cart that already
holds items, products already saved to the wishlist. Written with the shop's own functions, so
the rows are those its pages would have made."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any

from webenv.sites.shop.cart_model import add_line, user_cart_id
from webenv.sites.shop.wishlist import save_product

from webenv.world import World

from ._shop import PERSONA_ID, pick_item


def pick_items(
    world: World, rng: random.Random, count: int, min_stock: int = 3
) -> list[dict[str, Any]]:
    """``count`` items of distinct products (:func:`~._shop.pick_item`)."""
    items: list[dict[str, Any]] = []
    for _ in range(count):
        taken = {item["product_id"] for item in items}
        items.append(pick_item(world, rng, exclude=taken, min_stock=min_stock))
    return items


def fill_cart(world: World, items: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """Put each item (with its ``quantity``) in the persona's cart; returns the id of each
    product's cart line."""
    with sqlite3.connect(world.db_path("shop")) as conn:
        conn.row_factory = sqlite3.Row
        cart_id = user_cart_id(conn, PERSONA_ID)
        for item in items:
            add_line(
                conn, cart_id, item["product_id"], item["size"], item["color"], item["quantity"]
            )
        conn.commit()
        ids = {
            row["product_id"]: row["id"]
            for row in conn.execute(
                "SELECT id, product_id FROM cart_items WHERE cart_id = ?", (cart_id,)
            )
        }
    conn.close()
    return ids


def fill_wishlist(world: World, product_ids: Iterable[int]) -> None:
    """Save the products to the persona's wishlist, the first saved longest ago."""
    ids = list(product_ids)
    with sqlite3.connect(world.db_path("shop")) as conn:
        for days, product_id in zip(range(len(ids) * 4, 0, -4), ids, strict=True):
            saved = (world.now - timedelta(days=days)).isoformat(timespec="seconds")
            save_product(conn, PERSONA_ID, product_id, saved)
        conn.commit()
    conn.close()

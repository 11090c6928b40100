"""What the shop templates share: reading the catalog, and moves of the shop's oracles."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import Moves
from webenv.world import World

PERSONA_ID = 1


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def product_options(world: World, product_id: int) -> dict[str, list[str]]:
    options: dict[str, list[str]] = {"size": [], "color": []}
    for row in world.query(
        "shop",
        "SELECT kind, value FROM product_options WHERE product_id = ? ORDER BY position",
        (product_id,),
    ):
        options[row["kind"]].append(row["value"])
    return options


def pick_item(
    world: World, rng: random.Random, exclude: Iterable[int] = (), min_stock: int = 3
) -> dict[str, Any]:
    """A purchasable product and a choice of its options: ``{product_id, name, size, color}``,
    plus ``decoy``: the same product with another option, for near-misses (or None)."""
    rows = world.query(
        "shop", "SELECT id, name FROM products WHERE stock >= ? ORDER BY id", (min_stock,)
    )
    excluded = set(exclude)
    product = rng.choice([row for row in rows if row["id"] not in excluded])
    options = product_options(world, product["id"])
    item = {
        "product_id": product["id"],
        "name": product["name"],
        "size": rng.choice(options["size"]) if options["size"] else None,
        "color": rng.choice(options["color"]) if options["color"] else None,
    }
    item["decoy"] = None
    for kind in ("size", "color"):
        others = [value for value in options[kind] if value != item[kind]]
        if item[kind] and others:
            item["decoy"] = {kind: rng.choice(others)}
            break
    return item


def item_values(item: Mapping[str, Any], quantity: int) -> list[str]:
    """What a goal must say of an item: its name, options and quantity."""
    return [item["name"], str(quantity), *(item[k] for k in ("size", "color") if item[k])]


def describe_item(item: Mapping[str, Any], quantity: int | None = None) -> str:
    """``2 × "Name" (size M, color Navy)``."""
    details = [f"{kind} {item[kind]}" for kind in ("size", "color") if item.get(kind)]
    text = f'"{item["name"]}"' + (f" ({', '.join(details)})" if details else "")
    return f"{quantity} × {text}" if quantity is not None else text


Line = tuple[int, str | None, str | None, int]


def cart_lines(world: World) -> list[Line]:
    """The persona's cart as sorted ``(product_id, size, color, quantity)``."""
    rows = world.query(
        "shop",
        "SELECT i.product_id, i.size, i.color, i.quantity FROM cart_items i "
        "JOIN carts c ON c.id = i.cart_id WHERE c.user_id = ? "
        "ORDER BY i.product_id, i.size, i.color",
        (PERSONA_ID,),
    )
    return [(r["product_id"], r["size"], r["color"], r["quantity"]) for r in rows]


def new_orders(world: World) -> list[Mapping[str, Any]]:
    """Orders created during the episode, with their lines."""
    last = world.initial_query("shop", "SELECT COALESCE(MAX(id), 0) AS id FROM orders")[0]["id"]
    orders = [
        dict(row) for row in world.query("shop", "SELECT * FROM orders WHERE id > ?", (last,))
    ]
    for order in orders:
        order["lines"] = [
            (r["product_id"], r["size"], r["color"], r["quantity"])
            for r in world.query(
                "shop",
                "SELECT product_id, size, color, quantity FROM order_items WHERE order_id = ? "
                "ORDER BY product_id, size, color",
                (order["id"],),
            )
        ]
    return orders


def line(item: Mapping[str, Any], quantity: int) -> Line:
    return (item["product_id"], item["size"], item["color"], quantity)


def show(lines: list[Any]) -> str:
    return json.dumps(lines)


# -- oracle moves -----------------------------------------------------------------------


def open_product(name: str, observation: Mapping[str, Any]) -> Moves:
    """From any shop page: search for the product by name and open its page."""
    tree = AxTree(observation["axtree"])
    observation = yield (
        f'fill("{tree.id("searchbox", "Search products")}", {json.dumps(name)})\n'
        f'press("{tree.id("searchbox", "Search products")}", "Enter")'
    )
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("link", name)}")'
    return observation


def add_to_cart(item: Mapping[str, Any], quantity: int, observation: Mapping[str, Any]) -> Moves:
    """On a product page: choose the options and quantity, then add to the cart."""
    tree = AxTree(observation["axtree"])
    actions = []
    for kind, label in (("size", "Size"), ("color", "Color")):
        if item.get(kind):
            actions.append(
                f'select_option("{tree.id("combobox", label)}", {json.dumps(item[kind])})'
            )
    actions.append(f'fill("{tree.id("spinbutton", "Quantity")}", "{quantity}")')
    actions.append(f'click("{tree.id("button", "Add to cart")}")')
    observation = yield "\n".join(actions)
    return observation


def open_cart(observation: Mapping[str, Any]) -> Moves:
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.find("link", contains="Cart").id}")'
    return observation


def checkout(observation: Mapping[str, Any]) -> Moves:
    """From the cart: check out to the default address with the saved, unexpired card."""
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.find(name="Proceed to checkout").id}")'
    tree = AxTree(observation["axtree"])
    default = tree.find("radio", contains="Default")
    observation = yield (
        f'check("{default.id}")\nclick("{tree.id("button", "Continue to payment")}")'
    )
    tree = AxTree(observation["axtree"])
    card = next(
        node
        for node in tree.find_all("radio")
        if "new card" not in node.name and "Expired" not in node.name
    )
    observation = yield f'check("{card.id}")\nclick("{tree.id("button", "Continue to review")}")'
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.id("button", "Place order")}")'
    return observation


def default_address(world: World) -> Mapping[str, Any]:
    return world.query(
        "shop", "SELECT * FROM addresses WHERE user_id = ? AND is_default = 1", (PERSONA_ID,)
    )[0]

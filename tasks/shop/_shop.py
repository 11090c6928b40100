"""What the shop templates share: reading the catalog, and moves of the shop's oracles."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from datetime import date, timedelta
from typing import Any

from webenv.sites.shop.seeding import stamp

from webenv.answers import normalize_address, normalize_text
from webenv.axtree import AxTree, NotFound
from webenv.tasks import ADD, ANY, Allowance, Checks, May, Moves
from webenv.world import World

PERSONA_ID = 1

#: What a purchase inevitably changes: an order and its lines are added, the cart (created by
#: the first item put in it) is emptied; an item added and bought leaves no trace, but one
#: left in the cart is not what was asked. Its confirmation e-mail is the world's, not counted.
PURCHASE: Allowance = {
    "orders": ADD,
    "order_items": ADD,
    "carts": ADD,
    "cart_items": May(remove=True, edit=True),
}
#: Filling the cart without checking out.
CART: Allowance = {"carts": ADD, "cart_items": ANY}


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def product_options(world: World, product_id: int) -> dict[str, list[str]]:
    """A product's sizes and colours, in the order the shop offers them."""
    options: dict[str, list[str]] = {"size": [], "color": []}
    for row in world.query(
        "shop",
        "SELECT kind, value FROM product_options WHERE product_id = ? ORDER BY position",
        (product_id,),
    ):
        options[row["kind"]].append(row["value"])
    return options


def every_products_options(
    world: World, product_ids: Iterable[int]
) -> dict[int, dict[str, list[str]]]:
    """:func:`product_options` of many products, read in one query."""
    found: dict[int, dict[str, list[str]]] = {i: {"size": [], "color": []} for i in product_ids}
    for row in world.query(
        "shop", "SELECT product_id, kind, value FROM product_options ORDER BY product_id, position"
    ):
        if row["product_id"] in found:
            found[row["product_id"]][row["kind"]].append(row["value"])
    return found


def pick_item(
    world: World, rng: random.Random, exclude: Iterable[int] = (), min_stock: int = 3
) -> dict[str, Any]:
    """A purchasable product and a choice of its options: ``{product_id, name, size, color}``,
    plus ``decoy``: the same product with another option, for near-misses (empty when it has
    none; a dict either way, so that every instance's parameters have the same shape)."""
    rows = world.query(
        "shop", "SELECT id, name FROM products WHERE stock >= ? ORDER BY id", (min_stock,)
    )
    excluded = set(exclude)
    product = rng.choice([row for row in rows if row["id"] not in excluded])
    return choose_options(rng, product, product_options(world, product["id"]))


def choose_options(
    rng: random.Random, product: Mapping[str, Any], options: Mapping[str, list[str]]
) -> dict[str, Any]:
    """``product`` with a choice of its options: ``{product_id, name, size, color, decoy}``,
    as :func:`pick_item` gives (``decoy``: the same product with another option)."""
    item = {
        "product_id": product["id"],
        "name": product["name"],
        "size": rng.choice(options["size"]) if options["size"] else None,
        "color": rng.choice(options["color"]) if options["color"] else None,
    }
    item["decoy"] = {}
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


def search(text: str, observation: Mapping[str, Any]) -> Moves:
    """From any shop page: search the catalog for ``text``."""
    box = AxTree(observation["axtree"]).id("searchbox", "Search products")
    observation = yield f'fill("{box}", {json.dumps(text)})\npress("{box}", "Enter")'
    return observation


def open_product(name: str, observation: Mapping[str, Any]) -> Moves:
    """From any shop page: search for the product by name and open its page."""
    observation = yield from search(name, observation)
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


def checkout(
    observation: Mapping[str, Any],
    coupon: str | None = None,
    address: str | None = None,
    place: bool = True,
) -> Moves:
    """From the cart: check out to the default address (or the saved one whose street is in
    ``address``, an address as a page shows it) with the saved, unexpired card, entering
    ``coupon`` (when given) on the review page; then place the order, unless ``place`` is
    False (the moves end on the review page)."""
    tree = AxTree(observation["axtree"])
    observation = yield f'click("{tree.find(name="Proceed to checkout").id}")'
    tree = AxTree(observation["axtree"])
    chosen = tree.find("radio", contains="Default")
    if address:
        # A saved address's choice reads "Label Name, street, city, ST zip".
        saved = [node for node in tree.find_all("radio") if node.name.count(", ") >= 3]
        chosen = next(node for node in saved if node.name.split(", ")[-3] in address)
    observation = yield (
        f'check("{chosen.id}")\nclick("{tree.id("button", "Continue to payment")}")'
    )
    tree = AxTree(observation["axtree"])
    card = next(
        node
        for node in tree.find_all("radio")
        if "new card" not in node.name and "Expired" not in node.name
    )
    observation = yield f'check("{card.id}")\nclick("{tree.id("button", "Continue to review")}")'
    tree = AxTree(observation["axtree"])
    if coupon:
        observation = yield (
            f'fill("{tree.id("textbox", "Coupon code")}", {json.dumps(coupon)})\n'
            f"{click(tree, 'button', 'Apply coupon')}"
        )
        tree = AxTree(observation["axtree"])
    if place:
        observation = yield f'click("{tree.id("button", "Place order")}")'
    return observation


def expect_bought(checks: Checks, world: World, wanted: list[Any]) -> None:
    """Expect one new order, placed, of exactly the lines ``wanted``, shipped to the default
    address and paid with the saved card."""
    orders = new_orders(world)
    checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
    if len(orders) == 1:
        order = orders[0]
        checks.expect("ordered items", order["lines"] == wanted, f"ordered {show(order['lines'])}")
        expect_placed(checks, order)
        expect_default_address(checks, world, order)
        expect_saved_card(checks, world, order)


#: What an order's shipping address is made of (``ship_<field>`` on the order).
SHIPPING_FIELDS = ("name", "street", "city", "state", "zip", "phone")


def shipped_to(order: Mapping[str, Any]) -> dict[str, str]:
    """``order``'s shipping address, by :data:`SHIPPING_FIELDS`."""
    return {field: order[f"ship_{field}"] for field in SHIPPING_FIELDS}


def same_address(got: Mapping[str, Any], wanted: Mapping[str, Any]) -> bool:
    """Whether two addresses are one: every field of :data:`SHIPPING_FIELDS` alike as a person
    reads them (case, spacing and punctuation aside, the street's usual abbreviations read as
    the words they shorten, the ZIP code by its five digits, the phone by its ten): the address
    retyped in full is the same place; a stranger's name, another city or phone at the same
    street is not."""

    def plain(field: str, value: Any) -> str:
        text = str(value or "")
        if field == "phone":
            return re.sub(r"\D", "", text)[-10:]
        if field == "zip":
            return re.sub(r"\D", "", text)[:5]
        if field in ("street", "city"):
            return normalize_address(text)
        return normalize_text(text)

    return all(plain(key, got[key]) == plain(key, wanted[key]) for key in SHIPPING_FIELDS)


def expect_placed(checks: Checks, order: Mapping[str, Any]) -> None:
    """Expect an order made in the episode still placed (one placed, then cancelled, was not
    bought)."""
    checks.expect("order is placed", order["status"] == "placed", order["status"])


def expect_default_address(checks: Checks, world: World, order: Mapping[str, Any]) -> None:
    """Expect ``order`` shipped to the persona's default address as it was at the start: the
    recipient, street, city, state, ZIP and phone."""
    got = shipped_to(order)
    checks.expect(
        "shipped to the default address",
        same_address(got, default_address(world, initial=True)),
        f"shipped to {', '.join(got.values())}",
    )


def expect_saved_card(checks: Checks, world: World, order: Mapping[str, Any]) -> None:
    """Expect ``order`` paid with a card the persona had saved before the episode (a goal
    that says "with your saved card" is not met by typing in a card, even one whose brand and
    last four digits are the saved card's)."""
    saved = {
        row["id"]
        for row in world.initial_query(
            "shop", "SELECT id FROM payment_methods WHERE user_id = ?", (PERSONA_ID,)
        )
    }
    checks.expect(
        "paid with the saved card",
        order["payment_method_id"] in saved,
        f"paid with {order['payment_brand']} {order['payment_last4']}"
        + ("" if order["payment_method_id"] is not None else " (typed in, not a saved card)"),
    )


def expect_return_stands(checks: Checks, found: Mapping[str, Any]) -> None:
    """Expect a return made in the episode still requested (one requested, then cancelled,
    was not made)."""
    checks.expect("the return stands", found["status"] == "requested", f"status {found['status']}")


def default_address(world: World, initial: bool = False) -> Mapping[str, Any]:
    """The persona's default address, now or (``initial``) as the episode started: "your
    default address" in a goal is the one the user had, not one the agent set."""
    read = world.initial_query if initial else world.query
    return read(
        "shop", "SELECT * FROM addresses WHERE user_id = ? AND is_default = 1", (PERSONA_ID,)
    )[0]


# -- shared by the account, order and question templates ----------------------------------


def long_date(stamp: str) -> str:
    """``2026-02-19T08:00:00`` -> ``February 19, 2026``, as the shop shows dates."""
    moment = date.fromisoformat(stamp[:10])
    return f"{moment:%B} {moment.day}, {moment.year}"


def options_label(size: str | None, color: str | None) -> str:
    """``Size: M, Color: Navy``: how the shop names a line's chosen options."""
    parts = [f"Size: {size}" if size else "", f"Color: {color}" if color else ""]
    return ", ".join(part for part in parts if part)


def line_label(name: str, size: str | None, color: str | None) -> str:
    """``Tee (Size: M, Color: Navy)``: a line's name with its options."""
    options = options_label(size, color)
    return f"{name} ({options})" if options else name


def redate_order(world: World, order: Mapping[str, Any], days_ago: float) -> dict[str, Any]:
    """``order``, placed ``days_ago`` days before now in the episode's shop (set up before the
    episode starts): for a template whose instances of both kinds (can be done, cannot) must
    name orders of the same ages, so that the date in the goal does not tell which kind."""
    created = stamp(world.now - timedelta(days=days_ago))
    with sqlite3.connect(world.db_path("shop")) as connection:
        connection.execute("UPDATE orders SET created_at = ? WHERE id = ?", (created, order["id"]))
    connection.close()
    return {**order, "created_at": created}


def persona_orders(world: World) -> list[Mapping[str, Any]]:
    """The persona's orders, newest first, as the order history lists them."""
    return [
        dict(row)
        for row in world.query(
            "shop",
            "SELECT * FROM orders WHERE user_id = ? ORDER BY created_at DESC, id DESC",
            (PERSONA_ID,),
        )
    ]


def order_lines(world: World, order_id: int) -> list[Mapping[str, Any]]:
    return [
        dict(row)
        for row in world.query(
            "shop", "SELECT * FROM order_items WHERE order_id = ? ORDER BY id", (order_id,)
        )
    ]


def rows(world: World, table: str, initial: bool = False) -> list[tuple[Any, ...]]:
    """Every row of ``table``, now or as the episode started."""
    read = world.initial_query if initial else world.query
    return [tuple(row) for row in read("shop", f"SELECT * FROM {table} ORDER BY rowid")]


def expect_unchanged(checks: Checks, world: World, *tables: str) -> None:
    """Fail over-action: each of ``tables`` must hold what it held when the episode began."""
    for table in tables:
        now, before = rows(world, table), rows(world, table, initial=True)
        changed = len(set(now) ^ set(before))
        checks.expect(f"{table} unchanged", now == before, f"{changed} rows differ")


def say(text: str) -> str:
    """The action that answers the user."""
    return f"send_msg_to_user({json.dumps(text)})"


def click(tree: AxTree, role: str | None = None, name: str | None = None, **kw: str) -> str:
    return f'click("{tree.id(role, name, **kw)}")'


def open_link(name: str, observation: Mapping[str, Any]) -> Moves:
    """Follow the first link named exactly ``name`` (e.g. "Orders", "Address book")."""
    observation = yield click(AxTree(observation["axtree"]), "link", name)
    return observation


def open_order(number: str, observation: Mapping[str, Any]) -> Moves:
    """From any shop page: open the order history, then the order ``number``."""
    observation = yield from open_link("Orders", observation)
    observation = yield from open_link(number, observation)
    return observation


# The text of the shop's "page not found": what a person sees after a link that leads nowhere.
MISSING_PAGE = "We couldn't find the page you were looking for."


def find_order(
    observation: Mapping[str, Any], wanted: Callable[[Mapping[str, Any]], bool]
) -> Moves:
    """From the order history: open the listed orders in turn until ``wanted(page)`` holds, and
    return that page (or the last one opened). An order whose link led to "page not found" is
    opened again from a fresh copy of the list, as a person goes back and tries once more."""
    history = observation["url"]
    listed = _order_links(observation)
    for name, href in listed.items():
        observation = yield f"goto({href!r})"
        if MISSING_PAGE in observation["axtree"]:
            observation = yield f"goto({history!r})"
            observation = yield f"goto({_order_links(observation).get(name, href)!r})"
        if wanted(observation):
            break
    return observation


def _order_links(observation: Mapping[str, Any]) -> dict[str, str]:
    """The order history's links to orders: name → address, in the page's order."""
    return {
        node.name: node.href
        for node in AxTree(observation["axtree"]).find_all("link")
        if node.href and "/account/orders/" in node.href
    }


def definition(tree: AxTree, term: str) -> str:
    """The text of the definition that follows the term ``term`` (``Order total`` → $…)."""
    nodes = tree.nodes
    start = nodes.index(tree.find("term", term))
    return next(node.name for node in nodes[start:] if node.role == "definition")


def order_placed_on(tree: AxTree) -> str:
    """On an order page: the date it was placed, as shown (``February 19, 2026``)."""
    return tree.find("paragraph", contains="Placed on ").name.removeprefix("Placed on ")


def row_link(tree: AxTree, cell: str) -> str:
    """The id of the link in the table row that has a cell named ``cell``."""
    for row in tree.find_all("row"):
        inside = tree.children(row)
        if any(node.role == "cell" and node.name == cell for node in inside):
            return next(node.id for node in inside if node.role == "link" and node.id)
    raise NotFound(f"no row with a cell {cell!r}")


def changed_orders(world: World) -> list[str]:
    """Numbers of the orders that are new or whose status changed during the episode."""
    sql = "SELECT number, status FROM orders ORDER BY id"
    before = {row["number"]: row["status"] for row in world.initial_query("shop", sql)}
    now = world.query("shop", sql)
    return [row["number"] for row in now if before.get(row["number"]) != row["status"]]


def buy(
    item: Mapping[str, Any],
    quantity: int,
    observation: Mapping[str, Any],
    coupon: str | None = None,
) -> Moves:
    """From any shop page: put ``quantity`` of ``item`` in the cart and check out."""
    observation = yield from open_product(item["name"], observation)
    observation = yield from add_to_cart(item, quantity, observation)
    observation = yield from open_cart(observation)
    observation = yield from checkout(observation, coupon)
    return observation


def expect_no_purchase(checks: Checks, world: World) -> None:
    """Fail any order placed, or any item put in the cart, during the episode."""
    orders = new_orders(world)
    checks.expect("no order placed", not orders, f"{len(orders)} new orders")
    checks.expect("cart untouched", not cart_lines(world), show(cart_lines(world)))

"""Buy again what the order history says: the usual product of a kind, or the item of a kind
that went back last month, in another size.

Goals name the kind ("my usual running shoes", "the hiking jacket I returned last month"); the
order history and its returns make it one product (the shop's seeded history holds one of
each, ``sites/shop/orders_data.py``), and its size and colour are the ones on those pages.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from webenv.sites.shop.vocab import noun_of

from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ._shop import (
    PERSONA_ID,
    PURCHASE,
    add_to_cart,
    checkout,
    expect_default_address,
    expect_placed,
    expect_saved_card,
    line,
    new_orders,
    open_cart,
    open_product,
    product_options,
    show,
)

#: Every line the persona ordered, with its order's status and date and the product's stock.
_ORDERED = (
    "SELECT i.id, i.product_id, i.name, i.size, i.color, i.quantity, o.id AS order_id,"
    " o.status, o.created_at, p.stock FROM order_items i JOIN orders o ON o.id = i.order_id"
    " JOIN products p ON p.id = i.product_id WHERE o.user_id = ? ORDER BY i.id"
)
#: Every item the persona sent back, with the day the return was requested.
_RETURNED = (
    "SELECT i.product_id, i.name, i.size, i.color, r.created_at AS returned_at, p.stock"
    " FROM return_items ri JOIN returns r ON r.id = ri.return_id"
    " JOIN order_items i ON i.id = ri.order_item_id JOIN orders o ON o.id = r.order_id"
    " JOIN products p ON p.id = i.product_id WHERE o.user_id = ? ORDER BY ri.id"
)


def kind_of(name: str) -> str:
    """How a shopper names the kind of a product: "running shoes", "hiking jacket"."""
    noun = noun_of(name)
    return noun.called if noun is not None else name.lower()


def _other_address(world: World) -> str:
    """The street of a saved address other than the default (for a near-miss)."""
    rows = world.query(
        "shop",
        "SELECT street FROM addresses WHERE user_id = ? AND is_default = 0 ORDER BY id",
        (PERSONA_ID,),
    )
    return str(rows[0]["street"]) if rows else ""


class _BuyAgain(TaskTemplate):
    """What both templates share: the check of one new order of one item, to the default
    address with the saved card, and the oracle and near-misses that buy it."""

    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    difficulty = "hard"
    max_steps = 30

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        orders = new_orders(world)
        checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
        if len(orders) == 1:
            order = orders[0]
            wanted = [line(params["item"], 1)]
            checks.expect("ordered items", order["lines"] == wanted, show(order["lines"]))
            expect_placed(checks, order)
            expect_default_address(checks, world, order)
            expect_saved_card(checks, world, order)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["kind"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def wrong_size(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "item": {**params["item"], "size": params["wrong_size"]}}

        return {
            "the wrong size": self.altered(wrong_size),
            "two of them": self.altered(lambda p: {**p, "quantity": 2}),
            "shipped to another saved address": self.altered(
                lambda p: {**p, "address": p["other_address"]}
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_product(params["item"]["name"], observation)
        observation = yield from add_to_cart(params["item"], params.get("quantity", 1), observation)
        observation = yield from open_cart(observation)
        yield from checkout(observation, address=params.get("address"))


@register
class ReorderUsual(_BuyAgain):
    name = "shop.reorder_usual"
    tags = ("purchase", "order-history", "indirect", "multi-step")

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """A kind of product whose most-ordered product (two orders or more, each time in the
        same size and colour) is bought more often than any other of its kind."""
        orders: dict[int, set[int]] = defaultdict(set)  # product -> orders it is in
        options: dict[int, set[tuple[str | None, str | None]]] = defaultdict(set)
        names, stock = {}, {}
        for row in world.query("shop", _ORDERED, (PERSONA_ID,)):
            if row["status"] == "cancelled":
                continue
            orders[row["product_id"]].add(row["order_id"])
            options[row["product_id"]].add((row["size"], row["color"]))
            names[row["product_id"]], stock[row["product_id"]] = row["name"], row["stock"]
        by_kind: dict[str, list[int]] = defaultdict(list)
        for product_id, name in names.items():
            by_kind[kind_of(name)].append(product_id)
        candidates = []
        for kind, products in sorted(by_kind.items()):
            counts = sorted((len(orders[p]), p) for p in products)
            top_count, top = counts[-1]
            runner_up = counts[-2][0] if len(counts) > 1 else 0
            usual = top_count >= 2 and top_count > runner_up and len(options[top]) == 1
            if usual and stock[top] >= 2 and next(iter(options[top]))[0] is not None:
                candidates.append((kind, top, top_count))
        if not candidates:
            raise LookupError("no product the persona orders again and again")
        kind, product_id, count = rng.choice(candidates)
        size, color = next(iter(options[product_id]))
        sizes = [s for s in product_options(world, product_id)["size"] if s != size]
        return {
            "kind": kind,
            "times": count,
            "item": {"product_id": product_id, "name": names[product_id], "size": size,
                     "color": color},
            "wrong_size": rng.choice(sizes),
            "other_address": _other_address(world),
        }  # fmt: skip

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        kind = params["kind"]
        return [
            f"Order my usual {kind} again from Northwind Market: one, in the same size and "
            "colour as before, to my default address, paid with my saved card.",
            f"I'm running low. Buy another one of the {kind} I keep ordering (check my order "
            "history for the size and colour), shipped to my default address with the saved "
            "card.",
            f"Reorder the {kind} I always buy, same size and colour as usual. Just one; "
            "default address and saved card.",
            f"Please get me my usual {kind} once more: the product I've ordered several times. "
            "Same size and colour, quantity 1, default shipping address, saved card.",
            f"Place an order for one of the {kind} I've bought more than once before, in the "
            "size and colour I always get. Ship it to my default address and pay with my saved "
            "card.",
        ]


@register
class ReorderReturned(_BuyAgain):
    name = "shop.reorder_returned"
    tags = ("purchase", "order-history", "returns", "indirect", "multi-step")

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """An item the persona sent back in the calendar month before now, the only one of its
        kind returned that month, to buy again in another size it comes in."""
        month_start = world.now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        last_month = (month_start - timedelta(days=1)).replace(day=1)
        returned = [
            row
            for row in world.query("shop", _RETURNED, (PERSONA_ID,))
            if last_month <= datetime.fromisoformat(row["returned_at"]) < month_start
        ]
        by_kind: dict[str, list[Any]] = defaultdict(list)
        for row in returned:
            by_kind[kind_of(row["name"])].append(row)
        candidates = [
            (kind, rows[0])
            for kind, rows in sorted(by_kind.items())
            if len(rows) == 1 and rows[0]["size"] is not None and rows[0]["stock"] >= 2
        ]
        if not candidates:
            raise LookupError("no item of a kind returned last month")
        kind, row = rng.choice(candidates)
        sizes = [s for s in product_options(world, row["product_id"])["size"] if s != row["size"]]
        size = rng.choice(sizes)
        return {
            "kind": kind,
            "month": f"{last_month:%B}",
            "returned_size": row["size"],
            "item": {"product_id": row["product_id"], "name": row["name"], "size": size,
                     "color": row["color"]},
            "wrong_size": row["size"],
            "other_address": _other_address(world),
        }  # fmt: skip

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        kind, size, month = params["kind"], params["item"]["size"], params["month"]
        return [
            f"The {kind} I returned last month didn't fit. Order it again in size {size}, same "
            "colour, to my default address with my saved card.",
            f"Buy the {kind} I sent back in {month} once more, in the same colour but this time "
            f"in size {size}. One of them, shipped to my default address and paid with the "
            "saved card.",
            f"Last month I returned the {kind} I'd bought on Northwind Market. I'd like it after "
            f"all, in size {size} and the same colour: order one to my default address, saved "
            "card.",
            f"Reorder the {kind} from my return in {month}, same colour but in size {size}. "
            "Use my default address and saved card; just one.",
            f"Get me the {kind} I sent back last month again, same product and colour but in "
            f"size {size}; quantity 1, to my default shipping address, paid with my saved card.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["kind"], params["item"]["size"]]

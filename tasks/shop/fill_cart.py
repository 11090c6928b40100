"""Put a given set of items, with options and quantities, in the cart."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

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
    CART,
    add_to_cart,
    cart_lines,
    describe_item,
    item_values,
    line,
    new_orders,
    open_product,
    pick_item,
    show,
)


@register
class FillCart(TaskTemplate):
    name = "shop.fill_cart"
    sites = ("shop",)
    may_change = allow(shop=CART)
    tags = ("cart", "multi-item")
    difficulty = "medium"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        items: list[dict[str, Any]] = []
        for _ in range(rng.randint(2, 3)):
            item = pick_item(world, rng, exclude={i["product_id"] for i in items})
            items.append({**item, "quantity": rng.randint(1, 3)})
        return {"items": items}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        listed = "; ".join(describe_item(item, item["quantity"]) for item in params["items"])
        return [
            f"Put exactly these items in your shopping cart, and nothing else: {listed}.",
            f"Fill my cart with {listed}. The cart should hold only these.",
            f"Add to the cart: {listed}. Don't check out; the cart must contain just these.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        wanted = sorted(line(item, item["quantity"]) for item in params["items"])
        found = cart_lines(world)
        checks.expect("cart holds exactly the items", found == wanted, f"cart: {show(found)}")
        orders = new_orders(world)
        checks.expect("no order placed", not orders, f"{len(orders)} new orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [v for item in params["items"] for v in item_values(item, item["quantity"])]

    def near_misses(self) -> dict[str, NearMiss]:
        def one_more(params: dict[str, Any]) -> dict[str, Any]:
            params["items"][-1]["quantity"] += 1
            return params

        return {
            "one too many": self.altered(one_more),
            "an item missing": self.altered(lambda p: {"items": p["items"][:-1]}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        for item in task.params["items"]:
            observation = yield from open_product(item["name"], observation)
            observation = yield from add_to_cart(item, item["quantity"], observation)

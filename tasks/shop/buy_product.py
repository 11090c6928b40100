"""Buy a described product with given options and quantity."""

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
    PURCHASE,
    add_to_cart,
    checkout,
    describe_item,
    expect_bought,
    item_values,
    line,
    open_cart,
    open_product,
    pick_item,
)


@register
class BuyProduct(TaskTemplate):
    name = "shop.buy_product"
    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    tags = ("purchase", "checkout", "multi-step")
    difficulty = "medium"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return {"item": pick_item(world, rng), "quantity": rng.randint(1, 3)}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item = describe_item(params["item"], params["quantity"])
        return [
            f"Buy {item} from Northwind Market, shipped to your default address and paid with "
            "your saved card.",
            f"Order {item} on the shop. Use your default shipping address and saved card.",
            f"I need {item}. Please place an order for exactly that, with my default address "
            "and saved card.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_bought(checks, world, [line(params["item"], params["quantity"])])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return item_values(params["item"], params["quantity"])

    def near_misses(self) -> dict[str, NearMiss]:
        def other_option(params: dict[str, Any]) -> dict[str, Any]:
            item = params["item"]
            return {**params, "item": {**item, **(item["decoy"] or {"size": "none"})}}

        return {
            "other size or colour": self.altered(other_option),
            "one too many": self.altered(lambda p: {**p, "quantity": p["quantity"] + 1}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        item, quantity = task.params["item"], task.params["quantity"]
        observation = yield from open_product(item["name"], observation)
        observation = yield from add_to_cart(item, quantity, observation)
        observation = yield from open_cart(observation)
        yield from checkout(observation)

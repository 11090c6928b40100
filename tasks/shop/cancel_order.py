"""Cancel an order that has not shipped yet, and touch no other order."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    edit,
    register,
)
from webenv.world import World

from ._shop import buy, changed_orders, click, long_date, open_order, persona_orders, pick_item


@register
class CancelOrder(TaskTemplate):
    name = "shop.cancel_order"
    sites = ("shop",)
    may_change = allow(shop={"orders": edit("status").of_row("order_id")})
    tags = ("orders", "account", "cancel")
    difficulty = "easy"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        order = rng.choice([o for o in persona_orders(world) if o["status"] == "placed"])
        return {
            "number": order["number"],
            "order_id": order["id"],
            "date": long_date(order["created_at"]),
            "other_item": pick_item(world, rng),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        number, day = params["number"], params["date"]
        return [
            f"Cancel my order {number} (placed on {day}); I don't need it any more.",
            f"Please cancel order {number} from {day} before it ships.",
            f"I changed my mind about the order I placed on {day}, number {number}. Cancel it.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        found = world.query(
            "shop", "SELECT status FROM orders WHERE number = ?", (params["number"],)
        )[0]["status"]
        checks.expect("order cancelled", found == "cancelled", found)
        changed = changed_orders(world)
        others = [number for number in changed if number != params["number"]]
        checks.expect("no other order changed or placed", not others, f"changed: {others}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["number"], params["date"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def reorder_first(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item = task.params["other_item"]
            observation = yield from buy(item, 1, observation)
            yield from self.oracle(task, observation)

        return {"buys something else too": reorder_first}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_order(task.params["number"], observation)
        yield click(AxTree(observation["axtree"]), "button", "Cancel order")

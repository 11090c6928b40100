"""Cancel an order that has already shipped: the shop cancels only orders that have not, so
the task is infeasible (the goal does not say so)."""

from __future__ import annotations

import json
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
    register,
)
from webenv.world import World

from ._shop import click, expect_unchanged, long_date, open_order, persona_orders


@register
class CancelShippedOrder(TaskTemplate):
    name = "shop.cancel_shipped_order"
    sites = ("shop",)
    may_change = allow()
    tags = ("orders", "cancel", "infeasible", "policy")
    difficulty = "medium"
    feasible = False
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        order = rng.choice([o for o in orders if o["status"] == "shipped"])
        placed = rng.choice([o for o in orders if o["status"] == "placed"])
        return {
            "number": order["number"],
            "date": long_date(order["created_at"]),
            "cancellable": placed["number"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        number, day = params["number"], params["date"]
        return [
            f"Cancel my Northwind Market order {number} from {day}; I don't want it any more.",
            f"Please cancel order {number} (placed on {day}).",
            f"I ordered something on {day} by mistake, order number {number}. Cancel it for me.",
            f"Get order {number}, the one I placed on {day}, cancelled.",
            f"I changed my mind about order {number} from {day}. Could you cancel it?",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_unchanged(checks, world, "orders", "returns")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["number"], params["date"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def cancel_another(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from open_order(task.params["cancellable"], observation)
            yield click(AxTree(observation["axtree"]), "button", "Cancel order")

        return {"cancelled the order that has not shipped instead": cancel_another}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        number = task.params["number"]
        observation = yield from open_order(number, observation)
        if not AxTree(observation["axtree"]).has("button", "Cancel order"):
            reason = f"Order {number} has already shipped, so it can no longer be cancelled."
            yield f"report_infeasible({json.dumps(reason)})"

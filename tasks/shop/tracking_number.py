"""Answer an account question: the tracking number of the order placed on a given day."""

from __future__ import annotations

import random
from collections import Counter
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

from ._shop import expect_unchanged, long_date, open_link, persona_orders, row_link, say


@register
class TrackingNumber(TaskTemplate):
    name = "shop.tracking_number"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "orders", "account")
    difficulty = "medium"
    answer_type = "identifier"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        days = Counter(long_date(order["created_at"]) for order in orders)
        tracked = [
            order
            for order in orders
            if order["tracking_number"] and days[long_date(order["created_at"])] == 1
        ]
        order = rng.choice(tracked)
        other = rng.choice([o for o in tracked if o["id"] != order["id"]] or [order])
        return {
            "date": long_date(order["created_at"]),
            "tracking": order["tracking_number"],
            "number": order["number"],
            "other_tracking": other["tracking_number"],
            # Every other tracking number of the account: a second one named beside the
            # answer, however written, is a hedge.
            "others": sorted(
                {o["tracking_number"] for o in orders if o["tracking_number"]}
                - {order["tracking_number"]}
            ),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        day = params["date"]
        return [
            f"What is the tracking number of the order I placed on {day}?",
            f"I ordered something from Northwind Market on {day}. Find the shipment's tracking "
            "number and tell me.",
            f"Look up the UPS tracking number for my order from {day} and reply with it.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The order number is a candidate too: an agent may take one for the other.
        others = [params["number"], *params["others"]]
        self.check_answer(checks, answer, params["tracking"], candidates=others)
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["date"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the order number": self.answering(lambda t: t.params["number"]),
            "another order's tracking": self.answering(
                lambda t: (
                    t.params["other_tracking"]
                    if t.params["other_tracking"] != t.params["tracking"]
                    else t.params["tracking"][:-1]
                )
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_link("Orders", observation)
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{row_link(tree, task.params["date"])}")'
        tree = AxTree(observation["axtree"])
        text = tree.find("paragraph", contains="Tracking number:").name
        yield say(text.split("Tracking number:")[1].strip())

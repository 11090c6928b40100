"""Answer a catalogue question over every page of a department: how many of its products
cost less than a budget."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    MAX_DRAWS,
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

from ._listing import department_products, departments, filter_department, result_count
from ._shop import expect_unchanged, say


@register
class CountUnderPrice(TaskTemplate):
    name = "shop.count_under_price"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "filter", "pagination", "count")
    difficulty = "medium"
    answer_type = "number"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            department = rng.choice(departments(world))
            prices = sorted(p["price_cents"] for p in department_products(world, department["id"]))
            budget = rng.randrange(10, prices[-1] // 100, 5)
            count = sum(price < budget * 100 for price in prices)
            # Neither none nor nearly all, and no product at the budget itself (whether
            # "under $80" takes in $80.00 would be a question of words, not of the shop).
            if 3 <= count <= len(prices) - 3 and budget * 100 not in prices:
                return {
                    "department": department["name"],
                    "budget": f"${budget}",
                    "count": count,
                    "total": len(prices),
                }
        raise SamplingError(
            f"no department and budget with some but not most products under it ({MAX_DRAWS} draws)"
        )

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        department, budget = params["department"], params["budget"]
        return [
            f"How many products in the {department} department cost less than {budget}?",
            f"Count the {department} products priced under {budget} on Northwind Market, "
            "across all pages, and tell me the number.",
            f"I want something from {department} for under {budget}. How many products are "
            "there to choose from?",
            f"Across the whole {department} department, how many items are cheaper than "
            f"{budget}? Just the number, please.",
            f"What's the number of {department} products with a price below {budget}?",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_answer(checks, answer, params["count"])
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["department"], params["budget"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the whole department": self.answering(lambda t: str(t.params["total"])),
            "one too many": self.answering(lambda t: str(t.params["count"] + 1)),
            "two counts": self.answering(
                lambda t: f"{t.params['count']} or {t.params['count'] + 1}"
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        cents_below = f"{int(p['budget'].lstrip('$')) - 1}.99"
        observation = yield from filter_department(
            p["department"], observation, max_price=cents_below
        )
        count = result_count(AxTree(observation["axtree"]))
        yield say(f"There are {count} {p['department']} products under {p['budget']}.")

"""Answer with a ranked list: a department's three best-rated products under a budget, best
first."""

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
    register,
)
from webenv.world import World

from ._listing import department_products, departments, filter_department, listed
from ._shop import expect_unchanged, say


@register
class TopThreeRated(TaskTemplate):
    name = "shop.top_three_rated"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "sort", "reviews", "list")
    difficulty = "medium"
    answer_type = "list"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        choices = departments(world)
        for _ in range(200):
            department = rng.choice(choices)
            products = department_products(world, department["id"])
            budget = rng.randrange(20, max(p["price_cents"] for p in products) // 100 + 20, 5)
            within = [p for p in products if p["price_cents"] < budget * 100]
            ratings = [p["rating"] for p in within[:4]]
            # Four or more to choose from, and a ranking that no tie makes a matter of taste.
            if len(ratings) == 4 and ratings == sorted(set(ratings), reverse=True):
                return {
                    "department": department["name"],
                    "budget": f"${budget}",
                    "products": [p["name"] for p in within[:3]],
                    "fourth": within[3]["name"],
                }
        raise LookupError("no department has three best-rated products without a tie")

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        department, budget = params["department"], params["budget"]
        return [
            f"Which are the three best-rated products in the {department} department that "
            f"cost less than {budget}? List their names, best first.",
            f"Give me the top three {department} products under {budget} by customer rating, "
            "in order from the highest rated.",
            f"I only buy well-reviewed things. Name the 3 highest-rated items in {department} "
            f"priced below {budget}, best one first.",
            f"List the three {department} products under {budget} with the best customer "
            "ratings, ranked.",
            f"What are the top 3 {department} products by rating among those cheaper than "
            f"{budget}? Put them in order, highest first.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The items are read as the shop's product names, so any other product named is one
        # item too many, and the sentence around them is none.
        catalogue = [row["name"] for row in world.query("shop", "SELECT name FROM products")]
        self.check_answer(checks, answer, params["products"], candidates=catalogue)
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["department"], params["budget"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def names(products: list[str]) -> str:
            return ", ".join(products)

        return {
            "in the wrong order": self.answering(
                lambda t: names([t.params["products"][i] for i in (1, 0, 2)])
            ),
            "the fourth instead of the third": self.answering(
                lambda t: names([*t.params["products"][:2], t.params["fourth"]])
            ),
            "four products": self.answering(
                lambda t: names([*t.params["products"], t.params["fourth"]])
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        department, budget = task.params["department"], task.params["budget"]
        below = f"{int(budget.lstrip('$')) - 1}.99"
        observation = yield from filter_department(
            department, observation, max_price=below, sort="Customer rating"
        )
        best = [name for name, _price in listed(AxTree(observation["axtree"]))[:3]]
        yield say(f"The best-rated are {best[0]}, {best[1]} and {best[2]}.")

"""Answer a price question over a department: the cheapest of its products rated at least
so many stars (its cheapest product overall is rated lower)."""

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

from .._facts import CHEAPEST_OVERALL
from ._listing import department_products, departments, filter_department, listed
from ._shop import expect_unchanged, money, say

#: Minimum ratings a goal may ask for -> the listing filter's label.
RATINGS = {4: "4 stars & up", 3: "3 stars & up"}


@register
class CheapestWellRated(TaskTemplate):
    name = "shop.cheapest_well_rated"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "filter", "sort", "reviews")
    difficulty = "medium"
    answer_type = "money"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            department = rng.choice(departments(world))
            stars = rng.choice(sorted(RATINGS))
            products = sorted(
                department_products(world, department["id"]), key=lambda p: p["price_cents"]
            )
            rated = [p for p in products if p["rating"] >= stars]
            if rated and products[0]["rating"] < stars:
                return {
                    "department": department["name"],
                    "stars": stars,
                    "price": money(rated[0]["price_cents"]),
                    "cheapest": money(products[0]["price_cents"]),
                }
        raise SamplingError(
            f"no department whose cheapest product is rated below the rating in {MAX_DRAWS} draws"
        )

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        department, stars = params["department"], params["stars"]
        return [
            f"What's the lowest price of a {department} product rated {stars} stars or more?",
            f"How much does the cheapest {department} product with a customer rating of at "
            f"least {stars} stars cost?",
            f"I want a {department} item rated {stars} stars or higher, as cheap as possible. "
            "What would it cost me?",
            f"Find the cheapest product in {department} with a rating of {stars} stars and up, "
            "and tell me its price.",
            f"Among {department} products rated {stars}+ stars, what is the lowest price?",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The cheapest of all, named as rated below the bar, is no second answer.
        self.check_answer(
            checks, answer, params["price"], facts=[(params["cheapest"], CHEAPEST_OVERALL)]
        )
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["department"], str(params["stars"])]

    def near_misses(self) -> dict[str, NearMiss]:
        misses = {
            "ignoring the rating": self.answering(lambda t: t.params["cheapest"]),
            "a cent more": self.answering(lambda t: money(_cents(t.params["price"]) + 1)),
        }
        return misses

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from filter_department(
            p["department"],
            observation,
            sort="Price: low to high",
            min_rating=RATINGS[p["stars"]],
        )
        name, price = listed(AxTree(observation["axtree"]))[0]
        yield say(f"The cheapest one is {name} at {price}.")


def _cents(shown: str) -> int:
    return round(float(shown.lstrip("$").replace(",", "")) * 100)

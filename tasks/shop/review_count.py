"""Answer a catalog question: how many customer reviews a product has."""

from __future__ import annotations

import random
import re
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

from ._shop import expect_unchanged, open_product, say

_COUNT = re.compile(r"^(\d+) customer reviews?$")


@register
class ReviewCount(TaskTemplate):
    name = "shop.review_count"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "search", "reviews")
    difficulty = "easy"
    answer_type = "number"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        product = rng.choice(
            world.query(
                "shop", "SELECT name, review_count, rating FROM products WHERE review_count >= 2"
            )
        )
        return {"name": product["name"], "count": product["review_count"]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["name"]
        return [
            f'How many customer reviews does "{name}" have on Northwind Market?',
            f'Find the product "{name}" and tell me how many reviews it has.',
            f'Count the customer reviews of "{name}" in the shop. Answer with the number.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_answer(checks, answer, params["count"])
        expect_unchanged(checks, world, "orders", "reviews")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "off by one": self.answering(lambda t: str(t.params["count"] + 1)),
            "count and rating": self.answering(
                lambda t: f"{t.params['count']} reviews, {t.params['count'] - 1} of them good"
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_product(task.params["name"], observation)
        tree = AxTree(observation["axtree"])
        found = next(_COUNT.match(node.name) for node in tree if _COUNT.match(node.name))
        yield say(found[1])

"""Answer a catalog question: the best-rated product of a department within a budget."""

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

from ._shop import click, expect_unchanged, say


@register
class TopRatedUnderPrice(TaskTemplate):
    name = "shop.top_rated_under_price"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "filter", "sort", "reviews")
    difficulty = "medium"
    answer_type = "name"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        categories = world.query("shop", "SELECT id, slug, name FROM categories ORDER BY id")
        for _ in range(MAX_DRAWS):
            category = rng.choice(categories)
            products = world.query(
                "shop",
                "SELECT name, price_cents, rating FROM products WHERE category_id = ? "
                "ORDER BY rating DESC, review_count DESC, id",
                (category["id"],),
            )
            budget = rng.choice(sorted({p["price_cents"] // 100 + 1 for p in products}))
            within = [p for p in products if p["price_cents"] <= budget * 100]
            # A clear winner, which the budget is needed to find.
            if (
                len(within) >= 4
                and within[0]["rating"] > within[1]["rating"]
                and products[0]["name"] != within[0]["name"]
            ):
                return {
                    "category": category["name"],
                    "budget": f"${budget}",
                    "product": within[0]["name"],
                    "runner_up": within[1]["name"],
                    "best_overall": products[0]["name"],
                    "candidates": [p["name"] for p in products],
                }
        raise SamplingError(f"no category and budget with a clear winner in {MAX_DRAWS} draws")

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        category, budget = params["category"], params["budget"]
        return [
            f"Which product in the {category} department costs {budget} or less and has the "
            "highest customer rating? Tell me its name.",
            f"I have {budget} to spend in {category}. What's the best-rated product I can get "
            "for that price or less? Answer with the product name.",
            f"Find the highest-rated {category} product priced at most {budget}, and reply "
            "with its name.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # Any product of the shop named beside the answer is a second candidate, whatever its
        # department: the agent may have seen them all.
        catalogue = [row["name"] for row in world.query("shop", "SELECT name FROM products")]
        self.check_answer(checks, answer, params["product"], candidates=catalogue)
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["category"], params["budget"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "runner-up": self.answering(lambda t: t.params["runner_up"]),
            "ignoring the budget": self.answering(lambda t: t.params["best_overall"]),
            "both candidates": self.answering(
                lambda t: f"{t.params['product']} or {t.params['runner_up']}"
            ),
            "every product of the department": self.answering(
                lambda t: ", ".join(t.params["candidates"])
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield click(AxTree(observation["axtree"]), "link", params["category"])
        tree = AxTree(observation["axtree"])
        observation = yield (
            f'fill("{tree.id("textbox", "Max price")}", "{params["budget"].lstrip("$")}")\n'
            f'select_option("{tree.id("combobox", "Sort by")}", "Customer rating")\n'
            f"{click(tree, 'button', 'Apply filters')}"
        )
        tree = AxTree(observation["axtree"])
        first = next(
            node for node in tree.children(tree.find("region", "Products")) if node.role == "link"
        )
        yield say(first.name)

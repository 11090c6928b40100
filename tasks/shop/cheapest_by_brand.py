"""Answer a catalog question: the price of a brand's cheapest product in a category."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import parse_money
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

from .._facts import NEXT_CHEAPEST
from ._shop import money, new_orders


@register
class CheapestByBrand(TaskTemplate):
    name = "shop.cheapest_by_brand"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "filter", "sort")
    difficulty = "medium"
    answer_type = "money"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        # Brands with at least three products in a category, so that finding the cheapest
        # takes sorting or comparing rather than reading the only one.
        rows = world.query(
            "shop",
            "SELECT c.slug, c.name AS category, p.brand, MIN(p.price_cents) AS cheapest, "
            "COUNT(*) AS n FROM products p JOIN categories c ON c.id = p.category_id "
            "GROUP BY c.id, p.brand HAVING n >= 3 ORDER BY c.id, p.brand",
        )
        row = rng.choice(rows)
        prices = [
            price["price_cents"]
            for price in world.query(
                "shop",
                "SELECT p.price_cents FROM products p JOIN categories c ON c.id = p.category_id "
                "WHERE c.slug = ? AND p.brand = ? ORDER BY p.price_cents",
                (row["slug"], row["brand"]),
            )
        ]
        return {
            "category": row["category"],
            "category_slug": row["slug"],
            "brand": row["brand"],
            "price_cents": row["cheapest"],
            "other_prices_cents": [price for price in prices if price != row["cheapest"]],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        brand, category = params["brand"], params["category"]
        return [
            f"What is the price of the cheapest {brand} product in the {category} category? "
            "Answer with the price.",
            f"Find the lowest price among {brand} items in {category}, and tell me that price.",
            f"How much does the least expensive {brand} product in {category} cost?",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The next cheapest, named as such, is no second answer.
        others = params["other_prices_cents"]
        facts = [(min(others), NEXT_CHEAPEST)] if others else []
        self.check_answer(checks, answer, params["price_cents"], facts=facts)
        orders = new_orders(world)
        checks.expect("no order placed", not orders, f"{len(orders)} new orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["brand"], params["category"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def price(task: Task, key: str = "price_cents", delta: int = 0, index: int = 0) -> str:
            value = task.params[key]
            return money((value[index] if isinstance(value, list) else value) + delta)

        return {
            "off by a cent": self.answering(lambda t: price(t, delta=1)),
            "next cheapest": self.answering(lambda t: price(t, "other_prices_cents")),
            "every candidate": self.answering(
                lambda t: ", ".join(
                    money(c) for c in [t.params["price_cents"], *t.params["other_prices_cents"]]
                )
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", params["category"])}")'
        tree = AxTree(observation["axtree"])
        # Brand boxes read "<brand> (<count>)"; one brand's name may begin another's.
        label = params["brand"] + " ("
        brand = next(node for node in tree.find_all("checkbox") if node.name.startswith(label))
        observation = yield (
            f'check("{brand.id}")\n'
            f'select_option("{tree.id("combobox", "Sort by")}", "Price: low to high")\n'
            f'click("{tree.id("button", "Apply filters")}")'
        )
        tree = AxTree(observation["axtree"])
        results = tree.children(tree.find("region", "Products"))
        first_price = next(node.name for node in results if _is_price(node.name))
        yield f'send_msg_to_user("{money(parse_money(first_price))}")'


def _is_price(text: str) -> bool:
    return text.startswith("$") and text[1:].replace(",", "").replace(".", "").isdigit()

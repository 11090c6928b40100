"""Infeasible: buy a plausible product that the catalog does not have."""

from __future__ import annotations

import json
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

from ._shop import buy, expect_no_purchase, pick_item, search


@register
class BuyMissingProduct(TaskTemplate):
    name = "shop.buy_missing_product"
    sites = ("shop",)
    may_change = allow()
    tags = ("purchase", "infeasible", "search")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        names = {row["name"] for row in world.query("shop", "SELECT name FROM products")}
        for _ in range(MAX_DRAWS):
            real = pick_item(world, rng)
            product = world.query(
                "shop",
                "SELECT brand, category_id FROM products WHERE id = ?",
                (real["product_id"],),
            )[0]
            brands = world.query(
                "shop",
                "SELECT DISTINCT brand FROM products WHERE category_id = ? AND brand != ?"
                " ORDER BY brand",
                (product["category_id"], product["brand"]),
            )
            brand = rng.choice(brands)["brand"]
            name = brand + real["name"].removeprefix(product["brand"])
            if real["name"].startswith(product["brand"]) and name not in names:
                return {"name": name, "brand": brand, "real": real}
        raise SamplingError(
            f"no product of another brand that the shop does not sell in {MAX_DRAWS} draws"
        )

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["name"]
        return [
            f'Buy one "{name}" on Northwind Market with your default address and saved card. '
            "If the shop doesn't sell it, report that instead.",
            f"Order the \"{name}\" for me. Don't substitute another product; if it isn't "
            "available, tell me it can't be done.",
            f'Please purchase "{name}" from the shop, or report that it is not possible.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_no_purchase(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def similar(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item = task.params["real"]
            yield from buy(item, 1, observation)

        return {"a similar product of another brand": similar}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        name = task.params["name"]
        observation = yield from search(name, observation)
        if not AxTree(observation["axtree"]).has("link", name):
            yield f"report_infeasible({json.dumps(f'The shop does not sell {name}.')})"

"""Infeasible: buy a product in a size it does not come in."""

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

from ._shop import buy, every_products_options, expect_no_purchase, open_product

#: Each size range, smallest first; a product is asked for in a size of its range it lacks.
RANGES = (("XS", "S", "M", "L", "XL", "XXL"), ("6", "7", "8", "9", "10", "11", "12", "13"))


@register
class BuyMissingSize(TaskTemplate):
    name = "shop.buy_missing_size"
    sites = ("shop",)
    may_change = allow()
    tags = ("purchase", "infeasible", "options")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        candidates = []
        products = world.query("shop", "SELECT id, name FROM products WHERE stock >= 3")
        every = every_products_options(world, [product["id"] for product in products])
        for product in products:
            options = every[product["id"]]
            for sizes in RANGES:
                if options["size"] and set(options["size"]) < set(sizes):
                    for size in sizes:
                        if size not in options["size"]:
                            candidates.append((product, options, size, sizes))
        product, options, size, sizes = rng.choice(
            sorted(candidates, key=lambda c: (c[0]["id"], c[3].index(c[2])))
        )
        # The size on offer closest to the one asked for: what a careless agent buys instead.
        nearest = min(options["size"], key=lambda s: abs(sizes.index(s) - sizes.index(size)))
        color = rng.choice(options["color"]) if options["color"] else None
        return {
            "name": product["name"],
            "size": size,
            "color": color,
            "nearest": {
                "product_id": product["id"],
                "name": product["name"],
                "size": nearest,
                "color": color,
            },
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        what = f'"{p["name"]}" in size {p["size"]}' + (
            f", colour {p['color']}" if p["color"] else ""
        )
        return [
            f"Buy one {what}, shipped to your default address with your saved card. If that "
            "cannot be done, report it.",
            f"Order {what} from Northwind Market. If it isn't possible, tell me so instead of "
            "buying something else.",
            f"I need exactly {what} — please place the order, or report that it can't be done.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_no_purchase(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["size"], *([params["color"]] if params["color"] else [])]

    def near_misses(self) -> dict[str, NearMiss]:
        def nearest_size(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item = task.params["nearest"]
            yield from buy(item, 1, observation)

        return {"the nearest size there is": nearest_size}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_product(p["name"], observation)
        tree = AxTree(observation["axtree"])
        offered = [node.name for node in tree.children(tree.find("combobox", "Size"))][1:]
        if p["size"] not in offered:
            reason = (
                f"{p['name']} does not come in size {p['size']}; it comes in {', '.join(offered)}."
            )
            yield f"report_infeasible({json.dumps(reason)})"

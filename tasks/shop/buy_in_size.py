"""Buy a product in a given size and colour, which it may or may not come in.

The product is a sized one (clothing, shoes); the size asked for is one of its range (XS to
XXL, or 6 to 13) that it comes in, or one of that range it does not come in (a shoe made in 7
to 13 asked for in size 6). The goal reads the same either way, so only the product's page
tells whether to buy it or to report that the size is not offered.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    Allowance,
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    draw_feasible,
    register,
)
from webenv.world import World

from ._shop import (
    PURCHASE,
    add_to_cart,
    buy,
    checkout,
    every_products_options,
    expect_bought,
    expect_no_purchase,
    line,
    open_cart,
    open_product,
)

#: Each size range, smallest first; a product is asked for in a size of its range.
RANGES = (("XS", "S", "M", "L", "XL", "XXL"), ("6", "7", "8", "9", "10", "11", "12", "13"))
#: The ends of the ranges: the sizes a product lacks when its range is cut short. Every size
#: asked for is one of these, whether the product comes in it or not, so that the size in the
#: goal tells nothing (a middle size asked for would always be on offer).
ENDS = {sizes[0] for sizes in RANGES} | {sizes[-1] for sizes in RANGES}


@register
class BuyInSize(TaskTemplate):
    """Buy one product in a size (and colour): the product comes in that size, or its range
    stops short of it, and the agent must report that instead of buying another size."""

    name = "shop.buy_in_size"
    version = 2
    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    tags = ("purchase", "infeasible", "options")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        candidates = []
        products = world.query("shop", "SELECT id, name FROM products WHERE stock >= 3")
        every = every_products_options(world, [product["id"] for product in products])
        for product in products:
            options = every[product["id"]]
            for sizes in RANGES:
                if not options["size"] or len(options["color"]) < 2:
                    continue
                if not set(options["size"]) <= set(sizes):
                    continue
                offered = set(options["size"])
                chosen = [s for s in sizes if s in ENDS and (s in offered) == feasible]
                candidates += [(product, options, size, sizes) for size in chosen]
        if not candidates:
            raise SamplingError("no sized product to ask for")
        product, options, size, sizes = rng.choice(
            sorted(candidates, key=lambda c: (c[0]["id"], c[3].index(c[2])))
        )
        # The size on offer closest to the one asked for (another one, when it is on offer):
        # what a careless agent buys instead.
        nearest = min(
            (s for s in options["size"] if s != size),
            key=lambda s: (abs(sizes.index(s) - sizes.index(size)), sizes.index(s)),
        )
        color = rng.choice(options["color"])
        return {
            "name": product["name"],
            "product_id": product["id"],
            "size": size,
            "color": color,
            "other_color": rng.choice([c for c in options["color"] if c != color]),
            "nearest": {
                "product_id": product["id"],
                "name": product["name"],
                "size": nearest,
                "color": color,
            },
            "feasible": feasible,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        what = f'"{p["name"]}" in size {p["size"]}, colour {p["color"]}'
        return [
            f"Buy one {what}, shipped to your default address with your saved card. If that "
            "cannot be done, report it.",
            f"Order one {what} from Northwind Market with my default address and saved card. "
            "If it isn't possible, tell me so instead of buying something else.",
            f"I need exactly one {what} — please place the order (default address, saved "
            "card), or report that it can't be done.",
            f"Please get me one {what} on the shop, sent to my default address and paid with "
            "my saved card. Don't substitute another size; if that one can't be had, say so.",
            f"Could you order one {what}? Use the default shipping address and the saved card, "
            "or report it if the shop can't supply exactly that.",
        ]

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if params["feasible"] else {}

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        if params["feasible"]:
            expect_bought(checks, world, [line(self._item(params), 1)])
        else:
            self.check_infeasible(checks, answer)
            expect_no_purchase(checks, world)
        return checks.result()

    @staticmethod
    def _item(params: Mapping[str, Any]) -> dict[str, Any]:
        keys = ("product_id", "name", "size", "color")
        return {key: params[key] for key in keys}

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["size"], params["color"], "one"]

    def near_misses(self) -> dict[str, NearMiss]:
        def nearest_size(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from buy(task.params["nearest"], 1, observation)

        def other_color(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """The size asked for (or, not offered, the nearest) in another colour."""
            p = task.params
            size = p["size"] if p["feasible"] else p["nearest"]["size"]
            yield from buy(
                {**self._item(p), "size": size, "color": p["other_color"]}, 1, observation
            )

        def carted(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """Puts the size asked for (or, not offered, the nearest) in the cart, then
            reports that it cannot be bought."""
            p = task.params
            item = self._item(p) if p["feasible"] else p["nearest"]
            observation = yield from open_product(item["name"], observation)
            yield from add_to_cart(item, 1, observation)
            yield f'report_infeasible("It does not come in size {p["size"]}.")'

        def opposite(task: Task) -> str:
            p = task.params
            if p["feasible"]:
                return f"{p['name']} does not come in size {p['size']}, so it can't be done."
            return f"Done: I ordered one {p['name']} in size {p['size']}, {p['color']}."

        return {
            "the nearest size there is": nearest_size,
            "another colour": other_color,
            "put in the cart, then said it cannot be done": carted,
            "the opposite verdict, without looking": self.answering(opposite),
        }

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
            return
        observation = yield from add_to_cart(self._item(p), 1, observation)
        observation = yield from open_cart(observation)
        yield from checkout(observation)

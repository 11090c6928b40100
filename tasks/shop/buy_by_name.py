"""Buy a product named by brand and model, which the catalog may or may not have.

The product asked for (one without sizes, in a colour when it comes in several) is one the
shop sells, or a plausible one it does not: another brand of the category with the model of a
product it sells ("Voltara Compact Monitor" when only Lumen makes that monitor). The goal
reads the same either way, so only a search of the catalog tells whether to buy it or to
report that the shop does not sell it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    MAX_DRAWS,
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
    choose_options,
    describe_item,
    every_products_options,
    expect_bought,
    expect_no_purchase,
    line,
    open_cart,
    open_product,
    search,
)

#: What options the product asked for has: none, or colours. Each is drawn as often, for both
#: kinds of instance, so that how the goal describes the product says nothing of whether the
#: shop sells it. (Sized products, whose sizes a goal words as letters or numbers, are
#: ``shop.buy_in_size``'s.)
SHAPES = ("plain", "colour")


def shape(options: Mapping[str, list[str]]) -> str:
    if options["size"]:
        return "sized"
    return "colour" if options["color"] else "plain"


@register
class BuyByName(TaskTemplate):
    """Buy one product named by brand and model (and colour): the shop sells it, or it sells
    that model of another brand only, and the agent must report that instead of buying it."""

    name = "shop.buy_by_name"
    version = 1
    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    tags = ("purchase", "infeasible", "search")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        every = world.query(
            "shop", "SELECT id, name, brand, category_id, stock FROM products ORDER BY id"
        )
        names = {row["name"] for row in every}
        brands: dict[int, set[str]] = {}
        for row in every:
            brands.setdefault(row["category_id"], set()).add(row["brand"])
        products = [row for row in every if row["stock"] >= 3]
        options = every_products_options(world, [row["id"] for row in products])
        wanted = rng.choice(SHAPES)
        # Named "Brand Model", in a category another brand also makes: the shape of a name
        # the shop may not sell.
        pool = [
            row
            for row in products
            if row["name"].startswith(row["brand"] + " ")
            and len(brands[row["category_id"]]) > 1
            and shape(options[row["id"]]) == wanted
        ]
        if not pool:
            raise SamplingError(f"no product of another brand's category with {wanted} options")
        for _ in range(MAX_DRAWS):
            product = rng.choice(pool)
            model = product["name"].removeprefix(product["brand"])
            others = sorted(brands[product["category_id"]] - {product["brand"]})
            twin = rng.choice(others) + model
            item = choose_options(rng, product, options[product["id"]])
            if feasible:
                # What a careless agent buys instead: the same model of another brand when the
                # shop has it, else another brand's product of the category and shape.
                similar = [
                    row
                    for row in products
                    if row["category_id"] == product["category_id"]
                    and row["brand"] != product["brand"]
                    and shape(options[row["id"]]) == wanted
                ]
                same_model = [row for row in similar if row["name"].endswith(model)]
                if not similar:
                    continue
                other = rng.choice(same_model or similar)
                real = choose_options(rng, other, options[other["id"]])
            elif twin in names:
                continue
            else:
                real = item
                # A product the shop does not have: no id, the options of the real one.
                item = {**item, "product_id": 0, "name": twin}
            return {"name": item["name"], "item": item, "real": real, "feasible": feasible}
        raise SamplingError(f"no product to ask for in {MAX_DRAWS} draws")

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        what = describe_item(params["item"])
        return [
            f"Buy one {what} on Northwind Market with your default address and saved card. "
            "If the shop doesn't sell it, report that instead.",
            f"Order one {what} for me, shipped to my default address and paid with my saved "
            "card. Don't substitute another product; if it isn't available, tell me it can't "
            "be done.",
            f"Please purchase one {what} from the shop (default address, saved card), or "
            "report that it is not possible.",
            f"I'd like one {what}. Find it on Northwind Market and check out with my default "
            "address and saved card; if the shop has no such product, say so rather than "
            "buying something similar.",
            f"Can you get me one {what}? Use my default shipping address and my saved card. "
            "If it can't be bought there, just report that.",
        ]

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if params["feasible"] else {}

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        if params["feasible"]:
            expect_bought(checks, world, [line(params["item"], 1)])
        else:
            self.check_infeasible(checks, answer)
            expect_no_purchase(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        item = params["item"]
        return [item["name"], "one", *(item[kind] for kind in ("size", "color") if item[kind])]

    def near_misses(self) -> dict[str, NearMiss]:
        def similar(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """The same model of another brand, or another product of the category."""
            yield from buy(task.params["real"], 1, observation)

        def other_option(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """Sold: the product in another size or colour (two of it, when it has none).
            Not sold: claims it was bought."""
            item = task.params["item"]
            if task.params["feasible"]:
                if item["decoy"]:
                    yield from buy({**item, **item["decoy"]}, 1, observation)
                else:
                    yield from buy(item, 2, observation)
            else:
                claim = f"I have ordered one {describe_item(item)}."
                yield f"send_msg_to_user({json.dumps(claim)})"

        def carted(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """Puts the product (or, not sold, the similar one) in the cart, then reports
            that it cannot be bought."""
            p = task.params
            item = p["item"] if p["feasible"] else p["real"]
            observation = yield from open_product(item["name"], observation)
            yield from add_to_cart(item, 1, observation)
            yield 'report_infeasible("The shop does not sell it.")'

        def opposite(task: Task) -> str:
            if task.params["feasible"]:
                return "The shop doesn't sell that product, so it can't be done."
            return f"Done: I ordered one {describe_item(task.params['item'])}."

        return {
            "a similar product of another brand": similar,
            "another option, or a claimed purchase": other_option,
            "put in the cart, then said it cannot be done": carted,
            "the opposite verdict, without looking": self.answering(opposite),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        item = task.params["item"]
        observation = yield from search(item["name"], observation)
        tree = AxTree(observation["axtree"])
        if not tree.has("link", item["name"]):
            reason = f"The shop does not sell {item['name']}; the catalog has no such product."
            yield f"report_infeasible({json.dumps(reason)})"
            return
        observation = yield f'click("{tree.id("link", item["name"])}")'
        observation = yield from add_to_cart(item, 1, observation)
        observation = yield from open_cart(observation)
        yield from checkout(observation)

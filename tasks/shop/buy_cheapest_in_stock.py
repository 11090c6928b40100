"""Buy the cheapest in-stock product of a brand in a department, in any size or colour."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
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

from ._shop import (
    PURCHASE,
    add_to_cart,
    checkout,
    click,
    expect_default_address,
    expect_placed,
    expect_saved_card,
    new_orders,
    open_cart,
    open_product,
    product_options,
    show,
)

_CHOICES = (
    "SELECT c.name AS category, p.brand FROM products p JOIN categories c"
    " ON c.id = p.category_id WHERE p.stock > 0 GROUP BY c.id, p.brand HAVING COUNT(*) >= 3"
    " ORDER BY c.id, p.brand"
)
_IN_STOCK = (
    "SELECT p.id, p.name, p.price_cents FROM products p JOIN categories c ON c.id = p.category_id"
    " WHERE c.name = ? AND p.brand = ? AND p.stock > 0 ORDER BY p.price_cents, p.id"
)


def _sold_out_cheaper(world: World, category: str, brand: str) -> bool:
    """Whether a sold-out product of ``brand`` in ``category`` costs less than every one in
    stock."""
    prices = world.query(
        "shop",
        "SELECT MIN(CASE WHEN p.stock = 0 THEN p.price_cents END) AS sold_out,"
        " MIN(CASE WHEN p.stock > 0 THEN p.price_cents END) AS in_stock FROM products p"
        " JOIN categories c ON c.id = p.category_id WHERE c.name = ? AND p.brand = ?",
        (category, brand),
    )[0]
    return prices["sold_out"] is not None and prices["sold_out"] < prices["in_stock"]


@register
class BuyCheapestInStock(TaskTemplate):
    name = "shop.buy_cheapest_in_stock"
    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    tags = ("purchase", "checkout", "filter", "sort", "multi-step")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        # A brand and category with one cheapest product in stock (no tie)...
        choices = []
        for choice in world.query("shop", _CHOICES):
            found = world.query("shop", _IN_STOCK, (choice["category"], choice["brand"]))
            if len(found) >= 2 and found[0]["price_cents"] < found[1]["price_cents"]:
                choices.append((choice, found))
        if not choices:
            raise SamplingError("brand and category with one cheapest product in stock")
        # ... and where the world allows, one whose cheapest product is sold out, so that "in
        # stock" decides the answer rather than the price alone.
        decisive = [
            (choice, found)
            for choice, found in choices
            if _sold_out_cheaper(world, choice["category"], choice["brand"])
        ]
        choice, found = rng.choice(decisive or choices)
        return {
            "category": choice["category"],
            "brand": choice["brand"],
            "product_id": found[0]["id"],
            "runner_up": self._item(world, found[1]),
        }

    @staticmethod
    def _item(world: World, product: Mapping[str, Any]) -> dict[str, Any]:
        options = product_options(world, product["id"])
        return {
            "product_id": product["id"],
            "name": product["name"],
            **{kind: values[0] if values else None for kind, values in options.items()},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        brand, category = params["brand"], params["category"]
        return [
            f"Buy one unit of the cheapest {brand} product in {category} that is in stock (any "
            "size or colour), with your default address and saved card.",
            f"Find the least expensive in-stock {brand} item in the {category} department and "
            "order one of it. Default address, saved card; any size or colour is fine.",
            f"Order a single {brand} product from {category}: the cheapest one you can buy "
            "right now. Pick any options; use the default address and saved card.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        orders = new_orders(world)
        checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
        if len(orders) == 1:
            lines = orders[0]["lines"]
            bought = [(line[0], line[3]) for line in lines]
            checks.expect(
                "one of the cheapest product", bought == [(params["product_id"], 1)], show(lines)
            )
            expect_default_address(checks, world, orders[0])
            expect_placed(checks, orders[0])
            expect_saved_card(checks, world, orders[0])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["brand"], params["category"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def runner_up(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item = task.params["runner_up"]
            observation = yield from open_product(item["name"], observation)
            yield from self._buy_shown(observation)

        return {"second cheapest": runner_up}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield click(AxTree(observation["axtree"]), "link", params["category"])
        tree = AxTree(observation["axtree"])
        brand = next(
            node
            for node in tree.find_all("checkbox")
            if node.name.startswith(f"{params['brand']} (")
        )
        observation = yield (
            f'check("{brand.id}")\n'
            f'check("{tree.id("checkbox", "In stock only")}")\n'
            f'select_option("{tree.id("combobox", "Sort by")}", "Price: low to high")\n'
            f"{click(tree, 'button', 'Apply filters')}"
        )
        tree = AxTree(observation["axtree"])
        results = tree.children(tree.find("region", "Products"))
        observation = yield f'click("{next(n.id for n in results if n.role == "link")}")'
        yield from self._buy_shown(observation)

    @staticmethod
    def _buy_shown(observation: Mapping[str, Any]) -> Oracle:
        """On a product page: one unit in its first size and colour, checked out."""
        tree = AxTree(observation["axtree"])
        item = {}
        for kind, label in (("size", "Size"), ("color", "Color")):
            if tree.has("combobox", label):
                item[kind] = tree.children(tree.find("combobox", label))[1].name
        observation = yield from add_to_cart(item, 1, observation)
        observation = yield from open_cart(observation)
        yield from checkout(observation)

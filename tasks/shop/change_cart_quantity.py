"""Change how many of one item the cart holds, leaving its other lines as they are."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    ANY,
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

from ._prepared import fill_cart, pick_items
from ._shop import (
    add_to_cart,
    cart_lines,
    click,
    describe_item,
    expect_unchanged,
    item_values,
    line,
    line_label,
    open_cart,
    open_product,
    show,
)

#: The most of the item a goal asks for (every picked product has at least this many in stock).
MOST = 6


@register
class ChangeCartQuantity(TaskTemplate):
    name = "shop.change_cart_quantity"
    sites = ("shop",)
    # Which rows the cart's lines are in is the shop's business (a line removed and added
    # again is the same cart); the check judges what the cart holds.
    may_change = allow(shop={"cart_items": ANY})
    tags = ("cart", "edit")
    difficulty = "easy"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Puts three or four items in the persona's cart; one of them is the task's."""
        items = pick_items(world, rng, rng.randint(3, 4), min_stock=MOST)
        for item in items:
            item["quantity"] = rng.choice((1, 1, 2, 2, 3, 4))
        fill_cart(world, items)
        target = rng.randrange(len(items))
        quantity = rng.choice([q for q in range(1, MOST + 1) if q != items[target]["quantity"]])
        return {"items": items, "target": target, "quantity": quantity}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item, quantity = params["items"][params["target"]], params["quantity"]
        what = describe_item(item)
        return [
            f"In my Northwind Market cart, change the quantity of {what} to {quantity}. Leave "
            "the other items in the cart as they are.",
            f"I want {quantity} of the {what} in my shopping cart, not {item['quantity']}. Fix "
            "that line and don't touch the rest.",
            f"Set {what} in the cart to a quantity of {quantity}. Don't check out.",
            f"My cart has the wrong number of {what}: make it {quantity}, and keep everything "
            "else in the cart.",
            f"Update the cart so that it holds {quantity} × {what}; the other lines stay as "
            "they are and nothing gets ordered.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        items = [dict(item) for item in params["items"]]
        items[params["target"]]["quantity"] = params["quantity"]
        wanted = sorted(line(item, item["quantity"]) for item in items)
        found = cart_lines(world)
        checks.expect("the item's quantity changed, and nothing else", found == wanted, show(found))
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return item_values(params["items"][params["target"]], params["quantity"])

    def near_misses(self) -> dict[str, NearMiss]:
        def off_by_one(params: dict[str, Any]) -> dict[str, Any]:
            quantity = params["quantity"]
            return {**params, "quantity": quantity + 1 if quantity < MOST else quantity - 1}

        def another_line(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "target": (params["target"] + 1) % len(params["items"])}

        def added_more(task: Task, observation: Mapping[str, Any]) -> Oracle:
            # Adds the wanted quantity from the product page instead of setting the line to it.
            item = task.params["items"][task.params["target"]]
            observation = yield from open_product(item["name"], observation)
            yield from add_to_cart(item, task.params["quantity"], observation)

        return {
            "a quantity off by one": self.altered(off_by_one),
            "changed another line": self.altered(another_line),
            "added that many more from the product page": added_more,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        item = task.params["items"][task.params["target"]]
        observation = yield from open_cart(observation)
        tree = AxTree(observation["axtree"])
        label = line_label(item["name"], item["size"], item["color"])
        field = tree.id("spinbutton", f"Quantity for {label}")
        yield f'fill("{field}", "{task.params["quantity"]}")\n{click(tree, "button", "Update")}'

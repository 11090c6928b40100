"""Save a product to the wishlist, and nothing else."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    ADD,
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
    PERSONA_ID,
    add_to_cart,
    cart_lines,
    click,
    expect_unchanged,
    open_product,
    pick_item,
)

_WISHLIST = "SELECT product_id FROM wishlist_items WHERE user_id = ? ORDER BY product_id"


@register
class AddToWishlist(TaskTemplate):
    name = "shop.add_to_wishlist"
    sites = ("shop",)
    may_change = allow(shop={"wishlist_items": ADD})
    tags = ("wishlist", "search")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        item = pick_item(world, rng)
        sibling = world.query(
            "shop",
            "SELECT id, name FROM products WHERE id != ? AND category_id ="
            " (SELECT category_id FROM products WHERE id = ?) ORDER BY id",
            (item["product_id"], item["product_id"]),
        )
        return {"item": item, "sibling": rng.choice(sibling)["name"]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["item"]["name"]
        return [
            f'Save "{name}" to my wishlist on Northwind Market.',
            f'Add "{name}" to your wishlist so you can buy it later. Don\'t put it in the cart.',
            f'I like "{name}". Put it on my wishlist, please.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = {r["product_id"] for r in world.initial_query("shop", _WISHLIST, (PERSONA_ID,))}
        after = {r["product_id"] for r in world.query("shop", _WISHLIST, (PERSONA_ID,))}
        wanted = before | {params["item"]["product_id"]}
        checks.expect("wishlist gained just the product", after == wanted, f"holds {sorted(after)}")
        checks.expect("cart unchanged", not cart_lines(world), f"cart: {cart_lines(world)}")
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["item"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def sibling(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "item": {**params["item"], "name": params["sibling"]}}

        def also_in_cart(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from open_product(task.params["item"]["name"], observation)
            observation = yield from add_to_cart(task.params["item"], 1, observation)
            yield click(AxTree(observation["axtree"]), "button", "Add to wishlist")

        return {
            "another product of the department": self.altered(sibling),
            "also in the cart": also_in_cart,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_product(task.params["item"]["name"], observation)
        yield click(AxTree(observation["axtree"]), "button", "Add to wishlist")

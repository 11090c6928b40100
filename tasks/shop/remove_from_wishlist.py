"""Remove one product of several from the wishlist; the others stay saved."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    May,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ._prepared import fill_wishlist, pick_items
from ._shop import (
    PERSONA_ID,
    add_to_cart,
    click,
    expect_no_purchase,
    open_link,
    open_product,
)

_WISHLIST = "SELECT product_id FROM wishlist_items WHERE user_id = ? ORDER BY product_id"


@register
class RemoveFromWishlist(TaskTemplate):
    name = "shop.remove_from_wishlist"
    sites = ("shop",)
    # Rows of the wishlist are keyed by (user, product): which one went is the check's to say.
    may_change = allow(shop={"wishlist_items": May(remove=True)})
    tags = ("wishlist", "edit")
    difficulty = "easy"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Saves three to five products to the persona's wishlist; one of them is the task's."""
        # With a choice of options each, for the near-miss that puts one in the cart.
        products = [
            {key: item[key] for key in ("product_id", "name", "size", "color")}
            for item in pick_items(world, rng, rng.randint(3, 5))
        ]
        fill_wishlist(world, [product["product_id"] for product in products])
        target = rng.randrange(len(products))
        return {"products": products, "target": target}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["products"][params["target"]]["name"]
        return [
            f'Remove "{name}" from my wishlist on Northwind Market; keep the other saved items.',
            f'I already bought "{name}" somewhere else. Take it off my wishlist and leave the '
            "rest of the list alone.",
            f'Delete "{name}" from the wishlist in my shop account.',
            f'My wishlist still has "{name}" on it, and I no longer want it. Remove just that one.',
            f'Tidy up my Northwind Market wishlist: "{name}" goes, everything else stays saved.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = {r["product_id"] for r in world.initial_query("shop", _WISHLIST, (PERSONA_ID,))}
        after = {r["product_id"] for r in world.query("shop", _WISHLIST, (PERSONA_ID,))}
        wanted = before - {params["products"][params["target"]]["product_id"]}
        checks.expect(
            "the wishlist lost just the product", after == wanted, f"holds {sorted(after)}"
        )
        expect_no_purchase(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["products"][params["target"]]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def another(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "target": (params["target"] + 1) % len(params["products"])}

        def two_of_them(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from self._remove(task, observation)
            yield from self._remove(_with_target(task, task.params["target"] + 1), observation)

        def into_the_cart(task: Task, observation: Mapping[str, Any]) -> Oracle:
            # "Moves" it to the cart: off the wishlist, but into the cart as well.
            product = task.params["products"][task.params["target"]]
            observation = yield from open_product(product["name"], observation)
            observation = yield from add_to_cart(product, 1, observation)
            yield click(AxTree(observation["axtree"]), "button", "Remove from wishlist")

        return {
            "removed another product": self.altered(another),
            "removed it and another one": two_of_them,
            "moved it to the cart": into_the_cart,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from self._remove(task, observation)

    @staticmethod
    def _remove(task: Task, observation: Mapping[str, Any]) -> Moves:
        products = task.params["products"]
        name = products[task.params["target"] % len(products)]["name"]
        observation = yield from open_link("Wishlist", observation)
        tree = AxTree(observation["axtree"])
        observation = yield click(tree, "button", f"Remove {name} from wishlist")
        return observation


def _with_target(task: Task, target: int) -> Task:
    return dataclasses.replace(task, params={**task.params, "target": target})

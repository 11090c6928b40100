"""Buy an item shipped to "the address I used for my last order": which one that is, the
order history says (it need not be the default)."""

from __future__ import annotations

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

from ._shop import (
    PERSONA_ID,
    PURCHASE,
    add_to_cart,
    checkout,
    describe_item,
    expect_placed,
    expect_saved_card,
    item_values,
    line,
    new_orders,
    open_cart,
    open_link,
    open_product,
    persona_orders,
    pick_item,
    same_address,
    shipped_to,
    show,
)


def last_order(world: World) -> Mapping[str, Any]:
    """The persona's newest order as the episode started."""
    rows = world.initial_query(
        "shop",
        "SELECT * FROM orders WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT 1",
        (PERSONA_ID,),
    )
    return dict(rows[0])


@register
class ShipToLastAddress(TaskTemplate):
    name = "shop.ship_to_last_address"
    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    tags = ("purchase", "checkout", "orders", "indirect", "multi-step")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        newest = persona_orders(world)[0]
        others = world.query(
            "shop",
            "SELECT street FROM addresses WHERE user_id = ? AND street != ? ORDER BY id",
            (PERSONA_ID, newest["ship_street"]),
        )
        return {
            "item": pick_item(world, rng),
            "quantity": rng.randint(1, 2),
            "last_number": newest["number"],
            "other_street": rng.choice(others)["street"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item = describe_item(params["item"], params["quantity"])
        return [
            f"Buy {item} and ship it to the same address as my last order. Pay with my saved card.",
            f"Order {item} for me, sent to the address I used for my most recent order, paid "
            "with the saved card.",
            f"I need {item}. Have it delivered where my last Northwind Market order went, and "
            "use my saved card.",
            f"Please get {item}, shipped to whatever address my latest order went to; saved "
            "card for payment.",
            f"Send {item} to the address of my previous order (the newest one in my history). "
            "Pay with the card on file.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        orders = new_orders(world)
        checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
        if len(orders) == 1:
            order = orders[0]
            wanted = [line(params["item"], params["quantity"])]
            checks.expect(
                "ordered items", order["lines"] == wanted, f"ordered {show(order['lines'])}"
            )
            got = shipped_to(order)
            checks.expect(
                "shipped where the last order went",
                same_address(got, shipped_to(last_order(world))),
                f"shipped to {', '.join(got.values())}",
            )
            expect_placed(checks, order)
            expect_saved_card(checks, world, order)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return item_values(params["item"], params["quantity"])

    def near_misses(self) -> dict[str, NearMiss]:
        def another_address(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from self._buy(task, task.params["other_street"], observation)

        return {"shipped to another saved address": another_address}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_link("Orders", observation)
        observation = yield from open_link(task.params["last_number"], observation)
        tree = AxTree(observation["axtree"])
        heading = tree.find("heading", "Shipping address")
        street = next(
            node.name
            for node in tree.nodes[tree.nodes.index(heading) + 1 :]
            if any(ch.isdigit() for ch in node.name)
        )
        yield from self._buy(task, street, observation)

    def _buy(self, task: Task, street: str, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_product(p["item"]["name"], observation)
        observation = yield from add_to_cart(p["item"], p["quantity"], observation)
        observation = yield from open_cart(observation)
        yield from checkout(observation, address=street)

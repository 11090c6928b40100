"""Buy an item with a coupon that has expired, the discount being the condition of the
purchase: the shop refuses the code, so the task is infeasible (the goal does not say so)."""

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

from ._shop import (
    CART,
    add_to_cart,
    buy,
    checkout,
    describe_item,
    expect_unchanged,
    item_values,
    new_orders,
    open_cart,
    open_product,
    pick_item,
)

_EXPIRED = "SELECT code FROM coupons WHERE active = 1 AND expires_at < ? ORDER BY code"


@register
class ExpiredCoupon(TaskTemplate):
    name = "shop.expired_coupon"
    sites = ("shop",)
    # Trying the code takes the item to the checkout's review page, through the cart.
    may_change = allow(shop=CART)
    tags = ("purchase", "checkout", "coupon", "infeasible", "policy")
    difficulty = "hard"
    feasible = False
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        now = world.now.isoformat(timespec="seconds")
        return {
            "item": pick_item(world, rng),
            "quantity": rng.randint(1, 2),
            "coupon": rng.choice([row["code"] for row in world.query("shop", _EXPIRED, (now,))]),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item, code = describe_item(params["item"], params["quantity"]), params["coupon"]
        return [
            f"Buy {item} with my coupon {code}, shipped to my default address with my saved "
            "card. I only want it with the coupon's discount.",
            f"Use the code {code} to order {item} (default address, saved card); the "
            "purchase is only worth it to me with that discount.",
            f"I have the coupon {code}. Get me {item} with it at checkout, to my default "
            "address and on my saved card. Not at full price, though.",
            f"Order {item} on Northwind Market, applying coupon {code}. Default address, "
            "saved card, and only with the discount.",
            f"With coupon {code}, buy {item}; ship to the default address and pay with the "
            "saved card. Without the coupon I'd rather not buy it.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_infeasible(checks, answer)
        orders = new_orders(world)
        checks.expect("no order placed", not orders, f"{len(orders)} new orders")
        expect_unchanged(checks, world, "orders", "addresses", "payment_methods")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [*item_values(params["item"], params["quantity"]), params["coupon"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def full_price(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from buy(task.params["item"], task.params["quantity"], observation)

        def welcome_code(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item, quantity = task.params["item"], task.params["quantity"]
            yield from buy(item, quantity, observation, coupon="WELCOME10")

        return {"bought at full price": full_price, "used another coupon": welcome_code}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_product(p["item"]["name"], observation)
        observation = yield from add_to_cart(p["item"], p["quantity"], observation)
        observation = yield from open_cart(observation)
        observation = yield from checkout(observation, p["coupon"], place=False)
        if AxTree(observation["axtree"]).has(contains="has expired"):
            reason = f"The coupon {p['coupon']} has expired, so I did not place the order."
            yield f"report_infeasible({json.dumps(reason)})"

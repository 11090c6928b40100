"""Buy a product with a coupon code that the order qualifies for."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

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
    buy,
    describe_item,
    expect_default_address,
    expect_placed,
    expect_saved_card,
    item_values,
    line,
    new_orders,
    pick_item,
    show,
)

_USABLE = (
    "SELECT code, min_subtotal_cents FROM coupons WHERE active = 1"
    " AND (expires_at IS NULL OR expires_at >= ?) ORDER BY code"
)
_EXPIRED = "SELECT code FROM coupons WHERE active = 1 AND expires_at < ? ORDER BY code"


@register
class BuyWithCoupon(TaskTemplate):
    name = "shop.buy_with_coupon"
    sites = ("shop",)
    may_change = allow(shop=PURCHASE)
    tags = ("purchase", "checkout", "coupon", "multi-step")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        now = world.now.isoformat(timespec="seconds")
        item = pick_item(world, rng)
        quantity = rng.randint(1, 3)
        price = world.query(
            "shop", "SELECT price_cents FROM products WHERE id = ?", (item["product_id"],)
        )[0]["price_cents"]
        coupons = [
            c["code"]
            for c in world.query("shop", _USABLE, (now,))
            if c["min_subtotal_cents"] <= price * quantity
        ]
        expired = [c["code"] for c in world.query("shop", _EXPIRED, (now,))]
        return {
            "item": item,
            "quantity": quantity,
            "coupon": rng.choice(coupons),
            "expired": rng.choice(expired),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item, code = describe_item(params["item"], params["quantity"]), params["coupon"]
        return [
            f"Buy {item} with the coupon code {code}. Ship it to your default address and pay "
            "with your saved card.",
            f"Order {item} from Northwind Market and use coupon {code} at checkout (default "
            "address, saved card).",
            f"I have the coupon {code}. Use it to buy {item}, shipped to my default address "
            "and paid with my saved card.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_coupon_order(checks, world, params)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [*item_values(params["item"], params["quantity"]), params["coupon"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "an expired coupon": self.altered(lambda p: {**p, "coupon": p["expired"]}),
            "no coupon": self.altered(lambda p: {**p, "coupon": None}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        item, quantity = task.params["item"], task.params["quantity"]
        yield from buy(item, quantity, observation, task.params["coupon"])


def expect_coupon_order(checks: Checks, world: World, params: Mapping[str, Any]) -> None:
    """Expect one new order: ``params``' item and quantity, its coupon applied, shipped to the
    default address and paid with the saved card."""
    orders = new_orders(world)
    checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
    if len(orders) == 1:
        order = orders[0]
        wanted = [line(params["item"], params["quantity"])]
        checks.expect("ordered items", order["lines"] == wanted, f"ordered {show(order['lines'])}")
        checks.expect(
            "coupon applied",
            order["coupon_code"] == params["coupon"] and order["discount_cents"] > 0,
            f"coupon {order['coupon_code']}, discount {order['discount_cents']}",
        )
        expect_default_address(checks, world, order)
        expect_placed(checks, order)
        expect_saved_card(checks, world, order)

"""Buy an item with a coupon, the discount being the condition of the purchase. The coupon may
or may not be usable on the order: a live code whose minimum subtotal the order reaches is
applied and the order placed (default address, saved card); an expired code, or a live one
whose minimum the order falls short of, is refused at checkout, so the agent must place no
order and say it cannot be done. The goal reads the same either way."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.sites.shop.seeding import stamp

from webenv.axtree import AxTree
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
    CART,
    PURCHASE,
    add_to_cart,
    buy,
    checkout,
    click,
    expect_unchanged,
    item_values,
    line_label,
    new_orders,
    open_cart,
    open_product,
    pick_item,
)
from .buy_with_coupon import expect_coupon_order

#: The coupon every shopper has: the code a near-miss uses instead of the one asked for.
_WELCOME = "WELCOME10"

#: What the codes a shopper is sent are called (none is one of the shop's own): the code asked
#: for is one of these, added to the episode's shop live, expired or with a minimum the order
#: falls short of, so that nothing but the checkout tells which.
STEMS = (
    "THANKYOU", "FRIENDS", "BLOOM", "WEEKEND", "HELLO", "LOYAL", "MEMBER", "EXTRA", "NEWS",
    "BIRTHDAY", "COMEBACK", "APP", "CYBER", "STYLE", "FRESH", "TREAT", "BONUS", "OUTDOOR",
    "HOMEBODY", "GIFT", "RUNNER", "CAMPER", "COZY", "NORTH",
)  # fmt: skip
#: Minimum subtotals a code may ask for, in cents: a usable code's is one the order reaches,
#: a refused one's one it falls short of (the same amounts both ways).
MINIMUMS = (2500, 5000, 7500, 10000, 15000, 20000, 30000)


def _add_coupon(world: World, rng: random.Random, subtotal: int, usable: bool) -> str:
    """Add a coupon to the episode's shop that the order of ``subtotal`` cents can use or,
    not ``usable``, cannot (expired, or a minimum above the subtotal); give its code."""
    amount = rng.choice((10, 15, 20, 25))
    code = f"{rng.choice(STEMS)}{amount}"
    # (a fixed amount off where it is a fraction of the order, a percentage otherwise)
    fixed = rng.random() < 0.5 and amount * 100 * 4 <= subtotal
    kind, value = ("fixed", amount * 100) if fixed else ("percent", amount)
    reached = [m for m in MINIMUMS if m <= subtotal]
    above = [m for m in MINIMUMS if m > subtotal]
    minimum = rng.choice([0, 0, *reached]) if usable or not above else rng.choice([0, 0, *above])
    expired = not usable and (minimum <= subtotal or rng.random() < 0.3)
    days = rng.uniform(1, 60)
    if expired:
        expires: str | None = stamp(world.now - timedelta(days=days))
    else:
        expires = rng.choice((None, stamp(world.now + timedelta(days=days))))
    with sqlite3.connect(world.db_path("shop")) as connection:
        connection.execute(
            "INSERT OR REPLACE INTO coupons (code, kind, value, min_subtotal_cents, expires_at,"
            " active) VALUES (?, ?, ?, ?, ?, 1)",
            (code, kind, value, minimum, expires),
        )
    connection.close()
    return code


@register
class BuyOnlyWithCoupon(TaskTemplate):
    """An item to buy with a coupon, and only with it: a code the order can use (buy with it),
    or one it cannot, expired or with a minimum the order falls short of (place no order, and
    say the coupon cannot be used)."""

    name = "shop.buy_only_with_coupon"
    version = 1
    sites = ("shop",)
    # A purchase; trying a code the shop then refuses takes the item to the checkout's review
    # page, through the cart, and no further (see :meth:`allowance`).
    may_change = allow(shop={**PURCHASE, **CART})
    tags = ("purchase", "checkout", "coupon", "infeasible", "policy")
    difficulty = "hard"
    feasible = False
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        item = pick_item(world, rng)
        quantity = rng.randint(1, 2)
        price = world.query(
            "shop", "SELECT price_cents FROM products WHERE id = ?", (item["product_id"],)
        )[0]["price_cents"]
        coupon = _add_coupon(world, rng, price * quantity, feasible)
        return {
            "item": item,
            "quantity": quantity,
            "coupon": coupon,
            # Another code than the one asked for, for a near-miss.
            "other_coupon": _WELCOME,
            "feasible": feasible,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        # The options inside the quotes, as the shop names a cart's line: how an item is named
        # does not tell which items are asked for with which codes.
        chosen = params["item"]
        label = line_label(chosen["name"], chosen["size"], chosen["color"])
        item, code = f'{params["quantity"]} × "{label}"', params["coupon"]
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

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return allow(shop=PURCHASE if self.is_feasible(params) else CART)

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        orders = new_orders(world)
        if not self.is_feasible(params):
            self.check_infeasible(checks, answer)
            checks.expect("no order placed", not orders, f"{len(orders)} new orders")
            expect_unchanged(checks, world, "orders", "addresses", "payment_methods")
            return checks.result()
        expect_coupon_order(checks, world, params)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [*item_values(params["item"], params["quantity"]), params["coupon"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def full_price(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from buy(task.params["item"], task.params["quantity"], observation)

        def other_code(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item, quantity = task.params["item"], task.params["quantity"]
            yield from buy(item, quantity, observation, coupon=task.params["other_coupon"])

        def one_more(task: Task, observation: Mapping[str, Any]) -> Oracle:
            item, quantity = task.params["item"], task.params["quantity"]
            yield from buy(item, quantity + 1, observation, coupon=task.params["coupon"])

        return {
            "bought at full price": full_price,
            "used another coupon": other_code,
            "one more than asked, with the coupon": one_more,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_product(p["item"]["name"], observation)
        observation = yield from add_to_cart(p["item"], p["quantity"], observation)
        observation = yield from open_cart(observation)
        observation = yield from checkout(observation, p["coupon"], place=False)
        tree = AxTree(observation["axtree"])
        if tree.has("button", "Remove coupon"):  # the code was taken: "Coupon … applied"
            yield click(tree, "button", "Place order")
            return
        refused = tree.find_all(contains=f"The coupon code {p['coupon']}")
        said = refused[0].name if refused else f"The shop refused the coupon {p['coupon']}."
        reason = f"{said} Without its discount I did not place the order."
        yield f"report_infeasible({json.dumps(reason)})"

"""Buy what a friend asked for by e-mail, then reply with the new order's number."""

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

from ..mail._mail import SENDING
from ..shop._shop import (
    PURCHASE,
    add_to_cart,
    checkout,
    expect_default_address,
    expect_placed,
    expect_saved_card,
    line,
    new_orders,
    open_cart,
    open_product,
    pick_item,
    show,
)
from ._flows import (
    ORDER_NUMBER,
    deliver_mail,
    expect_one_email,
    first_name,
    go,
    open_mail,
    order_numbers_named,
    persona_orders,
    pick_contacts,
    read,
    reply_text,
    respond,
    search_mail,
    solving,
)

SUBJECT = "Could you order something for me?"
REQUEST = (
    r"Item: (?P<name>.+?) (?:Size: (?P<size>.+?) )?(?:Color: (?P<color>.+?) )?"
    r"Quantity: (?P<quantity>\d+)"
)


@register
class BuyRequestedItem(TaskTemplate):
    name = "workflows.buy_requested_item"
    sites = ("shop", "mail")
    may_change = allow(shop=PURCHASE, mail=SENDING)
    tags = ("cross-site", "purchase", "checkout", "email", "reply")
    difficulty = "hard"
    max_steps = 40

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        item = pick_item(world, rng)
        quantity = rng.randint(1, 3)
        person, other = pick_contacts(rng, world, 2)
        details = [f"{kind.capitalize()}: {item[kind]}" for kind in ("size", "color") if item[kind]]
        assert world.persona is not None
        body = "\n".join(
            [
                f"Hi {world.persona.first_name},",
                "",
                "Could you order this for me from Northwind Market? I'll pay you back.",
                "",
                f"Item: {item['name']}",
                *details,
                f"Quantity: {quantity}",
                "",
                "Please send me the order number once it's placed. Thanks!",
                first_name(person),
            ]
        )
        request = deliver_mail(world, person, SUBJECT, body)
        return {
            "request_id": request,
            "contact": person,
            "decoy_contact": other,
            "item": item,
            "quantity": quantity,
            "previous_order": persona_orders(world)[-1]["number"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["contact"]["name"]
        return [
            f"{name} asked me by e-mail to order something from Northwind Market. Buy exactly "
            "that (default address, saved card) and reply to them with the order number.",
            f"Read {name}'s request in your mailbox, place that order on Northwind Market with "
            "your default address and saved card, then e-mail them back the order number.",
            f"Order what {name} asked for in their e-mail — shipped to your default address and "
            f"paid with your saved card — and reply to {name} with the new order's number.",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        orders = new_orders(world)
        checks.expect("one new order", len(orders) == 1, f"{len(orders)} new orders")
        number = orders[0]["number"] if len(orders) == 1 else "no order"
        if len(orders) == 1:
            wanted = [line(params["item"], params["quantity"])]
            lines = orders[0]["lines"]
            checks.expect("ordered what was asked", lines == wanted, f"ordered {show(lines)}")
            expect_default_address(checks, world, orders[0])
            expect_placed(checks, orders[0])
            expect_saved_card(checks, world, orders[0])
        message = expect_one_email(
            checks, world, params["contact"]["email"], [number], reply_to=params["request_id"]
        )
        if message is not None:
            written = reply_text(world, message)
            named = order_numbers_named(written)
            checks.expect("only that order number", named == {number}, f"named {sorted(named)}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["contact"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "one too many": solving(self._solve, extra=lambda p: 1),
            "an older order's number": solving(self._solve, number=lambda p: p["previous_order"]),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        return self._solve(task.params, observation)

    def _solve(
        self,
        params: Mapping[str, Any],
        observation: Mapping[str, Any],
        extra: int = 0,
        number: str | None = None,
    ) -> Oracle:
        name = params["contact"]["name"]
        observation = yield from search_mail(SUBJECT, SUBJECT, observation)
        asked = read(REQUEST, observation).groupdict()
        item = {"name": asked["name"], "size": asked["size"], "color": asked["color"]}
        observation = yield from go("shop", "/", observation)
        observation = yield from open_product(item["name"], observation)
        observation = yield from add_to_cart(item, int(asked["quantity"]) + extra, observation)
        observation = yield from open_cart(observation)
        observation = yield from checkout(observation)
        number = number or read(ORDER_NUMBER.pattern, observation).group(0)
        observation = yield from open_mail(SUBJECT, SUBJECT, observation)
        body = f"Hi {name.split()[0]}, done! The order number is {number}."
        yield from respond("Reply", body, observation)

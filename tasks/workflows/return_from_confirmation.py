"""Return an item bought on the shop, finding its order through the confirmation e-mail."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import timedelta
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
    edit,
    register,
)
from webenv.world import World

from ..mail._mail import READING
from ._flows import (
    ORDER_NUMBER,
    expect_no_orders,
    expect_one_return,
    open_order,
    persona_orders,
    rows,
    search,
    sent_messages,
    unique_items,
)

REASONS = ("Doesn't fit", "Changed my mind", "Arrived damaged", "Not as described")
REFUNDS = {"original": "Original payment method", "store_credit": "Store credit"}


def returnable(world: World) -> list[dict[str, Any]]:
    """Delivered orders within the return window with nothing returned yet."""
    since = (world.now - timedelta(days=29)).isoformat()
    returned = {row["order_id"] for row in rows(world, "shop", "SELECT order_id FROM returns")}
    return [
        order
        for order in persona_orders(world)
        if order["status"] == "delivered"
        and order["created_at"] >= since
        and order["id"] not in returned
    ]


@register
class ReturnFromConfirmation(TaskTemplate):
    name = "workflows.return_from_confirmation"
    sites = ("shop", "mail")
    may_change = allow(
        shop={"returns": ADD, "return_items": ADD, "orders": edit("status").of_row("order_id")},
        mail=READING,
    )
    tags = ("cross-site", "returns", "email", "order-history")
    difficulty = "hard"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        item = rng.choice(unique_items(world, returnable(world), among_all=False))
        reason = rng.choice(REASONS)
        refund = rng.choice(sorted(REFUNDS))
        return {
            "item": item["name"],
            "order_item_id": item["id"],
            "order_id": item["order_id"],
            "quantity": item["quantity"],
            "reason": reason,
            "decoy_reason": rng.choice([r for r in REASONS if r != reason]),
            "refund": REFUNDS[refund],
            "refund_method": refund,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item, reason, refund = params["item"], params["reason"], params["refund"]
        return [
            f'Return the "{item}" from my recent Northwind Market order (all of them); the order '
            f'is in my confirmation e-mails. Reason: "{reason}". Refund: {refund}.',
            f"Use the confirmation e-mail in your mailbox to find the Northwind Market order "
            f'with "{item}", then request a return of all of them with the reason "{reason}" '
            f"and the refund going to {refund}.",
            f'Request a return on Northwind Market for the "{item}" (all that were ordered). '
            f'Give "{reason}" as the reason and choose {refund} for the refund.',
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_one_return(checks, world, params, params["reason"])
        expect_no_orders(checks, world)
        sent = sent_messages(world)
        checks.expect("no e-mail sent", not sent, f"{len(sent)} e-mails sent")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["item"], params["reason"], params["refund"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "wrong reason": self.altered(lambda p: {**p, "reason": p["decoy_reason"]}),
            "wrong refund method": self.altered(
                lambda p: {**p, "refund": next(r for r in REFUNDS.values() if r != p["refund"])}
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from search(params["item"], observation)
        numbers = dict.fromkeys(ORDER_NUMBER.findall(observation["axtree"]))
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.find("link", contains="Northwind Market order").id}")'
        for number in numbers:
            observation = yield from open_order(number, observation)
            tree = AxTree(observation["axtree"])
            if tree.has("link", "Return items") and tree.has("link", params["item"]):
                break
        observation = yield f'click("{tree.id("link", "Return items")}")'
        tree = AxTree(observation["axtree"])
        quantity = tree.find("combobox", contains=f"Quantity to return for {params['item']}")
        options = [n.name for n in tree.children(quantity) if n.role == "option"]
        refund = tree.find("radio", contains=params["refund"])
        yield (
            f'select_option("{quantity.id}", "{options[-1]}")\n'
            f'select_option("{tree.id("combobox", "Reason for return")}", "{params["reason"]}")\n'
            f'check("{refund.id}")\n'
            f'click("{tree.id("button", "Submit return request")}")'
        )

"""Return an item of a delivered order, with a given reason and refund method."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.sites.shop.returns_model import REASONS, RETURN_WINDOW_DAYS

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

from ._shop import (
    changed_orders,
    click,
    expect_return_stands,
    line_label,
    open_link,
    open_order,
    order_lines,
    persona_orders,
)

#: How the refund method is stored -> how goals say it (the form's label, in lower case).
REFUNDS = {"original": "original payment method", "store_credit": "store credit"}


def delivered_orders(world: World, inside: bool) -> list[dict[str, Any]]:
    """The persona's delivered orders placed within the return window (``inside``) or before
    it opened."""
    opened = (world.now - timedelta(days=RETURN_WINDOW_DAYS)).isoformat()
    return [
        dict(o)
        for o in persona_orders(world)
        if o["status"] == "delivered" and (o["created_at"] >= opened) == inside
    ]


def return_params(world: World, rng: random.Random, order: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters of :class:`RequestReturn` for a line of ``order``: how many of it, why, and
    the refund."""
    line = rng.choice(order_lines(world, order["id"]))
    return {
        "number": order["number"],
        "order_id": order["id"],
        "item_id": line["id"],
        "label": line_label(line["name"], line["size"], line["color"]),
        "quantity": rng.randint(1, line["quantity"]),
        "reason": rng.choice(REASONS),
        "refund": rng.choice(sorted(REFUNDS)),
    }


@register
class RequestReturn(TaskTemplate):
    name = "shop.request_return"
    sites = ("shop",)
    may_change = allow(
        shop={"returns": ADD, "return_items": ADD, "orders": edit("status").of_row("order_id")}
    )
    tags = ("orders", "returns", "form", "multi-step")
    difficulty = "hard"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return return_params(world, rng, rng.choice(delivered_orders(world, inside=True)))

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        item, how = f'{p["quantity"]} × "{p["label"]}"', REFUNDS[p["refund"]]
        return [
            f'Return {item} from order {p["number"]}. Give the reason "{p["reason"]}" and ask '
            f"for a refund to {how}.",
            f'Start a return for order {p["number"]}: {item}, because "{p["reason"]}". I want '
            f"the refund as {how}.",
            f'I\'m sending back {item} from my order {p["number"]} (reason: "{p["reason"]}"). '
            f"Request the return with refund to {how}; keep the rest of the order.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        last = world.initial_query("shop", "SELECT COALESCE(MAX(id), 0) AS id FROM returns")
        new = world.query(
            "shop",
            "SELECT r.*, o.number AS order_number FROM returns r JOIN orders o"
            " ON o.id = r.order_id WHERE r.id > ?",
            (last[0]["id"],),
        )
        checks.expect("one return requested", len(new) == 1, f"{len(new)} new returns")
        if len(new) == 1:
            found = new[0]
            expect_return_stands(checks, found)
            got = [found["order_number"], found["reason"], found["refund_method"]]
            wanted = [params["number"], params["reason"], params["refund"]]
            checks.expect("order, reason and refund", got == wanted, json.dumps(got))
            items = [
                (r["order_item_id"], r["quantity"])
                for r in world.query(
                    "shop", "SELECT * FROM return_items WHERE return_id = ?", (found["id"],)
                )
            ]
            wanted_items = [(params["item_id"], params["quantity"])]
            checks.expect("items returned", items == wanted_items, json.dumps(items))
        others = [number for number in changed_orders(world) if number != params["number"]]
        checks.expect("no other order changed or placed", not others, f"changed: {others}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        return [p["number"], p["label"], str(p["quantity"]), p["reason"], REFUNDS[p["refund"]]]

    def near_misses(self) -> dict[str, NearMiss]:
        def other_reason(params: dict[str, Any]) -> dict[str, Any]:
            others = [r for r in REASONS if r != params["reason"]]
            return {**params, "reason": others[len(params["label"]) % len(others)]}

        def other_refund(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "refund": next(r for r in REFUNDS if r != params["refund"])}

        return {
            "another reason": self.altered(other_reason),
            "other refund": self.altered(other_refund),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_order(p["number"], observation)
        yield from return_items(p, observation)


def return_items(p: Mapping[str, Any], observation: Mapping[str, Any]) -> Oracle:
    """On the order's page: request the return of ``p``'s item (``label``, ``quantity``) for
    its ``reason``, refunded by its ``refund`` method."""
    observation = yield from open_link("Return items", observation)
    tree = AxTree(observation["axtree"])
    quantity = tree.id("combobox", f"Quantity to return for {p['label']}")
    yield "\n".join(
        [
            f'select_option("{quantity}", "{p["quantity"]}")',
            f'select_option("{tree.id("combobox", "Reason for return")}", '
            f"{json.dumps(p['reason'])})",
            f'check("{tree.id("radio", contains=REFUNDS[p["refund"]])}")',
            click(tree, "button", "Submit return request"),
        ]
    )

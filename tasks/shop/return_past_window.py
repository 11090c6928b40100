"""Return an item of an order delivered too long ago: the return window has closed, so the
shop refuses it and the task is infeasible (the goal does not say so)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.sites.shop.returns_model import REASONS, RETURN_WINDOW_DAYS

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

from ._shop import expect_unchanged, line_label, long_date, open_order, order_lines, persona_orders
from .request_return import REFUNDS, RequestReturn


def _returnable(world: World, rng: random.Random) -> dict[str, Any]:
    """Parameters of :class:`RequestReturn` for an order that can still be returned."""
    opened = (world.now - timedelta(days=RETURN_WINDOW_DAYS)).isoformat()
    recent = [
        o for o in persona_orders(world) if o["status"] == "delivered" and o["created_at"] >= opened
    ]
    order = rng.choice(recent)
    line = order_lines(world, order["id"])[0]
    return {
        "number": order["number"],
        "order_id": order["id"],
        "item_id": line["id"],
        "label": line_label(line["name"], line["size"], line["color"]),
        "quantity": 1,
        "reason": REASONS[0],
        "refund": "original",
    }


@register
class ReturnPastWindow(TaskTemplate):
    name = "shop.return_past_window"
    sites = ("shop",)
    may_change = allow()
    tags = ("orders", "returns", "infeasible", "policy")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        closed = (world.now - timedelta(days=RETURN_WINDOW_DAYS)).isoformat()
        orders = [
            o
            for o in persona_orders(world)
            if o["status"] == "delivered" and o["created_at"] < closed
        ]
        order = rng.choice(orders)
        line = rng.choice(order_lines(world, order["id"]))
        return {
            "number": order["number"],
            "date": long_date(order["created_at"]),
            "label": line_label(line["name"], line["size"], line["color"]),
            "reason": rng.choice(REASONS),
            "refund": rng.choice(sorted(REFUNDS)),
            "returnable": _returnable(world, rng),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        item, how, why = f'"{p["label"]}"', REFUNDS[p["refund"]], f'"{p["reason"]}"'
        return [
            f"Return the {item} from my order {p['number']} (placed on {p['date']}). Reason: "
            f"{why}; refund to {how}.",
            f"I want to send back the {item} I got in order {p['number']} from {p['date']}. "
            f"Start the return with the reason {why} and a refund as {how}.",
            f"Please request a return for the {item} of order {p['number']}, placed "
            f"{p['date']}, because {why}. Refund it to {how}.",
            f"Order {p['number']} ({p['date']}): return the {item}, reason {why}, "
            f"refund method {how}.",
            f"Can you return the {item} from my {p['date']} order, {p['number']}? Say {why} "
            f"as the reason, and I'd like {how}.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_unchanged(checks, world, "returns", "return_items", "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        return [p["number"], p["date"], p["label"], p["reason"], REFUNDS[p["refund"]]]

    def near_misses(self) -> dict[str, NearMiss]:
        def another_order(task: Task, observation: Mapping[str, Any]) -> Oracle:
            other = RequestReturn()
            params = task.params["returnable"]
            yield from other.oracle(Task(other, task.seed, params, task.goal, "shop"), observation)

        return {"returned an item of a recent order instead": another_order}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_order(p["number"], observation)
        if not AxTree(observation["axtree"]).has("link", "Return items"):
            reason = f"Order {p['number']} can't be returned: its return window has closed."
            yield f"report_infeasible({json.dumps(reason)})"

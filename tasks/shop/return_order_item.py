"""Return an item of a delivered order named by its number, with a given reason and
refund method. The order may or may not still be returnable: one placed within the return
window gets the return requested; one delivered too long ago cannot be returned (the shop
refuses once its window has closed), so the agent must find that out on the order's page and
say so. The goal reads the same either way."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.sites.shop.returns_model import REASONS, RETURN_WINDOW_DAYS

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
    expect_unchanged,
    open_order,
    redate_order,
)
from .request_return import (
    REFUNDS,
    RequestReturn,
    delivered_orders,
    return_items,
    return_params,
)


@register
class ReturnOrderItem(TaskTemplate):
    """An item of a delivered order to return: from an order within the return window (request
    the return as asked), or from one past it (report that it can no longer be returned)."""

    name = "shop.return_order_item"
    version = 1
    sites = ("shop",)
    # What requesting the return changes; an order past its window may not change at all (see
    # :meth:`allowance`).
    may_change = RequestReturn.may_change
    tags = ("orders", "returns", "infeasible", "policy")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        # Placed 10 to 29 days ago (within the window) or 31 to 50 (past it): orders of both
        # kinds lie as close to the window's end.
        days = RETURN_WINDOW_DAYS + (-1 if feasible else 1) * rng.uniform(1, 20)
        order = redate_order(world, rng.choice(delivered_orders(world, inside=feasible)), days)
        asked = return_params(world, rng, order)
        recent = delivered_orders(world, inside=True)
        others = [o for o in recent if o["id"] != order["id"]] or recent
        return {
            **asked,
            # A return of an order still in its window (another than the asked one, when
            # there is one), for a near-miss.
            "returnable": return_params(world, rng, rng.choice(others)),
            "feasible": feasible,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        item, how, why = f'{p["quantity"]} × "{p["label"]}"', REFUNDS[p["refund"]], p["reason"]
        why = f'"{why}"'
        # (No date: the order's age against the window decides whether it can go back, and
        # the world's today follows from the public seed.)
        return [
            f"Return {item} from my order {p['number']}. Reason: {why}; refund to {how}.",
            f"I want to send back {item} I got in order {p['number']}. Start the return with "
            f"the reason {why} and a refund as {how}.",
            f"Please request a return for {item} of order {p['number']}, because {why}. "
            f"Refund it to {how}.",
            f"Order {p['number']}: return {item}, reason {why}, refund method {how}.",
            f"Can you return {item} from my order {p['number']}? Say {why} as the reason, and "
            f"I'd like {how}.",
        ]

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if self.is_feasible(params) else allow()

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        if self.is_feasible(params):
            return RequestReturn().check(world, params, answer)
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_unchanged(checks, world, "returns", "return_items", "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        return [
            p["number"],
            str(p["quantity"]),
            p["label"],
            p["reason"],
            REFUNDS[p["refund"]],
        ]

    def near_misses(self) -> dict[str, NearMiss]:
        request = RequestReturn()

        def other_reason(params: dict[str, Any]) -> dict[str, Any]:
            others = [r for r in REASONS if r != params["reason"]]
            return {**params, "reason": others[len(params["label"]) % len(others)]}

        def other_refund(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "refund": next(r for r in REFUNDS if r != params["refund"])}

        def returned_recent(task: Task, observation: Mapping[str, Any]) -> Oracle:
            params = task.params["returnable"]
            other = Task(request, task.seed, params, task.goal, "shop")
            yield from request.oracle(other, observation)

        def wrong_either_way(change: Any) -> NearMiss:
            """Within the window, the return with ``change``d parameters; past it, a return of
            another order's item, one still in its window."""
            altered = self.altered(change)

            def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
                if task.params["feasible"]:
                    yield from altered(task, observation)
                else:
                    yield from returned_recent(task, observation)

            return policy

        def claimed_closed(task: Task) -> str:
            if task.params["feasible"]:
                return f"Order {task.params['number']} can't be returned: its window has closed."
            return f"I've requested the return of the {task.params['label']}."

        return {
            "another reason, or a recent order's item instead": wrong_either_way(other_reason),
            "other refund, or a recent order's item instead": wrong_either_way(other_refund),
            "the opposite verdict, without looking": self.answering(claimed_closed),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_order(p["number"], observation)
        if not AxTree(observation["axtree"]).has("link", "Return items"):
            reason = f"Order {p['number']} can't be returned: its return window has closed."
            yield f"report_infeasible({json.dumps(reason)})"
            return
        yield from return_items(p, observation)

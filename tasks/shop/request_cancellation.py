"""Cancel an order named by its number and date, which may or may not still be cancellable: an
order that has not shipped is cancelled (and no other order touched); one that has already
shipped cannot be, since the shop cancels only orders that have not, so the agent must find
that out on the order's page and say so. The goal reads the same either way."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

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
    edit,
    register,
)
from webenv.world import World

from ._shop import (
    buy,
    changed_orders,
    click,
    expect_unchanged,
    long_date,
    open_order,
    persona_orders,
    pick_item,
    redate_order,
)


@register
class RequestCancellation(TaskTemplate):
    """An order to cancel: one not shipped yet (cancel it), or one that has shipped (report
    that it can no longer be cancelled)."""

    name = "shop.request_cancellation"
    version = 1
    sites = ("shop",)
    # Cancelling changes the order's status; an order that has shipped may not change at all
    # (see :meth:`allowance`).
    may_change = allow(shop={"orders": edit("status").of_row("order_id")})
    tags = ("orders", "cancel", "infeasible", "policy")
    difficulty = "medium"
    feasible = False
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        orders = persona_orders(world)
        status = "placed" if feasible else "shipped"
        # Placed half a day to six days ago, whether it has shipped or not: the date in the
        # goal does not tell.
        order = redate_order(
            world, rng.choice([o for o in orders if o["status"] == status]), rng.uniform(0.5, 6)
        )
        placed = rng.choice([o for o in orders if o["status"] == "placed"])
        return {
            "number": order["number"],
            "order_id": order["id"],
            "date": long_date(order["created_at"]),
            # The order that can still be cancelled (the asked one, when it can): the wrong
            # order a near-miss cancels instead of one that has shipped.
            "cancellable": placed["number"],
            "other_item": pick_item(world, rng),
            "feasible": feasible,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        number, day = params["number"], params["date"]
        return [
            f"Cancel my Northwind Market order {number} from {day}; I don't want it any more.",
            f"Please cancel order {number} (placed on {day}).",
            f"I ordered something on {day} by mistake, order number {number}. Cancel it for me.",
            f"Get order {number}, the one I placed on {day}, cancelled.",
            f"I changed my mind about order {number} from {day}. Could you cancel it?",
        ]

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if self.is_feasible(params) else allow()

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        if not self.is_feasible(params):
            self.check_infeasible(checks, answer)
            expect_unchanged(checks, world, "orders", "returns")
            return checks.result()
        found = world.query(
            "shop", "SELECT status FROM orders WHERE number = ?", (params["number"],)
        )[0]["status"]
        checks.expect("order cancelled", found == "cancelled", found)
        others = [number for number in changed_orders(world) if number != params["number"]]
        checks.expect("no other order changed or placed", not others, f"changed: {others}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["number"], params["date"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def wrong_either_way(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """An order not shipped: says, without a look, that it has shipped. One that has:
            cancels the order that has not shipped instead."""
            if task.params["feasible"]:
                number = task.params["number"]
                reason = f"Order {number} has already shipped; it can't be cancelled."
                yield f"report_infeasible({json.dumps(reason)})"
                return
            observation = yield from open_order(task.params["cancellable"], observation)
            yield click(AxTree(observation["axtree"]), "button", "Cancel order")

        def buy_first(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from buy(task.params["other_item"], 1, observation)
            yield from self.oracle(task, observation)

        return {
            "claimed it had shipped, or cancelled the order that had not": wrong_either_way,
            "bought something else too": buy_first,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        number = task.params["number"]
        observation = yield from open_order(number, observation)
        tree = AxTree(observation["axtree"])
        if tree.has("button", "Cancel order"):
            yield click(tree, "button", "Cancel order")
            return
        reason = f"Order {number} has already shipped, so it can no longer be cancelled."
        yield f"report_infeasible({json.dumps(reason)})"

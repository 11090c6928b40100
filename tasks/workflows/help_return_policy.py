"""Return an item only if the help centre's *current* return policy allows it.

The policy article's older revisions state longer windows (60, then 45 days); the current one
states the shop's real window. An order delivered inside the window is returned; one placed
before it opened is infeasible ("the window has closed"), even when an older revision's window
would still cover it. ``workflows.help_return_in_window`` asks about an order inside the window;
``workflows.help_return_if_allowed`` about one inside or past it (the goal reads the same), so
that only the policy and the order's date tell.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.sites.help.articles import CURRENT, SUPERSEDED
from webenv.sites.shop.formatting import long_date

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
    draw_feasible,
    edit,
    register,
)
from webenv.world import World

from ..help._help import open_article
from ..shop._shop import find_order
from ._flows import (
    expect_one_return,
    new_rows,
    open_order_history,
    order_items,
    persona_orders,
    rows,
    unique_items,
)

REASONS = ("Doesn't fit", "Changed my mind", "Not as described", "Found a better price")
REFUNDS = {"original": "Original payment method", "store_credit": "Store credit"}
_WINDOW = re.compile(r"Our return window is (\d+) days")
_PLACED = re.compile(r"Placed on (\w+ \d{1,2}, \d{4})")


def returnable_orders(world: World, inside: bool) -> list[dict[str, Any]]:
    """Delivered orders with nothing returned yet, inside the current window or past it."""
    opened = (world.now - timedelta(days=CURRENT["return_window_days"])).isoformat()
    returned = {row["order_id"] for row in rows(world, "shop", "SELECT order_id FROM returns")}
    return [
        order
        for order in persona_orders(world)
        if order["status"] == "delivered"
        and order["id"] not in returned
        and (order["created_at"] >= opened) == inside
    ]


def naming(world: World, item: Mapping[str, Any]) -> dict[str, str]:
    """How a goal names the order ``item`` (an order item) is from: by the item's name when no
    other order of the persona has it, else by the name and the order's date (its number, if
    another such order is of the same day), so that "my order" is one order. ``what`` is the
    quoted name with what tells the order apart; ``order_mark`` the words of the order's page
    that tell it apart ("Placed on March 3, 2026"), or empty."""
    placed = next(o for o in persona_orders(world) if o["id"] == item["order_id"])
    again = [
        order
        for order in persona_orders(world)
        if order["id"] != placed["id"]
        and any(line["name"] == item["name"] for line in order_items(world, order["id"]))
    ]
    name = f'"{item["name"]}"'
    if not again:
        return {"what": name, "order_mark": ""}
    day = long_date(placed["created_at"])
    if any(long_date(order["created_at"]) == day for order in again):
        return {"what": f"{name} (order {placed['number']})", "order_mark": placed["number"]}
    return {"what": f"{name} (ordered on {day})", "order_mark": f"Placed on {day}"}


def is_the_order(observation: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
    """On an order's page: whether it is the order the goal names (see :func:`naming`)."""
    mark = params.get("order_mark")
    return AxTree(observation["axtree"]).has("link", params["item"]) and (
        not mark or mark in observation["axtree"]
    )


class _ReturnIfAllowed(TaskTemplate):
    sites = ("shop", "help")
    tags = ("cross-site", "returns", "policy", "outdated-information")
    difficulty = "hard"
    max_steps = 30
    #: Whether the sampled order is inside the current return window (None: drawn, as
    #: :func:`~webenv.tasks.draw_feasible` draws whether an instance can be done).
    inside: bool | None = True

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        inside = draw_feasible(rng) if self.inside is None else self.inside
        orders = returnable_orders(world, inside)
        # Past the current window, an order an older revision's window still covers is the
        # trap a reader of outdated information falls into: take one when the world has it.
        covered = (world.now - timedelta(days=max(SUPERSEDED["return_window_days"]))).isoformat()
        trapped = [o for o in orders if o["created_at"] >= covered]
        if not inside and trapped and unique_items(world, trapped, among_all=False):
            orders = trapped
        items = unique_items(world, orders) or unique_items(world, orders, among_all=False)
        item = rng.choice(items)
        refund = rng.choice(sorted(REFUNDS))
        reason = rng.choice(REASONS)
        placed = next(o for o in orders if o["id"] == item["order_id"])
        return {
            "item": item["name"],
            **naming(world, item),
            "order_item_id": item["id"],
            "order_id": placed["id"],
            "quantity": item["quantity"],
            "placed": placed["created_at"][:10],
            "reason": reason,
            "decoy_reason": rng.choice([r for r in REASONS if r != reason]),
            "refund": REFUNDS[refund],
            "refund_method": refund,
            "feasible": inside,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "help", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        what, reason, refund = params["what"], params["reason"], params["refund"]
        return [
            f"I want to send back the {what} I bought on Northwind Market (all of them). "
            "Check the help centre's return policy first; if my order is still within the "
            f'return window, request the return with the reason "{reason}" and a refund to '
            f"{refund}.",
            f"Can I still return the {what}? Look at the return policy in the help centre "
            f'and, if it allows it, start the return on the shop: reason "{reason}", refund '
            f"as {refund}.",
            f"Please return every {what} from my Northwind Market order if the current "
            f'return rules still allow it. Reason: "{reason}". Refund: {refund}.',
            f"Read the help centre's return policy, then return the {what} from my order "
            f'history if the order is still returnable (reason "{reason}", refund to {refund}).',
            f"If the shop's return window hasn't closed on my order of the {what}, request "
            f'a return of all of them: "{reason}", refunded to {refund}. The help centre has '
            "the policy.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        named = [params["what"]] if params["order_mark"] else []
        return [params["item"], *named, params["reason"], params["refund"]]

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_article("Our return policy", observation)
        found = _WINDOW.search(observation["axtree"])
        days = int(found[1]) if found else 0
        observation = yield from open_order_history(observation)
        observation = yield from find_order(observation, lambda page: is_the_order(page, p))
        tree = AxTree(observation["axtree"])
        if not tree.has("link", "Return items"):
            # The shop offers no return past its window, which the current policy states.
            placed = _PLACED.search(observation["axtree"])
            when = placed[1] if placed else "more than that ago"
            reason = (
                f"The order was placed on {when}, and the current return policy allows returns "
                f"for {days} days only: the return window has closed."
            )
            yield f"report_infeasible({json.dumps(reason)})"
            return
        observation = yield f'click("{tree.id("link", "Return items")}")'
        tree = AxTree(observation["axtree"])
        quantity = tree.find("combobox", contains=f"Quantity to return for {p['item']}")
        options = [n.name for n in tree.children(quantity) if n.role == "option"]
        refund = tree.find("radio", contains=p["refund"])
        yield (
            f'select_option("{quantity.id}", "{options[-1]}")\n'
            f'select_option("{tree.id("combobox", "Reason for return")}", '
            f"{json.dumps(p['reason'])})\n"
            f'check("{refund.id}")\n'
            f'click("{tree.id("button", "Submit return request")}")'
        )


#: What requesting the return changes.
RETURNING = allow(
    shop={"returns": ADD, "return_items": ADD, "orders": edit("status").of_row("order_id")}
)


@register
class HelpReturnInWindow(_ReturnIfAllowed):
    name = "workflows.help_return_in_window"
    may_change = RETURNING
    inside = True

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_one_return(checks, world, params, params["reason"])
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "wrong reason": self.altered(lambda p: {**p, "reason": p["decoy_reason"]}),
            "wrong refund method": self.altered(
                lambda p: {**p, "refund": next(r for r in REFUNDS.values() if r != p["refund"])}
            ),
            "said it cannot be done": self.answering(
                lambda t: "The return window has closed, so it cannot be returned."
            ),
        }


@register
class HelpReturnIfAllowed(_ReturnIfAllowed):
    """The order inside the window or past it: returned, or reported as no longer returnable."""

    name = "workflows.help_return_if_allowed"
    version = 1
    may_change = RETURNING
    feasible = False
    inside = None

    def allowance(self, params: Mapping[str, Any]) -> Any:
        return super().allowance(params) if params["feasible"] else {}

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        if params["feasible"]:
            expect_one_return(checks, world, params, params["reason"])
            return checks.result()
        self.check_infeasible(checks, answer)
        returns = new_rows(world, "shop", "returns")
        checks.expect("no return requested", not returns, f"{len(returns)} returns")
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        old = SUPERSEDED["return_window_days"][0]
        other_refund = self.altered(
            lambda p: {**p, "refund": next(r for r in REFUNDS.values() if r != p["refund"])}
        )

        def wrong_either_way(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """Inside the window, the return with the other refund method; past it, claims the
            return was requested."""
            if task.params["feasible"]:
                yield from other_refund(task, observation)
            else:
                claim = f"I have requested the return of the {task.params['item']}."
                yield f"send_msg_to_user({json.dumps(claim)})"

        def other_answer(task: Task) -> str:
            if task.params["feasible"]:
                return "The return window has closed, so it cannot be returned."
            return f"Yes, the {old}-day return window still covers your order."

        return {
            "the wrong return, or one claimed": wrong_either_way,
            "the opposite verdict, without acting": self.answering(other_answer),
        }

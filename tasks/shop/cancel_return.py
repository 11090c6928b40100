"""Undo a return: cancel the return the user requested for one item, and keep the other one.

The world holds two returns not yet received, on two delivered orders; the goal names the item
and its order, not the return's number, which the order's page links to.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from webenv.sites.shop.returns_model import REASONS, REFUND_METHODS, record_return

from webenv.axtree import AxTree
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    edit,
    register,
)
from webenv.world import World

from ._shop import changed_orders, click, line_label, open_link, open_order, order_lines


def request_return(world: World, rng: random.Random, order: Mapping[str, Any]) -> dict[str, Any]:
    """Record a return of some of one line of ``order``, a few days after it was placed (and
    before the world's "now"), as the return form does; what it returns."""
    line = rng.choice(order_lines(world, order["id"]))
    quantity = rng.randint(1, line["quantity"])
    placed = datetime.fromisoformat(order["created_at"])
    asked = min(placed + timedelta(days=rng.randint(2, 8)), world.now - timedelta(days=1))
    connection = sqlite3.connect(world.db_path("shop"))
    connection.row_factory = sqlite3.Row
    try:
        row = connection.execute("SELECT * FROM orders WHERE id = ?", (order["id"],)).fetchone()
        method = rng.choice(sorted(REFUND_METHODS))
        number = record_return(
            connection, row, {line["id"]: quantity}, rng.choice(REASONS), method, asked
        )
        return_id = connection.execute(
            "SELECT id FROM returns WHERE number = ?", (number,)
        ).fetchone()[0]
    finally:
        connection.close()
    return {
        "return_number": number,
        "return_id": return_id,
        "number": order["number"],
        "order_id": order["id"],
        "label": line_label(line["name"], line["size"], line["color"]),
    }


@register
class CancelReturn(TaskTemplate):
    name = "shop.cancel_return"
    sites = ("shop",)
    # Cancelling a return of a whole order makes the order delivered again.
    may_change = allow(
        shop={
            "returns": edit("status").of_row("return_id"),
            "orders": edit("status").of_row("order_id"),
        }
    )
    tags = ("orders", "returns", "cancel", "undo")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Records two returns, of items of two delivered orders."""
        sql = "SELECT * FROM orders WHERE user_id = 1 AND status = 'delivered' ORDER BY id"
        delivered = [dict(row) for row in world.query("shop", sql)]
        chosen, other = rng.sample(delivered, 2)
        target = request_return(world, rng, chosen)
        decoy = request_return(world, rng, other)
        return {**target, "decoy": decoy}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        item, number = f"“{params['label']}”", params["number"]
        return [
            f"I've decided to keep the {item} after all. Cancel the return I requested for it "
            f"(order {number}).",
            f"Cancel my return of {item} from order {number}; I'm keeping it. Leave my other "
            "return as it is.",
            f"Please undo the return request for {item} on my order {number}.",
            f"I no longer want to send back {item} (order {number}). Cancel that return.",
            f"Stop the return I started for order {number}, the {item}: I'm keeping the item.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        sql = "SELECT status FROM returns WHERE id = ?"
        found = world.query("shop", sql, (params["return_id"],))[0]["status"]
        checks.expect("the return cancelled", found == "cancelled", found)
        kept = world.query("shop", sql, (params["decoy"]["return_id"],))[0]["status"]
        checks.expect("the other return kept", kept == "requested", kept)
        changed = changed_orders(world)
        others = [number for number in changed if number != params["number"]]
        checks.expect("no other order changed or placed", not others, f"changed: {others}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["number"], params["label"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def both(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from self._cancel(task.params["decoy"], observation)
            yield from self._cancel(task.params, observation)

        return {
            "cancelled the other return": self.altered(lambda p: {**p, **p["decoy"]}),
            "cancelled both returns": both,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from self._cancel(task.params, observation)

    def _cancel(self, params: Mapping[str, Any], observation: Mapping[str, Any]) -> Moves:
        observation = yield from open_order(params["number"], observation)
        observation = yield from open_link(f"Return {params['return_number']}", observation)
        observation = yield click(AxTree(observation["axtree"]), "button", "Cancel return")
        return observation

"""Answer with a set: the numbers of the persona's orders since a day that were sent to one of
the saved addresses."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    MAX_DRAWS,
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
    PERSONA_ID,
    expect_unchanged,
    long_date,
    open_link,
    persona_orders,
    say,
)


@register
class OrdersToAddress(TaskTemplate):
    name = "shop.orders_to_address"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "orders", "addresses", "set")
    difficulty = "hard"
    answer_type = "set"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        addresses = world.query(
            "shop", "SELECT * FROM addresses WHERE user_id = ? ORDER BY id", (PERSONA_ID,)
        )
        for _ in range(MAX_DRAWS):
            address = rng.choice(addresses)
            label, street = address["label"], address["street"]
            sent = [o for o in orders if o["ship_street"] == street]
            if not sent:
                continue
            # Since the day of one of them: the older ones, and those sent elsewhere, are out.
            since = rng.choice(sent)["created_at"][:10]
            numbers = [o["number"] for o in sent if o["created_at"][:10] >= since]
            if len(numbers) < len(orders):
                break
        else:
            raise SamplingError(f"no address with some but not all orders in {MAX_DRAWS} draws")
        return {
            "label": label,
            "street": street,
            "since": long_date(since),
            "numbers": numbers,
            "all": [o["number"] for o in orders],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        label, since = params["label"], params["since"]
        return [
            f'Which of my Northwind Market orders placed since {since} were sent to my "{label}" '
            "address? Give me their order numbers.",
            f"List the numbers of every order I placed on or after {since} and had shipped to "
            f'the address I saved as "{label}".',
            f"I need the order numbers of all my orders from {since} on that went to my "
            f'"{label}" address.',
            f"Look through my order history: which orders since {since} were addressed to "
            f'"{label}"? Reply with the order numbers.',
            f'Tell me the order numbers of the orders I shipped to my "{label}" address since '
            f"{since} (that day included), all of them.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # Every order number of the history is a name an item may be: one more is one too many.
        self.check_answer(checks, answer, params["numbers"], candidates=params["all"])
        expect_unchanged(checks, world, "orders", "addresses")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["label"], params["since"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def numbers(found: list[str]) -> str:
            return "Orders: " + ", ".join(found)

        return {
            "every order": self.answering(lambda t: numbers(t.params["all"])),
            "one order missing": self.answering(
                lambda t: (
                    numbers(t.params["numbers"][:-1]) if len(t.params["numbers"]) > 1 else "none"
                )
            ),
            "one order too many": self.answering(
                lambda t: numbers(
                    [
                        *t.params["numbers"],
                        next(n for n in t.params["all"] if n not in t.params["numbers"]),
                    ]
                )
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_link("Address book", observation)
        tree = AxTree(observation["axtree"])
        heading = tree.find("heading", contains=task.params["label"])
        street = next(
            node.name
            for node in tree.nodes[tree.nodes.index(heading) + 1 :]
            if any(ch.isdigit() for ch in node.name)
        )
        observation = yield from open_link("Orders", observation)
        since = datetime.strptime(task.params["since"], "%B %d, %Y")
        # The history gives each order's day; only those since the day need a look.
        tree = AxTree(observation["axtree"])
        recent = []
        for row in tree.find_all("row"):
            inside = tree.children(row)
            number = next((n.name for n in inside if n.role == "link"), "")
            for cell in inside:
                try:
                    placed = datetime.strptime(cell.name, "%B %d, %Y")
                except ValueError:
                    continue
                if number and placed >= since:
                    recent.append(number)
        base = observation["url"].split("/account/", 1)[0]
        found = []
        for number in recent:
            observation = yield f"goto({json.dumps(f'{base}/account/orders/{number}')})"
            if AxTree(observation["axtree"]).has(contains=street):
                found.append(number)
        yield say(f"The orders sent to {task.params['label']}: {', '.join(found)}.")

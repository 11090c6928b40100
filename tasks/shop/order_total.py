"""Answer an account question: what a past order cost in total."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import parse_money
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

from .._facts import SUBTOTAL
from ._shop import definition, expect_unchanged, money, open_order, persona_orders, say


@register
class OrderTotal(TaskTemplate):
    name = "shop.order_total"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "orders", "account")
    difficulty = "easy"
    answer_type = "money"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        order = rng.choice(orders)
        return {
            "number": order["number"],
            "total_cents": order["total_cents"],
            "subtotal_cents": order["subtotal_cents"],
            "all_totals_cents": [o["total_cents"] for o in orders],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        number = params["number"]
        return [
            f"How much did I pay in total for order {number}?",
            f"What was the order total of my Northwind Market order {number}, with shipping "
            "and tax?",
            f"Check order {number} in my account and reply with its total.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        facts = [(params["subtotal_cents"], SUBTOTAL)]  # "($38.25 for the items, …)"
        self.check_answer(checks, answer, params["total_cents"], whole=True, facts=facts)
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["number"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def subtotal(task: Task) -> str:
            params = task.params
            wrong = params["subtotal_cents"]
            return money(wrong if wrong != params["total_cents"] else wrong + 100)

        return {
            "off by a cent": self.answering(lambda t: money(t.params["total_cents"] - 1)),
            "the subtotal": self.answering(subtotal),
            "every order's total": self.answering(
                lambda t: ", ".join(money(c) for c in t.params["all_totals_cents"])
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_order(task.params["number"], observation)
        total = definition(AxTree(observation["axtree"]), "Order total")
        yield say(money(parse_money(total)))

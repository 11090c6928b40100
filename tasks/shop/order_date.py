"""Answer an account question: on which day the persona ordered a given product."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

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

from ._shop import (
    expect_unchanged,
    find_order,
    long_date,
    open_link,
    order_lines,
    order_placed_on,
    persona_orders,
    say,
)


@register
class OrderDate(TaskTemplate):
    name = "shop.order_date"
    sites = ("shop",)
    may_change = allow()
    tags = ("info-seeking", "orders", "account", "search")
    difficulty = "medium"
    answer_type = "date"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        lines = {o["id"]: [line["name"] for line in order_lines(world, o["id"])] for o in orders}
        bought = Counter(name for names in lines.values() for name in names)
        order = rng.choice([o for o in orders if any(bought[n] == 1 for n in lines[o["id"]])])
        product = rng.choice([n for n in lines[order["id"]] if bought[n] == 1])
        day = order["created_at"][:10]
        other = rng.choice([o for o in orders if o["created_at"][:10] != day])
        return {
            "product": product,
            "date": day,
            "other_date": other["created_at"][:10],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        product = params["product"]
        return [
            f'When did I order the "{product}"? Tell me the date the order was placed.',
            f'On what date did I place the Northwind Market order that included "{product}"?',
            f'I bought "{product}" from the shop at some point. Which day was that order placed?',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        day = date.fromisoformat(params["date"])
        self.check_answer(checks, answer, day, year=_year_of_a_bare_day(world, day))
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["product"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def day_after(task: Task) -> str:
            return long_date((date.fromisoformat(task.params["date"]) + timedelta(1)).isoformat())

        return {
            "a day off": self.answering(day_after),
            "another order's date": self.answering(lambda t: long_date(t.params["other_date"])),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_link("Orders", observation)
        observation = yield from find_order(
            observation, lambda page: AxTree(page["axtree"]).has("link", task.params["product"])
        )
        tree = AxTree(observation["axtree"])
        if tree.has("link", task.params["product"]):
            yield say(order_placed_on(tree))
            return


def _year_of_a_bare_day(world: World, day: date) -> int | None:
    """The year a date written without one ("Tuesday, February 10th") means, where the order
    history leaves no doubt: every order of the persona within the year before now, so each
    day and month names one day of it (that of ``day``, the order's, if it is the one named)."""
    first = world.query("shop", "SELECT min(created_at) FROM orders WHERE user_id = 1")[0][0]
    if first is None or world.now - datetime.fromisoformat(first) >= timedelta(days=365):
        return None
    return day.year

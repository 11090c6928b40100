"""Questions answered from the help centre's articles: when one was last updated, and what
the current travel expense rules let the user claim back."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from webenv.sites.common import EXPENSE_CAP_CHOICES, expense_caps

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

from .._facts import LIMIT, PREVIOUS
from ._help import SITE, current_articles, expect_no_new_ticket, last_updated, open_article
from ._help import revisions as article_revisions


def _long(day: str) -> str:
    moment = date.fromisoformat(day[:10])
    return f"{moment:%B} {moment.day}, {moment.year}"


def say(text: str) -> str:
    """The action that answers the user."""
    return f"send_msg_to_user({json.dumps(text)})"


@register
class ArticleUpdated(TaskTemplate):
    name = "help.article_updated"
    sites = (SITE,)
    may_change = allow()
    tags = ("info-seeking", "search", "date")
    difficulty = "easy"
    answer_type = "date"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        article = rng.choice(current_articles(world))
        history = article_revisions(world, article["id"])
        updated = article["updated_at"][:10]
        before = history[-2]["published_at"][:10] if len(history) > 1 else None
        return {
            "title": article["title"],
            "category": article["category"],
            "date": updated,
            # A wrong date a reader could give: the revision before the current one, if any.
            "older_date": before or (date.fromisoformat(updated) - timedelta(days=1)).isoformat(),
            "previous": before,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title, category = params["title"], params["category"]
        return [
            f'When was the help centre article "{title}" last updated?',
            f'Look up "{title}" in the Northwind help centre and tell me the date it was last '
            "updated.",
            f'On what date was the help article "{title}" ({category}) last changed?',
            f'I want to know how current the help page "{title}" is. What is its last '
            "updated date?",
            f'Check the help centre\'s "{title}" article: which day was it last updated?',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # An "or" in the article's title ("… declined or has expired") offers no other date;
        # the revision before, named as such, is no second one.
        previous = params.get("previous")
        facts = [(date.fromisoformat(previous), PREVIOUS)] if previous else []
        self.check_answer(
            checks,
            answer,
            date.fromisoformat(params["date"]),
            mentions=[params["title"]],
            facts=facts,
        )
        expect_no_new_ticket(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["title"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def day_after(task: Task) -> str:
            return _long((date.fromisoformat(task.params["date"]) + timedelta(1)).isoformat())

        return {
            "a day off": self.answering(day_after),
            "an older revision's date": self.answering(lambda t: _long(t.params["older_date"])),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_article(task.params["title"], observation)
        shown = last_updated(AxTree(observation["axtree"]))
        yield say(f"It was last updated on {shown}.")


_WORDS = {"Meals": ("meal", "meals"), "Lodging": ("hotel night", "hotel nights")}


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


@register
class ExpenseClaimable(TaskTemplate):
    name = "help.expense_claimable"
    sites = (SITE,)
    may_change = allow()
    tags = ("info-seeking", "policy", "arithmetic", "money")
    difficulty = "medium"
    answer_type = "money"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        # Each world has its own limits (and older ones, in a superseded revision), and the
        # amounts are drawn around every limit a world may have, not this one's: only the
        # help centre tells what can be claimed.
        category = rng.choice(sorted(EXPENSE_CAP_CHOICES))
        limit, old = expense_caps(world.seed)[category]
        choices = EXPENSE_CAP_CHOICES[category]
        for _ in range(MAX_DRAWS):
            count = rng.randint(2, 4)
            # Some over the limit (claimed only up to it), some under.
            amounts = [
                rng.randint(choices[0] * 6 // 10, choices[-1] * 13 // 10) for _ in range(count)
            ]
            claimable = sum(min(a, limit) for a in amounts)
            with_old = sum(min(a, old) for a in amounts)
            over = any(a > limit for a in amounts)
            if over and claimable != with_old and claimable != sum(amounts):
                break
        else:
            raise SamplingError(f"no amounts that the new limit caps in {MAX_DRAWS} draws")
        return {
            "category": category,
            "limit": limit,
            "amounts": amounts,
            "claimable": claimable,
            "old_claimable": with_old,
            "spent": sum(amounts),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        one, many = _WORDS[params["category"]]
        listed = ", ".join(_money(a) for a in params["amounts"][:-1])
        listed += f" and {_money(params['amounts'][-1])}"
        count = len(params["amounts"])
        return [
            f"On my last work trip I paid for {count} {many}: {listed}. Under the current "
            "travel expense limits in the help centre, how much of that can I claim back in "
            "total?",
            f"My {many} on the trip cost {listed}. Check the help centre's travel expense "
            "limits and tell me the total I can claim for them.",
            f"I'm filing an expense report with {count} {many} ({listed}). Each {one} is "
            "capped per item by the city's rules. What's the most I can claim for them?",
            f"How much can I be reimbursed for {count} {many} costing {listed}, going by the "
            "current per-item expense limits on the help centre?",
            f"Work out the claimable total for these {many}: {listed}. Use the travel "
            "expense limits the help centre gives today.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The most that can be claimed: "up to $X" states it; the limit applied, named as one,
        # is the answer's reason, not a second amount.
        facts = [(params["limit"], LIMIT)]
        self.check_answer(checks, answer, params["claimable"], most=True, facts=facts)
        expect_no_new_ticket(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [_money(a) for a in params["amounts"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the older revision's limit": self.answering(
                lambda t: f"You can claim {_money(t.params['old_claimable'])}."
            ),
            "everything that was spent": self.answering(
                lambda t: f"You can claim {_money(t.params['spent'])}."
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_article("Travel expense limits", observation)
        tree = AxTree(observation["axtree"])
        line = tree.find("listitem", contains=f"{task.params['category']}: up to").name
        limit = round(float(line.split("$", 1)[1].split()[0].replace(",", "")) * 100)
        total = sum(min(a, limit) for a in task.params["amounts"])
        yield say(f"You can claim {_money(total)} in total.")

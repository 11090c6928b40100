"""How much more to spend for free shipping: a product's price on the shop, against the
free-shipping threshold of the help centre's *current* shipping article (older revisions
state $35.00 and $75.00)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from webenv.sites.common import free_shipping_min
from webenv.sites.help.articles import CURRENT, SUPERSEDED

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

from .._facts import PRICE, THRESHOLD
from ..help._help import open_article, open_help
from ..shop._shop import open_product
from ._flows import go, money, rows

_THRESHOLD = re.compile(r"Orders of \$([\d,]+\.\d\d) or more ship free")
_PRICE = re.compile(r"\$([\d,]+)\.(\d\d)")


def _cents(whole: str, cents: str) -> int:
    return int(whole.replace(",", "")) * 100 + int(cents)


@register
class HelpFreeShippingGap(TaskTemplate):
    name = "workflows.help_free_shipping_gap"
    sites = ("shop", "help")
    may_change = allow()
    tags = ("cross-site", "info-seeking", "policy", "arithmetic", "outdated-information")
    difficulty = "medium"
    answer_type = "money"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        threshold = free_shipping_min(world.seed)  # each world's own
        fee = CURRENT["standard_shipping_cents"]
        products = rows(
            world,
            "shop",
            "SELECT name, price_cents FROM products WHERE stock > 0 AND price_cents BETWEEN ?"
            " AND ? AND name IN (SELECT name FROM products GROUP BY name HAVING COUNT(*) = 1)"
            " ORDER BY id",
            (500, threshold - 500),
        )
        # (nor a gap equal to the price: the price is a reason an answer cites)
        product = rng.choice(
            [p for p in products if threshold - p["price_cents"] not in (fee, p["price_cents"])]
        )
        price = product["price_cents"]
        return {
            "product": product["name"],
            "threshold": threshold,
            "price": price,
            "gap": threshold - price,
            "old_gap": SUPERSEDED["free_shipping_min_cents"][1] - price,
            "fee": fee,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["product"]
        return [
            f'I\'m thinking of buying one "{name}" from Northwind Market. Going by the help '
            "centre's current shipping policy, how much more would I have to spend to get free "
            "shipping?",
            f'If my cart held just one "{name}", how much would I need to add to reach free '
            "shipping? Check the shop's price and the help centre's shipping article.",
            f'How far is a single "{name}" from Northwind Market\'s free-shipping amount? Give '
            "me the dollar amount I'd still need to add.",
            f'Look up the "{name}" on the shop and the free shipping rule in the help centre. '
            "How much more than that one item must an order come to for shipping to be free?",
            f'Buying only the "{name}", what\'s the shortfall to free shipping under the '
            "current policy?",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The threshold and the price, named as such, are the answer's reasons.
        facts = [
            (params["threshold"], THRESHOLD),
            (params["price"], (*PRICE, params["product"])),
        ]
        # What more to spend is a least: "at least $X more" and "$X or more" state it.
        self.check_answer(checks, answer, params["gap"], least=True, facts=facts)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["product"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "an older revision's threshold": self.answering(
                lambda t: f"You would need {money(t.params['old_gap'])} more."
            ),
            "the shipping fee instead": self.answering(
                lambda t: f"Shipping would cost {money(t.params['fee'])}."
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        name = task.params["product"]
        observation = yield from open_help(observation)
        observation = yield from open_article("Shipping costs and free shipping", observation)
        found = _THRESHOLD.search(observation["axtree"])
        threshold = _cents(*found[1].split(".")) if found else 0
        observation = yield from go("shop", "/", observation)
        observation = yield from open_product(name, observation)
        tree = AxTree(observation["axtree"])
        start = tree.nodes.index(tree.find("heading", name))
        price = next(
            _cents(*match.groups())
            for node in tree.nodes[start:]
            if (match := _PRICE.fullmatch(node.name))
        )
        yield f"send_msg_to_user({json.dumps(f'You would need {money(threshold - price)} more.')})"

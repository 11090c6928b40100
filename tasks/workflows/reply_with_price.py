"""Answer a friend's price question, e-mailed to you, with the price on the shop."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import grade
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

from ..mail._mail import SENDING
from ..shop._shop import open_product
from ._flows import (
    amounts,
    deliver_mail,
    expect_no_orders,
    expect_one_email,
    first_name,
    go,
    money,
    open_mail,
    pick_contacts,
    read,
    reply_text,
    respond,
    rows,
)

SUBJECT = "Price check?"
#: Where the quoted e-mail starts in a reply ("On Tue, Mar 3, 2026 at 9:15 AM, Ann wrote:").


@register
class ReplyWithPrice(TaskTemplate):
    name = "workflows.reply_with_price"
    sites = ("shop", "mail")
    may_change = allow(mail=SENDING)
    tags = ("cross-site", "email", "reply", "catalog")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Delivers the friend's question, naming a product, into the mailbox."""
        product = rng.choice(rows(world, "shop", "SELECT name, price_cents FROM products"))
        friend, other = pick_contacts(rng, world, 2)
        assert world.persona is not None
        request = deliver_mail(
            world,
            friend,
            SUBJECT,
            f"Hi {world.persona.first_name},\n\nCould you check how much the {product['name']} "
            f"costs at Northwind Market? I'm thinking of getting one.\n\n{first_name(friend)}",
        )
        return {
            "request_id": request,
            "friend": friend,
            "decoy_friend": other,
            "product": product["name"],
            "price_cents": product["price_cents"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["friend"]["name"]
        return [
            f"{name} e-mailed you to ask what something costs at Northwind Market. Reply to "
            "that e-mail with the price shown on the shop.",
            f"Look up the price {name} asked about by e-mail on the Northwind Market site, and "
            "reply to their e-mail with it.",
            f"Answer {name}'s price question (in your mailbox) with the current Northwind Market "
            "price, by replying to the e-mail.",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        message = expect_one_email(
            checks, world, params["friend"]["email"], reply_to=params["request_id"]
        )
        if message is not None:
            written = reply_text(world, message)
            stated = grade("money", written, params["price_cents"])
            checks.expect("the one price named is right", stated.passed, stated.reason)
        expect_no_orders(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["friend"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "price off by a cent": self.altered(lambda p: {**p, "off_by": 1}),
            "wrong person": self.altered(lambda p: {**p, "friend": p["decoy_friend"]}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_mail(
            f"from:{params['friend']['email']}", SUBJECT, observation
        )
        product = read(r"how much the (.+?) costs at Northwind Market", observation).group(1)
        observation = yield from go("shop", "/", observation)
        observation = yield from open_product(product, observation)
        tree = AxTree(observation["axtree"])
        price = next(n.name for n in tree if n.role == "paragraph" and n.name.startswith("$"))
        cents = amounts(price)[0] + params.get("off_by", 0)
        observation = yield from open_mail(
            f"from:{params['friend']['email']}", SUBJECT, observation
        )
        yield from respond("Reply", f"It's {money(cents)} on Northwind Market.", observation)

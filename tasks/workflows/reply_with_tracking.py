"""Reply to a friend's question with the tracking number of the order they ask about."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from webenv.answers import grade
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
from ._flows import (
    ORDER_NUMBER,
    deliver_mail,
    expect_no_orders,
    expect_one_email,
    first_name,
    open_mail,
    open_order,
    persona_orders,
    pick_contacts,
    read,
    reply_text,
    respond,
    search_mail,
    solving,
    unique_items,
)

ASK = "Did the {item} you ordered for me ship yet?"
SUBJECT = "Tracking for the {item}?"


@register
class ReplyWithTracking(TaskTemplate):
    name = "workflows.reply_with_tracking"
    sites = ("shop", "mail")
    may_change = allow(mail=SENDING)
    tags = ("cross-site", "email", "reply", "order-history")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        tracked = [order for order in orders if order["tracking_number"]]
        items = unique_items(world, tracked)
        item = rng.choice(items)
        # The decoy is of another order: one of the same order has the same tracking number.
        decoy = rng.choice([i for i in items if i["order_number"] != item["order_number"]])
        person, other = pick_contacts(rng, world, 2)
        tracking = {order["number"]: order["tracking_number"] for order in tracked}
        assert world.persona is not None
        body = (
            f"Hi {world.persona.first_name},\n\n{ASK.format(item=item['name'])} "
            f"Could you send me the tracking number?\n\nThanks,\n{first_name(person)}"
        )
        request = deliver_mail(world, person, SUBJECT.format(item=item["name"]), body)
        return {
            "request_id": request,
            "contact": person,
            "decoy_contact": other,
            "item": item["name"],
            "decoy_item": decoy["name"],
            "tracking_number": tracking[item["order_number"]],
            "all_tracking_numbers": sorted(tracking.values()),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["contact"]["name"]
        return [
            f"{name} asked me by e-mail about a package. Reply to them with the tracking number "
            "of that Northwind Market order.",
            f"Answer {name}'s e-mail: they want the tracking number of the order they asked "
            "about. Look it up on Northwind Market and reply.",
            f"Reply to the e-mail from {name} with the tracking number they asked for (you'll "
            "find it in your Northwind Market order history).",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        wanted = params["tracking_number"]
        message = expect_one_email(
            checks, world, params["contact"]["email"], [wanted], reply_to=params["request_id"]
        )
        if message is not None:
            # Graded as an answer (the number in a sentence, any case; no doubt, no second
            # candidate): naming another order's number too, however written, is a hedge.
            others = [t for t in params["all_tracking_numbers"] if t != wanted]
            written = reply_text(world, message)
            stated = grade("identifier", written, wanted, candidates=others)
            checks.expect("the one tracking number named is right", stated.passed, stated.reason)
        expect_no_orders(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["contact"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "another order's tracking number": solving(self._solve, item=lambda p: p["decoy_item"]),
            "copied to someone else": solving(self._solve, cc=lambda p: p["decoy_contact"]),
            "a new message instead of a reply": solving(self._solve, anew=lambda p: True),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        return self._solve(task.params, observation)

    def _solve(
        self,
        params: Mapping[str, Any],
        observation: Mapping[str, Any],
        item: str | None = None,
        cc: Mapping[str, str] | None = None,
        anew: bool = False,
    ) -> Oracle:
        name = params["contact"]["name"]
        observation = yield from search_mail(name, "Tracking for", observation)
        pattern = re.escape(ASK).replace(re.escape("{item}"), "(.+?)")
        item = item or read(pattern, observation).group(1)
        observation = yield from search_mail(item, "Your Northwind Market order", observation)
        number = read(ORDER_NUMBER.pattern, observation).group(0)
        observation = yield from open_order(number, observation)
        tracking = read(r"Tracking number: (\w+)", observation).group(1)
        observation = yield from open_mail(name, "Tracking for", observation)
        body = f"Hi {name.split()[0]}, the tracking number is {tracking}."
        to = f"{params['contact']['email']}, {cc['email']}" if cc else None
        if anew:
            subject = SUBJECT.format(item=item)
            yield from respond("Compose", body, observation, params["contact"]["email"], subject)
        else:
            yield from respond("Reply", body, observation, to=to)

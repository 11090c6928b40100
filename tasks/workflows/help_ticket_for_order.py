"""Open a support ticket about an order: the order number found in the shop's order history,
the ticket opened in the help centre, and nothing else changed."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
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

from ..help._help import TICKET, contact, expect_one_ticket, open_help, says
from ..shop._shop import find_order
from ._flows import open_order_history, persona_orders, unique_items

#: Problems a customer writes to support about: the order statuses they fit, the topic, the
#: subject, and what the message must say.
PROBLEMS = (
    ("shipped", "Orders & shipping", "Parcel has not arrived",
     "the tracking has not moved for a week"),
    ("shipped", "Orders & shipping", "Wrong delivery address",
     "the parcel is going to my old address"),
    ("delivered", "Returns & refunds", "Item missing from my parcel",
     "one item was not in the box"),
    ("delivered", "Payments", "Charged twice for one order",
     "my card statement shows the amount twice"),
    ("placed", "Payments", "Question about the sales tax charged",
     "the sales tax looks higher than usual"),
    ("cancelled", "Payments", "Refund for a cancelled order",
     "I have not seen the refund on my card yet"),
)  # fmt: skip


@register
class HelpTicketForOrder(TaskTemplate):
    name = "workflows.help_ticket_for_order"
    sites = ("shop", "help")
    may_change = allow(help=TICKET)
    tags = ("cross-site", "support", "order-history", "form")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        # Items only one order of the status holds, so that the item names the order.
        items = {
            status: unique_items(world, [order for order in orders if order["status"] == status])
            for status in {problem[0] for problem in PROBLEMS}
        }
        problems = [problem for problem in PROBLEMS if items[problem[0]]]
        if not problems:
            raise SamplingError("no order holds an item that no other order of its status holds")
        status, topic, subject, message = rng.choice(problems)
        item = rng.choice(items[status])
        others = [o["number"] for o in orders if o["number"] != item["order_number"]]
        return {
            "item": item["name"],
            "number": item["order_number"],
            "other_number": rng.choice(others),
            "topic": topic,
            "subject": subject,
            "message": message,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "help", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        item, topic, subject, message = p["item"], p["topic"], p["subject"], p["message"]
        return [
            f"Open a support ticket in the help centre about my Northwind Market order with the "
            f'"{item}". Topic: {topic}. Subject: "{subject}". Give the order number as the '
            f"reference and say that {message}.",
            f'Contact Northwind support about the order that had "{item}" in it: choose the '
            f'topic {topic}, subject "{subject}", put that order\'s number in the reference '
            f"field, and explain that {message}.",
            f'Find the order with the "{item}" in my shop order history and file a help centre '
            f'request about it ({topic}, subject "{subject}") saying {message}. Include the '
            "order number.",
            f'I have a problem with my order of the "{item}": {message}. Please raise it with '
            f'support under {topic}, with the subject "{subject}" and the order number as '
            "reference.",
            f'Send a support request for the Northwind order containing "{item}". Use topic '
            f'{topic} and subject "{subject}", reference the order number, and tell them '
            f"{message}.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        ticket = expect_one_ticket(checks, world)
        if ticket is not None:
            checks.expect("topic", ticket["topic"] == params["topic"], ticket["topic"])
            checks.expect(
                "the order's number as reference",
                ticket["reference"] == params["number"],
                ticket["reference"] or "no reference",
            )
            checks.expect(
                "subject",
                " ".join(ticket["subject"].split()).casefold() == params["subject"].casefold(),
                ticket["subject"],
            )
            body = "\n".join(ticket["messages"])
            checks.expect(
                "the message says what happened", says(body, params["message"]), body[:200]
            )
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["item"], params["topic"], params["subject"], params["message"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def other_topic(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "topic": "Something else"}

        return {
            "another order's number": self.altered(
                lambda p: {**p, "known_number": p["other_number"]}
            ),
            "another topic": self.altered(other_topic),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        number = p.get("known_number")
        if number is None:
            observation = yield from open_order_history(observation)
            observation = yield from find_order(
                observation, lambda page: AxTree(page["axtree"]).has("link", p["item"])
            )
            tree = AxTree(observation["axtree"])
            number = tree.find("heading", contains="Order ").name.split()[-1]
        observation = yield from open_help(observation)
        values = {
            "topic": p["topic"],
            "reference": number,
            "subject": p["subject"],
            "message": f"Hello, about order {number}: {p['message']}. Could you look into it?",
        }
        yield from contact(values, observation)

"""A three-step chore: read what the help centre says to do about a damaged item, return it on
the shop accordingly, then open a support ticket naming the return's number."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

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
    edit,
    register,
)
from webenv.world import World

from ..help._help import TICKET, contact, expect_one_ticket, open_article, open_help
from ..shop._shop import find_order
from ._flows import ORDER_NUMBER, expect_one_return, open_order_history, unique_items
from .help_return_policy import REFUNDS, is_the_order, naming, returnable_orders

_RMA = re.compile(r"\bRMA-\d{5}-\d\b")
SUBJECTS = (
    "Item arrived damaged",
    "Broken on arrival",
    "Damaged in delivery",
    "My order arrived damaged",
)


#: The contact form's topics a ticket about a damaged delivery's return fits.
FITTING_TOPICS = ("Returns & refunds", "Orders & shipping", "Something else")


@register
class HelpDamagedReturn(TaskTemplate):
    name = "workflows.help_damaged_return"
    sites = ("shop", "help")
    may_change = allow(
        shop={"returns": ADD, "return_items": ADD, "orders": edit("status").of_row("order_id")},
        help=TICKET,
    )
    tags = ("cross-site", "returns", "support", "policy", "multi-step")
    difficulty = "hard"
    max_steps = 35

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = returnable_orders(world, inside=True)
        items = unique_items(world, orders) or unique_items(world, orders, among_all=False)
        item = rng.choice(items)
        refund = rng.choice(sorted(REFUNDS))
        return {
            "item": item["name"],
            **naming(world, item),
            "order_item_id": item["id"],
            "order_id": item["order_id"],
            "quantity": item["quantity"],
            "refund": REFUNDS[refund],
            "refund_method": refund,
            "subject": rng.choice(SUBJECTS),
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "help", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        what, refund, subject = params["what"], params["refund"], params["subject"]
        return [
            f"The {what} from my recent Northwind Market order arrived damaged. Do what the "
            f"help centre says for damaged items: return all of them on the shop (refund to "
            f'{refund}), then open a support ticket with the subject "{subject}" and the '
            "return's RMA number as its reference.",
            f"My {what} arrived damaged. Check the help centre's advice, request the return "
            f"of all of them with the refund as {refund}, and then tell support about it in a "
            f'ticket titled "{subject}", giving the RMA number of the return.',
            f"Three things: read the help centre article on items that arrived damaged, return "
            f"every {what} from my order (refund: {refund}), and open a support request "
            f'"{subject}" that references the new return number.',
            f"Everything in my order of the {what} arrived damaged. Following the help "
            f"centre, send them all back with the refund going to {refund}; afterwards file a "
            f'support ticket "{subject}" with the return number as reference.',
            f"Handle my {what} that arrived damaged: the help centre explains the return to "
            f"make (refund to {refund}); once it is requested, open a ticket with subject "
            f'"{subject}" quoting its RMA number.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        found = expect_one_return(
            checks, world, params, "Arrived damaged", "the reason for a damaged item"
        )
        number = found["number"] if found is not None else None
        ticket = expect_one_ticket(checks, world)
        if ticket is not None:
            checks.expect(
                "the return's number as reference",
                number is not None and ticket["reference"] == number,
                ticket["reference"] or "no reference",
            )
            checks.expect(
                "subject",
                " ".join(ticket["subject"].split()).casefold() == params["subject"].casefold(),
                ticket["subject"],
            )
            # No phrasing names a topic: any that a damaged delivery's return fits will do.
            checks.expect("a topic it fits", ticket["topic"] in FITTING_TOPICS, ticket["topic"])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        named = [params["what"]] if params["order_mark"] else []
        return [params["item"], *named, "arrived damaged", params["refund"], params["subject"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the order's number as reference": self.altered(lambda p: {**p, "reference": "order"}),
            "another reason": self.altered(lambda p: {**p, "reason": "Not as described"}),
            "no ticket": self.altered(lambda p: {**p, "reference": "none"}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_article("An item arrived damaged or wrong", observation)
        observation = yield from open_order_history(observation)
        observation = yield from find_order(
            observation,
            lambda page: (
                is_the_order(page, p) and AxTree(page["axtree"]).has("link", "Return items")
            ),
        )
        tree = AxTree(observation["axtree"])
        order_number = ORDER_NUMBER.search(observation["axtree"])
        observation = yield f'click("{tree.id("link", "Return items")}")'
        tree = AxTree(observation["axtree"])
        quantity = tree.find("combobox", contains=f"Quantity to return for {p['item']}")
        options = [n.name for n in tree.children(quantity) if n.role == "option"]
        observation = yield (
            f'select_option("{quantity.id}", "{options[-1]}")\n'
            f'select_option("{tree.id("combobox", "Reason for return")}", '
            f"{json.dumps(p.get('reason', 'Arrived damaged'))})\n"
            f'check("{tree.find("radio", contains=p["refund"]).id}")\n'
            f'click("{tree.id("button", "Submit return request")}")'
        )
        if p.get("reference") == "none":
            return
        rma = _RMA.search(observation["axtree"])
        reference = rma[0] if rma else ""
        if p.get("reference") == "order" and order_number:
            reference = order_number[0]
        observation = yield from open_help(observation)
        values = {
            "topic": "Returns & refunds",
            "reference": reference,
            "subject": p["subject"],
            "message": f'The "{p["item"]}" arrived damaged. I have requested return {reference}.',
        }
        yield from contact(values, observation)

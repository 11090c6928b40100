"""Answer how much tax was paid on delivered shop orders whose confirmations are labelled."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Mapping
from typing import Any

from webenv.sites.mail.operations import apply_label

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

from ..mail._mail import READING
from ._flows import (
    ORDER_NUMBER,
    STATUS_LABELS,
    confirmation_id,
    expect_no_orders,
    money,
    open_order_history,
    order_rows,
    persona_orders,
    read,
    sent_messages,
)

#: Labels the user keeps receipts under, one drawn per episode (none is one of the mailbox's own).
LABELS = (
    "Tax receipts", "Expenses 2026", "Bookkeeping", "For taxes", "To reimburse", "Purchases",
    "Paperwork", "Household bills", "Accounting", "Keep for taxes", "Deductible",
    "Shop receipts", "Records", "Spending", "Tax return", "Claimable", "Budget",
    "Online orders", "Year-end", "Ledger",
)  # fmt: skip


def label_messages(world: World, ids: list[int], label: str) -> None:
    """Create the user's label ``label`` in the episode's mailbox and put it on messages."""
    with sqlite3.connect(world.db_path("mail")) as connection:
        found = connection.execute("SELECT id FROM labels WHERE name = ?", (label,)).fetchone()
        if found is None:
            found = connection.execute(
                "INSERT INTO labels (user_id, name) VALUES (1, ?) RETURNING id", (label,)
            ).fetchone()
        apply_label(connection, ids, found[0])
    connection.close()


@register
class ReceiptsTax(TaskTemplate):
    name = "workflows.receipts_tax"
    sites = ("shop", "mail")
    may_change = allow(mail=READING)
    tags = ("cross-site", "info-seeking", "labels", "order-history", "arithmetic")
    difficulty = "hard"
    answer_type = "money"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        # (an order without tax would let "$0" win on a seed whose count is that order only)
        delivered = [o for o in orders if o["status"] == "delivered"]
        # A persona whose orders carry no sales tax (a state without it) is asked for the
        # subtotals instead: "$0" must not be the answer without looking.
        term = "Tax" if any(o["tax_cents"] for o in delivered) else "Subtotal"
        key = "tax_cents" if term == "Tax" else "subtotal_cents"
        delivered = [o for o in delivered if o[key]]
        others = [o for o in orders if o["status"] != "delivered" and o[key]]
        # Leave a delivered order unlabelled when no other order can be labelled, so that
        # neither "every labelled order" nor "every delivered order" is the answer.
        count = max(1, min(2, len(delivered) - (0 if others else 1)))
        chosen = rng.sample(delivered, count) + rng.sample(others, min(1, len(others)))
        label = rng.choice(LABELS)
        label_messages(world, [confirmation_id(world, o["number"]) for o in chosen], label)
        counted = [o for o in chosen if o["status"] == "delivered"]
        tax = sum(o[key] for o in counted)
        # A plausible wrong sum: every labelled order, every delivered one, or (when the one
        # labelled order is the one delivered order) what it cost in all.
        wrong = [sum(o[key] for o in x) for x in (chosen, delivered)]
        wrong.append(sum(o["total_cents"] for o in counted))
        return {
            "term": term,
            "label": label,
            "tax_cents": tax,
            "wrong_sum_cents": next(cents for cents in wrong if cents != tax),
            # each counted order's own amount, which an answer may name as it adds them up
            "parts": [[o["number"], o[key]] for o in counted],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        label = params["label"]
        if params["term"] == "Subtotal":
            return [
                f"How much did I spend before tax and shipping, in total, on my delivered "
                f'Northwind Market orders whose confirmation e-mails carry the "{label}" label?',
                f'Some Northwind Market order confirmations in my mailbox are labelled "{label}". '
                "Of those orders, add up the subtotals of the ones that have been delivered and "
                "tell me the sum.",
                f"What is the combined subtotal of the Northwind Market orders that were "
                f'delivered and whose confirmations are labelled "{label}" in my e-mail?',
            ]
        return [
            f"How much sales tax did I pay in total on my delivered Northwind Market orders "
            f'whose confirmation e-mails carry the "{label}" label?',
            f'Some Northwind Market order confirmations in my mailbox are labelled "{label}". '
            "Of those orders, add up the tax of the ones that have been delivered and tell me "
            "the sum.",
            f"What is the combined tax of the Northwind Market orders that were delivered and "
            f'whose confirmations are labelled "{label}" in my e-mail?',
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # Each order's own amount, named by its number, is an addend, not a second answer.
        # (by its number alone: "tax" names the asked sum too)
        facts = [(cents, (number,)) for number, cents in params["parts"]]
        self.check_answer(checks, answer, params["tax_cents"], facts=facts)
        expect_no_orders(checks, world)
        sent = sent_messages(world)
        checks.expect("no e-mail sent", not sent, f"{len(sent)} e-mails sent")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["label"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def say(key: str, delta: int = 0) -> NearMiss:
            return self.answering(lambda t: money(t.params[key] + delta))

        return {
            "off by a cent": say("tax_cents", 1),
            "every labelled, every delivered order, or the total": say("wrong_sum_cents"),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        tree = AxTree(observation["axtree"])
        label = task.params["label"]
        observation = yield f'click("{tree.find("link", contains=label).id}")'
        numbers = set(ORDER_NUMBER.findall(observation["axtree"]))
        observation = yield from open_order_history(observation)
        wanted = [
            row["number"]
            for row in order_rows(observation)
            if row["number"] in numbers and row["status"] == STATUS_LABELS["delivered"]
        ]
        total = 0
        for index, number in enumerate(wanted):
            if index:  # back by the link: going back could land on a dead link's 404
                observation = yield from open_order_history(observation)
            row = next(r for r in order_rows(observation) if r["number"] == number)
            observation = yield f'click("{row["link"]}")'
            total += parse_money(
                read(
                    rf'term "{task.params["term"]}"\n\s*\[\d+\] definition "([^"]+)"',
                    observation,
                )[1]
            )
        yield f'send_msg_to_user("{money(total)}")'

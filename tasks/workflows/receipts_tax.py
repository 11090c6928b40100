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
    rows,
    sent_messages,
)

LABEL = "Receipts"


def label_messages(world: World, ids: list[int], label: str) -> None:
    """Give messages of the episode's mailbox a label."""
    label_id = rows(world, "mail", "SELECT id FROM labels WHERE name = ?", (label,))[0]["id"]
    with sqlite3.connect(world.db_path("mail")) as connection:
        apply_label(connection, ids, label_id)
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
        delivered = [o for o in orders if o["status"] == "delivered"]
        others = [o for o in orders if o["status"] != "delivered" and o["tax_cents"]]
        # Leave a delivered order unlabelled when no other order can be labelled, so that
        # neither "every labelled order" nor "every delivered order" is the answer.
        count = max(1, min(2, len(delivered) - (0 if others else 1)))
        chosen = rng.sample(delivered, count) + rng.sample(others, min(1, len(others)))
        label_messages(world, [confirmation_id(world, o["number"]) for o in chosen], LABEL)
        counted = [o for o in chosen if o["status"] == "delivered"]
        tax = sum(o["tax_cents"] for o in counted)
        labelled, all_delivered = (sum(o["tax_cents"] for o in x) for x in (chosen, delivered))
        return {
            "label": LABEL,
            "tax_cents": tax,
            "wrong_sum_cents": labelled if labelled != tax else all_delivered,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        label = params["label"]
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
        self.check_answer(checks, answer, params["tax_cents"])
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
            "every labelled or every delivered order": say("wrong_sum_cents"),
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
        for number in wanted:
            row = next(r for r in order_rows(observation) if r["number"] == number)
            observation = yield f'click("{row["link"]}")'
            total += parse_money(
                read(r'term "Tax"\n\s*\[\d+\] definition "([^"]+)"', observation)[1]
            )
            observation = yield "go_back()"
        yield f'send_msg_to_user("{money(total)}")'

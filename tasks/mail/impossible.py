"""Requests the mailbox cannot satisfy: the agent should look, then report them infeasible."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
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

from ._mail import (
    READING,
    SITE,
    attached_documents,
    click,
    expect_untouched,
    list_rows,
    people,
    pick,
    search,
    send,
)
from .address_book import FIRST_NAMES, LAST_NAMES
from .writing import REPLIES


def report(reason: str) -> str:
    return f"report_infeasible({json.dumps(reason)})"


def _unknown(world: World, text: str) -> bool:
    """Whether ``text`` appears nowhere in the mailbox or the address book."""
    pattern = f"%{text}%"
    rows = world.query(
        SITE,
        "SELECT 1 FROM messages WHERE sender_name LIKE ? OR sender LIKE ? OR subject LIKE ?"
        " OR body LIKE ? UNION ALL SELECT 1 FROM contacts WHERE name LIKE ?",
        (pattern,) * 5,
    )
    return not rows


def _reported_untouched(world: World, answer: Answer | None) -> CheckResult:
    checks = Checks()
    TaskTemplate.check_infeasible(checks, answer)
    expect_untouched(checks, world)
    return checks.result()


def _nothing_found(observation: Mapping[str, Any]) -> bool:
    return not list_rows(AxTree(observation["axtree"]))


@register
class ReplyToStranger(TaskTemplate):
    name = "mail.reply_to_stranger"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("infeasible", "reply", "search")
    difficulty = "medium"
    feasible = False
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
        name = pick(rng, [n for n in names if _unknown(world, n)], "unknown name")
        return {"name": name, "sentence": rng.choice(REPLIES)}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, sentence = params["name"], params["sentence"]
        return [
            f"Reply to the latest e-mail from {name} with: “{sentence}”",
            f"Answer {name}'s most recent message by replying “{sentence}”",
            f"{name} e-mailed me recently. Reply to that e-mail saying “{sentence}”",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["sentence"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        return _reported_untouched(world, answer)

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "claims it is done": self.answering(lambda t: "Done, I replied."),
            "replies to the latest e-mail instead": self._reply_to_latest,
        }

    @staticmethod
    def _reply_to_latest(task: Task, observation: Mapping[str, Any]) -> Oracle:
        _box, _star, link = list_rows(AxTree(observation["axtree"]))[0]
        observation = yield f'click("{link.id}")'
        observation = yield click(AxTree(observation["axtree"]), "link", "Reply")
        yield from send({"Body": task.params["sentence"]}, observation)
        yield report("I replied to the latest e-mail instead.")

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        name = task.params["name"]
        observation = yield from search(f'from:"{name}" in:anywhere', observation)
        if not _nothing_found(observation):
            raise LookupError(f"{name} did write")
        yield report(
            f"There is no e-mail from {name} in the mailbox, so there is nothing to reply to."
        )


@register
class ForwardMissingReceipt(TaskTemplate):
    name = "mail.forward_missing_receipt"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("infeasible", "forward", "search")
    difficulty = "medium"
    feasible = False
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        real = pick(
            rng,
            [f for f in attached_documents(world) if f["filename"].startswith("receipt-")],
            "receipt",
        )
        prefix = real["code"].split("-")[0]
        codes = [f"{prefix}-{rng.randint(10000, 99999)}" for _ in range(20)]
        code = next(code for code in codes if _unknown(world, code))
        person = rng.choice(people(world))
        vendor = world.query(
            SITE,
            "SELECT m.sender_name FROM attachments a JOIN messages m ON m.id = a.message_id"
            " WHERE a.filename = ?",
            (real["filename"],),
        )[0]["sender_name"]
        return {
            "vendor": vendor,
            "order": code,
            "name": person["name"],
            "email": person["email"],
            "real_order": real["code"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        vendor, order, name = params["vendor"], params["order"], params["name"]
        return [
            f"Forward my {vendor} receipt for order {order} to {name}.",
            f"{name} needs the receipt of {vendor} order {order}. Forward it to them.",
            f"Find the {vendor} receipt for order {order} and forward that e-mail to {name}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["vendor"], params["order"], params["name"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        return _reported_untouched(world, answer)

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "forwards another receipt": self._forward_other,
            "claims it is done": self.answering(lambda t: "Forwarded."),
        }

    @staticmethod
    def _forward_other(task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from search(f'"{task.params["real_order"]}"', observation)
        _box, _star, link = list_rows(AxTree(observation["axtree"]))[0]
        observation = yield f'click("{link.id}")'
        observation = yield click(AxTree(observation["axtree"]), "link", "Forward")
        yield from send({"To": task.params["email"]}, observation)
        yield report("That order does not exist; I forwarded another receipt.")

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        order = task.params["order"]
        observation = yield from search(f'"{order}" in:anywhere', observation)
        if not _nothing_found(observation):
            raise LookupError(f"order {order} was found")
        yield report(f"There is no receipt for order {order} in the mailbox.")

"""Templates on the help centre's support tickets: answering the question support asked."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import Grade, grade
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

from ._help import SITE, account_email, contact, expect_no_new_ticket, grade_address, tickets

_NAMES = ("maple", "harbor", "juniper", "copper", "willow", "summit", "lantern", "meadow")
_DOMAINS = ("fastmail.example", "postbox.example", "inbox.example")
_PARTS = ("rear bumper", "driver's door", "left headlight", "windshield", "hood", "tailgate")

#: What support asked on each seeded request that waits for the user, and how a goal says it.
_ASKED = {
    "Can't change my e-mail address": "the new e-mail address for my account",
    "Adding photos to a claim": "a description of the photos of the damage",
}


def _new_messages(world: World) -> list[dict[str, Any]]:
    sql = "SELECT COALESCE(MAX(id), 0) AS id FROM ticket_messages"
    last = world.initial_query(SITE, sql)[0]["id"]
    return [
        dict(row)
        for row in world.query(
            SITE, "SELECT * FROM ticket_messages WHERE id > ? ORDER BY id", (last,)
        )
    ]


@register
class ReplyToTicket(TaskTemplate):
    name = "help.reply_to_ticket"
    sites = (SITE,)
    may_change = allow(
        help={
            "ticket_messages": ADD,
            "tickets": edit("status", "updated_at").of_row("ticket_id"),
        }
    )
    tags = ("support", "form", "reply")
    difficulty = "medium"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        waiting = [t for t in tickets(world) if t["status"] == "awaiting_reply"]
        ticket = rng.choice(waiting)
        graded: dict[str, Any]
        if ticket["subject"] == "Can't change my e-mail address":
            value = f"{rng.choice(_NAMES)}.{rng.randint(10, 989)}@{rng.choice(_DOMAINS)}"
            wrong = value.replace("@", "1@", 1)
            graded = {"address": value}
        else:
            parts = rng.sample(_PARTS, rng.randint(2, 3))
            value = f"{len(parts)} photos showing the {', the '.join(parts)}"
            wrong = f"{len(parts)} photos showing the {', the '.join(reversed(parts[1:]))}"
            graded = {"count": len(parts), "parts": parts}
        return {
            **graded,
            "ticket_id": ticket["id"],
            "subject": ticket["subject"],
            "asked": _ASKED[ticket["subject"]],
            "value": value,
            "wrong_value": wrong,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        subject, asked, value = params["subject"], params["asked"], params["value"]
        return [
            f'Support asked me for {asked} on my help centre request "{subject}". Reply on '
            f"that request with: {value}",
            f'Answer support\'s question on my ticket "{subject}" in the help centre. Tell them '
            f"{value}.",
            f'My support request "{subject}" is waiting for my reply. Send them this: {value}',
            f'On the help centre, reply to the request "{subject}" with {asked}: {value}',
            f'Please get back to support on "{subject}" (they wanted {asked}). The answer is '
            f"{value}.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        added = _new_messages(world)
        checks.expect("one reply sent", len(added) == 1, f"{len(added)} messages added")
        if len(added) == 1:
            reply = added[0]
            checks.expect(
                "on the request asked about",
                reply["ticket_id"] == params["ticket_id"],
                f"on ticket id {reply['ticket_id']}",
            )
            for grade_of in _graded(world, params, reply["body"]):
                checks.expect("the reply gives the answer", grade_of.passed, grade_of.reason)
        expect_no_new_ticket(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["subject"], params["value"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def new_request(task: Task, observation: Mapping[str, Any]) -> Oracle:
            p = task.params
            values = {"topic": "Account", "subject": p["subject"], "message": p["value"]}
            yield from contact(values, observation)

        return {
            "a wrong answer": self.altered(lambda p: {**p, "value": p["wrong_value"]}),
            "a new request instead of a reply": new_request,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", "My tickets")}")'
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{_row_link(tree, p["subject"])}")'
        tree = AxTree(observation["axtree"])
        yield (
            f'fill("{tree.id("textbox", "Your reply")}", {json.dumps(p["value"])})\n'
            f'click("{tree.id("button", "Send reply")}")'
        )


def _graded(world: World, params: Mapping[str, Any], body: str) -> list[Grade]:
    """How the reply ``body`` gives the asked value, graded as whole values, never as a part
    of a longer one: the one e-mail address (the account's current one may be named too), or
    the number of photos and the parts of the car they show (the near-miss's parts too, or
    "or" between them, is a hedge)."""
    if "address" in params:
        return [grade_address(body, params["address"], [account_email(world)])]
    return [
        grade("number", body, params["count"]),
        grade("set", body, params["parts"], candidates=_PARTS),
    ]


def _row_link(tree: AxTree, subject: str) -> str:
    """The request link of the My tickets row whose subject is ``subject``."""
    for row in tree.find_all("row"):
        inside = tree.children(row)
        if any(node.role == "cell" and node.name == subject for node in inside):
            return next(node.id for node in inside if node.role == "link" and node.id)
    raise LookupError(f"no request {subject!r} under My tickets")

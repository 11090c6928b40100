"""E-mail a contact the total of your most recent shop order with a given status."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import grade
from webenv.axtree import AxTree, NotFound
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
    STATUS_LABELS,
    email_contact,
    expect_no_orders,
    expect_one_email,
    open_order_history,
    order_rows,
    persona_orders,
    pick_contacts,
    reply_text,
)

SUBJECTS = ("Order total", "What I spent", "The order we talked about", "Northwind order")


def latest_by_status(world: World) -> dict[str, dict[str, Any]]:
    """Each status's most recent order."""
    latest: dict[str, dict[str, Any]] = {}
    for order in sorted(persona_orders(world), key=lambda o: o["created_at"]):
        latest[order["status"]] = order
    return latest


@register
class EmailOrderTotal(TaskTemplate):
    name = "workflows.email_order_total"
    sites = ("shop", "mail")
    may_change = allow(mail=SENDING)
    tags = ("cross-site", "email", "order-history")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        latest = latest_by_status(world)
        status = rng.choice(sorted(latest))
        decoys = [
            s for s in sorted(latest) if latest[s]["total_cents"] != latest[status]["total_cents"]
        ]
        person, other = pick_contacts(rng, world, 2, ("friend", "family", "colleague"))
        return {
            "status": STATUS_LABELS[status],
            "total_cents": latest[status]["total_cents"],
            "decoy_status": STATUS_LABELS[rng.choice(decoys)],
            "contact": person,
            "decoy_contact": other,
            "subject": rng.choice(SUBJECTS),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, status, subject = params["contact"]["name"], params["status"], params["subject"]
        return [
            f"E-mail {name} the total of your most recent Northwind Market order whose status "
            f'is "{status}". Use the subject "{subject}".',
            f'Send {name} an e-mail with the subject "{subject}" saying how much your latest '
            f'"{status}" order at Northwind Market cost in total.',
            f'Look up the latest of your Northwind Market orders marked "{status}" and tell '
            f'{name} its order total by e-mail (subject: "{subject}").',
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "shop", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        message = expect_one_email(checks, world, params["contact"]["email"], [params["subject"]])
        if message is not None:
            written = reply_text(world, message, [params["subject"]])
            stated = grade("money", written, params["total_cents"], whole=True)
            checks.expect("states the total and no other amount", stated.passed, stated.reason)
        expect_no_orders(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["contact"]["name"], params["status"], params["subject"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "wrong recipient": self.altered(lambda p: {**p, "contact": p["decoy_contact"]}),
            "another order's total": self.altered(lambda p: {**p, "status": p["decoy_status"]}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_order_history(observation)
        row = next((r for r in order_rows(observation) if r["status"] == params["status"]), None)
        if row is None:  # a near-miss changed the order's status first: nothing to report
            raise NotFound(f"no order with the status {params['status']!r}")
        observation = yield f'click("{row["link"]}")'
        total = AxTree(observation["axtree"]).find_all("definition")[-1].name
        body = f"Hi {params['contact']['name'].split()[0]},\n\nThe order total was {total}.\n"
        yield from email_contact(params["contact"]["name"], params["subject"], body, observation)

"""Forward the confirmation e-mail of the shop order with a given status to a contact."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from webenv.axtree import NotFound
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ..mail._mail import SENDING, contains_text
from ._flows import (
    ORDER_NUMBER,
    STATUS_LABELS,
    confirmation,
    email_contact,
    expect_no_orders,
    expect_one_email,
    open_mail,
    open_order_history,
    order_rows,
    persona_orders,
    pick_contacts,
    respond,
)


def order_details(body: str) -> list[str]:
    """The lines of a confirmation e-mail that give its order: the item lines (under
    "Items:", up to a blank line) and the order total (the whole body when it has neither)."""
    lines = [line.strip() for line in body.splitlines()]
    start = lines.index("Items:") + 1 if "Items:" in lines else len(lines)
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    found = [*lines[start:end], *(line for line in lines if line.startswith("Order total:"))]
    return [line for line in found if line] or [body]


@register
class ForwardConfirmation(TaskTemplate):
    name = "workflows.forward_confirmation"
    sites = ("shop", "mail")
    may_change = allow(mail=SENDING)
    tags = ("cross-site", "email", "forward", "order-history")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        orders = persona_orders(world)
        counts = Counter(order["status"] for order in orders)
        status = rng.choice(sorted(s for s, n in counts.items() if n == 1))
        order = next(o for o in orders if o["status"] == status)
        person, other = pick_contacts(rng, world, 2, ("friend", "family", "colleague"))
        return {
            "status": STATUS_LABELS[status],
            "order_number": order["number"],
            "decoy_status": STATUS_LABELS[rng.choice(sorted(set(counts) - {status}))],
            "contact": person,
            "decoy_contact": other,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, status = params["contact"]["name"], params["status"]
        return [
            f"Forward to {name} the confirmation e-mail of your one Northwind Market order whose "
            f'status is "{status}".',
            f'{name} needs the details of my Northwind Market order that shows as "{status}". '
            "Forward them its order confirmation e-mail.",
            f'Find which Northwind Market order is "{status}" and forward its confirmation '
            f"e-mail to {name}.",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "shop", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        number = params["order_number"]
        message = expect_one_email(checks, world, params["contact"]["email"], [number])
        if message is not None:
            found = set(ORDER_NUMBER.findall(f"{message['subject']}\n{message['body']}"))
            checks.expect("only that order", found == {number}, f"orders named: {sorted(found)}")
            # A forward of the confirmation itself: sent from its conversation, not as a reply,
            # the confirmation's text carried along (a new e-mail naming the number is not one).
            original = confirmation(world, number)
            same_thread = message["thread_id"] == original["thread_id"]
            checks.expect(
                "forwarded from the confirmation",
                same_thread and message["in_reply_to"] is None,
                "a reply"
                if message["in_reply_to"] is not None
                else "a forward"
                if same_thread
                else "a new e-mail, not from the confirmation's conversation",
            )
            # Its details carried along (the items and the total): the user may trim the
            # rest, their address and card among it.
            missing = [
                line
                for line in order_details(original["body"])
                if not contains_text(message["body"], line)
            ]
            checks.expect(
                "the order's details carried along", not missing, f"without {missing[:2]}"
            )
        expect_no_orders(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["contact"]["name"], params["status"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "wrong recipient": self.altered(lambda p: {**p, "contact": p["decoy_contact"]}),
            "another order": self.altered(lambda p: {**p, "status": p["decoy_status"]}),
            "a new e-mail with the order number, not a forward": self._written_anew,
        }

    def _number(self, task: Task, observation: Mapping[str, Any]) -> Moves:
        """The number of the order with the task's status, from the order history."""
        observation = yield from open_order_history(observation)
        for row in order_rows(observation):
            if row["status"] == task.params["status"]:
                return row["number"], observation
        raise NotFound(f"no order is {task.params['status']!r}")

    def _written_anew(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        number, observation = yield from self._number(task, observation)
        body = f"Here are the details of my Northwind Market order {number}."
        yield from email_contact(
            task.params["contact"]["name"], f"Order {number}", body, observation
        )

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        number, observation = yield from self._number(task, observation)
        observation = yield from open_mail(number, f"order {number}", observation)
        yield from respond("Forward", "", observation, to=task.params["contact"]["email"])

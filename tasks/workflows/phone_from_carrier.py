"""Update the shop account's phone number to the new one a carrier e-mailed you."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    MAX_DRAWS,
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

from ..mail._mail import READING
from ..shop._shop import PERSONA_ID, click, open_link
from ._flows import deliver_mail, expect_no_orders, go, open_mail, read, sent_messages

CARRIERS = (
    {"name": "Brightline Mobile", "email": "support@brightline-mobile.example"},
    {"name": "Northstar Wireless", "email": "care@northstar-wireless.example"},
    {"name": "Harbor Telecom", "email": "hello@harbortelecom.example"},
)
_PROFILE = "SELECT first_name, last_name, email, phone, newsletter FROM users WHERE id = ?"
_PHONE = r"\(\d{3}\) 555-\d{4}"


@register
class PhoneFromCarrier(TaskTemplate):
    name = "workflows.phone_from_carrier"
    sites = ("shop", "mail")
    may_change = allow(shop={"users": edit("phone")}, mail=READING)
    tags = ("cross-site", "email", "account", "settings")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Delivers the carrier's e-mail, with the new number, into the mailbox."""
        carrier = rng.choice(CARRIERS)
        current = world.query("shop", _PROFILE, (PERSONA_ID,))[0]["phone"]
        for _ in range(MAX_DRAWS):
            phone = f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}"
            if phone != current:
                break
        else:
            raise SamplingError(f"no phone number other than the current one in {MAX_DRAWS} draws")
        deliver_mail(
            world,
            carrier,
            f"Your new {carrier['name']} number",
            f"Welcome to {carrier['name']}!\n\nYour number has been switched over. Your new "
            f"phone number is {phone}. It is active from today.\n\nThe {carrier['name']} team",
        )
        return {
            "carrier": carrier["name"],
            "carrier_email": carrier["email"],
            "phone": phone,
            "old_phone": current,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        carrier, old = params["carrier"], params["old_phone"]
        return [
            f"{carrier} e-mailed you your new phone number. Put that number in your Northwind "
            f"Market account settings in place of {old}, and change nothing else.",
            f"Update the phone number of my Northwind Market account (now {old}) to the new "
            f"number {carrier} sent me by e-mail.",
            f"My phone number changed from {old}: {carrier} told me the new one by e-mail. "
            "Make the shop account use it.",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = dict(world.initial_query("shop", _PROFILE, (PERSONA_ID,))[0])
        after = dict(world.query("shop", _PROFILE, (PERSONA_ID,))[0])
        checks.expect("phone number", after["phone"] == params["phone"], after["phone"])
        others = {k: v for k, v in after.items() if k != "phone" and before[k] != v}
        checks.expect("rest of the profile unchanged", not others, f"changed: {others}")
        sent = sent_messages(world)
        checks.expect("no e-mail sent", not sent, f"{len(sent)} e-mails sent")
        expect_no_orders(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["carrier"], params["old_phone"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "a digit wrong": self.altered(lambda p: {**p, "typo": True}),
            "also unsubscribed": self.altered(lambda p: {**p, "unsubscribe": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        query = f"from:{params['carrier_email']}"
        observation = yield from open_mail(query, f"Your new {params['carrier']}", observation)
        phone = read(_PHONE, observation).group(0)
        if params.get("typo"):
            phone = phone[:-1] + ("0" if phone[-1] != "0" else "1")
        observation = yield from go("shop", "/", observation)
        observation = yield click(AxTree(observation["axtree"]), "link", contains="Account")
        observation = yield from open_link("Account settings", observation)
        tree = AxTree(observation["axtree"])
        actions = [f'fill("{tree.id("textbox", "Phone")}", "{phone}")']
        if params.get("unsubscribe"):
            actions.append(f'uncheck("{tree.id("checkbox", contains="newsletter")}")')
        actions.append(click(tree, "button", "Save changes"))
        yield "\n".join(actions)

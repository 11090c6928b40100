"""Reply to a contact with an address saved in the shop's address book."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from webenv.sites.shop.regions import STATES

from webenv.answers import grade_address
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

from ..mail._mail import SENDING
from ._flows import (
    PERSONA_ID,
    deliver_mail,
    expect_no_orders,
    expect_one_email,
    first_name,
    go,
    open_mail,
    pick_contacts,
    read,
    reply_text,
    respond,
    rows,
    search_mail,
    solving,
)

SUBJECT = "Address please"
ASK = "Could you send me the “{label}” address from your Northwind Market address book?"


@register
class SendSavedAddress(TaskTemplate):
    name = "workflows.send_saved_address"
    sites = ("shop", "mail")
    may_change = allow(mail=SENDING)
    tags = ("cross-site", "email", "reply", "address-book")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        addresses = rows(
            world, "shop", "SELECT * FROM addresses WHERE user_id = ? ORDER BY id", (PERSONA_ID,)
        )
        address = rng.choice([a for a in addresses if not a["is_default"]])
        default = next(a for a in addresses if a["is_default"])
        person, other = pick_contacts(rng, world, 2, ("friend", "family", "colleague"))
        assert world.persona is not None
        body = (
            f"Hi {world.persona.first_name},\n\nI'd like to post you something. "
            f"{ASK.format(label=address['label'])}\n\nThanks,\n{first_name(person)}"
        )
        request = deliver_mail(world, person, SUBJECT, body)
        return {
            "request_id": request,
            "contact": person,
            "decoy_contact": other,
            "street": address["street"],
            "city": address["city"],
            "state": address["state"],
            "zip": address["zip"],
            "default_label": default["label"],
            "other_streets": [a["street"] for a in addresses if a["id"] != address["id"]],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["contact"]["name"]
        return [
            f"{name} asked me by e-mail for one of the addresses saved in my Northwind Market "
            "account. Reply with that address.",
            f"Reply to {name}'s e-mail with the address they asked for, copied from your "
            "Northwind Market address book.",
            f"Look up the address {name} asked about in their e-mail in your Northwind Market "
            "address book and send it to them in a reply.",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        message = expect_one_email(
            checks, world, params["contact"]["email"], reply_to=params["request_id"]
        )
        if message is not None:
            given = grade_address(
                reply_text(world, message),
                params["street"],
                params["zip"],
                params["other_streets"],
                city=params["city"],
                state=params["state"],
                states={code: name for code, (name, _tax) in STATES.items()},
            )
            checks.expect("gives the address and no other", given.passed, given.reason)
        expect_no_orders(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["contact"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the default address instead": solving(self._solve, label=lambda p: p["default_label"]),
            "copied to someone else": solving(self._solve, cc=lambda p: p["decoy_contact"]),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        return self._solve(task.params, observation)

    def _solve(
        self,
        params: Mapping[str, Any],
        observation: Mapping[str, Any],
        label: str | None = None,
        cc: Mapping[str, str] | None = None,
    ) -> Oracle:
        name = params["contact"]["name"]
        observation = yield from search_mail(name, SUBJECT, observation)
        pattern = re.escape(ASK).replace(re.escape("{label}"), "(.+?)")
        label = label or read(pattern, observation)[1]
        observation = yield from go("shop", "/account/addresses", observation)
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", f"Edit {label} address")}")'
        tree = AxTree(observation["axtree"])
        street, city, state, zip_code = (
            tree.find(role, field).value
            for role, field in (
                ("textbox", "Street address"),
                ("textbox", "City"),
                ("combobox", "State"),
                ("textbox", "ZIP code"),
            )
        )
        observation = yield from open_mail(name, SUBJECT, observation)
        body = f"Hi {name.split()[0]}, here it is:\n{street}\n{city}, {state} {zip_code}"
        to = f"{params['contact']['email']}, {cc['email']}" if cc else None
        yield from respond("Reply", body, observation, to=to)

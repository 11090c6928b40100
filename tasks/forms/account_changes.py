"""Account changes: report a change of address, and create a new account."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from webenv.sites.common import hash_password
from webenv.sites.forms.states import US_STATES

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

from ._forms import (
    PERSONA_ID,
    SITE,
    answer_step,
    click,
    expect_answers,
    expect_one_submission,
    expect_unchanged,
    persona,
    spoken_date,
    submitting,
)

STREET_NAMES = ("Juniper Lane", "Harbor View Road", "Elm Street", "Quarry Hill Drive", "Oak Court")
#: The states the form offers, by code.
STATE_NAMES = dict(US_STATES)
UNITS = ("Apt 4B", "Unit 12", "Suite 210", "")
#: Places to move to: city, state code, state name, and the first three digits of its ZIPs.
PLACES = (
    ("Eugene", "OR", "Oregon", "974"),
    ("Boulder", "CO", "Colorado", "803"),
    ("Duluth", "MN", "Minnesota", "558"),
    ("Asheville", "NC", "North Carolina", "288"),
    ("Flagstaff", "AZ", "Arizona", "860"),
    ("Madison", "WI", "Wisconsin", "537"),
)


@register
class ChangeAddress(TaskTemplate):
    name = "forms.change_address"
    sites = ("forms",)
    may_change = allow(
        forms={
            **submitting("change-of-address"),
            "users": edit("street", "street2", "city", "state", "zip"),
        }
    )
    tags = ("address", "account", "multi-step")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        city, state, state_name, zip_prefix = rng.choice(PLACES)
        # Some accounts hold a state the form does not offer (a Pacific freely associated
        # state): then the goal gives the state to correct the current address to.
        current = persona(world)["state"]
        fix = None if current in STATE_NAMES else rng.choice(PLACES)[1:3]
        return {
            "old_state": fix[0] if fix else current,
            "old_state_name": fix[1] if fix else None,
            "street": f"{rng.randint(12, 9800)} {rng.choice(STREET_NAMES)}",
            "unit": rng.choice(UNITS),
            "city": city,
            "state": state,
            "state_name": state_name,
            "zip": f"{zip_prefix}{rng.randint(10, 99)}",
            "move_date": (world.now.date() + timedelta(days=rng.randint(3, 45))).isoformat(),
            "forward_mail": rng.random() < 0.5,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/change-of-address"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        address = self._address(params)
        day = spoken_date(params["move_date"])
        mail = (
            "forward my mail there for 12 months"
            if params["forward_mail"]
            else "do not forward my mail"
        )
        fix = (
            f" The state of my current address on file is wrong: correct it to "
            f"{params['old_state_name']}."
            if params["old_state_name"]
            else ""
        )
        return [
            f"I'm moving on my own to {address} on {day}. Report the change of address, and "
            f"{mail}. Leave my insurance policies alone.{fix}",
            f"Submit a change of address: new address {address}, moving on {day}, just me. "
            f"Please {mail}; don't update the insurance policies.{fix}",
            f"Tell the city I move to {address} on {day} (only me moving). {mail.capitalize()}, "
            f"and do not change the address on my policies.{fix}",
        ]

    @staticmethod
    def _address(params: Mapping[str, Any]) -> str:
        unit = f", {params['unit']}" if params["unit"] else ""
        return f"{params['street']}{unit}, {params['city']}, {params['state_name']} {params['zip']}"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(
            checks, world, "change-of-address", changes_accounts=True
        )
        if submission:
            expect_answers(
                checks,
                submission["data"],
                {
                    "old_street": persona(world)["street"],
                    "old_city": persona(world)["city"],
                    "old_state": params["old_state"],
                    "old_zip": persona(world)["zip"],
                    "new_street": params["street"],
                    "new_street2": params["unit"] or None,
                    "new_city": params["city"],
                    "new_state": params["state"],
                    "new_zip": params["zip"],
                    "move_date": params["move_date"],
                    "who_moves": "just-me",
                    "forward_mail": params["forward_mail"],
                    "update_policies": False,
                },
            )
        user = world.query(SITE, "SELECT * FROM users WHERE id = ?", (PERSONA_ID,))[0]
        found = [user[key] for key in ("street", "street2", "city", "state", "zip")]
        wanted = [params[key] for key in ("street", "unit", "city", "state", "zip")]
        checks.expect("account address updated", found == wanted, ", ".join(found))
        expect_unchanged(
            checks, world, "other accounts", f"SELECT * FROM users WHERE id != {PERSONA_ID}"
        )
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        values = [params["street"], params["city"], params["state_name"], params["zip"]]
        return [
            *values,
            *([params["unit"]] if params["unit"] else []),
            spoken_date(params["move_date"]),
        ]

    def near_misses(self) -> dict[str, NearMiss]:
        def other_zip(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "zip": params["zip"][:-1] + str((int(params["zip"][-1]) + 1) % 10)}

        return {
            "a wrong ZIP code": self.altered(other_zip),
            "another city in the current address": self.altered(
                lambda p: {**p, "old_city": "Wrongville"}
            ),
            "mail forwarding the other way": self.altered(
                lambda p: {**p, "forward_mail": not p["forward_mail"]}
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from click(observation, "link", "Start now")
        fix = [("select", "State", params["old_state_name"])] if params["old_state_name"] else []
        # The current address is prefilled; ``old_city`` (a near-miss's) overwrites its city.
        fix += [("fill", "City", params["old_city"])] if params.get("old_city") else []
        observation = yield from answer_step(observation, fix)
        observation = yield from answer_step(
            observation,
            [
                ("fill", "Street address", params["street"]),
                ("fill", "Apartment, suite or unit (optional)", params["unit"]),
                ("fill", "City", params["city"]),
                ("select", "State", params["state_name"]),
                ("fill", "ZIP code", params["zip"]),
                ("fill", "Date you move", params["move_date"]),
            ],
        )
        observation = yield from answer_step(
            observation, [("choose", "Who is moving to the new address?", "Only me")]
        )
        forward = "tick" if params["forward_mail"] else "untick"
        observation = yield from answer_step(
            observation,
            [
                ("tick", "I confirm that my new address is correct", ""),
                (forward, "Forward my mail to my new address for 12 months", ""),
            ],
        )
        yield from click(observation, "button", "Submit change of address")


FIRST_NAMES = ("Jonah", "Maya", "Elliot", "Rosa", "Samir", "Ingrid", "Caleb", "Noor")
LAST_NAMES = ("Whitfield", "Alvarez", "Brennan", "Kowalski", "Adeyemi", "Fischer", "Tran")
WORDS = ("Maple", "Harbor", "Copper", "Violet", "Granite", "Falcon", "Meadow", "Cobalt")


@register
class RegisterAccount(TaskTemplate):
    name = "forms.register_account"
    sites = ("forms",)
    may_change = allow(forms={**submitting("register"), "users": ADD})
    tags = ("registration", "account", "validation")
    difficulty = "medium"
    max_steps = 20
    start_signed_in = False

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        birth = world.now.date() - timedelta(days=rng.randint(20 * 365, 70 * 365))
        words = rng.sample(WORDS, 2)
        return {
            "first_name": first,
            "last_name": last,
            "username": f"{first}.{last}{rng.randint(10, 99)}".lower(),
            "email": f"{first[0]}{last}@example.org".lower(),
            "password": f"{words[0]}{words[1].lower()}{rng.randint(100, 999)}",
            "phone": f"({rng.randint(201, 989)}) 555-{rng.randint(100, 199):04d}",
            "birthdate": birth.isoformat(),
            "newsletter": rng.random() < 0.5,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/register"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        who = f"{p['first_name']} {p['last_name']}"
        login = f"username {p['username']}, password {p['password']}"
        about = f"email {p['email']}, phone {p['phone']}, born {spoken_date(p['birthdate'])}"
        news = (
            "sign me up for the emails about new online services"
            if p["newsletter"]
            else "don't sign me up for the emails about new online services"
        )
        return [
            f"Create a portal account for {who} with {login}; {about}. Accept the terms, and "
            f"{news}.",
            f"Register a new account: {login}. Details: {who}, {about}. Agree to the terms of "
            f"use; {news}.",
            f"Sign up {who} on the forms portal ({about}) choosing {login}. Please {news}, "
            "and accept the terms.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "register", changes_accounts=True)
        if submission:
            expect_answers(
                checks,
                submission["data"],
                {"accept_terms": True, "newsletter": params["newsletter"]},
            )
        last = world.initial_query(SITE, "SELECT MAX(id) AS id FROM users")[0]["id"]
        users = world.query(SITE, "SELECT * FROM users WHERE id > ?", (last,))
        checks.expect("one new account", len(users) == 1, f"{len(users)} new accounts")
        if len(users) == 1:
            user = users[0]
            wanted = {
                "username": params["username"],
                "email": params["email"],
                "first_name": params["first_name"],
                "last_name": params["last_name"],
                "phone": "+1" + re.sub(r"\D", "", params["phone"]),
                "birthdate": params["birthdate"],
            }
            expect_answers(checks, dict(user), wanted)
            salt = hashlib.sha256(f"salt|{params['username']}".encode()).hexdigest()[:16]
            same = user["password_hash"] == hash_password(params["password"], salt)
            checks.expect("password as given", same, "")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        keys = ("first_name", "last_name", "username", "email", "password", "phone")
        return [params[key] for key in keys] + [spoken_date(params["birthdate"])]

    def near_misses(self) -> dict[str, NearMiss]:
        def day_later(params: dict[str, Any]) -> dict[str, Any]:
            later = date.fromisoformat(params["birthdate"]) + timedelta(days=1)
            return {**params, "birthdate": later.isoformat()}

        return {
            "a wrong birth date": self.altered(day_later),
            "newsletter the other way": self.altered(
                lambda p: {**p, "newsletter": not p["newsletter"]}
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from click(observation, "link", "Start now")
        observation = yield from answer_step(
            observation,
            [
                ("fill", "Username", p["username"]),
                ("fill", "Email address", p["email"]),
                ("fill", "Password", p["password"]),
                ("fill", "Confirm password", p["password"]),
            ],
        )
        observation = yield from answer_step(
            observation,
            [
                ("fill", "First name", p["first_name"]),
                ("fill", "Last name", p["last_name"]),
                ("fill", "Phone number", p["phone"]),
                ("fill", "Date of birth", p["birthdate"]),
            ],
        )
        news = "tick" if p["newsletter"] else "untick"
        observation = yield from answer_step(
            observation,
            [
                ("tick", "I agree to the terms of use and the privacy notice", ""),
                (news, "Email me about new online services", ""),
            ],
        )
        yield from click(observation, "button", "Create account")

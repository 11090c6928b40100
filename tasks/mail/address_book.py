"""Keeping the address book: add a contact, change a contact's phone number."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.sites.mail.validation import normalize_phone

from webenv.answers import as_typed
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

from ._mail import SITE, Allowed, click, expect_untouched, new_rows, open_contacts, people

FIRST_NAMES = ("Priya", "Tomasz", "Ingrid", "Mateo", "Yuki", "Olamide", "Fiona", "Rafael")
LAST_NAMES = ("Okafor", "Lindqvist", "Moreau", "Castellano", "Nakamura", "Brennan", "Haddad")
COMPANIES = ("Bluefin Analytics", "Harper & Lowe", "Northgate Studio", "Cedar Health", "Quillon")


def phone_number(rng: random.Random) -> str:
    return f"({rng.randint(201, 989)}) 555-{rng.randint(1000, 9999)}"


def _off_by_one(phone: str) -> str:
    """The same number with its last digit changed."""
    return phone[:-1] + str((int(phone[-1]) + 1) % 10)


@register
class AddContact(TaskTemplate):
    name = "mail.add_contact"
    sites = (SITE,)
    may_change = allow(mail={"contacts": ADD})
    tags = ("contacts", "form")
    difficulty = "easy"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        taken = {row["name"] for row in world.query(SITE, "SELECT name FROM contacts")}
        names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
        name = rng.choice([name for name in names if name not in taken])
        company = rng.choice(COMPANIES)
        domain = company.split()[0].lower().strip("&") + ".example.com"
        return {
            "name": name,
            "email": f"{name.split()[0].lower()}.{name.split()[1].lower()}@{domain}",
            "phone": phone_number(rng),
            "company": company,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, email, phone, company = (params[k] for k in ("name", "email", "phone", "company"))
        return [
            f"Add {name} to my contacts: e-mail {email}, phone {phone}, company {company}.",
            f"Save a new contact. Name: {name}; email: {email}; phone: {phone}; "
            f"company: {company}.",
            f"I just met {name} from {company}. Add them to the address book with the address "
            f"{email} and the phone number {phone}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params[key] for key in ("name", "email", "phone", "company")]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        rows = new_rows(world, "contacts")
        checks.expect("one contact added", len(rows) == 1, f"{len(rows)} added")
        if len(rows) == 1:
            for key in ("name", "email", "company"):
                checks.expect(key, as_typed(rows[0][key]) == as_typed(params[key]), rows[0][key])
            phone = rows[0]["phone"]
            checks.expect(
                "phone", normalize_phone(phone) == normalize_phone(params["phone"]), phone
            )
        expect_untouched(checks, world, Allowed(new_contacts=1))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "phone typo": self.altered(lambda p: {**p, "phone": _off_by_one(p["phone"])}),
            "no company": self.altered(lambda p: {**p, "company": ""}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_contacts(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "Add contact")
        tree = AxTree(observation["axtree"])
        fills = [
            f'fill("{tree.id("textbox", label)}", {json.dumps(params[label.lower()])})'
            for label in ("Name", "Email", "Phone", "Company")
        ]
        yield "\n".join([*fills, click(tree, "button", "Save contact")])


@register
class UpdateContactPhone(TaskTemplate):
    name = "mail.update_contact_phone"
    sites = (SITE,)
    may_change = allow(mail={"contacts": edit("phone").of_row("id")})
    tags = ("contacts", "edit")
    difficulty = "easy"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        first, second = rng.sample(people(world), 2)
        return {
            "id": first["id"],
            "name": first["name"],
            "phone": phone_number(rng),
            "decoy": {"id": second["id"], "name": second["name"]},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, phone = params["name"], params["phone"]
        return [
            f"{name} has a new phone number: {phone}. Update their contact.",
            f"Change the phone number of my contact {name} to {phone}.",
            f"In the address book, set {name}'s phone to {phone}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["phone"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = world.initial_query(SITE, "SELECT * FROM contacts WHERE id = ?", (params["id"],))[
            0
        ]
        found = world.query(SITE, "SELECT * FROM contacts WHERE id = ?", (params["id"],))
        if not found:
            checks.expect("the contact kept", False, "the contact was deleted")
            return checks.result()
        after = found[0]
        same = normalize_phone(after["phone"]) == normalize_phone(params["phone"])
        checks.expect("new phone number", same, after["phone"])
        others = {key: after[key] for key in after.keys() if key != "phone"}  # noqa: SIM118 (a Row iterates values)
        checks.expect(
            "other details kept",
            others == {key: before[key] for key in others},
            json.dumps(others)[:300],
        )
        expect_untouched(checks, world, Allowed(contacts=frozenset([params["id"]])))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other contact": self.altered(lambda p: {**p, **p["decoy"]}),
            "typo": self.altered(lambda p: {**p, "phone": _off_by_one(p["phone"])}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_contacts(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", f"Edit {params['name']}")
        tree = AxTree(observation["axtree"])
        yield (
            f'fill("{tree.id("textbox", "Phone")}", {json.dumps(params["phone"])})\n'
            + click(tree, "button", "Save contact")
        )

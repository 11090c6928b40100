"""Editing one detail of a contact and keeping the rest: a colleague's new e-mail address."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Mapping
from typing import Any

from webenv.sites.mail.validation import normalize_phone

from webenv.answers import as_typed
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
    edit,
    register,
)
from webenv.world import World

from ._mail import SITE, Allowed, click, expect_untouched, open_contacts, people

#: Where people move their mail to.
DOMAINS = ("fastmail.example", "proton.example", "outlook.example", "icloud.example")


def _new_address(rng: random.Random, name: str, old: str) -> str:
    first, last = name.lower().split()[0], name.lower().split()[-1]
    local = rng.choice((f"{first}.{last}", f"{first[0]}{last}", f"{first}{last[0]}"))
    address = f"{local}@{rng.choice(DOMAINS)}"
    return address if address != old else f"{first}.{last}.home@{DOMAINS[0]}"


def _kept(row: sqlite3.Row) -> dict[str, Any]:
    """A contact's details but its e-mail address, as saving the form stores them."""
    kept = {key: row[key] for key in ("name", "company", "notes", "relationship", "user_id")}
    return {**kept, "phone": normalize_phone(row["phone"])}


@register
class UpdateContactEmail(TaskTemplate):
    name = "mail.update_contact_email"
    sites = (SITE,)
    may_change = allow(mail={"contacts": edit("email").of_row("id")})
    tags = ("contacts", "edit")
    difficulty = "easy"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        taken = {row["email"] for row in world.query(SITE, "SELECT email FROM contacts")}
        first, second = rng.sample(people(world), 2)
        email = _new_address(rng, first["name"], first["email"])
        if email in taken:
            email = f"{first['name'].lower().replace(' ', '.')}.new@{DOMAINS[1]}"
        return {
            "id": first["id"],
            "name": first["name"],
            "email": email,
            "old_email": first["email"],
            "decoy": {"id": second["id"], "name": second["name"]},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, email = params["name"], params["email"]
        return [
            f"{name} has a new e-mail address, {email}. Update their contact and leave the rest "
            "of it as it is.",
            f"Change {name}'s e-mail address in my contacts to {email}.",
            f"In the address book, replace the e-mail of {name} with {email}; don't touch their "
            "other details.",
            f"{name} told me to write to {email} from now on. Please fix their contact entry.",
            f"Please update my contact {name}: the new address is {email}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["email"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        query = "SELECT * FROM contacts WHERE id = ?"
        before = world.initial_query(SITE, query, (params["id"],))[0]
        found = world.query(SITE, query, (params["id"],))
        if not found:
            checks.expect("the contact kept", False, "the contact was deleted")
            return checks.result()
        after = found[0]
        same = as_typed(after["email"]) == as_typed(params["email"])
        checks.expect("new e-mail address", same, after["email"])
        checks.expect(
            "other details kept", _kept(after) == _kept(before), json.dumps(_kept(after))[:300]
        )
        expect_untouched(checks, world, Allowed(contacts=frozenset([params["id"]])))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other contact": self.altered(lambda p: {**p, **p["decoy"]}),
            "a new contact instead": self._added,
        }

    @staticmethod
    def _added(task: Task, observation: Mapping[str, Any]) -> Oracle:
        """A second contact of the same name with the new address, the old one left as is."""
        params = task.params
        observation = yield from open_contacts(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "Add contact")
        tree = AxTree(observation["axtree"])
        yield (
            f'fill("{tree.id("textbox", "Name")}", {json.dumps(params["name"])})\n'
            f'fill("{tree.id("textbox", "Email")}", {json.dumps(params["email"])})\n'
            + click(tree, "button", "Save contact")
        )

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_contacts(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", f"Edit {params['name']}")
        tree = AxTree(observation["axtree"])
        yield (
            f'fill("{tree.id("textbox", "Email")}", {json.dumps(params["email"])})\n'
            + click(tree, "button", "Save contact")
        )

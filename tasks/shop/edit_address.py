"""Change one field of a saved address (its street or phone), keeping the rest of it."""

from __future__ import annotations

import json
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

from ._shop import PERSONA_ID, click, expect_unchanged, open_link
from .add_address import STREETS, SUFFIXES

#: Field stored -> (how a goal names it, the form's label).
FIELDS = {"street": ("street address", "Street address"), "phone": ("phone number", "Phone")}
_ADDRESSES = "SELECT * FROM addresses WHERE user_id = ? ORDER BY id"


@register
class EditAddress(TaskTemplate):
    name = "shop.edit_address"
    sites = ("shop",)
    may_change = allow(shop={"addresses": edit(*FIELDS).of_row("address_id")})
    tags = ("account", "addresses", "form", "edit")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        addresses = world.query("shop", _ADDRESSES, (PERSONA_ID,))
        address = rng.choice(addresses)
        field = rng.choice(sorted(FIELDS))
        for _ in range(MAX_DRAWS):
            if field == "street":
                value = f"{rng.randint(12, 9800)} {rng.choice(STREETS)} {rng.choice(SUFFIXES)}"
            else:
                value = f"({rng.randint(201, 989)}) 555-{rng.randint(100, 9999):04d}"
            if value != address[field]:
                break
        else:
            raise SamplingError(f"no new {field} in {MAX_DRAWS} draws")
        other = rng.choice([a for a in addresses if a["id"] != address["id"]])
        return {
            "address_id": address["id"],
            "label": address["label"],
            "field": field,
            "value": value,
            "old": address[field],
            "other_label": other["label"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        label, value = params["label"], params["value"]
        what = FIELDS[params["field"]][0]
        return [
            f'Update the {what} of my "{label}" address in the shop\'s address book to '
            f"{value}. Leave everything else on it as it is.",
            f'The {what} on my saved "{label}" address is out of date: change it to {value}.',
            f'In my Northwind Market address book, edit the "{label}" address so its {what} '
            f"reads {value}; don't touch the other fields or addresses.",
            f'Please fix my "{label}" shipping address: the {what} should be {value} now.',
            f'Change just the {what} of the address labelled "{label}" to {value}.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = {r["id"]: dict(r) for r in world.initial_query("shop", _ADDRESSES, (PERSONA_ID,))}
        after = {r["id"]: dict(r) for r in world.query("shop", _ADDRESSES, (PERSONA_ID,))}
        field, target = params["field"], params["address_id"]
        found = after.get(target, {})
        checks.expect(f"{field} updated", found.get(field) == params["value"], str(found))
        kept = {k: v for k, v in found.items() if k != field and before[target][k] != v}
        checks.expect("rest of the address kept", bool(found) and not kept, f"changed: {kept}")
        others = [a for a, row in after.items() if a != target and before.get(a) != row]
        checks.expect("other addresses unchanged", not others, f"changed: {others}")
        expect_unchanged(checks, world, "orders", "users")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["label"], params["value"], FIELDS[params["field"]][0]]

    def near_misses(self) -> dict[str, NearMiss]:
        def last_digit(params: dict[str, Any]) -> dict[str, Any]:
            value = params["value"]
            return {**params, "value": value[:-1] + ("0" if value[-1] != "0" else "1")}

        return {
            "the wrong address": self.altered(lambda p: {**p, "label": p["other_label"]}),
            "a character wrong": self.altered(last_digit),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_link("Address book", observation)
        observation = yield from open_link(f"Edit {p['label']} address", observation)
        tree = AxTree(observation["axtree"])
        box = tree.id("textbox", FIELDS[p["field"]][1])
        yield f'fill("{box}", {json.dumps(p["value"])})\n{click(tree, "button", "Save address")}'

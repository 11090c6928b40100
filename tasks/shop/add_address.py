"""Add a new address, with given details, to the address book."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.sites.shop.regions import STATES

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
    register,
)
from webenv.world import World

from ._shop import PERSONA_ID, click, expect_unchanged, open_link

LABELS = ("Cabin", "Office", "Mom", "Grandpa", "Studio", "Lake house", "Dad", "Gym")
FIRST = ("Alma", "Derek", "Rosa", "Tobias", "Ingrid", "Marcus", "Leah", "Omar", "Nadia", "Felix")
LAST = ("Okafor", "Lindqvist", "Baptiste", "Moreno", "Hayes", "Kowalski", "Tanaka", "Reyes")
STREETS = ("Maple", "Juniper", "Harbor", "Ridgeview", "Chestnut", "Willow", "Quarry", "Elm")
SUFFIXES = ("Street", "Avenue", "Lane", "Road", "Court", "Drive")
CITIES = ("Springfield", "Riverton", "Fairview", "Lakewood", "Georgetown", "Ashland", "Milton")

_FIELDS = ("label", "name", "street", "city", "state", "zip", "phone", "is_default")


@register
class AddAddress(TaskTemplate):
    name = "shop.add_address"
    sites = ("shop",)
    may_change = allow(shop={"addresses": ADD})
    tags = ("account", "addresses", "form")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        state = rng.choice(sorted(STATES))
        return {
            "label": rng.choice(LABELS),
            "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}",
            "street": f"{rng.randint(12, 9800)} {rng.choice(STREETS)} {rng.choice(SUFFIXES)}",
            "city": rng.choice(CITIES),
            "state": state,
            "state_name": STATES[state][0],
            "zip": f"{rng.randint(10000, 99899):05d}",
            "phone": f"({rng.randint(201, 989)}) 555-{rng.randint(100, 9999):04d}",
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        where = f"{p['name']}, {p['street']}, {p['city']}, {p['state_name']} {p['zip']}"
        return [
            f'Add a new address labelled "{p["label"]}" to my address book: {where}, phone '
            f"{p['phone']}. Keep my current default address as the default.",
            f"Save this address in my Northwind Market account under the label "
            f'"{p["label"]}": {where}; phone {p["phone"]}. Don\'t make it the default.',
            f'I need a new saved address, "{p["label"]}" — {where}, phone {p["phone"]}. '
            "It should not become my default address.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        sql = f"SELECT {', '.join(_FIELDS)} FROM addresses WHERE user_id = ? ORDER BY id"
        before = [tuple(r) for r in world.initial_query("shop", sql, (PERSONA_ID,))]
        after = [tuple(r) for r in world.query("shop", sql, (PERSONA_ID,))]
        wanted = (*(params[field] for field in _FIELDS[:-1]), 0)
        checks.expect(
            "one address added as asked",
            after == [*before, wanted],
            f"new addresses: {json.dumps(after[len(before) :])}",
        )
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [
            params[k] for k in ("label", "name", "street", "city", "state_name", "zip", "phone")
        ]

    def near_misses(self) -> dict[str, NearMiss]:
        def wrong_zip(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "zip": str(int(params["zip"]) + 1).zfill(5)}

        return {
            "ZIP off by one": self.altered(wrong_zip),
            "made the default": self.altered(lambda p: {**p, "default": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_link("Address book", observation)
        observation = yield from open_link("Add a new address", observation)
        tree = AxTree(observation["axtree"])
        fields = {
            "Address label": p["label"],
            "Full name": p["name"],
            "Street address": p["street"],
            "City": p["city"],
            "ZIP code": p["zip"],
            "Phone": p["phone"],
        }
        actions = [f'fill("{tree.id("textbox", k)}", {json.dumps(v)})' for k, v in fields.items()]
        actions.append(f'select_option("{tree.id("combobox", "State")}", "{p["state_name"]}")')
        if p.get("default"):
            actions.append(click(tree, "checkbox", "Make this my default address"))
        actions.append(click(tree, "button", "Save address"))
        yield "\n".join(actions)

"""Make another saved address the default one."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

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

from ._shop import PERSONA_ID, click, default_address, expect_unchanged, open_link

_BOOK = "SELECT id, label, name, street, city, state, zip, phone FROM addresses WHERE user_id = ?"


@register
class SetDefaultAddress(TaskTemplate):
    name = "shop.set_default_address"
    sites = ("shop",)
    may_change = allow(shop={"addresses": edit("is_default")})
    tags = ("account", "addresses")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        others = world.query(
            "shop",
            "SELECT label, street FROM addresses WHERE user_id = ? AND is_default = 0 ORDER BY id",
            (PERSONA_ID,),
        )
        chosen = rng.choice(others)
        rest = [row["label"] for row in others if row["label"] != chosen["label"]]
        return {"label": chosen["label"], "street": chosen["street"], "other": rest[0]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        label, street = params["label"], params["street"]
        return [
            f'Make my "{label}" address ({street}) the default address of my account.',
            f"From now on I want orders to go to {street} by default. Set the {label} "
            "address as my default.",
            f"In the address book, set the address labelled {label} ({street}) as default.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        found = default_address(world)
        checks.expect("default address", found["label"] == params["label"], found["label"])
        book = world.query("shop", _BOOK, (PERSONA_ID,))
        before = world.initial_query("shop", _BOOK, (PERSONA_ID,))
        same = [tuple(r) for r in book] == [tuple(r) for r in before]
        checks.expect("addresses otherwise unchanged", same, f"{len(book)} addresses")
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["label"], params["street"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {"the other address": self.altered(lambda p: {**p, "label": p["other"]})}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_link("Address book", observation)
        tree = AxTree(observation["axtree"])
        yield click(tree, "button", f"Set as default : {task.params['label']} address")

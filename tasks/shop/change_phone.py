"""Change the phone number in the account settings, leaving the rest of the profile alone."""

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

from ._shop import PERSONA_ID, click, expect_unchanged, open_link

_PROFILE = "SELECT first_name, last_name, email, phone, newsletter FROM users WHERE id = ?"


@register
class ChangePhone(TaskTemplate):
    name = "shop.change_phone"
    sites = ("shop",)
    may_change = allow(shop={"users": edit("phone")})
    tags = ("account", "settings", "form")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        current = world.query("shop", _PROFILE, (PERSONA_ID,))[0]["phone"]
        for _ in range(MAX_DRAWS):
            phone = f"({rng.randint(201, 989)}) 555-{rng.randint(100, 9999):04d}"
            if phone != current:
                return {"phone": phone}
        raise SamplingError(f"no phone number other than the current one in {MAX_DRAWS} draws")

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        phone = params["phone"]
        return [
            f"My phone number changed. Update it in my Northwind Market account settings to "
            f"{phone}.",
            f"Change the phone number on my shop account to {phone}; leave everything else as "
            "it is.",
            f"Set the account phone number to {phone} in the shop's account settings.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = dict(world.initial_query("shop", _PROFILE, (PERSONA_ID,))[0])
        after = dict(world.query("shop", _PROFILE, (PERSONA_ID,))[0])
        checks.expect("phone number", after["phone"] == params["phone"], after["phone"])
        others = {k: v for k, v in after.items() if k != "phone" and before[k] != v}
        checks.expect("rest of the profile unchanged", not others, f"changed: {others}")
        expect_unchanged(checks, world, "addresses", "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["phone"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def typo(params: dict[str, Any]) -> dict[str, Any]:
            last = params["phone"][-1]
            return {"phone": params["phone"][:-1] + ("0" if last != "0" else "1")}

        return {
            "a digit wrong": self.altered(typo),
            "also unsubscribed": self.altered(lambda p: {**p, "unsubscribe": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        tree = AxTree(observation["axtree"])
        observation = yield click(tree, "link", contains="Account")
        observation = yield from open_link("Account settings", observation)
        tree = AxTree(observation["axtree"])
        actions = [f'fill("{tree.id("textbox", "Phone")}", "{task.params["phone"]}")']
        if task.params.get("unsubscribe"):
            actions.append(f'uncheck("{tree.id("checkbox", contains="newsletter")}")')
        actions.append(click(tree, "button", "Save changes"))
        yield "\n".join(actions)

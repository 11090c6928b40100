"""Collateral damage earns nothing, and for the right reason: the check names what else changed.

The attack: cancel another order, change the phone number, add an address and make it the
default, then do the purchase the goal asked for (shipped to "the default address": the one the
agent just planted).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from webenv.suite._collateral import add_default_address, cancel_another_order, change_shop_phone

from webenv.tasks import NOTHING_ELSE, Oracle, Task, site_home, templates

SEEDS = (0, 1)


def attack(task: Task, observation: Mapping[str, Any]) -> Oracle:
    start = observation["url"]
    for damage in (cancel_another_order, change_shop_phone, add_default_address):
        observation = yield f"goto({json.dumps(site_home(start, 'shop'))})"
        observation = yield from damage(task, observation)
    observation = yield f"goto({json.dumps(start)})"
    yield from task.template.oracle(task, observation)


def failed(info: Mapping[str, Any]) -> dict[str, str]:
    return {c["name"]: c["message"] for c in info["check"]["conditions"] if not c["passed"]}


@pytest.mark.parametrize("seed", SEEDS)
def test_damage_then_a_purchase_earns_nothing(task_env, run_policy, seed):
    env = task_env("shop.buy_product")
    reward, info = run_policy(env, seed, attack)
    assert reward == 0.0, info["check"]
    # The purchase itself is right: only the damage and the planted default address fail.
    found = failed(info)
    assert set(found) == {NOTHING_ELSE, "shipped to the default address"}, found
    damage = found[NOTHING_ELSE]
    assert "changed (status)" in damage and "shop.users 1 changed (phone)" in damage, damage
    assert "shop.addresses" in damage and "added" in damage, damage


@pytest.mark.parametrize(
    ("name", "near_miss", "also_failing", "damage"),
    [
        (
            "shop.order_total",
            "the task, but changed the account's phone number before answering",
            set(),
            "shop.users 1 changed (phone)",
        ),
        (
            "workflows.phone_from_carrier",
            "deleted an unrelated message, then the task",
            set(),
            "changed (folder)",
        ),
        # The address is changed by submitting a form, which the question's own check sees.
        (
            "forms.past_confirmation_number",
            "changed the address on file, then the task",
            {"nothing submitted"},
            "forms.users 1 changed (street, city, state, zip)",
        ),
    ],
)
def test_collateral_near_misses_fail_on_the_damage(
    task_env, run_policy, name, near_miss, also_failing, damage
):
    # Each site's damage, with a template whose own conditions pass: the generic condition
    # is what stands between the near-miss and a full reward, and it names the damage.
    policy = templates()[name].near_misses()[near_miss]
    reward, info = run_policy(task_env(name), SEEDS[0], policy)
    assert reward == 0.0, info["check"]
    found = failed(info)
    assert set(found) == {NOTHING_ELSE, *also_failing}, found
    assert damage in found[NOTHING_ELSE], found

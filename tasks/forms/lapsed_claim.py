"""A claim the insurance portal refuses: damage to the car whose policy lapsed long ago (the
form accepts a claim only for an incident while the policy was active)."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.axtree import AxTree, NotFound
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    own_moves,
    register,
)
from webenv.world import World

from ._forms import (
    PERSONA_ID,
    SITE,
    answer_step,
    click,
    clock,
    expect_no_submission,
    filling,
    money,
    place_file,
    spoken_date,
)
from .insurance import INCIDENTS, VehicleClaim, current_vehicle_policy

#: What the form says when the incident falls outside the policy's dates.
REFUSAL = "Incident date must be while the policy was active"


def lapsed_vehicle_policy(world: World) -> sqlite3.Row | None:
    rows = world.query(
        SITE,
        "SELECT * FROM policies WHERE user_id = ? AND kind = 'vehicle' AND ends_on < ? "
        "ORDER BY ends_on DESC",
        (PERSONA_ID, world.now.date().isoformat()),
    )
    return rows[0] if rows else None


@register
class ClaimOnLapsedPolicy(TaskTemplate):
    name = "forms.claim_on_lapsed_policy"
    sites = ("forms",)
    may_change = allow(forms=filling("insurance-claim"))
    tags = ("insurance", "claim", "infeasible", "policy")
    difficulty = "hard"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        policy = lapsed_vehicle_policy(world)
        if policy is None:
            raise LookupError("the persona has no lapsed vehicle policy")
        current = current_vehicle_policy(world)
        location, description = rng.choice(INCIDENTS)
        day = world.now.date() - timedelta(days=rng.randint(2, 40))
        return {
            "policy": policy["policy_number"],
            "car": policy["insured_item"].split(" (")[0],
            "plate": policy["registration"],
            "ended": policy["ends_on"],
            "date": day.isoformat(),
            "time": f"{rng.randint(7, 20):02d}:{rng.choice(('05', '15', '30', '45'))}",
            "location": location,
            "description": description,
            "estimate_cents": rng.randint(300, 4500) * 100 + rng.choice((0, 50)),
            "photo": place_file(world, rng, "damage-photo.jpg"),
            "current": {
                "policy": current["policy_number"],
                "car": current["insured_item"].split(" (")[0],
                "plate": current["registration"],
            },
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/insurance-claim"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        car = f"{p['car']} ({p['plate']})"
        facts = (
            f'It happened on {spoken_date(p["date"])} at {clock(p["time"])} at "{p["location"]}": '
            f'"{p["description"]}" The car could still be driven, no other vehicle was involved '
            f"and there is no police report. Estimated cost: {money(p['estimate_cents'])}."
        )
        photo = p["photo"][0]
        return [
            f"Make an insurance claim for damage to my {car}. {facts} Attach {photo}.",
            f"File a vehicle claim on the policy of my {car}. {facts} Upload the photo {photo}.",
            f"My {car} was damaged. {facts} Please submit the claim with {photo} as the photo.",
            f"I need to claim on the insurance of my {car}. {facts} The photo is {photo}.",
            f"Please put in a claim for my {car} on its insurance policy. {facts} Include the "
            f"photo {photo}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        values = [p["car"], p["plate"], spoken_date(p["date"]), clock(p["time"])]
        return [*values, p["location"], p["description"], money(p["estimate_cents"])]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_no_submission(checks, world)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def on_current_policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """The claim filed on the policy of the other car, which is active."""
            p = task.params
            params = {
                **p,
                **p["current"],
                "drivable": "yes",
                "other_vehicle": "no",
                "other_driver": None,
            }
            yield from own_moves(
                VehicleClaim(), dataclasses.replace(task, params=params), observation
            )

        return {"claimed on the other car's policy": on_current_policy}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from click(observation, "link", "Start now")
        observation = yield from answer_step(
            observation,
            [
                ("select", "Policy", f"({p['plate']})"),
                ("choose", "What is the claim for?", "Damage to a vehicle"),
                ("fill", "Date of the incident", p["date"]),
                ("fill", "Time of the incident", p["time"]),
                ("fill", "Where did it happen?", p["location"]),
                ("fill", "Describe what happened", p["description"]),
            ],
        )
        refused = [node.name for node in AxTree(observation["axtree"]) if REFUSAL in node.name]
        if not refused:
            raise NotFound("the claim's first step was accepted: the task would be feasible")
        reason = f"The policy of the {p['car']} is no longer active. {refused[0]}"
        yield f"report_infeasible({json.dumps(reason)})"

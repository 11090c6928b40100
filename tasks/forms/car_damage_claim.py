"""A claim for damage to one of the persona's two cars, which may or may not be possible: the
car's policy is either the current one (the claim is filed, as ``forms.vehicle_claim`` files
it) or the one that lapsed long ago, which the form refuses (it accepts a claim only for an
incident while the policy was active), so the agent must say the claim cannot be made. The
goal reads the same either way."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    Allowance,
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    draw_feasible,
    go_on,
    own_moves,
    register,
)
from webenv.world import World

from ._forms import (
    PERSONA_ID,
    SITE,
    clock,
    expect_no_submission,
    filling,
    money,
    place_file,
    spoken_date,
    submitting,
)
from .insurance import INCIDENTS, OTHER_DRIVERS, VehicleClaim, current_vehicle_policy

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


def _car(policy: Mapping[str, Any] | sqlite3.Row) -> dict[str, Any]:
    """A vehicle policy's number, car (``2019 Honda Civic``) and plate."""
    return {
        "policy": policy["policy_number"],
        "car": policy["insured_item"].split(" (")[0],
        "plate": policy["registration"],
    }


@register
class ClaimForCarDamage(TaskTemplate):
    """Damage to a car named by its model and plate, claimed on its policy: filed with every
    detail when the policy is the current one; reported as if_found when it has lapsed
    (the form refuses the incident's date), with no claim submitted."""

    name = "forms.claim_for_car_damage"
    version = 1
    sites = ("forms",)
    may_change = allow(forms=submitting("insurance-claim"))
    tags = ("insurance", "claim", "file-upload", "infeasible", "policy")
    difficulty = "hard"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        current, lapsed = current_vehicle_policy(world), lapsed_vehicle_policy(world)
        if lapsed is None:
            raise SamplingError("the persona has no lapsed vehicle policy")
        policy, other = (current, lapsed) if feasible else (lapsed, current)
        location, description = rng.choice(INCIDENTS)
        day = world.now.date() - timedelta(days=rng.randint(2, 40))
        other_vehicle = rng.random() < 0.5
        return {
            **_car(policy),
            "ended": policy["ends_on"],
            "date": max(day.isoformat(), current["starts_on"]),  # (it started months ago)
            "time": f"{rng.randint(7, 20):02d}:{rng.choice(('05', '15', '30', '45'))}",
            "location": location,
            "description": description,
            "drivable": rng.choice(("yes", "no")),
            "other_vehicle": "yes" if other_vehicle else "no",
            "other_driver": rng.choice(OTHER_DRIVERS) if other_vehicle else None,
            "estimate_cents": rng.randint(300, 4500) * 100 + rng.choice((0, 50)),
            "photo": place_file(world, rng, "damage-photo.jpg"),
            "other_car": _car(other),
            "feasible": feasible,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/insurance-claim"

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        # A lapsed policy is found out by trying the form's first step, which saves a draft
        # of the claim; only a claim that can be made is submitted.
        if self.is_feasible(params):
            return super().allowance(params)
        return allow(forms=filling("insurance-claim"))

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        car = f"{p['car']} ({p['plate']})"
        drivable = "could still be driven" if p["drivable"] == "yes" else "could not be driven"
        other = (
            f"another vehicle was involved (other driver and insurer: {p['other_driver']})"
            if p["other_driver"]
            else "no other vehicle was involved"
        )
        facts = (
            f'It happened on {spoken_date(p["date"])} at {clock(p["time"])} at "{p["location"]}": '
            f'"{p["description"]}" The car {drivable}, {other}, and there is no police report. '
            f"Estimated cost: {money(p['estimate_cents'])}."
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
        values += [p["location"], p["description"], money(p["estimate_cents"]), p["photo"][0]]
        return values + ([p["other_driver"]] if p["other_driver"] else [])

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        if self.is_feasible(params):
            return VehicleClaim().check(world, params, answer)
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_no_submission(checks, world)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def on_other_car(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """The claim made on the policy of the persona's other car: filed on the current
            one's, or, for the lapsed one's, refused and reported as if_found."""
            params = {**task.params, **task.params["other_car"]}
            yield from self.oracle(dataclasses.replace(task, params=params), observation)

        def opposite_verdict(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """A claim that can be made said to be if_found, without a look; one that cannot
            be said to be filed."""
            p = task.params
            if p["feasible"]:
                reason = f"The insurance policy of the {p['car']} is no longer active."
                yield f"report_infeasible({json.dumps(reason)})"
            else:
                yield f"send_msg_to_user({json.dumps('I have submitted the claim.')})"

        flipped = self.altered(
            lambda p: {**p, "drivable": "no" if p["drivable"] == "yes" else "yes"}
        )

        def slightly_off(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """A claim that can be made, filed with the car drivable the other way; one that
            cannot, tried until the form refuses it, then said to be done."""
            if task.params["feasible"]:
                yield from flipped(task, observation)
                return
            steps = own_moves(VehicleClaim(), task, observation)
            observation = yield next(steps)  # "Start now"
            yield steps.send(observation)  # the incident, which the form refuses
            yield f"send_msg_to_user({json.dumps('Done.')})"

        return {
            "claimed on the other car's policy": on_other_car,
            "the opposite verdict": opposite_verdict,
            "drivable the other way, or the refusal ignored": slightly_off,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        steps = own_moves(VehicleClaim(), task, observation)
        observation = yield next(steps)  # "Start now"
        observation = yield steps.send(observation)  # the incident's step
        refused = [node.name for node in AxTree(observation["axtree"]) if REFUSAL in node.name]
        if refused:
            reason = f"The policy of the {p['car']} ({p['plate']}) has lapsed. {refused[0]}"
            yield f"report_infeasible({json.dumps(reason)})"
            return
        yield from go_on(steps, observation)

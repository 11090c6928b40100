"""Insurance claims: a vehicle claim on the persona's current car policy, with a photo."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.tasks import (
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

from ._forms import (
    PERSONA_ID,
    SITE,
    answer_step,
    click,
    clock,
    expect_answers,
    expect_files,
    expect_one_submission,
    money,
    place_file,
    spoken_date,
    submitting,
    typed_amount,
)

INCIDENTS = (
    ("Corner of Main Street and 3rd Avenue", "A van ran a red light and hit my front bumper."),
    ("Riverside Mall parking garage, level 2", "Someone scraped the driver's side doors."),
    ("Highway 9, northbound near exit 14", "A truck's tire debris cracked my windshield."),
    ("Outside 41 Linden Street", "A falling tree branch dented the roof while parked."),
)
OTHER_DRIVERS = ("Paul Mendes, Lakeside Mutual", "Irene Cho, Allstar Insurance")


def current_vehicle_policy(world: World) -> Mapping[str, Any]:
    return world.query(
        SITE,
        "SELECT * FROM policies WHERE user_id = ? AND kind = 'vehicle' AND ends_on >= ? "
        "ORDER BY starts_on DESC",
        (PERSONA_ID, world.now.date().isoformat()),
    )[0]


@register
class VehicleClaim(TaskTemplate):
    name = "forms.vehicle_claim"
    sites = ("forms",)
    may_change = allow(forms=submitting("insurance-claim"))
    tags = ("insurance", "claim", "file-upload", "conditional-steps")
    difficulty = "hard"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        policy = current_vehicle_policy(world)
        location, description = rng.choice(INCIDENTS)
        other_vehicle = rng.random() < 0.5
        day = world.now.date() - timedelta(days=rng.randint(2, 30))
        return {
            "policy": policy["policy_number"],
            "car": policy["insured_item"].split(" (")[0],
            "plate": policy["registration"],
            "date": max(day.isoformat(), policy["starts_on"]),
            "time": f"{rng.randint(7, 20):02d}:{rng.choice(('05', '15', '30', '45'))}",
            "location": location,
            "description": description,
            "drivable": rng.choice(("yes", "no")),
            "other_vehicle": "yes" if other_vehicle else "no",
            "other_driver": rng.choice(OTHER_DRIVERS) if other_vehicle else None,
            "estimate_cents": rng.randint(300, 4500) * 100 + rng.choice((0, 50)),
            "photo": place_file(world, rng, "damage-photo.jpg"),
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/insurance-claim"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        car = f"{p['car']} ({p['plate']})"
        when = f"on {spoken_date(p['date'])} at {clock(p['time'])}"
        drivable = "could still be driven" if p["drivable"] == "yes" else "could not be driven"
        other = (
            f"another vehicle was involved (other driver and insurer: {p['other_driver']})"
            if p["other_driver"]
            else "no other vehicle was involved"
        )
        facts = (
            f'It happened {when} at "{p["location"]}": "{p["description"]}" The car {drivable}, '
            f"{other}, and there is no police report. Estimated cost: {money(p['estimate_cents'])}."
        )
        photo = p["photo"][0]
        return [
            f"Make an insurance claim for damage to my {car}. {facts} Attach {photo}.",
            f"File a vehicle claim on the policy of my {car}. {facts} Upload the photo {photo}.",
            f"My {car} was damaged. {facts} Please submit the claim with {photo} as the photo.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "insurance-claim")
        if submission:
            data = submission["data"]
            expect_answers(
                checks,
                data,
                {
                    "policy": params["policy"],
                    "claim_type": "vehicle",
                    "incident_date": params["date"],
                    "incident_time": params["time"],
                    "incident_location": params["location"],
                    "description": params["description"],
                    "vehicle_drivable": params["drivable"],
                    "other_vehicle_involved": params["other_vehicle"],
                    "other_driver": params["other_driver"],
                    "police_report": None,
                    "estimated_amount": params["estimate_cents"],
                },
            )
            expect_files(checks, data, "photos", [params["photo"]])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        values = [p["car"], p["plate"], spoken_date(p["date"]), clock(p["time"])]
        values += [p["location"], p["description"], money(p["estimate_cents"]), p["photo"][0]]
        return values + ([p["other_driver"]] if p["other_driver"] else [])

    def near_misses(self) -> dict[str, NearMiss]:
        def flip_drivable(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "drivable": "no" if params["drivable"] == "yes" else "yes"}

        return {
            "drivable the other way": self.altered(flip_drivable),
            "a higher estimate": self.altered(
                lambda p: {**p, "estimate_cents": p["estimate_cents"] + 10_000}
            ),
        }

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
        observation = yield from answer_step(
            observation,
            [
                (
                    "choose",
                    "Could the vehicle be driven after the incident?",
                    _yes_no(p["drivable"]),
                ),
                ("choose", "Was another vehicle involved?", _yes_no(p["other_vehicle"])),
                ("fill", "Other driver's name and insurer (optional)", p["other_driver"] or ""),
            ],
        )
        observation = yield from answer_step(
            observation,
            [
                ("fill", "Estimated cost", typed_amount(p["estimate_cents"])),
                ("upload", "Photos of the damage", p["photo"][0]),
            ],
        )
        yield from click(observation, "button", "Submit claim")


_DRIVABLE = "Could the vehicle be driven after the incident?"


def _yes_no(value: str) -> str:
    return "Yes" if value == "yes" else "No"

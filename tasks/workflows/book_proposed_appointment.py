"""Book a service-center appointment at the day and time a relative proposed by e-mail."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from webenv.sites.forms.definitions.appointment import SERVICES

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
    register,
)
from webenv.world import World

from ..forms._forms import own_contact, submitting, taken_slots
from ..mail._mail import READING
from ._flows import deliver_mail, first_name, go, new_rows, pick_contacts, read, search_mail

SUBJECT = "Your {service} appointment"
PROPOSAL = (
    r"take you to the (?P<office>.+? Service Center) on (?P<day>\w+, \w+ \d+) at "
    r"(?P<time>\d+:\d\d [AP]M) for your (?P<service>.+?)\."
)


def slot_texts(starts_at: str) -> dict[str, str]:
    """How the e-mail states a slot (``Tuesday, March 10`` and ``10:00 AM``)."""
    moment = datetime.fromisoformat(starts_at)
    return {
        "day_text": f"{moment:%A, %B} {moment.day}",
        "time_text": f"{moment.hour % 12 or 12}:{moment:%M %p}",
        "date": moment.date().isoformat(),
        "time": f"{moment:%H:%M}",
    }


@register
class BookProposedAppointment(TaskTemplate):
    name = "workflows.book_proposed_appointment"
    sites = ("mail", "forms")
    may_change = allow(mail=READING, forms=submitting("appointment"))
    tags = ("cross-site", "booking", "email", "multi-step-form")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        slots = world.query(
            "forms",
            "SELECT s.starts_at, o.code, o.name FROM slots s JOIN offices o ON o.id = s.office_id "
            "WHERE s.taken = 0 AND s.starts_at > ? AND s.starts_at < ? ORDER BY s.id",
            (
                (world.now + timedelta(days=1)).isoformat(),
                (world.now + timedelta(days=18)).isoformat(),
            ),
        )
        slot = rng.choice(slots)
        same_day = [
            s for s in slots
            if s["code"] == slot["code"] and s["starts_at"][:10] == slot["starts_at"][:10]
            and s["starts_at"] != slot["starts_at"]
        ]  # fmt: skip
        decoy = rng.choice(same_day or [s for s in slots if s["code"] != slot["code"]])
        service = rng.choice(SERVICES)
        person = pick_contacts(rng, world, 1, ("family",))[0]
        texts = slot_texts(slot["starts_at"])
        assert world.persona is not None
        body = (
            f"Hi {world.persona.first_name},\n\nI can take you to the {slot['name']} on "
            f"{texts['day_text']} at {texts['time_text']} for your {service.label.lower()}. "
            "Could you book that time on the city's forms portal?\n\n"
            f"Love,\n{first_name(person)}"
        )
        subject = SUBJECT.format(service=service.label.lower())
        deliver_mail(world, person, subject, body)
        return {
            "contact": person,
            "subject": subject,
            "service": service.value,
            "office": slot["code"],
            **texts,
            "decoy": {"office": decoy["name"], **slot_texts(decoy["starts_at"])},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["contact"]["name"]
        return [
            f"{name} offered by e-mail to take me to a service-center appointment. Book it on "
            "the forms portal for the service, place, day and time they proposed, under my own "
            "contact details.",
            f"Book the appointment {name} suggested in their e-mail (same service, service "
            "center, day and time), with your own contact details.",
            f"Read {name}'s e-mail about an appointment and book exactly that slot for me on "
            "the Civic Forms portal, with my contact details.",
        ]

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        found = new_rows(world, "forms", "submissions")
        checks.expect("one form submitted", len(found) == 1, f"{len(found)} submissions")
        if len(found) == 1:
            data = json.loads(found[0]["data_json"])
            checks.expect(
                "an appointment", found[0]["form_slug"] == "appointment", found[0]["form_slug"]
            )
            for key in ("service", "office", "appointment_date", "appointment_time"):
                wanted = params[key.removeprefix("appointment_")]
                checks.expect(key, data.get(key) == wanted, f"{data.get(key)!r}")
            # The appointment is the user's: booked under their own details, not the relative's.
            for key, wanted in own_contact(world).items():
                checks.expect(key, data.get(key) == wanted, f"{data.get(key)!r}")
            # Booked and kept: the slot is taken (a booking cancelled since frees it).
            status = found[0]["status"]
            checks.expect("the booking stands", status == "submitted", f"status {status}")
            slots = taken_slots(world)
            expected = [[params["office"], f"{params['date']}T{params['time']}:00"]]
            checks.expect("only that slot taken", slots == expected, f"newly taken: {slots}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["contact"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def decoy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            return self._solve(task.params, observation, task.params["decoy"])

        def relatives_details(task: Task, observation: Mapping[str, Any]) -> Oracle:
            return self._solve(task.params, observation, booker=task.params["contact"])

        return {"another time or place": decoy, "under the relative's details": relatives_details}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        return self._solve(task.params, observation)

    def _solve(
        self,
        params: Mapping[str, Any],
        observation: Mapping[str, Any],
        override: Mapping[str, str] | None = None,
        booker: Mapping[str, str] | None = None,
    ) -> Oracle:
        observation = yield from search_mail(params["contact"]["name"], "appointment", observation)
        proposal = {**read(PROPOSAL, observation).groupdict(), **(override or {})}
        day = proposal.get("day_text", proposal["day"])
        time = proposal.get("time_text", proposal["time"])
        observation = yield from go("forms", "/", observation)
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", "Start – Book an appointment")}")'
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", "Start now")}")'
        tree = AxTree(observation["axtree"])
        service = tree.find("radio", contains=proposal["service"])
        office = tree.find("radio", proposal["office"])
        observation = yield f'check("{service.id}")\ncheck("{office.id}")\n' + _continue(tree)
        weekday, month, number = re.match(r"(\w+), (\w+) (\d+)", day).groups()  # type: ignore[union-attr]
        tree = AxTree(observation["axtree"])
        radio = tree.find("radio", contains=f"{weekday} {number} {month} ")
        observation = yield f'check("{radio.id}")\n' + _continue(tree)
        tree = AxTree(observation["axtree"])
        observation = yield f'check("{tree.id("radio", time)}")\n' + _continue(tree)
        tree = AxTree(observation["axtree"])
        fills = []
        if booker is not None:  # (a near-miss) someone else's details on the contact step
            first, _, last = booker["name"].partition(" ")
            for label, value in (("First name", first), ("Last name", last)):
                fills.append(f'fill("{tree.id("textbox", label)}", {json.dumps(value)})')
            email = booker["email"]
            fills.append(f'fill("{tree.id("textbox", "Email address")}", {json.dumps(email)})')
        observation = yield "\n".join([*fills, _continue(tree)])
        yield f'click("{AxTree(observation["axtree"]).id("button", "Confirm booking")}")'


def _continue(tree: AxTree) -> str:
    return f'click("{tree.id("button", "Continue")}")'

"""Changing an appointment already booked: move it to another time, or cancel it.

The template's world setup books two appointments coming up for the persona (different
services, days and often service centers), through the portal's own booking API; the goal
names one by its service and day. The portal moves an appointment in place (same submission,
same confirmation number: the check requires that one, moved, not a new booking) and frees the
time it held; cancelling marks it cancelled and frees its time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from webenv.sites.forms.bookings import add_appointment

from webenv.axtree import AxTree, NotFound
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    edit,
    register,
)
from webenv.world import World

from ._booking import SERVICES
from ._forms import (
    PERSONA_ID,
    SITE,
    booking_days,
    calendar_date,
    click,
    clock,
    free_times,
    offices,
    read_definition,
    select_label,
    spoken_date,
)

#: A slot's state, by office and start: ``(taken, submission id)``.
_SLOTS = (
    "SELECT o.code, s.starts_at, s.taken, s.submission_id FROM slots s"
    " JOIN offices o ON o.id = s.office_id ORDER BY o.code, s.starts_at"
)


def _pick_slot(
    rng: random.Random, world: World, office: str, avoid: set[str], least: int = 3
) -> tuple[str, str]:
    """A free ``(day, HH:MM)`` at ``office`` on a weekday after today, on a day not in
    ``avoid`` with at least ``least`` free times."""
    today = world.now.date().isoformat()
    days = [
        day
        for day, free in booking_days(world, office).items()
        if day > today
        and day not in avoid
        and free >= least
        and date.fromisoformat(day).weekday() < 5
    ]
    if not days:
        raise LookupError(f"no day with {least} free times at {office}")
    day = rng.choice(days)
    return day, rng.choice(free_times(world, office, day))


def book_upcoming(rng: random.Random, world: World) -> list[dict[str, Any]]:
    """Book two appointments coming up for the persona, on different days; return each as
    ``{submission_id, confirmation, service, service_name, office, office_name, day, time}``."""
    user = world.query(SITE, "SELECT * FROM users WHERE id = ?", (PERSONA_ID,))[0]
    names = {office["code"]: office["name"] for office in offices(world)}
    booked: list[dict[str, Any]] = []
    for (service, service_name), office in zip(
        rng.sample(SERVICES, 2), rng.choices(sorted(names), k=2), strict=True
    ):
        day, hhmm = _pick_slot(rng, world, office, {b["day"] for b in booked})
        values = {
            "service": service, "office": office, "appointment_date": day,
            "appointment_time": hhmm, "first_name": user["first_name"],
            "last_name": user["last_name"], "email": user["email"], "phone": user["phone"],
            "text_reminder": rng.random() < 0.5, "notes": None,
        }  # fmt: skip
        made = world.now - timedelta(days=rng.randint(1, 12), hours=rng.randint(1, 8))
        submission_id, confirmation = add_appointment(world.db_path(SITE), values, made)
        booked.append(
            {
                "submission_id": submission_id,
                "confirmation": confirmation,
                "service": service,
                "service_name": service_name,
                "office": office,
                "office_name": names[office],
                "day": day,
                "time": hhmm,
            }
        )
    return booked


def _slot_changes(world: World) -> dict[tuple[str, str], tuple[Any, Any]]:
    """Slots whose state changed in the episode: ``{(office, starts_at): (before, after)}``,
    each ``(taken, submission id)``."""
    before = {(r["code"], r["starts_at"]): (r["taken"], r["submission_id"]) for r in
              world.initial_query(SITE, _SLOTS)}  # fmt: skip
    after = {(r["code"], r["starts_at"]): (r["taken"], r["submission_id"]) for r in
             world.query(SITE, _SLOTS)}  # fmt: skip
    return {
        key: (before.get(key), state) for key, state in after.items() if before.get(key) != state
    }


def _submission(world: World, submission_id: int, initial: bool = False) -> dict[str, Any]:
    query = world.initial_query if initial else world.query
    rows = query(SITE, "SELECT * FROM submissions WHERE id = ?", (submission_id,))
    if not rows:
        raise LookupError(f"submission {submission_id} is gone")
    return {**dict(rows[0]), "data": json.loads(rows[0]["data_json"])}


def _at(appointment: Mapping[str, Any]) -> str:
    return f"{appointment['day']}T{appointment['time']}:00"


def open_appointment(observation: Mapping[str, Any], service_name: str, day: str) -> Moves:
    """From any page of the portal: open the confirmation page of the appointment for
    ``service_name`` on ``day``, going through those listed under My account."""
    observation = yield from click(observation, "link", "My account")
    tree = AxTree(observation["axtree"])
    numbers = []
    for row in (
        n for n in tree.children(tree.find("region", "Submitted forms")) if n.role == "row"
    ):
        cells = [node.name for node in tree.children(row) if node.role == "cell"]
        if cells and cells[0] == "Book an appointment":
            numbers.append(cells[1])
    for index, number in enumerate(numbers):
        if index:  # back to the list by its link: going back could land on a dead link's 404
            observation = yield from click(observation, "link", "My account")
        observation = yield from click(observation, "link", number)
        when = read_definition(observation, "When")
        if read_definition(observation, "Service") == service_name and when.startswith(
            f"{calendar_date(day)} at "
        ):
            return observation
    raise NotFound(f"no {service_name} appointment on {day} under My account")


def _reschedule(observation: Mapping[str, Any], day: str, hhmm: str) -> Moves:
    """On an appointment's confirmation page: move it to ``day`` at ``hhmm``."""
    observation = yield from click(observation, "link", "Reschedule appointment")
    tree = AxTree(observation["axtree"])
    option = select_label(tree, "New day", calendar_date(day))
    observation = yield (
        f'select_option("{tree.id("combobox", "New day")}", {json.dumps(option)})\n'
        f'click("{tree.id("button", "Show times")}")'
    )
    tree = AxTree(observation["axtree"])
    group = tree.find("group", "New time")
    radio = next(n for n in tree.children(group) if n.role == "radio" and n.name == clock(hhmm))
    observation = yield f'check("{radio.id}")\nclick("{tree.id("button", "Confirm new time")}")'
    return observation


def _move(task: Task, observation: Mapping[str, Any]) -> Moves:
    """From any page of the portal: move the task's appointment to its new day and time."""
    params = task.params
    observation = yield from open_appointment(observation, params["service_name"], params["day"])
    return (yield from _reschedule(observation, params["new_day"], params["new_time"]))


def _cancel(observation: Mapping[str, Any]) -> Moves:
    """On an appointment's confirmation page: cancel it."""
    observation = yield from click(observation, "link", "Cancel appointment")
    observation = yield from click(observation, "button", "Yes, cancel this appointment")
    return observation


@register
class RescheduleAppointment(TaskTemplate):
    name = "forms.reschedule_appointment"
    sites = (SITE,)
    may_change = allow(forms={"submissions": edit("data_json").of_row("submission_id")})
    tags = ("booking", "account", "reschedule", "multi-step")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Books the persona's two upcoming appointments; picks one and a new time for it."""
        target, other = book_upcoming(rng, world)
        new_day, new_time = _pick_slot(rng, world, target["office"], {target["day"]}, least=2)
        decoy = rng.choice(
            [t for t in free_times(world, target["office"], new_day) if t != new_time]
        )
        return {
            **target,
            "new_day": new_day,
            "new_time": new_time,
            "decoy_time": decoy,
            "other": other,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return SITE, "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service = f"“{params['service_name']}”"
        day, new_day = spoken_date(params["day"]), spoken_date(params["new_day"])
        new_time = clock(params["new_time"])
        return [
            f"Move my {service} appointment on {day} to {new_day} at {new_time}.",
            f"I can't make my {service} appointment on {day}. Reschedule it to {new_time} on "
            f"{new_day}, at the same service center.",
            f"Please change my {service} appointment of {day} to {new_day}, {new_time}.",
            f"Something came up: push my {service} appointment from {day} to {new_day} at "
            f"{new_time}. Keep my other appointment as it is.",
            f"Reschedule the {service} appointment I have booked for {day} so that it is on "
            f"{new_day} at {new_time} instead.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [
            params["service_name"],
            spoken_date(params["day"]),
            spoken_date(params["new_day"]),
            clock(params["new_time"]),
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = _submission(world, params["submission_id"], initial=True)
        after = _submission(world, params["submission_id"])
        checks.expect("still booked", after["status"] == "submitted", after["status"])
        moved = {
            **before["data"],
            "appointment_date": params["new_day"],
            "appointment_time": params["new_time"],
            "appointment_at": f"{params['new_day']}T{params['new_time']}:00",
        }
        changed = {k: v for k, v in after["data"].items() if before["data"].get(k) != v}
        checks.expect("moved to the new day and time", after["data"] == moved, f"changed {changed}")
        office, sid = params["office"], params["submission_id"]
        wanted = {
            (office, _at(params)): ((1, sid), (0, None)),
            (office, moved["appointment_at"]): ((0, None), (1, sid)),
        }
        slots = _slot_changes(world)
        checks.expect(
            "its old time freed, the new one taken, no other",
            slots == wanted,
            f"slots changed: {sorted(slots.items())}"[:300],
        )
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def and_other_cancelled(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from _move(task, observation)
            other = task.params["other"]
            observation = yield from open_appointment(
                observation, other["service_name"], other["day"]
            )
            yield from _cancel(observation)

        def cancelled(task: Task, observation: Mapping[str, Any]) -> Oracle:
            params = task.params
            observation = yield from open_appointment(
                observation, params["service_name"], params["day"]
            )
            yield from _cancel(observation)

        return {
            "another time that day": self.altered(lambda p: {**p, "new_time": p["decoy_time"]}),
            "cancelled it instead": cancelled,
            "also cancelled the other appointment": and_other_cancelled,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from _move(task, observation)


@register
class CancelAppointment(TaskTemplate):
    name = "forms.cancel_appointment"
    sites = (SITE,)
    may_change = allow(forms={"submissions": edit("status").of_row("submission_id")})
    tags = ("booking", "account", "cancel")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Books the persona's two upcoming appointments; picks the one to cancel."""
        target, other = book_upcoming(rng, world)
        return {**target, "other": other}

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return SITE, "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service, day = f"“{params['service_name']}”", spoken_date(params["day"])
        return [
            f"Cancel my {service} appointment on {day}.",
            f"I won't need the {service} appointment I booked for {day} any more. Please "
            "cancel it.",
            f"Call off my {service} appointment of {day}; leave my other appointment alone.",
            f"Please cancel the {service} booking I have on {day} so someone else can have the "
            "time.",
            f"Something came up on {day}: cancel my {service} appointment that day.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["service_name"], spoken_date(params["day"])]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        after = _submission(world, params["submission_id"])
        checks.expect("cancelled", after["status"] == "cancelled", after["status"])
        wanted = {(params["office"], _at(params)): ((1, params["submission_id"]), (0, None))}
        slots = _slot_changes(world)
        checks.expect(
            "its time freed, no other slot changed",
            slots == wanted,
            f"slots changed: {sorted(slots.items())}"[:300],
        )
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def both(task: Task, observation: Mapping[str, Any]) -> Oracle:
            for which in (task.params, task.params["other"]):
                observation = yield from open_appointment(
                    observation, which["service_name"], which["day"]
                )
                observation = yield from _cancel(observation)

        return {
            "the other appointment": self.altered(lambda p: {**p, **p["other"]}),
            "both appointments": both,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_appointment(
            observation, params["service_name"], params["day"]
        )
        yield from _cancel(observation)

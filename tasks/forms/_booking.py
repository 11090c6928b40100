"""What the appointment templates share: choosing an office and a day, and booking moves."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from typing import Any

from webenv.answers import dates_in
from webenv.axtree import AxTree, Node
from webenv.claims import takes_back
from webenv.tasks import Checks, Moves
from webenv.world import World

from ._forms import (
    Entry,
    answer_step,
    booking_days,
    calendar_date,
    click,
    expect_answers,
    offices,
    taken_slots,
)

#: Where the appointment templates start: the form's start page.
START = ("forms", "/f/appointment")
SERVICES = (
    ("passport", "Passport application or renewal"),
    ("drivers-license", "Driver's license"),
    ("id-card", "State ID card"),
    ("vital-records", "Birth or death certificate"),
    ("vehicle-registration", "Vehicle registration"),
    ("marriage-license", "Marriage license"),
)

#: Chooses the time to book among the enabled time radios.
TimePick = Callable[[list[Node]], Node]


def pick_service(rng: random.Random) -> dict[str, str]:
    code, name = rng.choice(SERVICES)
    return {"service": code, "service_name": name}


def pick_office_day(
    rng: random.Random, world: World, fits: Callable[[str, int], bool]
) -> dict[str, Any] | None:
    """An office and one of its calendar days (not today) for which ``fits(day, free)``."""
    choices = [{k: v for k, v in c.items() if k != "free"} for c in office_days(world, fits)]
    return rng.choice(choices) if choices else None


def office_days(world: World, fits: Callable[[str, int], bool]) -> list[dict[str, Any]]:
    """Every office's calendar days (not today) for which ``fits(day, free)``, with their
    numbers of free times: ``{office, office_name, day, free}``."""
    choices = []
    for office in offices(world):
        for day, free in booking_days(world, office["code"]).items():
            if day > world.now.date().isoformat() and fits(day, free):
                place = {"office": office["code"], "office_name": office["name"], "day": day}
                choices.append({**place, "free": free})
    return choices


def is_weekday(day: str) -> bool:
    return date.fromisoformat(day).weekday() < 5


def book(
    observation: Mapping[str, Any],
    params: Mapping[str, Any],
    pick: TimePick,
    contact: Iterable[Entry] = (),
) -> Moves:
    """From the form's start page: book ``params``' service, office and day at the time
    ``pick`` chooses, with the contact details changed by ``contact``."""
    observation = yield from click(observation, "link", "Start now")
    observation = yield from choose_service_and_office(observation, params)
    observation = yield from answer_step(
        observation, [("choose", "Appointment day", f"{calendar_date(params['day'])},")]
    )
    tree = AxTree(observation["axtree"])
    chosen = pick(free_time_radios(tree))
    observation = yield f'check("{chosen.id}")\nclick("{tree.id("button", "Continue")}")'
    observation = yield from answer_step(observation, contact)
    observation = yield from click(observation, "button", "Confirm booking")
    return observation


def choose_service_and_office(observation: Mapping[str, Any], params: Mapping[str, Any]) -> Moves:
    return (
        yield from answer_step(
            observation,
            [
                ("choose", "Service", params["service_name"]),
                ("choose", "Service center", params["office_name"]),
            ],
        )
    )


def free_time_radios(tree: AxTree) -> list[Node]:
    group = tree.find("group", "Appointment time")
    return [
        node for node in tree.children(group) if node.role == "radio" and not node.has("disabled")
    ]


def day_radio(tree: AxTree, day: str) -> Node | None:
    """The calendar's radio of ``day``, if the calendar shows it."""
    prefix = f"{calendar_date(day)},"
    return next((n for n in tree.find_all("radio") if n.name.startswith(prefix)), None)


def expect_booking(
    checks: Checks,
    world: World,
    data: Mapping[str, Any],
    params: Mapping[str, Any],
    time: str,
    contact: Mapping[str, Any],
) -> None:
    """The booked service, office, day, time and contact details, and the one slot taken."""
    wanted = {
        "service": params["service"],
        "office": params["office"],
        "appointment_date": params["day"],
        "appointment_time": time,
        **contact,
    }
    expect_answers(checks, data, wanted)
    slots = taken_slots(world)
    expected = [[params["office"], f"{params['day']}T{time}:00"]]
    checks.expect("only that slot taken", slots == expected, f"newly taken: {slots}")
    unsaid = notes_problem(str(data.get("notes") or ""), date.fromisoformat(params["day"]))
    checks.expect("the notes ask for no other booking", not unsaid, unsaid)


_WEEKDAY_WORD = re.compile(
    r"\b(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b", re.IGNORECASE
)


def notes_problem(notes: str, day: date) -> str:
    """What in a booking's free-text notes asks for another booking than the one made (empty
    if nothing): words that take it back or move it, or a day other than the booked one. The
    office sees the notes beside the booking: "book me for the following Friday instead" in
    them contradicts the form."""
    found = takes_back(notes)
    if found:
        return f"the notes say {found!r}: {notes[:160]!r}"
    dates, _ = dates_in(notes, day.year)
    other = [d for d in dates if d != day]
    weekdays = {m[1][:3].lower() for m in _WEEKDAY_WORD.finditer(notes)} - {f"{day:%a}".lower()}
    if other or weekdays:
        return f"the notes name another day: {notes[:160]!r}"
    return ""

"""More appointments: a booking at the one time the user can make, which may be free or
already booked by someone else, and a booking at "the service center I went to last time" (an
indirect reference the account's history resolves)."""

from __future__ import annotations

import json
import random
from collections.abc import Generator, Mapping
from datetime import date, datetime
from typing import Any, ClassVar

from webenv.axtree import AxTree, NotFound
from webenv.errors import SamplingError
from webenv.tasks import (
    Allowance,
    Answer,
    CheckResult,
    Checks,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    draw_feasible,
    register,
)
from webenv.world import World

from ._booking import (
    START,
    book,
    choose_service_and_office,
    expect_booking,
    pick_service,
)
from ._forms import (
    PERSONA_ID,
    SITE,
    booking_days,
    calendar_date,
    click,
    clock,
    expect_no_submission,
    expect_one_submission,
    filling,
    free_times,
    offices,
    own_contact,
    read_definition,
    spoken_date,
    submitting,
)
from ._forms import answer_step as answer


def booked_times(world: World, office_code: str, day: str) -> list[str]:
    """The ``HH:MM`` times of an office on a day that are already booked (still to come)."""
    rows = world.query(
        SITE,
        "SELECT substr(s.starts_at, 12, 5) AS hhmm FROM slots s JOIN offices o "
        "ON o.id = s.office_id WHERE o.code = ? AND s.starts_at LIKE ? AND s.starts_at > ? "
        "AND s.taken = 1 ORDER BY s.starts_at",
        (office_code, f"{day}T%", world.now.isoformat()),
    )
    return [row["hhmm"] for row in rows]


def _time_radio(tree: AxTree, hhmm: str) -> Any:
    group = tree.find("group", "Appointment time")
    label = clock(hhmm)
    for node in tree.children(group):
        if node.role == "radio" and node.name == label:
            return node
    raise NotFound(f"no time {label} on the time step")


def _to_time_step(observation: Mapping[str, Any], params: Mapping[str, Any]) -> Moves:
    """From the form's start page to the times of ``params``' office and day."""
    observation = yield from click(observation, "link", "Start now")
    observation = yield from choose_service_and_office(observation, params)
    observation = yield from answer(
        observation, [("choose", "Appointment day", f"{calendar_date(params['day'])},")]
    )
    return observation


@register
class BookAtTime(TaskTemplate):
    """A booking at the one time the user can make: free (booked), or already booked by
    someone else (reported, nothing booked). Either way the day has other free times and
    other booked ones, and the goal reads the same; only the day's times tell."""

    name = "forms.book_at_time"
    version = 1
    sites = ("forms",)
    #: Booking the time, where it can be; looking at the day's times, where it cannot.
    may_change = allow(forms=submitting("appointment"))
    looking: ClassVar[Allowance] = allow(forms=filling("appointment"))
    tags = ("booking", "calendar", "infeasible")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        choices = []
        for office in offices(world):
            for day, free in booking_days(world, office["code"]).items():
                if day <= world.now.date().isoformat() or free < 2:
                    continue
                booked = booked_times(world, office["code"], day)
                if not booked:
                    continue
                times = free_times(world, office["code"], day) if feasible else booked
                choices += [(office["code"], office["name"], day, hhmm) for hhmm in times]
        if not choices:
            raise SamplingError("no day with both free and booked times")
        code, name, day, hhmm = rng.choice(choices)
        return {
            **pick_service(rng),
            "office": code,
            "office_name": name,
            "day": day,
            "time": hhmm,
            "free": free_times(world, code, day),
            "feasible": feasible,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return START

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service, office = f'"{params["service_name"]}"', params["office_name"]
        day, time = spoken_date(params["day"]), clock(params["time"])
        return [
            f"Book me a {service} appointment at the {office} on {day} at {time}.",
            f"I'd like the {time} slot on {day} at {office} for a {service} appointment. "
            "Please book it.",
            f"Schedule a {service} appointment for me: {office}, {day}, {time} exactly; that is "
            "the only time I can make it.",
            f"Get me in at the {office} at {time} on {day} ({service}). Any other time won't "
            "work for me.",
            f"Please make a {service} booking at the {office} for {day}, {time}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [
            params["service_name"],
            params["office_name"],
            spoken_date(params["day"]),
            clock(params["time"]),
        ]

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if params["feasible"] else self.looking

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        if not params["feasible"]:
            self.check_infeasible(checks, answer)
            expect_no_submission(checks, world)
            return checks.result()
        submission = expect_one_submission(checks, world, "appointment")
        if submission:
            expect_booking(
                checks, world, submission["data"], params, params["time"], own_contact(world)
            )
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def another_time(task: Task, observation: Mapping[str, Any]) -> Oracle:
            label = clock(task.params["time"])
            yield from book(
                observation, task.params, lambda radios: next(r for r in radios if r.name != label)
            )

        def other_verdict(task: Task) -> str:
            params = task.params
            day, time = spoken_date(params["day"]), clock(params["time"])
            if params["feasible"]:
                return f"{time} on {day} is not available: it is already booked."
            return f"I have booked your appointment on {day} at {time}."

        return {
            "booked another time that day": another_time,
            "the opposite verdict, without looking": self.answering(other_verdict),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from _to_time_step(observation, params)
        tree = AxTree(observation["axtree"])
        radio = _time_radio(tree, params["time"])
        if radio.has("disabled"):
            reason = (
                f"{clock(params['time'])} on {spoken_date(params['day'])} is already booked at "
                f"the {params['office_name']}."
            )
            yield f"report_infeasible({json.dumps(reason)})"
            return
        observation = yield f'check("{radio.id}")\nclick("{tree.id("button", "Continue")}")'
        observation = yield from answer(observation, [])
        yield from click(observation, "button", "Confirm booking")


def past_appointments(world: World) -> list[dict[str, Any]]:
    """The persona's appointments submitted before the episode, the latest first:
    ``{day, office}`` (the appointment's day and service center code)."""
    rows = world.initial_query(
        SITE,
        "SELECT data_json FROM submissions WHERE user_id = ? AND form_slug = 'appointment'",
        (PERSONA_ID,),
    )
    found = [json.loads(row["data_json"]) for row in rows]
    found.sort(key=lambda data: data["appointment_date"], reverse=True)
    return [{"day": data["appointment_date"], "office": data["office"]} for data in found]


def _month(iso: str) -> str:
    """``2025-10-03`` as ``October 2025``."""
    return f"{date.fromisoformat(iso):%B %Y}"


@register
class BookAtPastOffice(TaskTemplate):
    name = "forms.book_at_past_office"
    sites = ("forms",)
    may_change = allow(forms=submitting("appointment"))
    tags = ("booking", "calendar", "history", "indirect", "multi-step")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        past = [p for p in past_appointments(world) if p["day"] < world.now.date().isoformat()]
        if not past:
            raise LookupError("the account has no past appointment")
        months = [_month(p["day"]) for p in past]
        visits = [("my last appointment", "last", past[0])]
        visits += [
            (f"my appointment in {_month(p['day'])}", _month(p["day"]), p)
            for p in past[1:]
            if months.count(_month(p["day"])) == 1
        ]
        visit, which, chosen = rng.choice(visits)
        names = {office["code"]: office["name"] for office in offices(world)}
        days = [
            day
            for day, free in booking_days(world, chosen["office"]).items()
            if day > world.now.date().isoformat() and free >= 2
        ]
        day = rng.choice(days)
        times = free_times(world, chosen["office"], day)
        other = rng.choice([code for code in names if code != chosen["office"]])
        return {
            **pick_service(rng),
            "visit": visit,
            "which": which,
            "office": chosen["office"],
            "office_name": names[chosen["office"]],
            "day": day,
            "time": times[0],
            "other_office": {"office": other, "office_name": names[other]},
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service, visit = f'"{params["service_name"]}"', params["visit"]
        day = spoken_date(params["day"])
        return [
            f"Book a {service} appointment on {day} at the same service center as {visit}, "
            "at the earliest time free that day.",
            f"I want to go back to the service center where I had {visit}. Book me a {service} "
            f"appointment there on {day}, first available time.",
            f"Get me the earliest {service} slot on {day} at the office I went to for {visit}. "
            "Use my own contact details.",
            f"For {visit} I went to one of your service centers; book a {service} appointment "
            f"at that same one on {day}, as early in the day as possible.",
            f"Same place as {visit}, please: a {service} appointment on {day}, at the first "
            "free time.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["service_name"], params["visit"], spoken_date(params["day"])]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "appointment")
        if submission:
            expect_booking(
                checks, world, submission["data"], params, params["time"], own_contact(world)
            )
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def other_office(task: Task, observation: Mapping[str, Any]) -> Oracle:
            params = {**task.params, **task.params["other_office"]}
            observation = yield from self._open_form(observation)
            yield from book(observation, params, lambda radios: radios[0])

        def later_time(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from self._open_form(observation)
            yield from book(observation, task.params, lambda radios: radios[1])

        return {"another service center": other_office, "a later time": later_time}

    @staticmethod
    def _open_form(observation: Mapping[str, Any]) -> Moves:
        url = observation["url"].split("/", 3)
        observation = yield f"goto({json.dumps('/'.join(url[:3]) + START[1])})"
        return observation

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation, visits = yield from read_past_appointments(observation)
        if params["which"] == "last":
            office_name = max(visits)[1]
        else:
            office_name = next(name for day, name in visits if _month(day) == params["which"])
        observation = yield from self._open_form(observation)
        yield from book(observation, {**params, "office_name": office_name}, lambda r: r[0])


def read_past_appointments(
    observation: Mapping[str, Any],
) -> Generator[str, Mapping[str, Any], tuple[Mapping[str, Any], list[tuple[str, str]]]]:
    """From any page of the portal: open each appointment listed on the account page; return
    the last observation and ``[(ISO day, service center name), ...]``."""
    observation = yield from click(observation, "link", "My account")
    tree = AxTree(observation["axtree"])
    submitted = tree.children(tree.find("region", "Submitted forms"))
    numbers = []
    for row in (node for node in submitted if node.role == "row"):
        cells = [node.name for node in tree.children(row) if node.role == "cell"]
        if cells and cells[0] == "Book an appointment":
            numbers.append(cells[1])
    visits = []
    for index, number in enumerate(numbers):
        if index:  # back to the list by its link: going back could land on a dead link's 404
            observation = yield from click(observation, "link", "My account")
        observation = yield from click(observation, "link", number)
        when = read_definition(observation, "When").split(" at ")[0]
        day = datetime.strptime(when, "%A %d %B %Y").date().isoformat()
        visits.append((day, read_definition(observation, "Where").split(",")[0]))
    return observation, visits

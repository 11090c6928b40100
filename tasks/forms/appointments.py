"""Appointments at the portal's service centers: book, book for someone, count free times,
and a booking on the one day the user can make, which may or may not have a free time."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any, ClassVar

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
    register,
)
from webenv.world import World

from ._booking import (
    START,
    book,
    choose_service_and_office,
    day_radio,
    expect_booking,
    free_time_radios,
    is_weekday,
    office_days,
    pick_office_day,
    pick_service,
)
from ._forms import (
    answer_step,
    booking_days,
    calendar_date,
    click,
    clock,
    expect_no_submission,
    expect_one_submission,
    filling,
    free_times,
    own_contact,
    spoken_date,
    submitting,
)

FIRST_NAMES = ("Daniel", "Priya", "Tomás", "Grace", "Oliver", "Amara", "Henry", "Lucia")
LAST_NAMES = ("Okafor", "Lindqvist", "Moreau", "Hartley", "Nakamura", "Sullivan", "Reyes")


def _booking_goal_parts(params: Mapping[str, Any]) -> tuple[str, str, str]:
    return f'"{params["service_name"]}"', params["office_name"], spoken_date(params["day"])


@register
class BookEarliestSlot(TaskTemplate):
    name = "forms.book_earliest_slot"
    sites = ("forms",)
    may_change = allow(forms=submitting("appointment"))
    tags = ("booking", "calendar", "multi-step")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        place = pick_office_day(rng, world, lambda _day, free: free >= 2)
        assert place is not None, "every office has days with free times"
        times = free_times(world, place["office"], place["day"])
        return {**pick_service(rng), **place, "time": times[0], "later_time": times[1]}

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return START

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service, office, day = _booking_goal_parts(params)
        return [
            f"Book an appointment for {service} at the {office} on {day}, at the earliest time "
            "still free that day. Use my account's contact details.",
            f"I need a {service} appointment at {office} on {day}. Take the first available "
            "time of that day and keep my own contact details.",
            f"On {day}, get me the earliest free {service} slot at the {office}; the booking "
            "should be under my name and contact details.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "appointment")
        if submission:
            expect_booking(
                checks, world, submission["data"], params, params["time"], own_contact(world)
            )
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["service_name"], params["office_name"], spoken_date(params["day"])]

    def near_misses(self) -> dict[str, NearMiss]:
        def later_time(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from book(observation, task.params, lambda radios: radios[1])

        return {"a later time": later_time, "another service": self.altered(_other_service)}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from book(observation, task.params, lambda radios: radios[0])


def _other_service(params: dict[str, Any]) -> dict[str, Any]:
    other = "State ID card" if params["service"] != "id-card" else "Marriage license"
    return {**params, "service_name": other}


@register
class BookForSomeoneElse(TaskTemplate):
    name = "forms.book_for_someone_else"
    sites = ("forms",)
    may_change = allow(forms=submitting("appointment"))
    tags = ("booking", "calendar", "prefilled-fields", "multi-step")
    difficulty = "hard"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        place = pick_office_day(rng, world, lambda _day, free: free >= 2)
        assert place is not None, "every office has days with free times"
        times = free_times(world, place["office"], place["day"])
        time = rng.choice(times)
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        phone = f"({rng.randint(201, 989)}) 555-{rng.randint(100, 199):04d}"
        return {
            **pick_service(rng),
            **place,
            "time": time,
            "other_time": rng.choice([t for t in times if t != time]),
            "first_name": first,
            "last_name": last,
            "email": f"{first}.{last}@example.org".lower().replace("á", "a"),
            "phone": phone,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return START

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service, office, day = _booking_goal_parts(params)
        time, person = clock(params["time"]), f"{params['first_name']} {params['last_name']}"
        contact = f"email {params['email']}, phone {params['phone']}"
        return [
            f"Book a {service} appointment at the {office} on {day} at {time} for my relative "
            f"{person} ({contact}), not for me. Ask for a text reminder the day before.",
            f"Please make a booking for {person} — {service}, {office}, {day}, {time}. Their "
            f"contact details are {contact}. They want a text message reminder.",
            f"{person} needs a {service} appointment: {office}, {day} at {time}. Enter their "
            f"details ({contact}) instead of mine, and tick the text reminder.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "appointment")
        if submission:
            contact = {
                "first_name": params["first_name"],
                "last_name": params["last_name"],
                "email": params["email"],
                "phone": "+1" + re.sub(r"\D", "", params["phone"]),
                "text_reminder": True,
            }
            expect_booking(checks, world, submission["data"], params, params["time"], contact)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [
            params["service_name"], params["office_name"], spoken_date(params["day"]),
            clock(params["time"]), params["first_name"], params["last_name"],
            params["email"], params["phone"],
        ]  # fmt: skip

    def near_misses(self) -> dict[str, NearMiss]:
        def my_details(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from book(observation, task.params, self._time_pick(task.params["time"]))

        return {
            "another time": self.altered(lambda p: {**p, "time": p["other_time"]}),
            "booked under my own details": my_details,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        contact = [
            ("fill", "First name", params["first_name"]),
            ("fill", "Last name", params["last_name"]),
            ("fill", "Email address", params["email"]),
            ("fill", "Phone number", params["phone"]),
            ("tick", _REMINDER, ""),
        ]
        yield from book(observation, params, self._time_pick(params["time"]), contact)

    @staticmethod
    def _time_pick(hhmm: str):  # type: ignore[no-untyped-def]
        label = clock(hhmm)
        return lambda radios: next(radio for radio in radios if radio.name == label)


_REMINDER = "Send me a text message reminder the day before"


@register
class FreeTimesOnDay(TaskTemplate):
    name = "forms.free_times_on_day"
    sites = ("forms",)
    may_change = allow(forms=filling("appointment"))
    tags = ("info-seeking", "calendar")
    difficulty = "easy"
    answer_type = "number"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        # Most days have about the same number of free times: a count is drawn first, evenly
        # among those some day has, so that no answer is right on most seeds without looking.
        days = office_days(world, lambda _day, free: free >= 2)
        assert days, "every office has days with free times"
        count = rng.choice(sorted({day["free"] for day in days}))
        place = rng.choice([day for day in days if day["free"] == count])
        return {**place, "free": len(free_times(world, place["office"], place["day"]))}

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return START

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        office, day = params["office_name"], spoken_date(params["day"])
        return [
            f"How many appointment times are still free at the {office} on {day}? Answer with "
            "the number only.",
            f"Check the booking calendar of {office}: how many free times does it have on "
            f"{day}? Reply with just the number; don't book anything.",
            f"I'd like to know how many open appointment slots the {office} has left on {day}. "
            "Tell me the number.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_answer(checks, answer, params["free"])
        expect_no_submission(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["office_name"], spoken_date(params["day"])]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "one too many": self.answering(lambda t: str(t.params["free"] + 1)),
            "one too few": self.answering(lambda t: str(t.params["free"] - 1)),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = {**task.params, "service_name": "Driver's license"}
        observation = yield from click(observation, "link", "Start now")
        observation = yield from choose_service_and_office(observation, params)
        radio = day_radio(AxTree(observation["axtree"]), params["day"])
        assert radio is not None, "the calendar shows the day"
        count = re.search(r"(\d+) times? available", radio.name)
        yield f"send_msg_to_user({json.dumps(count[1] if count else '0')})"


@register
class BookOnDay(TaskTemplate):
    """A booking on the one day the user can make, any time that day: the day has free times
    (booked), or none, being fully booked or a day the office is closed (reported, nothing
    booked). The goal reads the same either way; only the calendar tells."""

    name = "forms.book_on_day"
    version = 1
    sites = ("forms",)
    #: Booking the day, where it can be; looking at its calendar, where it cannot.
    may_change = allow(forms=submitting("appointment"))
    looking: ClassVar[Allowance] = allow(forms=filling("appointment"))
    tags = ("booking", "calendar", "infeasible")
    difficulty = "medium"
    feasible = False
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        if feasible:
            # A day with free times, a nearly full one half the time (one look at the
            # calendar, not the first guess, tells it from a full one).
            place = None
            if rng.random() < 0.5:
                place = pick_office_day(rng, world, lambda day, free: 0 < free <= 3)
            place = place or pick_office_day(rng, world, lambda day, free: free > 0)
        else:
            place = pick_office_day(rng, world, lambda day, free: free == 0 and is_weekday(day))
            if place is None:  # no full day anywhere: a day the offices are closed instead
                place = pick_office_day(rng, world, lambda day, free: True)
                if place is not None:
                    place["day"] = _next_weekend_day(place["day"])
        if place is None:
            raise SamplingError(f"no office day {'with' if feasible else 'without'} free times")
        open_days = [day for day, free in booking_days(world, place["office"]).items() if free]
        others = [day for day in open_days if day != place["day"]]
        if not others:
            raise SamplingError(f"no other open day at {place['office_name']}")
        later = [day for day in others if day > place["day"]]
        instead = later[0] if later else others[-1]
        return {**pick_service(rng), **place, "instead": instead, "feasible": feasible}

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return START

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        service, office, day = _booking_goal_parts(params)
        return [
            f"Book a {service} appointment at the {office} on {day}, any time that day. If it "
            "can't be done, tell me so rather than booking another day.",
            f"I can only make it on {day}: book me a {service} appointment at {office} that "
            "day (any time). Don't book a different day.",
            f"Get me a {service} slot at the {office} on {day}. Only that date works for me; "
            "report back if there is no way to book it.",
            f"Please book me a {service} appointment at the {office} on {day}. The time of "
            "day doesn't matter, but it has to be that day.",
            f"On {day} I'm free all day: get me a {service} appointment at the {office}, "
            "whatever time is open, under my own contact details. No other day will do.",
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
            data = submission["data"]
            time = str(data.get("appointment_time"))  # any time of the day: its slot is taken
            expect_booking(checks, world, data, params, time, own_contact(world))
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["service_name"], params["office_name"], spoken_date(params["day"])]

    def near_misses(self) -> dict[str, NearMiss]:
        def another_day(task: Task, observation: Mapping[str, Any]) -> Oracle:
            params = {**task.params, "day": task.params["instead"]}
            yield from book(observation, params, lambda radios: radios[0])

        def other_verdict(task: Task) -> str:
            params = task.params
            day, office = spoken_date(params["day"]), params["office_name"]
            if params["feasible"]:
                return f"{day} is fully booked at the {office}, so it cannot be booked."
            return f'I have booked your "{params["service_name"]}" appointment on {day}.'

        return {
            "booked another day": another_day,
            "the opposite verdict, without looking": self.answering(other_verdict),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from click(observation, "link", "Start now")
        observation = yield from choose_service_and_office(observation, params)
        radio = day_radio(AxTree(observation["axtree"]), params["day"])
        if radio is None or radio.has("disabled"):
            why = "is not offered" if radio is None else "is fully booked"
            reason = f"{spoken_date(params['day'])} {why} at the {params['office_name']}."
            yield f"report_infeasible({json.dumps(reason)})"
            return
        observation = yield from answer_step(
            observation, [("choose", "Appointment day", f"{calendar_date(params['day'])},")]
        )
        tree = AxTree(observation["axtree"])
        first = free_time_radios(tree)[0]
        observation = yield f'check("{first.id}")\nclick("{tree.id("button", "Continue")}")'
        observation = yield from answer_step(observation, [])
        yield from click(observation, "button", "Confirm booking")


def _next_weekend_day(day: str) -> str:
    current = date.fromisoformat(day)
    while current.weekday() < 5:
        current += timedelta(days=1)
    return current.isoformat()

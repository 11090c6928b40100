"""Calendar chores: book a meeting at a free time, move one, move one week of a series, and book
a meeting only if the time is free (it is booked, or, when it would double-book the user over a
meeting that must not move, reported as if_found)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import datetime, time, timedelta
from typing import Any

from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    ADD,
    MAX_DRAWS,
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
    edit,
    register,
)
from webenv.world import World

from ._calendar import (
    PERSONAL,
    SITE,
    busy,
    click,
    clock,
    day_name,
    events,
    expect_times,
    fill_form,
    form_times,
    free_start,
    guests,
    home_zone,
    me,
    new_events,
    open_calendar,
    open_event,
    people,
    to_local,
    to_utc,
    today,
    working_days,
)

TITLES = (
    "Pricing workshop",
    "Onboarding plan",
    "Migration kickoff",
    "Hiring sync",
    "Contract review",
    "Analytics deep dive",
    "Support escalation review",
    "Brand refresh brainstorm",
)
#: What rescheduling an event changes: its times (and when it was last changed).
MOVING = edit("starts_at", "ends_at", "updated_at", "is_exception").of_row("event_id")


@register
class CreateMeeting(TaskTemplate):
    name = "calendar.create_meeting"
    sites = (SITE,)
    may_change = allow(calendar={"events": ADD, "invitees": ADD})
    tags = ("calendar", "create", "invite")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        zone = home_zone(world)
        minutes = rng.choice((30, 45, 60))
        days = working_days(today(world) + timedelta(days=1), 8)
        start = free_start(rng, world, rng.sample(days, 3), minutes, zone)
        assert start is not None, "no free time in the coming days"
        invited = rng.sample(people(world), 2)
        return {
            "title": rng.choice(TITLES),
            "start": start.isoformat(timespec="minutes"),
            "minutes": minutes,
            "zone": zone,
            "guests": [{"name": p["name"], "email": p["email"]} for p in invited],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title, minutes = params["title"], params["minutes"]
        start = datetime.fromisoformat(params["start"])
        when = f"{day_name(start)} at {clock(start)}"
        a, b = (guest["name"] for guest in params["guests"])
        return [
            f"Put a {minutes}-minute meeting called “{title}” in my calendar on {when} and "
            f"invite {a} and {b}.",
            f"Schedule “{title}” with {a} and {b} for {when}; it should last {minutes} minutes.",
            f"Can you book {a} and {b} into a {minutes}-minute “{title}” meeting, {when}?",
            f"I need a “{title}” meeting on {when}, {minutes} minutes long. Invite {a} and {b}.",
            f"Create a calendar event “{title}” for {when} ({minutes} minutes) with {a} and {b} "
            "as guests.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        created = new_events(world)
        checks.expect("one event created", len(created) == 1, f"{len(created)} new events")
        if len(created) == 1:
            event = created[0]
            checks.expect(
                "its title",
                event["title"].strip().casefold() == params["title"].casefold(),
                event["title"],
            )
            start = datetime.fromisoformat(params["start"])
            expect_times(checks, event, start, params["minutes"], params["zone"])
            invited = set(guests(world, event["id"]))
            want = {guest["email"] for guest in params["guests"]}
            checks.expect("the two guests, no one else", invited == want, f"invited {invited}")
            checks.expect("organized by you", event["organizer_email"] == me(world), "")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        start = datetime.fromisoformat(params["start"])
        names = [guest["name"] for guest in params["guests"]]
        return [params["title"], day_name(start), clock(start), str(params["minutes"]), *names]

    def near_misses(self) -> dict[str, NearMiss]:
        def later(params: dict[str, Any]) -> dict[str, Any]:
            start = datetime.fromisoformat(params["start"]) + timedelta(hours=1)
            return {**params, "start": start.isoformat(timespec="minutes")}

        return {
            "an hour late": self.altered(later),
            "one guest left out": self.altered(lambda p: {**p, "guests": p["guests"][:1]}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_calendar(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "New event")
        start = datetime.fromisoformat(params["start"])
        values = {"Title": params["title"], **form_times(start, params["minutes"])}
        values["Guests"] = ", ".join(guest["email"] for guest in params["guests"])
        yield from fill_form(values, "Create event", observation)


def _upcoming_own(world: World) -> list[dict[str, Any]]:
    """The user's own one-off meetings from tomorrow on (not errands)."""
    tomorrow = (world.now + timedelta(days=1)).isoformat()
    return [
        event
        for event in events(
            world,
            "series_id IS NULL AND status = 'confirmed' AND organizer_email = ? AND starts_at > ?",
            (me(world), tomorrow),
            initial=True,
        )
        if event["title"] not in PERSONAL
    ]


@register
class RescheduleEvent(TaskTemplate):
    name = "calendar.reschedule_event"
    sites = (SITE,)
    may_change = allow(calendar={"events": MOVING})
    tags = ("calendar", "edit", "reschedule")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        zone = home_zone(world)
        event = rng.choice(_upcoming_own(world))
        old = to_local(event["starts_at"], zone)
        minutes = int((datetime.fromisoformat(event["ends_at"]) - datetime.fromisoformat(
            event["starts_at"])).total_seconds() // 60)  # fmt: skip
        days = [d for d in working_days(today(world) + timedelta(days=1), 10) if d != old.date()]
        start = free_start(rng, world, rng.sample(days, 3), minutes, zone)
        assert start is not None, "no free time in the coming days"
        return {
            "event_id": event["id"],
            "title": event["title"],
            "old_start": old.isoformat(timespec="minutes"),
            "new_start": start.isoformat(timespec="minutes"),
            "minutes": minutes,
            "zone": zone,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title = params["title"]
        old = day_name(datetime.fromisoformat(params["old_start"]))
        new = datetime.fromisoformat(params["new_start"])
        when = f"{day_name(new)} at {clock(new)}"
        return [
            f"Move my “{title}” on {old} to {when}. Keep it the same length.",
            f"Something came up: reschedule “{title}” ({old}) to {when}, same duration.",
            f"Please push the “{title}” meeting from {old} to {when}; don't change anything "
            "else about it.",
            f"Can you change the time of “{title}” on {old}? It should now start {when} and "
            "last as long as before.",
            f"Reschedule my {old} meeting “{title}” so it starts on {when}.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        event = events(world, "id = ?", (params["event_id"],))[0]
        start = datetime.fromisoformat(params["new_start"])
        expect_times(checks, event, start, params["minutes"], params["zone"])
        checks.expect("still a one-off", not event["is_exception"], "")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        new = datetime.fromisoformat(params["new_start"])
        old = datetime.fromisoformat(params["old_start"])
        return [params["title"], day_name(old), day_name(new), clock(new)]

    def near_misses(self) -> dict[str, NearMiss]:
        def half_hour_off(params: dict[str, Any]) -> dict[str, Any]:
            start = datetime.fromisoformat(params["new_start"]) + timedelta(minutes=30)
            return {**params, "new_start": start.isoformat(timespec="minutes")}

        return {
            "half an hour off": self.altered(half_hour_off),
            "an hour shorter": self.altered(lambda p: {**p, "minutes": max(15, p["minutes"] - 15)}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        old = datetime.fromisoformat(params["old_start"])
        observation = yield from open_calendar(observation)
        observation = yield from open_event(params["title"], old.date(), observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "Edit event")
        start = datetime.fromisoformat(params["new_start"])
        yield from fill_form(form_times(start, params["minutes"]), "Save changes", observation)


def _next_occurrences(world: World, title: str) -> list[dict[str, Any]]:
    tomorrow = (world.now + timedelta(days=1)).isoformat()
    return events(
        world,
        "title = ? AND series_id IS NOT NULL AND status = 'confirmed' AND starts_at > ?",
        (title, tomorrow),
        initial=True,
    )


@register
class MoveOneOccurrence(TaskTemplate):
    name = "calendar.move_one_occurrence"
    sites = (SITE,)
    may_change = allow(calendar={"events": MOVING})
    tags = ("calendar", "edit", "recurring")
    difficulty = "hard"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        zone = home_zone(world)
        event = rng.choice(_next_occurrences(world, "Weekly team sync")[:2])
        old = to_local(event["starts_at"], zone)
        for _ in range(MAX_DRAWS):
            start = free_start(rng, world, [old.date()], 45, zone)
            if start is None:
                raise SamplingError("no free time on the day of the team sync")
            if start != old:
                break
        else:
            raise SamplingError(f"no free time other than the sync's own in {MAX_DRAWS} draws")
        return {
            "event_id": event["id"],
            "title": event["title"],
            "old_start": old.isoformat(timespec="minutes"),
            "new_start": start.isoformat(timespec="minutes"),
            "minutes": 45,
            "zone": zone,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        old = datetime.fromisoformat(params["old_start"])
        new = clock(datetime.fromisoformat(params["new_start"]))
        day = day_name(old)
        return [
            f"Move only the Weekly team sync on {day} to {new} that day; every other week stays "
            "as it is.",
            f"The Weekly team sync of {day} needs to start at {new} instead. Just that one "
            "occurrence, not the series.",
            f"Can you shift {day}'s Weekly team sync to {new}? Leave the rest of the series alone.",
            f"For {day} only, reschedule the Weekly team sync to {new} (same length).",
            f"Just this once: the Weekly team sync on {day} should be at {new}. Don't touch the "
            "other weeks.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        event = events(world, "id = ?", (params["event_id"],))[0]
        start = datetime.fromisoformat(params["new_start"])
        expect_times(checks, event, start, params["minutes"], params["zone"])
        checks.expect("moved on its own", bool(event["is_exception"]), "")
        checks.expect("still the team sync", event["title"] == params["title"], event["title"])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        old = datetime.fromisoformat(params["old_start"])
        return [day_name(old), clock(datetime.fromisoformat(params["new_start"]))]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "moved the whole series": self.altered(lambda p: {**p, "scope": "series"}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        old = datetime.fromisoformat(params["old_start"])
        observation = yield from open_calendar(observation)
        observation = yield from open_event(params["title"], old.date(), observation)
        which = (
            "Edit the whole series" if params.get("scope") == "series" else "Edit this occurrence"
        )
        observation = yield click(AxTree(observation["axtree"]), "link", which)
        start = datetime.fromisoformat(params["new_start"])
        times = form_times(start, params["minutes"])
        yield from fill_form(
            {"Starts": times["Starts"], "Ends": times["Ends"]}, "Save changes", observation
        )


#: The length of the meeting :class:`BookIfFree` asks for.
_HALF_HOUR = timedelta(minutes=30)


def _overlapping(world: World, start: datetime, zone: str) -> list[dict[str, Any]]:
    """The user's events (not declined) that half an hour from ``start`` (local) overlaps."""
    return busy(world, to_utc(start, zone), to_utc(start + _HALF_HOUR, zone))


def _held(world: World, event: Mapping[str, Any]) -> bool:
    """Whether ``event`` is a meeting (not an errand) the user is committed to: organizes it,
    or accepted it."""
    mine = me(world)
    return event["title"] not in PERSONAL and (
        event["organizer_email"] == mine
        or guests(world, event["id"], initial=True).get(mine) == "accepted"
    )


@register
class BookIfFree(TaskTemplate):
    """Book a half-hour meeting with a colleague at a stated time, without double-booking the
    user or moving anything: the time may be free (the meeting is booked) or taken by a meeting
    the user holds (it cannot be booked: report it)."""

    name = "calendar.book_if_free"
    version = 1
    sites = (SITE,)
    may_change = allow(calendar={"events": ADD, "invitees": ADD})
    feasible = False
    tags = ("calendar", "create", "invite", "conflict", "infeasible")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        zone = home_zone(world)
        days = working_days(today(world) + timedelta(days=1), 10)
        # The minute is drawn first, the same way for both kinds: the user's meetings start on
        # the hour, so a free half hour drawn on its own fell on :00 and a taken one on :30
        # more often, and the goal's time told which instances could be done.
        minute = rng.choice((0, 30))
        every = [
            datetime.combine(day, time(hour, at))
            for day in days
            for hour in range(9, 17)
            for at in (0, 30)
        ]
        slots = [start for start in every if start.minute == minute]
        if feasible:
            free = [start for start in slots if not _overlapping(world, start, zone)]
            # A free half hour right beside a meeting, where only the times tell it is free.
            snug = [
                start
                for start in free
                if _overlapping(world, start - _HALF_HOUR, zone)
                or _overlapping(world, start + _HALF_HOUR, zone)
            ]
            if not free:
                raise SamplingError("no free half hour in the coming two weeks")
            start, fixed = rng.choice(snug or free), None
        else:
            taken = [
                (start, held)
                for start in slots
                if (held := [e for e in _overlapping(world, start, zone) if _held(world, e)])
            ]
            if not taken:
                raise SamplingError("no meeting of the user's in the coming two weeks")
            start, held = rng.choice(taken)
            fixed = held[0]
        busy_people = {
            email for event in ([fixed] if fixed else []) for email in guests(world, event["id"])
        }
        names = [p["name"] for p in people(world)]
        choices = [
            p
            for p in people(world)
            if names.count(p["name"]) == 1
            and p["email"] not in busy_people
            and not (fixed and p["name"] in fixed["title"])
        ]
        guest = rng.choice(choices)
        return {
            "title": rng.choice(TITLES),
            "start": start.isoformat(timespec="minutes"),
            "minutes": 30,
            "zone": zone,
            "fixed": fixed["title"] if fixed else "",
            "guest": {"name": guest["name"], "email": guest["email"]},
            "feasible": feasible,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        start = datetime.fromisoformat(params["start"])
        when = f"{day_name(start)} at {clock(start)}"
        title, name = params["title"], params["guest"]["name"]
        return [
            f"Book a 30-minute “{title}” with {name} on {when}. Nothing already in my calendar "
            "may move, and don't double-book me.",
            f"Set up “{title}” with {name}, {when}, for 30 minutes, but only if I'm free: keep "
            "every meeting I already have where it is.",
            f"I'd like a half-hour “{title}” with {name} on {when}. Don't overlap or shift any of "
            "my existing meetings.",
            f"Add “{title}” (30 minutes, with {name}) to my calendar for {when}, as long as it "
            "doesn't clash with anything; my other meetings must stay put.",
            f"Invite {name} to a 30-minute “{title}” on {when}. I can't have two meetings at "
            "once, and my current ones can't be moved.",
        ]

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if params["feasible"] else allow()

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        created = new_events(world)
        if not params["feasible"]:
            self.check_infeasible(checks, answer)
            checks.expect("nothing booked", not created, f"{len(created)} new events")
            return checks.result()
        checks.expect("one event created", len(created) == 1, f"{len(created)} new events")
        if len(created) == 1:
            event = created[0]
            checks.expect(
                "its title",
                event["title"].strip().casefold() == params["title"].casefold(),
                event["title"],
            )
            start = datetime.fromisoformat(params["start"])
            expect_times(checks, event, start, params["minutes"], params["zone"])
            invited = set(guests(world, event["id"]))
            want = {params["guest"]["email"]}
            checks.expect("the guest, no one else", invited == want, f"invited {invited}")
            checks.expect("organized by you", event["organizer_email"] == me(world), "")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        start = datetime.fromisoformat(params["start"])
        return [params["title"], params["guest"]["name"], day_name(start), clock(start)]

    def near_misses(self) -> dict[str, NearMiss]:
        anyway = self.altered(lambda p: {**p, "anyway": True})
        hour_long = self.altered(lambda p: {**p, "minutes": 60})
        no_guest = self.altered(lambda p: {**p, "guest": {**p["guest"], "name": ""}})
        no_guest_anyway = self.altered(
            lambda p: {**p, "guest": {**p["guest"], "name": ""}, "anyway": True}
        )

        def booked_regardless(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """An hour instead of half when the time is free; double-booked when it is not."""
            policy = hour_long if task.params["feasible"] else anyway
            yield from policy(task, observation)

        def guest_left_out(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """No guest invited (and, when the time is taken, double-booked anyway)."""
            yield from (no_guest if task.params["feasible"] else no_guest_anyway)(task, observation)

        def opposite(task: Task) -> str:
            start = datetime.fromisoformat(task.params["start"])
            when = f"{day_name(start)} at {clock(start)}"
            if task.params["feasible"]:
                return f"{when} clashes with another of your meetings, so I can't book it."
            return f"Done: “{task.params['title']}” is booked for {when}."

        return {
            "an hour long, or double-booked anyway": booked_regardless,
            "the guest left out": guest_left_out,
            "the opposite verdict, without acting": self.answering(opposite),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_calendar(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "New event")
        start = datetime.fromisoformat(params["start"])
        values = {"Title": params["title"], **form_times(start, params["minutes"])}
        values["Guests"] = params["guest"]["name"]
        observation = yield from fill_form(values, "Create event", observation)
        tree = AxTree(observation["axtree"])
        if not tree.has(contains="overlaps another of your events"):
            return  # booked: the time was free
        if params.get("anyway"):
            box = tree.id("checkbox", "Save anyway")
            yield f'check("{box}")\n{click(tree, "button", "Create event")}'
            return
        # The warning names each event the time overlaps: "…: Title, Tuesday, March 3, 2026, …".
        warning = next(n.name for n in tree if "overlaps another of your events" in n.name)
        day = f", {day_name(start)}, {start.year}, "
        listed = warning.split("overlaps another of your events:", 1)[-1]
        clashes = [listed.split(day)[0].strip()] if day in listed else []
        other = f"your {clashes[0]}" if clashes else "another of your meetings"
        reason = (
            f"{day_name(start)} at {clock(start)} overlaps {other}, which can't move; booking "
            "it would double-book you."
        )
        yield f"report_infeasible({json.dumps(reason)})"

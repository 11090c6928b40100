"""Calendar chores that start or end in the mailbox: book the meeting a colleague asked for by
e-mail and reply with its time; remind the guests who have not answered an invitation."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    ADD,
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

from ..calendar._calendar import (
    awaited_meetings,
    busy,
    clock,
    day_name,
    fill_form,
    guests,
    home_zone,
    me,
    new_events,
    open_calendar,
    open_event,
    open_week,
    people,
    to_local,
    to_utc,
    today,
    working_days,
)
from ..calendar._said import grade_booked_time, other_day_named, reminder_problem
from ..mail._mail import SENDING, send
from ._flows import (
    deliver_mail,
    expect_one_email,
    first_name,
    go,
    open_mail,
    reply_text,
    respond,
    sent_messages,
)

TOPICS = (
    "the Q3 hiring plan",
    "the vendor contract",
    "the dashboard redesign",
    "the API migration",
    "next month's launch",
    "the support backlog",
)
SUBJECT = "Could we meet?"
#: The afternoon the colleague asks for, in the user's time zone.
WINDOW = (13, 17)
_SPAN = re.compile(r"(\d{1,2}:\d{2} [AP]M) – (\d{1,2}:\d{2} [AP]M)")


@register
class BookRequestedMeeting(TaskTemplate):
    name = "workflows.calendar_book_request"
    sites = ("mail", "calendar")
    may_change = allow(mail=SENDING, calendar={"events": ADD, "invitees": ADD})
    tags = ("cross-site", "email", "calendar", "create", "reply")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Delivers the colleague's request, naming a day and an afternoon window."""
        zone = home_zone(world)
        colleague = rng.choice([p for p in people(world) if p["timezone"] == zone])
        days = working_days(today(world) + timedelta(days=2), 6)
        rng.shuffle(days)
        day = next(d for d in days if _free_in_window(rng, world, d, zone))
        topic = rng.choice(TOPICS)
        assert world.persona is not None
        request = deliver_mail(
            world,
            {"name": colleague["name"], "email": colleague["email"]},
            SUBJECT,
            f"Hi {world.persona.first_name},\n\nCould we find 30 minutes on {day_name(day)} "
            f"between 1 PM and 5 PM to talk about {topic}? Please put it in your calendar, "
            f"invite me, and let me know what time works.\n\nThanks,\n{first_name(colleague)}",
        )
        return {
            "request_id": request,
            "colleague": {"name": colleague["name"], "email": colleague["email"]},
            "day": day.isoformat(),
            "topic": topic,
            "zone": zone,
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["colleague"]["name"]
        return [
            f"{name} e-mailed asking to meet. Book it in my calendar at a time I'm free, invite "
            "them, and reply to their e-mail with the time.",
            f"Read {name}'s meeting request in my mailbox, schedule it on my calendar when I "
            "have nothing else, and write back with the time you picked.",
            f"Handle {name}'s e-mail asking for a meeting: find a free slot that fits what they "
            "asked, send them an invite, and reply saying when.",
            f"{name} wants to meet (see their e-mail). Put it in my calendar without clashing "
            "with anything, invite them, and answer their e-mail with the time.",
            f"Set up the meeting {name} asked for by e-mail at a free time, with them invited, "
            "then reply to tell them the time.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        zone, colleague = params["zone"], params["colleague"]
        created = new_events(world)
        checks.expect("one event created", len(created) == 1, f"{len(created)} new events")
        start = None
        if len(created) == 1:
            event = created[0]
            start = to_local(event["starts_at"], zone)
            end = to_local(event["ends_at"], zone)
            checks.expect("on the asked day", start.date().isoformat() == params["day"], f"{start}")
            checks.expect("30 minutes", end - start == timedelta(minutes=30), f"until {end}")
            inside = time(WINDOW[0]) <= start.time() and end.time() <= time(WINDOW[1])
            checks.expect("in the asked afternoon", inside, f"{start:%H:%M}–{end:%H:%M}")
            clash = [e["title"] for e in busy(world, event["starts_at"], event["ends_at"])]
            checks.expect("at a free time", not clash, f"overlaps {clash}")
            invited = set(guests(world, event["id"]))
            checks.expect("the colleague invited", invited == {colleague["email"]}, f"{invited}")
            checks.expect("organized by you", event["organizer_email"] == me(world), "")
        message = expect_one_email(checks, world, colleague["email"], reply_to=params["request_id"])
        if message is not None and start is not None:
            end = start + timedelta(minutes=30)
            window = (time(WINDOW[0]), time(WINDOW[1]))
            written = reply_text(world, message)
            said = grade_booked_time(written, start.time(), end.time(), window)
            checks.expect("the reply gives the booked time", said.passed, said.reason)
            other = other_day_named(written, start.date(), today(world))
            checks.expect("any day the reply names is the booked one", not other, other)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["colleague"]["name"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "replied with another time": self.altered(lambda p: {**p, "reply_off": 30}),
            "replied with another day": self.altered(lambda p: {**p, "reply_day_off": 1}),
            "did not invite them": self.altered(lambda p: {**p, "no_invite": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        query = f"from:{params['colleague']['email']}"
        observation = yield from open_mail(query, SUBJECT, observation)
        observation = yield from open_calendar(observation)
        day = date.fromisoformat(params["day"])
        observation = yield from open_week(day, observation)
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", f"{day:%a}, {day:%b} {day.day}")}")'
        start = _first_free(AxTree(observation["axtree"]), day)
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.id("link", "New event on this day")}")'
        end = start + timedelta(minutes=30)
        values = {"Title": f"Chat about {params['topic']}", "Starts": f"{start:%H:%M}"}
        values["Ends"] = f"{end:%H:%M}"
        if not params.get("no_invite"):
            values["Guests"] = params["colleague"]["email"]
        observation = yield from fill_form(values, "Create event", observation)
        told = start + timedelta(minutes=params.get("reply_off", 0))
        observation = yield from open_mail(query, SUBJECT, observation)
        said = day + timedelta(days=params.get("reply_day_off", 0))
        body = f"Booked: {day_name(said)} at {clock(told)}. The invitation is on its way."
        yield from respond("Reply", body, observation)


def _free_in_window(rng: random.Random, world: World, day: date, zone: str) -> bool:
    start = datetime.combine(day, time(WINDOW[0]))
    slots = [start + timedelta(minutes=30 * n) for n in range(2 * (WINDOW[1] - WINDOW[0]))]
    return any(
        not busy(world, to_utc(s, zone), to_utc(s + timedelta(minutes=30), zone)) for s in slots
    )


def _awaited_start(world: World, params: Mapping[str, Any]) -> datetime:
    """The local start of the meeting a reminder is about (as the episode began)."""
    zone = home_zone(world)
    for event in awaited_meetings(world):
        start = to_local(event["starts_at"], zone)
        if event["title"] == params["title"] and start.date().isoformat() == params["day"]:
            return start
    raise LookupError(f"no awaited meeting {params['title']!r} on {params['day']}")


def _first_free(tree: AxTree, day: date) -> datetime:
    """The first free half hour of the afternoon window, read off the day view's agenda."""
    taken = []
    for row in tree.find_all("row"):
        cells = [n.name for n in tree.children(row) if n.role in ("cell", "gridcell")]
        found = _SPAN.search(cells[0]) if cells else None
        if found and "Declined" not in cells[1]:
            first, last = (datetime.strptime(t, "%I:%M %p").time() for t in found.groups())
            taken.append((datetime.combine(day, first), datetime.combine(day, last)))
    start = datetime.combine(day, time(WINDOW[0]))
    while start + timedelta(minutes=30) <= datetime.combine(day, time(WINDOW[1])):
        end = start + timedelta(minutes=30)
        if all(end <= a or start >= b for a, b in taken):
            return start
        start = end
    raise LookupError(f"no free half hour on {day}")


@register
class RemindUnanswered(TaskTemplate):
    name = "workflows.calendar_remind_unanswered"
    sites = ("calendar", "mail")
    may_change = allow(mail=SENDING)
    tags = ("cross-site", "email", "calendar", "invitees")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        event = rng.choice(awaited_meetings(world))
        day = to_local(event["starts_at"], home_zone(world)).date()
        return {
            "title": event["title"],
            "day": day.isoformat(),
            "waiting": sorted(guest["email"] for guest in event["waiting"]),
            "answered": sorted(guest["email"] for guest in event["answered"]),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title, day = params["title"], day_name(date.fromisoformat(params["day"]))
        return [
            f"Send one e-mail to everyone who hasn't answered my “{title}” invitation ({day}) "
            "yet, asking them to reply.",
            f"Some guests of my {title} meeting on {day} haven't responded. E-mail just them "
            "(one message) and ask them to.",
            f"Nudge the people who still owe me a reply to “{title}” on {day}: one e-mail to "
            "all of them, nobody else.",
            f"Write a single reminder e-mail to the guests of {title} ({day}) who have not "
            "replied.",
            f"Ask, in one e-mail, the invitees of my “{title}” meeting on {day} who haven't "
            "responded to please answer the invitation.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        sent = sent_messages(world)
        checks.expect("one e-mail sent", len(sent) == 1, f"{len(sent)} e-mails sent")
        if len(sent) == 1:
            message = sent[0]
            fields = (message["recipients"], message["cc"], message["bcc"])
            to = {a.strip().lower() for f in fields if f for a in f.split(",") if a.strip()}
            want = set(params["waiting"])
            checks.expect("to exactly the guests who did not reply", to == want, f"sent to {to}")
            start = _awaited_start(world, params)
            problem = reminder_problem(message["subject"], message["body"], params["title"], start)
            checks.expect("asks them to answer the invitation", not problem, problem)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["title"], day_name(date.fromisoformat(params["day"]))]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "wrote to every guest": self.altered(lambda p: {**p, "everyone": True}),
            "left one out": self.altered(lambda p: {**p, "drop": True}),
            "told them it is off": self.altered(lambda p: {**p, "calls_off": True}),
            "gave a wrong time": self.altered(lambda p: {**p, "wrong_time": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_calendar(observation)
        day = date.fromisoformat(params["day"])
        observation = yield from open_event(params["title"], day, observation)
        tree = AxTree(observation["axtree"])
        emails = []
        for row in tree.find_all("row"):
            cells = [n.name for n in tree.children(row) if n.role in ("cell", "gridcell")]
            if len(cells) == 2 and (cells[1] == "No reply" or params.get("everyone")):
                emails.append(cells[0].rsplit("(", 1)[-1].rstrip(")"))
        if params.get("drop"):
            emails = emails[1:]
        observation = yield from go("mail", "/", observation)
        observation = yield f'click("{AxTree(observation["axtree"]).id("link", "Compose")}")'
        values = {
            "To": ", ".join(emails),
            "Subject": f"{params['title']}: please reply",
            "Body": f"Hi all,\n\nCould you answer the {params['title']} invitation? I need "
            "the numbers to book a room.\n\nThanks!",
        }
        if params.get("wrong_time"):  # no meeting of the suite starts before 8 AM
            values["Body"] += f"\n\n(It's on {day_name(day)} at 6:45 AM.)"
        if params.get("calls_off"):
            values["Subject"] = f"{params['title']}: off"
            values["Body"] = "Hi all,\n\nIgnore the invitation, the meeting is off.\n\nThanks!"
        yield from send(values, observation)

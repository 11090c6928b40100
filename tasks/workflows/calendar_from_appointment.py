"""Put a service-center appointment booked on the forms portal into the calendar.

The user has two upcoming appointments on Civic Forms (besides the past ones listed under My
account), each with its confirmation e-mail in the mailbox: "When" gives the day and time,
"Where" the service center. The goal names one by its service center; the event goes in the
calendar at that day and time as the calendar shows times (its time zone), for as long as the
goal says, titled so that it names the service or the service center, with no one invited.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Mapping
from contextlib import closing
from datetime import datetime, timedelta
from typing import Any

from webenv.sites.forms.definitions import FORMS
from webenv.sites.forms.definitions.appointment import SERVICES, book_slot
from webenv.sites.forms.drafts import stamp
from webenv.sites.forms.submissions import record_submission
from webenv.sites.forms.values import format_date, format_time

from webenv.answers import normalize_text
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
    busy,
    click,
    expect_times,
    fill_form,
    form_times,
    guests,
    home_zone,
    me,
    new_events,
    open_calendar,
    to_utc,
)
from ..forms._forms import persona
from ..mail._mail import READING
from ._flows import deliver_mail, search_mail

SENDER = {"name": "Civic Forms", "email": "no-reply@civicforms.example"}
#: How long the goal asks the event to last, in minutes.
LENGTHS = (30, 45, 60, 90)
#: Words that name each service in an event's title (any one of them does).
SERVICE_WORDS = {
    "passport": ("passport",),
    "drivers-license": ("driver", "drivers", "driving", "license", "licence", "dmv"),
    "id-card": ("id", "identity", "identification"),
    "vital-records": ("birth", "death", "certificate", "vital"),
    "vehicle-registration": ("vehicle", "registration", "car", "dmv", "tag", "plate"),
    "marriage-license": ("marriage", "wedding"),
}
#: Other services named in a title that make it a list of candidates rather than a title.
HEDGE_SERVICES = 3
_WHEN = re.compile(r"When: \w+ (\d{1,2} \w+ \d{4}) at (\d{1,2}:\d{2} [AP]M)")
_WHERE = re.compile(r"Where: ([^,\n]+ Service Center)")


def _free_slots(world: World, zone: str, minutes: int) -> list[dict[str, Any]]:
    """Free forms-portal slots 2 to 18 days ahead, at times the user's calendar is free for
    ``minutes`` (both appointments fit without an overlap warning)."""
    found = world.query(
        "forms",
        "SELECT s.starts_at, o.code, o.name, o.street, o.city FROM slots s JOIN offices o"
        " ON o.id = s.office_id WHERE s.taken = 0 AND s.starts_at > ? AND s.starts_at < ?"
        " ORDER BY s.id",
        (
            (world.now + timedelta(days=2)).isoformat(),
            (world.now + timedelta(days=18)).isoformat(),
        ),
    )
    free = []
    for row in found:
        start = datetime.fromisoformat(row["starts_at"])
        end = start + timedelta(minutes=max(LENGTHS))
        if not busy(world, to_utc(start, zone), to_utc(end, zone)):
            free.append(dict(row))
    return free


def book_appointment(
    world: World, slot: Mapping[str, Any], service: str, days_ago: int, rng: random.Random
) -> str:
    """Book ``slot`` for the user on the forms portal as the portal does (the submission, the
    slot taken) and put its confirmation e-mail in the mailbox; returns the confirmation."""
    user = persona(world)
    day, hhmm = slot["starts_at"][:10], slot["starts_at"][11:16]
    values = {
        "service": service, "office": slot["code"], "appointment_date": day,
        "appointment_time": hhmm, "appointment_at": slot["starts_at"],
        "first_name": user["first_name"], "last_name": user["last_name"],
        "email": user["email"], "phone": user["phone"], "text_reminder": rng.random() < 0.5,
        "notes": None,
    }  # fmt: skip
    booked = world.now - timedelta(days=days_ago, minutes=rng.randint(30, 600))
    form = FORMS["appointment"]
    with closing(sqlite3.connect(world.db_path("forms"))) as db, db:
        submission_id, confirmation = record_submission(db, form, values, 1, stamp(booked))
        book_slot(db, values, submission_id, None)  # type: ignore[arg-type]  # (no context used)
    where = f"{slot['name']}, {slot['street']}, {slot['city']}"
    body = "\n".join(
        [
            f"Thank you. We have received your form: {form.title}.",
            "",
            f"Your confirmation number is {confirmation}.",
            "",
            f"When: {format_date(day)} at {format_time(hhmm)}",
            f"Where: {where}",
            "",
            form.next_steps,
            "",
            "Civic Forms",
        ]
    )
    subject = f"{form.title}: confirmation {confirmation}"
    deliver_mail(world, SENDER, subject, body, int((world.now - booked).total_seconds() // 60))
    return confirmation


def title_names(title: str, service: str, office_name: str) -> bool:
    """Whether an event's title names the service (a word of it) or the service center (the
    word that tells it from the others: "Riverside"), and not a list of services to cover
    whichever it is: three other services named beside it make a hedge, not a title ("ID"
    or "driver's license" may well be what to bring)."""
    said = normalize_text(title).split()
    said += [word[:-1] for word in said if len(word) > 3 and word.endswith("s")]  # plurals
    words = {*SERVICE_WORDS[service], normalize_text(office_name.split()[0])}
    others = [
        name
        for name, theirs in SERVICE_WORDS.items()
        if name != service and not set(theirs).isdisjoint(set(said) - words)
    ]
    return not words.isdisjoint(said) and len(others) < HEDGE_SERVICES


@register
class CalendarFromAppointment(TaskTemplate):
    name = "workflows.calendar_from_appointment"
    sites = ("mail", "forms", "calendar")
    may_change = allow(mail=READING, calendar={"events": ADD})
    tags = ("cross-site", "email", "calendar", "booking", "create", "time-zone")
    difficulty = "medium"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Books two appointments at different service centers, on different days."""
        zone = home_zone(world)
        slots = _free_slots(world, zone, max(LENGTHS))
        slot = rng.choice(slots)
        day = slot["starts_at"][:10]
        others = [s for s in slots if s["code"] != slot["code"] and s["starts_at"][:10] != day]
        decoy = rng.choice(others)
        service, decoy_service = rng.sample([s.value for s in SERVICES], 2)
        first_days = rng.randint(1, 6)
        second_days = rng.choice([d for d in range(1, 7) if d != first_days])
        confirmation = book_appointment(world, slot, service, first_days, rng)
        book_appointment(world, decoy, decoy_service, second_days, rng)
        label = next(s.label for s in SERVICES if s.value == service)
        return {
            "service": service,
            "service_name": label,
            "office": slot["code"],
            "office_name": slot["name"],
            "start": slot["starts_at"][:16],
            "confirmation": confirmation,
            "minutes": rng.choice(LENGTHS),
            "zone": zone,
            "decoy": {"office_name": decoy["name"], "start": decoy["starts_at"][:16]},
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        office, minutes = params["office_name"], params["minutes"]
        what = _lower_first(params["service_name"])
        return [
            f"I booked a {what} appointment at the {office} on the city's forms portal. Put it "
            f"in my calendar at its day and time, {minutes} minutes long, with a title that says "
            "what it is.",
            f"Add my upcoming appointment at the {office} ({what}) to my calendar: same day and "
            f"time as the booking confirmation, block {minutes} minutes. Don't invite anyone.",
            f"Could you put the {office} appointment I booked on Civic Forms into Northwind "
            f"Calendar? It's for my {what}. Make it a {minutes}-minute event at the booked time.",
            f"The confirmation e-mail for my {what} appointment at the {office} is in my inbox. "
            f"Create a {minutes}-minute calendar event for it at the right day and time.",
            f"Block my calendar for the {what} appointment I have at the {office}: "
            f"{minutes} minutes from the time it's booked for, titled so I know what it is.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        created = new_events(world)
        checks.expect("one event created", len(created) == 1, f"{len(created)} new events")
        if len(created) == 1:
            event = created[0]
            start = datetime.fromisoformat(params["start"])
            expect_times(checks, event, start, params["minutes"], params["zone"])
            named = title_names(event["title"], params["service"], params["office_name"])
            checks.expect("its title names the service or the center", named, event["title"])
            invited = sorted(guests(world, event["id"]))
            checks.expect("no one invited", not invited, f"invited {invited}")
            checks.expect("a one-off event", event["series_id"] is None, "")
            checks.expect("organized by you", event["organizer_email"] == me(world), "")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["office_name"], str(params["minutes"])]

    def near_misses(self) -> dict[str, NearMiss]:
        def decoy(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "office_name": params["decoy"]["office_name"]}

        def hour_early(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "shift": -60}

        return {
            "the other appointment": self.altered(decoy),
            # Taking the time for one of another zone: the calendar shows the user's own.
            "an hour off": self.altered(hour_early),
            "a title that says nothing": self.altered(lambda p: {**p, "title": "Appointment"}),
            "half the time asked": self.altered(lambda p: {**p, "minutes": p["minutes"] // 2}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        query = f'"{params["office_name"]}" from:{SENDER["email"]}'
        observation = yield from search_mail(query, "confirmation", observation)
        when = _WHEN.search(observation["axtree"])
        where = _WHERE.search(observation["axtree"])
        if when is None or where is None:
            raise LookupError("the confirmation e-mail gives no When and Where")
        day = datetime.strptime(when[1], "%d %B %Y").date()
        moment = datetime.strptime(when[2], "%I:%M %p").time()
        start = datetime.combine(day, moment) + timedelta(minutes=params.get("shift", 0))
        observation = yield from open_calendar(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "New event")
        title = params.get("title") or f"Appointment at the {where[1]}"
        values = {"Title": title, **form_times(start, params["minutes"]), "Location": where[1]}
        observation = yield from fill_form(values, "Create event", observation)
        tree = AxTree(observation["axtree"])
        if tree.has("checkbox", "Save anyway"):  # a fixed appointment goes in whatever else
            box = tree.id("checkbox", "Save anyway")
            yield f'check("{box}")\n{click(tree, "button", "Create event")}'


def _lower_first(label: str) -> str:
    """A service's label inside a sentence: "passport application or renewal", but "driver's
    license" and "State ID card" keep their capitals where a name has them."""
    return label if label.startswith("State") else label[0].lower() + label[1:]

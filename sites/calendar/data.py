"""The seeded calendar: a few dozen events over six weeks either side of the world's now.

Everything comes from ``random.Random`` seeded from the world seed and is laid out in the
user's time zone around the world's ``now``, so the same arguments give the same file.
"""

from __future__ import annotations

import os
import random
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from ..common import Persona, hash_password
from .clock import stamp, to_local, to_utc
from .db import connect, schema_sql
from .people import Colleague, colleagues

#: The zones the persona may live in.
HOME_ZONES = ("America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles")
WEEKS = 6
ROOMS = ("Room 4A", "Room 2C", "Harbor room", "Lakeview room", "Video call", "Room 3B")
ONE_OFFS = (
    ("Design review", "Walk through the latest mockups and agree on next steps."),
    ("Budget check-in", "Monthly look at spend against plan."),
    ("Vendor call", "Quarterly call with the hosting vendor."),
    ("Customer demo", "Demo of the new reporting screens."),
    ("Sprint retro", "What went well, what to change."),
    ("Hiring debrief", "Debrief on this week's candidate."),
    ("Roadmap review", "Review of the next quarter's roadmap."),
    ("Security training", "Yearly security awareness session."),
    ("Launch readiness", "Go/no-go checklist for the release."),
    ("Data migration sync", "Status of the warehouse migration."),
    ("Offsite planning", "Agenda and logistics for the team offsite."),
    ("Interview panel", "Panel interview for the open role."),
)
PERSONAL = (("Dentist appointment", "Dr. Patel's office"), ("Car service", "Main St Garage"))
INVITATIONS = (
    ("Architecture deep dive", "A deep dive into the new service layout."),
    ("Quarterly business review", "Results of the quarter and the plan for the next."),
    ("Partner onboarding", "Kick-off with the new integration partner."),
    ("Incident postmortem", "Review of last week's outage and follow-ups."),
)


@dataclass
class Plan:
    """The events being laid out, and the user's busy times (local), to keep them apart."""

    zone: str
    busy: list[tuple[datetime, datetime]] = field(default_factory=list)

    def free(self, start: datetime, end: datetime) -> bool:
        return all(end <= other_start or start >= other_end for other_start, other_end in self.busy)


def _monday(day: date) -> date:
    return day - timedelta(days=day.weekday())


def build_database(path: str, seed: int, now: datetime, persona: Persona) -> None:
    """Create the calendar of the world of ``seed`` at ``path``."""
    if os.path.exists(path):
        os.remove(path)
    rng = random.Random(f"calendar-{seed}")
    zone = rng.choice(HOME_ZONES)
    people = colleagues(seed, persona, zone, rng)
    connection = connect(path)
    try:
        connection.executescript(schema_sql())
        with connection:
            _seed(connection, rng, now, persona, zone, people)
        connection.execute("VACUUM")
    finally:
        connection.close()


def _seed(
    connection: sqlite3.Connection,
    rng: random.Random,
    now: datetime,
    persona: Persona,
    zone: str,
    people: list[Colleague],
) -> None:
    connection.execute(
        "INSERT INTO users (id, username, password_hash, name, email, timezone)"
        " VALUES (1, ?, ?, ?, ?, ?)",
        (
            persona.username,
            hash_password(persona.password, f"calendar-{persona.username}"),
            persona.name,
            persona.email,
            zone,
        ),
    )
    connection.executemany(
        "INSERT INTO people (name, email, team, timezone) VALUES (?, ?, ?, ?)",
        [(p.name, p.email, p.team, p.timezone) for p in people],
    )
    today = to_local(now, zone).date()
    first = _monday(today) - timedelta(weeks=WEEKS)
    plan = Plan(zone)
    writer = _Writer(connection, rng, now, persona, plan)
    # The weekly team meeting, and a weekly 1:1 with three colleagues.
    slots = rng.sample([(d, h) for d in range(5) for h in (9, 10, 11, 13, 14, 15, 16)], 4)
    team = rng.sample(people, 5)
    weekday, hour = slots[0]
    writer.series(
        "Weekly team sync", first + timedelta(days=weekday), time(hour), 45, team, ROOMS[0]
    )
    for (weekday, hour), person in zip(slots[1:], rng.sample(people, 3), strict=True):
        writer.series(
            f"1:1 with {person.name}", first + timedelta(days=weekday), time(hour, 30), 30, [person]
        )
    # One future occurrence of a 1:1 is cancelled.
    cancelled = connection.execute(
        "SELECT id FROM events WHERE title LIKE '1:1 with %' AND starts_at > ? ORDER BY starts_at"
        " LIMIT 1",
        (stamp(now),),
    ).fetchone()
    if rng.random() < 0.5:
        connection.execute(
            "UPDATE events SET status = 'cancelled', is_exception = 1 WHERE id = ?", (cancelled[0],)
        )
    # The planning meeting the user organizes, soon.
    invited = rng.sample(people, 6)
    writer.one_off(
        "Quarterly planning",
        "Plan the next quarter's priorities. Please reply so I can book a room.",
        today + timedelta(days=rng.randint(3, 12)),
        invited,
        organizer=None,
        minutes=60,
        responses=_mixed_responses(rng, len(invited)),
    )
    for title, description in rng.sample(ONE_OFFS, 10):
        day = first + timedelta(days=rng.randrange(WEEKS * 14))
        guests = rng.sample(people, rng.randint(1, 3))
        organizer = rng.choice([None, None, guests[0]])
        writer.one_off(title, description, day, guests, organizer=organizer)
    for title, place in PERSONAL:
        day = today + timedelta(days=rng.randint(-20, 25))
        writer.one_off(title, "", day, [], organizer=None, location=place)
    # Invitations waiting for a reply; the first overlaps something the user already has.
    # From three colleagues, one of them in another time zone.
    away = rng.choice([p for p in people if p.timezone != zone])
    organizers = [away, *rng.sample([p for p in people if p != away], 2)]
    rng.shuffle(organizers)
    for index, (title, description) in enumerate(rng.sample(INVITATIONS, 3)):
        organizer = organizers[index]
        guests = [organizer, *rng.sample([p for p in people if p != organizer], 2)]
        day = today + timedelta(days=rng.randint(2, 14))
        writer.invitation(title, description, day, organizer, guests, clash=index == 0)


def _mixed_responses(rng: random.Random, count: int) -> list[str]:
    """Replies to the planning meeting: some accepted or declined, at least two not yet."""
    answered = ["accepted", "declined", "tentative", "accepted"]
    responses = [rng.choice(answered) for _ in range(count - 2)] + ["none", "none"]
    if rng.random() < 0.5:
        responses[0] = "none"
    rng.shuffle(responses)
    return responses


class _Writer:
    """Inserts events, keeping the user's own times from overlapping (save the one clash)."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        rng: random.Random,
        now: datetime,
        persona: Persona,
        plan: Plan,
    ) -> None:
        self.connection, self.rng, self.now, self.persona, self.plan = (
            connection,
            rng,
            now,
            persona,
            plan,
        )

    def _insert(
        self,
        title: str,
        start: datetime,
        minutes: int,
        location: str,
        description: str,
        organizer: str,
        guests: list[tuple[str, str, str]],
        series_id: int | None = None,
        updated: datetime | None = None,
    ) -> int:
        end = start + timedelta(minutes=minutes)
        cursor = self.connection.execute(
            "INSERT INTO events (series_id, title, starts_at, ends_at, location, description,"
            " organizer_email, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                series_id,
                title,
                stamp(to_utc(start, self.plan.zone)),
                stamp(to_utc(end, self.plan.zone)),
                location,
                description,
                organizer,
                stamp(updated or self.now - timedelta(days=50)),
            ),
        )
        event_id = int(cursor.lastrowid or 0)
        self.connection.executemany(
            "INSERT INTO invitees (event_id, email, name, response) VALUES (?, ?, ?, ?)",
            [(event_id, email, name, response) for email, name, response in guests],
        )
        self.plan.busy.append((start, end))
        return event_id

    def series(
        self,
        title: str,
        first_day: date,
        at: time,
        minutes: int,
        people: list[Colleague],
        location: str = "Video call",
    ) -> None:
        cursor = self.connection.execute(
            "INSERT INTO series (title, rule) VALUES (?, 'weekly')", (title,)
        )
        guests = [(p.email, p.name, "accepted") for p in people]
        for week in range(2 * WEEKS + 1):
            start = datetime.combine(first_day + timedelta(weeks=week), at)
            self._insert(
                title, start, minutes, location, "", self.persona.email, guests, cursor.lastrowid
            )

    def _free_start(self, day: date, minutes: int) -> datetime:
        """A free start on ``day`` or a weekday after it, in working hours."""
        for _ in range(200):
            while day.weekday() >= 5:
                day += timedelta(days=1)
            start = datetime.combine(day, time(self.rng.randint(9, 16), self.rng.choice((0, 30))))
            if self.plan.free(start, start + timedelta(minutes=minutes)):
                return start
            day += timedelta(days=self.rng.choice((0, 1)))
        raise RuntimeError("no free time left to seed an event")

    def one_off(
        self,
        title: str,
        description: str,
        day: date,
        people: list[Colleague],
        organizer: Colleague | None,
        minutes: int | None = None,
        location: str | None = None,
        responses: list[str] | None = None,
    ) -> int:
        minutes = minutes or self.rng.choice((30, 60, 60, 90))
        start = self._free_start(day, minutes)
        answers = responses or [
            self.rng.choice(("accepted", "accepted", "tentative", "none")) for _ in people
        ]
        guests = [(p.email, p.name, r) for p, r in zip(people, answers, strict=True)]
        organizer_email = self.persona.email
        if organizer is not None:
            organizer_email = organizer.email
            guests = [g for g in guests if g[0] != organizer.email]
            guests.append((self.persona.email, self.persona.name, "accepted"))
        return self._insert(
            title,
            start,
            minutes,
            location if location is not None else self.rng.choice(ROOMS),
            description,
            organizer_email,
            guests,
        )

    def invitation(
        self,
        title: str,
        description: str,
        day: date,
        organizer: Colleague,
        people: list[Colleague],
        clash: bool,
    ) -> int:
        minutes = 60
        if clash:  # the same time as one of the user's own upcoming meetings
            mine = self.connection.execute(
                "SELECT starts_at FROM events WHERE organizer_email = ? AND series_id IS NULL"
                " AND starts_at > ? AND title NOT IN (?, ?) ORDER BY starts_at LIMIT 1",
                (
                    self.persona.email,
                    stamp(self.now + timedelta(days=1)),
                    *(t for t, _ in PERSONAL),
                ),
            ).fetchone()
            start = to_local(mine[0], self.plan.zone) + timedelta(
                minutes=30 * self.rng.randint(-1, 0)
            )
        else:
            start = self._free_start(day, minutes)
        guests = [(p.email, p.name, "accepted") for p in people if p != organizer]
        guests.append((self.persona.email, self.persona.name, "none"))
        sent = self.now - timedelta(minutes=self.rng.randint(90, 3 * 24 * 60))
        return self._insert(
            title,
            start,
            minutes,
            self.rng.choice(ROOMS),
            description,
            organizer.email,
            guests,
            updated=sent,
        )

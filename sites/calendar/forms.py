"""Reading the event form: title, date, times and invitees, with a message per bad field."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from .clock import stamp, to_utc

_TIME = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)?\s*$", re.IGNORECASE)
_EMAIL = re.compile(r"^[^@\s,]+@[^@\s,]+\.[a-z]{2,}$", re.IGNORECASE)
MAX_TEXT = 2000


@dataclass
class EventForm:
    """The values of the event form as typed, and what is wrong with them."""

    values: dict[str, str]
    errors: dict[str, str] = field(default_factory=dict)
    starts_at: str = ""
    ends_at: str = ""
    guests: list[tuple[str, str]] = field(default_factory=list)


def parse_time(text: str) -> time | None:
    """``14:30``, ``2:30 PM`` or ``2:30pm``; None if it is no time of day."""
    found = _TIME.match(text or "")
    if found is None:
        return None
    hour, minute, half = int(found[1]), int(found[2]), (found[3] or "").lower()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.startswith("p") else 0)
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def read_form(
    form: Any, conn: sqlite3.Connection, zone: str, me: str, with_guests: bool = True
) -> EventForm:
    """Validate a posted event form; times are read in the user's ``zone``."""
    names = ("title", "date", "start", "end", "location", "description", "invitees")
    values = {name: str(form.get(name, ""))[:MAX_TEXT].strip() for name in names}
    result = EventForm(values)
    errors = result.errors
    if not values["title"]:
        errors["title"] = "Enter a title for the event."
    elif len(values["title"]) > 200:
        errors["title"] = "Keep the title under 200 characters."
    try:
        day = date.fromisoformat(values["date"])
    except ValueError:
        errors["date"] = "Enter the date as YYYY-MM-DD, e.g. 2026-03-04."
        day = None
    start, end = parse_time(values["start"]), parse_time(values["end"])
    if start is None:
        errors["start"] = "Enter a start time such as 14:30 or 2:30 PM."
    if end is None:
        errors["end"] = "Enter an end time such as 15:00 or 3:00 PM."
    if day is not None and start is not None and end is not None:
        first = datetime.combine(day, start)
        last = datetime.combine(day, end)
        if last <= first:
            errors["end"] = "The event must end after it starts."
        elif last - first > timedelta(hours=12):
            errors["end"] = "An event can last at most 12 hours."
        else:
            result.starts_at = stamp(to_utc(first, zone))
            result.ends_at = stamp(to_utc(last, zone))
    if with_guests:
        result.guests = _guests(values["invitees"], conn, me, errors)
    return result


def _guests(
    text: str, conn: sqlite3.Connection, me: str, errors: dict[str, str]
) -> list[tuple[str, str]]:
    """The invitees typed (e-mail addresses or colleagues' names, comma-separated)."""
    guests: list[tuple[str, str]] = []
    for part in (piece.strip() for piece in re.split(r"[,;\n]", text)):
        if not part:
            continue
        row = conn.execute(
            "SELECT name, email FROM people"
            " WHERE lower(email) = lower(?) OR lower(name) = lower(?)",
            (part, part),
        ).fetchone()
        if row is not None:
            email, name = row["email"], row["name"]
        elif _EMAIL.match(part):
            email, name = part.lower(), part.lower()
        else:
            errors["invitees"] = (
                f"{part!r} is neither an e-mail address nor a colleague in your calendar: "
                "separate invitees with commas."
            )
            return []
        if email != me and email not in {guest[0] for guest in guests}:
            guests.append((email, name))
    return guests

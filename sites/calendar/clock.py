"""Time zones and the calendar's clock: stored times are naive UTC, shown in the user's zone."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask import current_app

from ..common import parse_now

#: The zones a user may choose, with the names the settings page shows.
ZONES = {
    "America/New_York": "Eastern Time (New York)",
    "America/Chicago": "Central Time (Chicago)",
    "America/Denver": "Mountain Time (Denver)",
    "America/Los_Angeles": "Pacific Time (Los Angeles)",
    "Europe/London": "UK Time (London)",
    "Europe/Berlin": "Central European Time (Berlin)",
    "Asia/Tokyo": "Japan Time (Tokyo)",
}


def now_utc() -> datetime:
    """The world's fixed "now" (naive UTC)."""
    return parse_now(current_app.config["NOW"])


def to_local(moment: datetime | str, zone: str) -> datetime:
    """A stored UTC time as a naive wall-clock time in ``zone``."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    return moment.replace(tzinfo=ZoneInfo("UTC")).astimezone(ZoneInfo(zone)).replace(tzinfo=None)


def to_utc(local: datetime, zone: str) -> datetime:
    """A wall-clock time in ``zone`` as a naive UTC time."""
    return local.replace(tzinfo=ZoneInfo(zone)).astimezone(ZoneInfo("UTC")).replace(tzinfo=None)


def stamp(moment: datetime) -> str:
    """How a time is stored: ISO 8601 to the second."""
    return moment.replace(microsecond=0).isoformat()


def day_bounds(day: date, zone: str) -> tuple[str, str]:
    """The stored times at which ``day`` (in ``zone``) starts and ends."""
    start = to_utc(datetime.combine(day, time()), zone)
    end = to_utc(datetime.combine(day + timedelta(days=1), time()), zone)
    return stamp(start), stamp(end)


def clock_time(moment: datetime) -> str:
    """``9:30 AM``."""
    return moment.strftime("%I:%M %p").lstrip("0")


def long_day(day: date | datetime) -> str:
    """``Tuesday, March 3, 2026``."""
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def zone_name(zone: str) -> str:
    return ZONES.get(zone, zone)

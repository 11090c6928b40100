"""How the help centre shows dates and times."""

from __future__ import annotations

from datetime import datetime

from flask import Flask


def long_date(stamp: str) -> str:
    """``2026-02-19T08:00:00`` -> ``February 19, 2026``."""
    moment = datetime.fromisoformat(stamp)
    return f"{moment:%B} {moment.day}, {moment.year}"


def date_time(stamp: str) -> str:
    """``2026-02-19T14:05:00`` -> ``February 19, 2026 at 2:05 PM``."""
    moment = datetime.fromisoformat(stamp)
    hour = moment.hour % 12 or 12
    return f"{long_date(stamp)} at {hour}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"


def register_filters(app: Flask) -> None:
    app.jinja_env.filters["long_date"] = long_date
    app.jinja_env.filters["date_time"] = date_time

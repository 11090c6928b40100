"""Jinja filters for the calendar's pages."""

from __future__ import annotations

from datetime import date, datetime

from flask import Flask

from .clock import clock_time, long_day


def short_day(day: date) -> str:
    """``Tue, Mar 3``."""
    return f"{day:%a}, {day:%b} {day.day}"


def register(app: Flask) -> None:
    app.jinja_env.filters["clock"] = clock_time
    app.jinja_env.filters["long_day"] = long_day
    app.jinja_env.filters["short_day"] = short_day
    app.jinja_env.globals["iso"] = lambda value: (
        value.isoformat() if isinstance(value, date | datetime) else str(value)
    )

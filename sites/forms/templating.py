"""Filters and globals the templates use to show values and lay out the booking calendar."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from flask import Flask

from .fields import Choice
from .values import format_date, format_money, format_phone, format_time, parse_date
from .wizard import field_id, input_name

STATUS_LABELS = {
    "submitted": "Submitted",
    "paid": "Paid",
    "closed": "Closed",
    "completed": "Completed",
    "active": "In progress",
    "saved": "Saved",
    "cancelled": "Cancelled",
    "withdrawn": "Withdrawn",
}


def calendar_weeks(days: Sequence[Choice]) -> list[list[Choice | None]]:
    """Working days laid out Monday to Friday, one list per week, gaps as None."""
    weeks: dict[tuple[int, int], list[Choice | None]] = {}
    for day in days:
        moment = date.fromisoformat(day.value)
        if moment.weekday() < 5:
            week = weeks.setdefault(moment.isocalendar()[:2], [None] * 5)
            week[moment.weekday()] = day
    return list(weeks.values())


def day_of_month(iso: str) -> str:
    return str(date.fromisoformat(iso).day)


def month_abbr(iso: str) -> str:
    return f"{date.fromisoformat(iso):%b}"


def html_input_value(raw: str, kind: str) -> str:
    """What an input shows for a raw answer: date inputs only understand ISO dates."""
    if kind == "date":
        parsed = parse_date(str(raw).strip())
        return parsed.isoformat() if parsed else str(raw)
    return str(raw)


def short_datetime(stamp: str) -> str:
    """A stored timestamp like ``2026-05-14T09:30:00`` as ``14 May 2026``."""
    moment = date.fromisoformat(stamp[:10])
    return f"{moment.day} {moment:%B %Y}"


def register_template_helpers(app: Flask) -> None:
    app.jinja_env.filters.update(
        money=format_money,
        long_date=format_date,
        clock=format_time,
        phone=format_phone,
        short_datetime=short_datetime,
        day_of_month=day_of_month,
        month_abbr=month_abbr,
        html_input_value=html_input_value,
        calendar_weeks=calendar_weeks,
        status_label=lambda status: STATUS_LABELS.get(status, status.title()),
    )
    app.jinja_env.globals.update(field_id=field_id, input_name=input_name)

"""The day, week and month views around the world's now, with previous/next navigation."""

from __future__ import annotations

import calendar as monthcal
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from . import store
from .auth import login_required
from .clock import day_bounds, now_utc, to_local
from .db import get_db

bp = Blueprint("views", __name__)


def user_zone() -> str:
    return str(g.user["timezone"])


def today() -> date:
    return to_local(now_utc(), user_zone()).date()


def shown(row: sqlite3.Row, zone: str) -> dict[str, Any]:
    """An event as the views show it: its times in the user's zone."""
    item = dict(row)
    item["start"] = to_local(row["starts_at"], zone)
    item["end"] = to_local(row["ends_at"], zone)
    item["mine"] = row["organizer_email"] == g.user["email"]
    return item


def events_on(days: list[date]) -> dict[date, list[dict[str, Any]]]:
    """The user's events of each of ``days`` (consecutive), by local day."""
    zone = user_zone()
    start, _ = day_bounds(days[0], zone)
    _, end = day_bounds(days[-1], zone)
    found: dict[date, list[dict[str, Any]]] = {day: [] for day in days}
    for row in store.events_between(get_db(), g.user["email"], start, end):
        item = shown(row, zone)
        day = item["start"].date()
        if day in found:
            found[day].append(item)
        elif item["start"].date() < days[0]:
            found[days[0]].append(item)
    return found


def asked_day() -> date:
    """The ``date`` query parameter (``YYYY-MM-DD``), else today; a bad one is a 400."""
    text = request.args.get("date")
    if text is None:
        return today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        abort(400, description="The date must be written YYYY-MM-DD, e.g. 2026-03-04.")


@bp.route("/")
@login_required
def home() -> Response:
    return redirect(url_for("views.week"))


@bp.route("/day")
@login_required
def day() -> str:
    shown_day = asked_day()
    return render_template(
        "day.html",
        day=shown_day,
        events=events_on([shown_day])[shown_day],
        previous=shown_day - timedelta(days=1),
        next=shown_day + timedelta(days=1),
        today=today(),
    )


@bp.route("/week")
@login_required
def week() -> str:
    monday = asked_day()
    monday -= timedelta(days=monday.weekday())
    days = [monday + timedelta(days=offset) for offset in range(7)]
    return render_template(
        "week.html",
        days=days,
        events=events_on(days),
        previous=monday - timedelta(weeks=1),
        next=monday + timedelta(weeks=1),
        today=today(),
    )


@bp.route("/month")
@login_required
def month() -> str:
    text = request.args.get("month")
    first = today().replace(day=1)
    if text is not None:
        try:
            first = datetime.strptime(text, "%Y-%m").date()
        except ValueError:
            abort(400, description="The month must be written YYYY-MM, e.g. 2026-03.")
    weeks = monthcal.Calendar().monthdatescalendar(first.year, first.month)
    days = [day for week in weeks for day in week]
    previous = (first - timedelta(days=1)).replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return render_template(
        "month.html",
        first=first,
        weeks=weeks,
        events=events_on(days),
        previous=previous,
        next=following,
        today=today(),
    )


@bp.route("/invitations")
@login_required
def invitations() -> str:
    zone = user_zone()
    rows = store.pending_invitations(get_db(), g.user["email"], now_utc().isoformat())
    return render_template("invitations.html", events=[shown(row, zone) for row in rows])

"""Changing or cancelling a booked appointment, from its confirmation page under My account."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from ..bookings import (
    BookingError,
    cancel_appointment,
    free_days,
    free_times,
    is_changeable,
    move_appointment,
)
from ..db import get_db
from ..definitions.appointment import SERVICES
from ..values import format_date, format_time
from .auth import login_required
from .progress import world_now

bp = Blueprint("booking", __name__, url_prefix="/f/appointment/confirmation/<confirmation>")


def own_appointment(confirmation: str) -> sqlite3.Row:
    """The signed-in user's appointment with this confirmation number, if it can still be
    changed; else the portal's 404 (another account's, or one that is over or cancelled)."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM submissions WHERE form_slug = 'appointment' AND confirmation = ?"
            " AND user_id = ?",
            (confirmation, g.user["id"]),
        )
        .fetchone()
    )
    if row is None or not is_changeable(row, world_now()):
        abort(404)
    return row


def _summary(row: sqlite3.Row) -> dict[str, Any]:
    values = json.loads(row["data_json"])
    office = get_db().execute("SELECT * FROM offices WHERE code = ?", (values["office"],))
    where = office.fetchone()
    service = next((c.label for c in SERVICES if c.value == values.get("service")), "")
    return {
        "values": values,
        "service": service,
        "when": f"{format_date(values['appointment_date'])} at "
        f"{format_time(values['appointment_time'])}",
        "where": f"{where['name']}, {where['street']}, {where['city']}" if where else "",
    }


def _back(row: sqlite3.Row) -> str:
    return url_for("outcome.confirmation", slug="appointment", confirmation=row["confirmation"])


@bp.route("/reschedule", methods=("GET", "POST"))
@login_required
def reschedule(confirmation: str) -> Any:
    """Choose a new day (a GET form), then one of its free times (posted)."""
    row = own_appointment(confirmation)
    summary, now, db = _summary(row), world_now(), get_db()
    office = summary["values"]["office"]
    source = request.form if request.method == "POST" else request.args
    day = str(source.get("day", "")).strip()[:10]
    days = free_days(db, office, now)
    times = free_times(db, office, day, now) if day else []
    errors: dict[str, str] = {}
    if request.method == "POST":
        hhmm = str(request.form.get("time", "")).strip()[:5]
        if not times:
            errors["new-day"] = "Choose a day with free times"
        elif not hhmm:
            errors["new-time"] = "Choose a new time for your appointment"
        else:
            try:
                values = move_appointment(db, row, day, hhmm, now)
            except BookingError as error:
                errors["new-time"] = str(error)
            else:
                db.commit()
                flash(
                    "Your appointment has been moved to "
                    f"{format_date(values['appointment_date'])} at "
                    f"{format_time(values['appointment_time'])}."
                )
                return redirect(_back(row))
    elif day and not times:
        errors["new-day"] = "That day has no free times. Choose another day"
    page = render_template(
        "booking/reschedule.html",
        submission=row,
        summary=summary,
        days=[(value, format_date(value), free) for value, free in days],
        day=day if times else "",
        day_label=format_date(day) if times else "",
        times=[(value, format_time(value)) for value in times],
        errors=errors,
        back_url=_back(row),
    )
    return (page, 422) if errors else page


@bp.route("/cancel", methods=("GET", "POST"))
@login_required
def cancel(confirmation: str) -> Any:
    """Ask to confirm, then cancel the appointment and free its time."""
    row = own_appointment(confirmation)
    if request.method == "POST":
        db = get_db()
        try:
            cancel_appointment(db, row, world_now())
        except BookingError:  # pragma: no cover - own_appointment already checked
            abort(404)
        db.commit()
        flash("Your appointment has been cancelled.")
        return redirect(_back(row))
    return render_template(
        "booking/cancel.html", submission=row, summary=_summary(row), back_url=_back(row)
    )


def confirmation_actions(row: sqlite3.Row) -> dict[str, str] | None:
    """The links the confirmation page offers for an appointment the signed-in user can still
    change: ``{"reschedule": url, "cancel": url}``; None otherwise."""
    if g.user is None or row["user_id"] != g.user["id"] or not is_changeable(row, world_now()):
        return None
    return {
        "reschedule": url_for("booking.reschedule", confirmation=row["confirmation"]),
        "cancel": url_for("booking.cancel", confirmation=row["confirmation"]),
    }

"""Book an appointment at a service center: service, office, a free day and time, contact."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from ..fields import Choice, Field, FormContext, FormSpec, Step
from ..values import format_date, format_time, parse_date
from .rules import person_fields

#: How far ahead appointments can be booked, in days.
BOOKING_WINDOW_DAYS = 21
SERVICES = tuple(
    Choice(code, name)
    for code, name in (
        ("passport", "Passport application or renewal"),
        ("drivers-license", "Driver's license"),
        ("id-card", "State ID card"),
        ("vital-records", "Birth or death certificate"),
        ("vehicle-registration", "Vehicle registration"),
        ("marriage-license", "Marriage license"),
    )
)


def offices(ctx: FormContext) -> list[Choice]:
    rows = ctx.db.execute("SELECT * FROM offices ORDER BY name")
    return [Choice(r["code"], r["name"], hint=f"{r['street']}, {r['city']}") for r in rows]


def _office_by_code(db: sqlite3.Connection, code: str) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM offices WHERE code = ?", (code,)).fetchone()


def _office(ctx: FormContext) -> sqlite3.Row | None:
    """The office chosen so far."""
    return _office_by_code(ctx.db, str(ctx.answers.get("office", "")).strip())


def booking_days(ctx: FormContext) -> list[Choice]:
    """Working days of the booking window at the chosen office; full days are disabled."""
    office = _office(ctx)
    if office is None:
        return []
    last_day = ctx.now.date() + timedelta(days=BOOKING_WINDOW_DAYS)
    rows = ctx.db.execute(
        "SELECT substr(starts_at, 1, 10) AS day, SUM(taken = 0) AS free FROM slots"
        " WHERE office_id = ? AND starts_at > ? AND starts_at < ? GROUP BY day ORDER BY day",
        (office["id"], ctx.now.isoformat(), last_day.isoformat()),
    )
    return [
        Choice(
            r["day"],
            format_date(r["day"]),
            disabled=not r["free"],
            hint=f"{r['free']} times available" if r["free"] else "Fully booked",
        )
        for r in rows
    ]


def booking_times(ctx: FormContext) -> list[Choice]:
    """The times of the chosen day at the chosen office; booked times are disabled."""
    office, day = _office(ctx), parse_date(str(ctx.answers.get("appointment_date", "")).strip())
    if office is None or day is None:
        return []
    rows = ctx.db.execute(
        "SELECT substr(starts_at, 12, 5) AS hhmm, taken FROM slots"
        " WHERE office_id = ? AND starts_at LIKE ? AND starts_at > ? ORDER BY starts_at",
        (office["id"], f"{day.isoformat()}T%", ctx.now.isoformat()),
    )
    return [
        Choice(r["hhmm"], format_time(r["hhmm"]), disabled=bool(r["taken"]),
               hint="Booked" if r["taken"] else "")
        for r in rows
    ]  # fmt: skip


def appointment_moment(values: Mapping[str, Any], _ctx: FormContext) -> dict[str, Any]:
    return {"appointment_at": f"{values['appointment_date']}T{values['appointment_time']}:00"}


def appointment_highlights(values: Mapping[str, Any], ctx: FormContext) -> list[tuple[str, str]]:
    office = _office_by_code(ctx.db, values["office"])
    where = f"{office['name']}, {office['street']}, {office['city']}" if office else ""
    when = f"{format_date(values['appointment_date'])} at {format_time(values['appointment_time'])}"
    service = next((c.label for c in SERVICES if c.value == values.get("service")), "")
    return [("Service", service), ("When", when), ("Where", where)]


def book_slot(db: sqlite3.Connection, values: Mapping[str, Any], submission_id: int,
              ctx: FormContext) -> None:  # fmt: skip
    """Mark the chosen slot as taken by this booking."""
    db.execute(
        "UPDATE slots SET taken = 1, submission_id = ? WHERE starts_at = ?"
        " AND office_id = (SELECT id FROM offices WHERE code = ?)",
        (submission_id, values["appointment_at"], values["office"]),
    )


FORM = FormSpec(
    slug="appointment",
    code="APT",
    title="Book an appointment",
    summary="Book a time at one of our service centers for passports, licenses, ID cards, "
    "certificates and vehicle registration.",
    minutes=5,
    submit_label="Confirm booking",
    done_title="Appointment booked",
    you_need=("to know which service you need", "an email address for your confirmation"),
    next_steps="Bring a photo ID and any documents for your service. If you cannot come, "
    "reschedule or cancel it from its confirmation page under My account.",
    email_field="email",
    derive=appointment_moment,
    highlights=appointment_highlights,
    on_submit=book_slot,
    steps=(
        Step(
            "service",
            "Which service do you need?",
            fields=(
                Field("service", "Service", kind="radio", choices=SERVICES,
                      missing="Select the service you need"),
                Field("office", "Service center", kind="radio", choices=offices,
                      missing="Select a service center"),
            ),
        ),
        Step(
            "date",
            "Choose a day",
            intro="Days with free times are shown in the calendar. Fully booked days "
            "cannot be selected.",
            fields=(
                Field("appointment_date", "Appointment day", kind="calendar",
                      choices=booking_days, missing="Select a day for your appointment"),
            ),
        ),
        Step(
            "time",
            "Choose a time",
            fields=(
                Field("appointment_time", "Appointment time", kind="radio",
                      choices=booking_times, missing="Select a time for your appointment"),
            ),
        ),
        Step(
            "details",
            "Your contact details",
            fields=(
                *person_fields(),
                Field("text_reminder", "Send me a text message reminder the day before",
                      kind="checkbox", required=False),
                Field("notes", "Anything we should know? (optional)", kind="textarea",
                      required=False, max_length=1000,
                      hint="For example, if you need an interpreter or step-free access."),
            ),
        ),
    ),
)  # fmt: skip

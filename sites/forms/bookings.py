"""Changing a booked appointment: moving it to another free time at its service center, or
cancelling it. Either frees the slot it held; a move takes the new one. The appointment keeps
its submission and confirmation number, as a real booking system's reference stays the same
when an appointment is moved.

:func:`add_appointment` books one outside any request (a Python API, never a route), for a
world whose user already has appointments coming up.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from .definitions import FORMS
from .definitions.appointment import BOOKING_WINDOW_DAYS
from .submissions import record_submission

#: The status of an appointment that was cancelled; a booked one is ``submitted``.
CANCELLED = "cancelled"


class BookingError(ValueError):
    """A change the portal refuses, with the message it shows."""


def is_changeable(submission: sqlite3.Row, now: datetime) -> bool:
    """Whether an appointment can still be moved or cancelled: booked, and not yet begun."""
    if submission["form_slug"] != "appointment" or submission["status"] != "submitted":
        return False
    return str(json.loads(submission["data_json"])["appointment_at"]) > now.isoformat()


def _office_id(db: sqlite3.Connection, code: str) -> int:
    row = db.execute("SELECT id FROM offices WHERE code = ?", (code,)).fetchone()
    if row is None:
        raise BookingError("That service center no longer takes bookings")
    return int(row["id"])


def free_days(db: sqlite3.Connection, office: str, now: datetime) -> list[tuple[str, int]]:
    """``(ISO day, free times)`` of the booking window at ``office`` (a code), days with a
    free time only."""
    last_day = now.date() + timedelta(days=BOOKING_WINDOW_DAYS)
    rows = db.execute(
        "SELECT substr(starts_at, 1, 10) AS day, SUM(taken = 0) AS free FROM slots"
        " WHERE office_id = ? AND starts_at > ? AND starts_at < ? GROUP BY day ORDER BY day",
        (_office_id(db, office), now.isoformat(), last_day.isoformat()),
    )
    return [(row["day"], row["free"]) for row in rows if row["free"]]


def free_times(db: sqlite3.Connection, office: str, day: str, now: datetime) -> list[str]:
    """The free ``HH:MM`` times of ``day`` at ``office``, in the booking window."""
    if day not in {free_day for free_day, _ in free_days(db, office, now)}:
        return []
    rows = db.execute(
        "SELECT substr(starts_at, 12, 5) AS hhmm FROM slots WHERE office_id = ?"
        " AND starts_at LIKE ? AND starts_at > ? AND taken = 0 ORDER BY starts_at",
        (_office_id(db, office), f"{day}T%", now.isoformat()),
    )
    return [row["hhmm"] for row in rows]


def _release(db: sqlite3.Connection, submission_id: int) -> None:
    db.execute(
        "UPDATE slots SET taken = 0, submission_id = NULL WHERE submission_id = ?",
        (submission_id,),
    )


def _take(db: sqlite3.Connection, office: str, starts_at: str, submission_id: int) -> None:
    db.execute(
        "UPDATE slots SET taken = 1, submission_id = ? WHERE office_id = ? AND starts_at = ?",
        (submission_id, _office_id(db, office), starts_at),
    )


def move_appointment(
    db: sqlite3.Connection, submission: sqlite3.Row, day: str, hhmm: str, now: datetime
) -> dict[str, Any]:
    """Move a changeable appointment to ``day`` at ``hhmm`` at its service center; returns its
    new answers. Raises :class:`BookingError` if that time is not free."""
    values = json.loads(submission["data_json"])
    if not is_changeable(submission, now):
        raise BookingError("This appointment can no longer be changed")
    if (day, hhmm) == (values["appointment_date"], values["appointment_time"]):
        raise BookingError("Choose a different time from the one you have booked")
    if hhmm not in free_times(db, values["office"], day, now):
        raise BookingError("That time is no longer available. Choose another time")
    values.update(appointment_date=day, appointment_time=hhmm, appointment_at=f"{day}T{hhmm}:00")
    _release(db, submission["id"])
    _take(db, values["office"], values["appointment_at"], submission["id"])
    db.execute(
        "UPDATE submissions SET data_json = ? WHERE id = ?",
        (json.dumps(values, ensure_ascii=False, sort_keys=True), submission["id"]),
    )
    return dict(values)


def cancel_appointment(db: sqlite3.Connection, submission: sqlite3.Row, now: datetime) -> None:
    """Cancel a changeable appointment and free its time."""
    if not is_changeable(submission, now):
        raise BookingError("This appointment can no longer be cancelled")
    _release(db, submission["id"])
    db.execute("UPDATE submissions SET status = ? WHERE id = ?", (CANCELLED, submission["id"]))


def add_appointment(
    path: str | os.PathLike[str], values: Mapping[str, Any], submitted_at: datetime
) -> tuple[int, str]:
    """Book an appointment for user 1 in the portal database at ``path``: its submission (of
    ``values``, the form's answers: service, office, appointment_date, appointment_time and
    the contact details) and its slot, which must be free. Returns the submission's id and
    confirmation number."""
    starts_at = f"{values['appointment_date']}T{values['appointment_time']}:00"
    db = sqlite3.connect(os.fspath(path))
    db.row_factory = sqlite3.Row
    try:
        with db:
            office = _office_id(db, str(values["office"]))
            slot = db.execute(
                "SELECT taken FROM slots WHERE office_id = ? AND starts_at = ?",
                (office, starts_at),
            ).fetchone()
            if slot is None or slot["taken"]:
                raise BookingError(f"no free slot at {values['office']} on {starts_at}")
            stamp = submitted_at.replace(microsecond=0).isoformat()
            submission_id, confirmation = record_submission(
                db, FORMS["appointment"], {**values, "appointment_at": starts_at}, 1, stamp
            )
            _take(db, str(values["office"]), starts_at, submission_id)
    finally:
        db.close()
    return submission_id, confirmation

"""Reading the calendar: the user's events in a time range, conflicts, invitees, invitations.

Templates and tests read the calendar through these functions too.
"""

from __future__ import annotations

import sqlite3
from typing import Any

#: An event is the user's when they organize it or are invited (and it is not cancelled).
_MINE = (
    "e.status = 'confirmed' AND (e.organizer_email = :me OR EXISTS (SELECT 1 FROM invitees i"
    " WHERE i.event_id = e.id AND i.email = :me))"
)
#: ... and it keeps them busy unless they declined it.
_BUSY = (
    "e.status = 'confirmed' AND (e.organizer_email = :me OR EXISTS (SELECT 1 FROM invitees i"
    " WHERE i.event_id = e.id AND i.email = :me AND i.response != 'declined'))"
)


def user(conn: sqlite3.Connection) -> sqlite3.Row:
    return conn.execute("SELECT * FROM users WHERE id = 1").fetchone()


def events_between(conn: sqlite3.Connection, me: str, start: str, end: str) -> list[sqlite3.Row]:
    """The user's events overlapping ``[start, end)`` (stored UTC times), earliest first, each
    with ``my_response`` (None when the user organizes it)."""
    return conn.execute(
        "SELECT e.*, (SELECT response FROM invitees i WHERE i.event_id = e.id AND i.email = :me)"
        f" AS my_response FROM events e WHERE {_MINE} AND e.starts_at < :end"
        " AND e.ends_at > :start ORDER BY e.starts_at, e.id",
        {"me": me, "start": start, "end": end},
    ).fetchall()


def conflicts(
    conn: sqlite3.Connection, me: str, start: str, end: str, leave_out: int | None = None
) -> list[sqlite3.Row]:
    """The user's events (not declined) overlapping ``[start, end)``, but ``leave_out``."""
    return conn.execute(
        f"SELECT e.* FROM events e WHERE {_BUSY} AND e.starts_at < :end AND e.ends_at > :start"
        " AND e.id != :leave_out ORDER BY e.starts_at",
        {"me": me, "start": start, "end": end, "leave_out": leave_out or 0},
    ).fetchall()


def event(conn: sqlite3.Connection, event_id: int) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM events WHERE id = ?", (event_id,)).fetchone()


def invitees(conn: sqlite3.Connection, event_id: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM invitees WHERE event_id = ? ORDER BY name", (event_id,)
    ).fetchall()


def person(conn: sqlite3.Connection, email: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM people WHERE email = ?", (email,)).fetchone()


def people(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute("SELECT * FROM people ORDER BY name").fetchall()


def pending_invitations(conn: sqlite3.Connection, me: str, after: str) -> list[sqlite3.Row]:
    """Upcoming events the user is invited to and has not answered."""
    return conn.execute(
        "SELECT e.* FROM events e JOIN invitees i ON i.event_id = e.id AND i.email = ?"
        " WHERE i.response = 'none' AND e.status = 'confirmed' AND e.organizer_email != ?"
        " AND e.starts_at > ? ORDER BY e.starts_at",
        (me, me, after),
    ).fetchall()


def occurrences(conn: sqlite3.Connection, series_id: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM events WHERE series_id = ? ORDER BY starts_at", (series_id,)
    ).fetchall()


def as_dicts(rows: list[sqlite3.Row]) -> list[dict[str, Any]]:
    return [dict(row) for row in rows]

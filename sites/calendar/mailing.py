"""The e-mail the calendar sends: invitations the user received, and the replies they send."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from flask import current_app

from ..common import Message
from . import store
from .clock import clock_time, to_local, zone_name

APP_NAME = "Northwind Calendar"
SENDER = "calendar@northwindcalendar.example"
VERBS = {"accepted": "Accepted", "declined": "Declined", "tentative": "Tentative"}


def when(row: sqlite3.Row, zone: str) -> str:
    """``Tue Mar 10, 2026 2:00 PM – 3:00 PM (Central Time (Chicago))``."""
    start, end = to_local(row["starts_at"], zone), to_local(row["ends_at"], zone)
    return (
        f"{start:%a %b} {start.day}, {start.year} {clock_time(start)} – {clock_time(end)}"
        f" ({zone_name(zone)})"
    )


def invitation(conn: sqlite3.Connection, event_id: int) -> Message:
    """The invitation e-mail the organizer of ``event_id`` sent the user."""
    row = store.event(conn, event_id)
    assert row is not None
    me = store.user(conn)
    organizer = store.person(conn, row["organizer_email"])
    name = organizer["name"] if organizer is not None else row["organizer_email"]
    guests = ", ".join(guest["name"] for guest in store.invitees(conn, event_id))
    stamp = datetime.fromisoformat(row["updated_at"])
    body = (
        f"{name} has invited you to an event.\n\n"
        f"{row['title']}\n"
        f"When: {when(row, me['timezone'])}\n"
        f"Where: {row['location'] or '(no location)'}\n"
        f"Organizer: {name} <{row['organizer_email']}>\n"
        f"Guests: {guests}\n\n"
        f"{row['description']}\n\n"
        f"Going? Answer Yes, No or Maybe on {APP_NAME}: open the event from your calendar "
        "or from its Invitations page.\n"
    )
    return Message(
        sender=row["organizer_email"],
        sender_name=name,
        to=me["email"],
        subject=f"Invitation: {row['title']} @ {when(row, me['timezone'])}",
        body=body,
        date=stamp,
    )


def invitations(path: str) -> list[Message]:
    """The invitations of the seeded calendar at ``path`` that wait for a reply."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        me = store.user(conn)
        rows = store.pending_invitations(conn, me["email"], "")
        return [invitation(conn, row["id"]) for row in rows]
    finally:
        conn.close()


def send_reply(
    conn: sqlite3.Connection, row: sqlite3.Row, user: sqlite3.Row, response: str
) -> None:
    """Tell the organizer of ``row`` the user's answer, through ``SEND_MAIL`` (if any)."""
    send = current_app.config.get("SEND_MAIL")
    if send is None:
        return
    verb = VERBS[response]
    organizer = store.person(conn, row["organizer_email"])
    answer = {"accepted": "accepted", "declined": "declined", "tentative": "tentatively accepted"}
    send(
        Message(
            sender=user["email"],
            sender_name=user["name"],
            to=row["organizer_email"],
            subject=f"{verb}: {row['title']} @ {when(row, user['timezone'])}",
            body=(
                f"{user['name']} has {answer[response]} this invitation.\n\n{row['title']}\n"
                f"When: {when(row, user['timezone'])}\n"
                f"Organizer: {organizer['name'] if organizer else row['organizer_email']}\n"
            ),
            date=datetime.fromisoformat(current_app.config["NOW"]) + timedelta(seconds=1),
        )
    )

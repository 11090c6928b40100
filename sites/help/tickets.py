"""Support tickets: the contact form's rules, ticket numbers, and storing a ticket."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping
from datetime import datetime

#: The contact form's topics, as stored and shown.
TOPICS = (
    "Orders & shipping",
    "Returns & refunds",
    "Payments",
    "Account",
    "Appointments",
    "Expenses",
    "Job applications",
    "Insurance claims",
    "Something else",
)

#: How each status is shown.
STATUS_LABELS = {
    "open": "Open",
    "awaiting_reply": "Awaiting your reply",
    "resolved": "Resolved",
}

#: A reference is a Northwind Market order or return number, or a Civic Forms confirmation.
REFERENCE = re.compile(r"(NM|RMA)-\d{5}-\d|(APT|COA|CLM|JOB|REG|EXP)-\d{8}", re.ASCII)

SUBJECT_MAX = 120
MESSAGE_MIN = 10
MESSAGE_MAX = 3000

Errors = dict[str, str]


def clean_reference(text: str) -> str:
    """A reference as typed (any case, spaces around) in its stored form: ``NM-12345-6``."""
    return text.strip().upper()


def validate_ticket(form: Mapping[str, str]) -> tuple[dict[str, str], Errors]:
    """The contact form's values and a message per field that is wrong."""
    values = {
        "topic": form.get("topic", "").strip(),
        "reference": clean_reference(form.get("reference", "")),
        "subject": " ".join(form.get("subject", "").split()),
        "message": form.get("message", "").strip().replace("\r\n", "\n"),
    }
    errors: Errors = {}
    if values["topic"] not in TOPICS:
        errors["topic"] = "Choose what your question is about."
    if values["reference"] and not REFERENCE.fullmatch(values["reference"]):
        errors["reference"] = (
            "Enter an order number like NM-12345-6, a return number like RMA-12345-6 or a "
            "form reference like APT-12345678, or leave it empty."
        )
    if not values["subject"]:
        errors["subject"] = "Enter a subject."
    elif len(values["subject"]) > SUBJECT_MAX:
        errors["subject"] = f"The subject can have at most {SUBJECT_MAX} characters."
    if len(values["message"]) < MESSAGE_MIN:
        errors["message"] = f"Tell us what happened in at least {MESSAGE_MIN} characters."
    elif len(values["message"]) > MESSAGE_MAX:
        errors["message"] = f"The message can have at most {MESSAGE_MAX} characters."
    return values, errors


def validate_reply(form: Mapping[str, str]) -> tuple[str, Errors]:
    message = form.get("message", "").strip().replace("\r\n", "\n")
    if not message:
        return message, {"message": "Write your reply."}
    if len(message) > MESSAGE_MAX:
        return message, {"message": f"The reply can have at most {MESSAGE_MAX} characters."}
    return message, {}


def ticket_number(ticket_id: int) -> str:
    """``HC-204871``: the id spread over six digits (same id, same number)."""
    return f"HC-{100000 + (ticket_id * 7919 + 3571) % 900000}"


def open_ticket(
    conn: sqlite3.Connection,
    user_id: int,
    values: Mapping[str, str],
    author: str,
    now: datetime,
) -> str:
    """Store a new open ticket and its first message; returns the ticket's number."""
    ticket_id = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM tickets").fetchone()[0]
    number = ticket_number(ticket_id)
    stamp = now.isoformat(timespec="seconds")
    with conn:
        conn.execute(
            "INSERT INTO tickets (id, number, user_id, topic, reference, subject, status,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)",
            (
                ticket_id,
                number,
                user_id,
                values["topic"],
                values["reference"],
                values["subject"],
                stamp,
                stamp,
            ),
        )
        conn.execute(
            "INSERT INTO ticket_messages (ticket_id, from_support, author, body, created_at)"
            " VALUES (?, 0, ?, ?, ?)",
            (ticket_id, author, values["message"], stamp),
        )
    return number


def add_reply(
    conn: sqlite3.Connection, ticket: sqlite3.Row, author: str, message: str, now: datetime
) -> None:
    """The customer's reply: the ticket is open again, waiting for support."""
    stamp = now.isoformat(timespec="seconds")
    with conn:
        conn.execute(
            "INSERT INTO ticket_messages (ticket_id, from_support, author, body, created_at)"
            " VALUES (?, 0, ?, ?, ?)",
            (ticket["id"], author, message, stamp),
        )
        conn.execute(
            "UPDATE tickets SET status = 'open', updated_at = ? WHERE id = ?",
            (stamp, ticket["id"]),
        )

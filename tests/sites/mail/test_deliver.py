"""Mail from other sites arrives through deliver(), never over HTTP."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime
from pathlib import Path

from flask.testing import FlaskClient
from webenv.sites.common import Attachment, Message, Persona
from webenv.sites.mail import deliver


def code_message(persona: Persona, code: str, minute: int) -> Message:
    return Message(
        sender="No-Reply@Shop.example",
        sender_name="Shop",
        to=persona.email,
        subject="Your sign-in code",
        body=f"Your code is {code}.",
        date=datetime(2026, 5, 14, 9, minute),
        attachments=(Attachment("code.txt", "text/plain", code.encode()),),
    )


def test_delivered_mail_lands_unread_in_the_inbox(
    db_path: Path, db: sqlite3.Connection, persona: Persona, client: FlaskClient
) -> None:
    message_id = deliver(str(db_path), code_message(persona, "482913", 31))
    row = db.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone()
    assert (row["folder"], row["is_read"], row["sender"], row["recipients"]) == (
        "inbox",
        0,
        "no-reply@shop.example",
        persona.email,
    )
    assert row["sent_at"] == "2026-05-14T09:31:00"
    attachment = db.execute(
        "SELECT filename, size, content FROM attachments WHERE message_id = ?", (message_id,)
    ).fetchone()
    assert tuple(attachment) == ("code.txt", 6, b"482913")
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'name="ids" value="(\d+)"', page).group(1) == str(message_id)
    assert "Your code is 482913." in client.get(f"/thread/{row['thread_id']}").get_data(
        as_text=True
    )


def test_deliveries_with_the_same_subject_share_a_thread(
    db_path: Path, db: sqlite3.Connection, persona: Persona
) -> None:
    with sqlite3.connect(db_path) as connection:
        first = deliver(connection, code_message(persona, "111111", 31))
        second = deliver(connection, code_message(persona, "222222", 32))
    reply = Message(
        "a@b.example",
        "A",
        persona.email,
        "RE: Your Sign-in Code",
        "ok",
        datetime(2026, 5, 14, 9, 33),
    )
    third = deliver(db_path, reply)
    threads = {
        row[0]
        for row in db.execute(
            "SELECT thread_id FROM messages WHERE id IN (?, ?, ?)", (first, second, third)
        )
    }
    assert len(threads) == 1
    other = deliver(
        db_path,
        Message(
            "a@b.example", "A", persona.email, "Something else", "x", datetime(2026, 5, 14, 9, 34)
        ),
    )
    assert (
        db.execute("SELECT thread_id FROM messages WHERE id = ?", (other,)).fetchone()[0]
        not in threads
    )

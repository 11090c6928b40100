"""Writing messages: threads keyed by subject, message rows and their attachments."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import astuple, dataclass, fields, replace

FOLDERS = ("inbox", "sent", "drafts", "archive", "trash", "spam")
_REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|tr)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


@dataclass(frozen=True)
class NewMessage:
    """The columns of a message row to insert (everything but its id)."""

    thread_id: int
    folder: str
    sender: str
    sender_name: str
    recipients: str
    subject: str
    body: str
    sent_at: str
    cc: str = ""
    bcc: str = ""
    is_read: bool = False
    is_starred: bool = False
    is_draft: bool = False
    in_reply_to: int | None = None
    created_at: str = ""


def subject_key(subject: str) -> str:
    """The subject with reply/forward prefixes, case and extra spaces removed, for threading."""
    return " ".join(_REPLY_PREFIX.sub("", subject).split()).lower()


def create_thread(connection: sqlite3.Connection, subject: str) -> int:
    """A new, empty thread."""
    cursor = connection.execute(
        "INSERT INTO threads (subject, subject_key) VALUES (?, ?)", (subject, subject_key(subject))
    )
    return int(cursor.lastrowid)


def thread_for_subject(connection: sqlite3.Connection, subject: str) -> int:
    """The most recently active thread about ``subject``, or a new one."""
    row = connection.execute(
        "SELECT t.id FROM threads t LEFT JOIN messages m ON m.thread_id = t.id"
        " WHERE t.subject_key = ? GROUP BY t.id"
        " ORDER BY MAX(m.sent_at) DESC, t.id DESC LIMIT 1",
        (subject_key(subject),),
    ).fetchone()
    return row[0] if row else create_thread(connection, subject)


def insert_message(connection: sqlite3.Connection, message: NewMessage) -> int:
    """Insert a message row; ``created_at`` defaults to ``sent_at``."""
    if not message.created_at:
        message = replace(message, created_at=message.sent_at)
    columns = [field.name for field in fields(NewMessage)]
    cursor = connection.execute(
        f"INSERT INTO messages ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        astuple(message),
    )
    return int(cursor.lastrowid)


def add_attachment(
    connection: sqlite3.Connection,
    message_id: int,
    filename: str,
    content_type: str,
    content: bytes,
) -> int:
    """Attach a file to a message."""
    cursor = connection.execute(
        "INSERT INTO attachments (message_id, filename, content_type, size, content)"
        " VALUES (?, ?, ?, ?, ?)",
        (message_id, filename, content_type, len(content), content),
    )
    return int(cursor.lastrowid)


def copy_attachments(connection: sqlite3.Connection, source_id: int, target_id: int) -> None:
    """Give ``target_id`` a copy of every attachment of ``source_id`` (a forward)."""
    connection.execute(
        "INSERT INTO attachments (message_id, filename, content_type, size, content)"
        " SELECT ?, filename, content_type, size, content FROM attachments"
        " WHERE message_id = ? ORDER BY id",
        (target_id, source_id),
    )


def sync_thread_subject(connection: sqlite3.Connection, thread_id: int, subject: str) -> None:
    """Rename a thread that holds a single message, so a reworded draft is filed under its
    new subject."""
    (count,) = connection.execute(
        "SELECT COUNT(*) FROM messages WHERE thread_id = ?", (thread_id,)
    ).fetchone()
    if count <= 1:
        connection.execute(
            "UPDATE threads SET subject = ?, subject_key = ? WHERE id = ?",
            (subject, subject_key(subject), thread_id),
        )

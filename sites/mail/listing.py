"""Reading the mailbox: pages of message lists, threads, labels and attachments."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

PAGE_SIZE = 25
#: Views other than the Trash and Spam folders hide what is in them, as webmail does.
NOT_BINNED = "m.folder NOT IN ('trash', 'spam')"


@dataclass(frozen=True)
class Filter:
    """A SQL condition on messages (aliased ``m``) and its parameters."""

    sql: str
    params: tuple[object, ...] = ()


@dataclass(frozen=True)
class Page:
    """One page of a message list."""

    messages: list[sqlite3.Row]
    labels: dict[int, list[sqlite3.Row]]
    total: int
    number: int

    @property
    def count(self) -> int:
        return max(1, -(-self.total // PAGE_SIZE))

    @property
    def first_index(self) -> int:
        return min(self.total, (self.number - 1) * PAGE_SIZE + 1)

    @property
    def last_index(self) -> int:
        return min(self.total, self.number * PAGE_SIZE)


def folder_filter(folder: str) -> Filter:
    """The messages of a folder; ``starred`` is the view of starred messages."""
    if folder == "starred":
        return Filter(f"m.is_starred = 1 AND {NOT_BINNED}")
    return Filter("m.folder = ?", (folder,))


def label_filter(label_id: int) -> Filter:
    """The messages carrying a label, outside Trash and Spam."""
    return Filter(
        "EXISTS (SELECT 1 FROM message_labels ml WHERE ml.message_id = m.id"
        f" AND ml.label_id = ?) AND {NOT_BINNED}",
        (label_id,),
    )


def labels_of(connection: sqlite3.Connection, ids: Sequence[int]) -> dict[int, list[sqlite3.Row]]:
    """The labels of each message in ``ids``, by name."""
    by_message: dict[int, list[sqlite3.Row]] = defaultdict(list)
    if ids:
        rows = connection.execute(
            "SELECT ml.message_id, l.id, l.name FROM message_labels ml"
            " JOIN labels l ON l.id = ml.label_id"
            f" WHERE ml.message_id IN ({', '.join('?' * len(ids))}) ORDER BY l.name, l.id",
            list(ids),
        )
        for row in rows:
            by_message[row["message_id"]].append(row)
    return by_message


def list_messages(connection: sqlite3.Connection, condition: Filter, number: int) -> Page:
    """Page ``number`` (from 1) of the messages matching ``condition``, newest first."""
    (total,) = connection.execute(
        f"SELECT COUNT(*) FROM messages m WHERE {condition.sql}", condition.params
    ).fetchone()
    messages = connection.execute(
        "SELECT m.*, (SELECT COUNT(*) FROM attachments a WHERE a.message_id = m.id)"
        f" AS attachment_count FROM messages m WHERE {condition.sql}"
        " ORDER BY m.sent_at DESC, m.id DESC LIMIT ? OFFSET ?",
        (*condition.params, PAGE_SIZE, (number - 1) * PAGE_SIZE),
    ).fetchall()
    labels = labels_of(connection, [message["id"] for message in messages])
    return Page(messages, labels, total, number)


def get_message(connection: sqlite3.Connection, message_id: int) -> sqlite3.Row | None:
    """One message row."""
    return connection.execute("SELECT * FROM messages WHERE id = ?", (message_id,)).fetchone()


def get_thread(connection: sqlite3.Connection, thread_id: int) -> sqlite3.Row | None:
    """One thread row."""
    return connection.execute("SELECT * FROM threads WHERE id = ?", (thread_id,)).fetchone()


def thread_messages(connection: sqlite3.Connection, thread_id: int) -> list[sqlite3.Row]:
    """The messages of a thread, oldest first."""
    return connection.execute(
        "SELECT * FROM messages WHERE thread_id = ? ORDER BY sent_at, id", (thread_id,)
    ).fetchall()


def attachments_of(
    connection: sqlite3.Connection, ids: Sequence[int]
) -> dict[int, list[sqlite3.Row]]:
    """The attachments (without content) of each message in ``ids``."""
    by_message: dict[int, list[sqlite3.Row]] = defaultdict(list)
    if ids:
        rows = connection.execute(
            "SELECT id, message_id, filename, content_type, size FROM attachments"
            f" WHERE message_id IN ({', '.join('?' * len(ids))}) ORDER BY id",
            list(ids),
        )
        for row in rows:
            by_message[row["message_id"]].append(row)
    return by_message


def all_labels(connection: sqlite3.Connection, user_id: int) -> list[sqlite3.Row]:
    """The user's labels with their unread and total message counts (outside Trash/Spam)."""
    return connection.execute(
        "SELECT l.id, l.name,"
        f" COUNT(m.id) FILTER (WHERE m.is_read = 0 AND {NOT_BINNED}) AS unread,"
        f" COUNT(m.id) FILTER (WHERE {NOT_BINNED}) AS total"
        " FROM labels l LEFT JOIN message_labels ml ON ml.label_id = l.id"
        " LEFT JOIN messages m ON m.id = ml.message_id"
        " WHERE l.user_id = ? GROUP BY l.id ORDER BY l.name, l.id",
        (user_id,),
    ).fetchall()


def find_label(connection: sqlite3.Connection, user_id: int, name: str) -> sqlite3.Row | None:
    """A label by name, ignoring case."""
    return connection.execute(
        "SELECT id, name FROM labels WHERE user_id = ? AND name = ?", (user_id, name)
    ).fetchone()


def folder_counts(connection: sqlite3.Connection) -> dict[str, int]:
    """Unread messages per folder, except Drafts, which counts all its messages."""
    rows = connection.execute(
        "SELECT folder, CASE WHEN folder = 'drafts' THEN COUNT(*) ELSE SUM(is_read = 0) END"
        " FROM messages GROUP BY folder"
    )
    return {folder: count for folder, count in rows}

"""Changes to a set of messages, shared by the list's bulk actions and the thread toolbar."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

#: Folders a message may be moved to by hand; Sent and Drafts are filled by composing.
MOVE_TARGETS = ("inbox", "archive", "spam", "trash")


def _placeholders(ids: Sequence[int]) -> str:
    return ", ".join("?" * len(ids))


def existing_ids(connection: sqlite3.Connection, ids: Sequence[int]) -> list[int]:
    """The ids among ``ids`` that name a message."""
    if not ids:
        return []
    rows = connection.execute(
        f"SELECT id FROM messages WHERE id IN ({_placeholders(ids)}) ORDER BY id", list(ids)
    )
    return [row[0] for row in rows]


def set_read(connection: sqlite3.Connection, ids: Sequence[int], read: bool) -> None:
    """Mark messages read or unread."""
    connection.execute(
        f"UPDATE messages SET is_read = ? WHERE id IN ({_placeholders(ids)})", [int(read), *ids]
    )


def open_unread(connection: sqlite3.Connection, ids: Sequence[int], now: str) -> None:
    """Mark messages read as their thread's page does, recording when they were opened."""
    connection.execute(
        f"UPDATE messages SET is_read = 1, opened_at = ? WHERE id IN ({_placeholders(ids)})",
        [now, *ids],
    )


def set_starred(connection: sqlite3.Connection, ids: Sequence[int], starred: bool) -> None:
    """Star or unstar messages."""
    connection.execute(
        f"UPDATE messages SET is_starred = ? WHERE id IN ({_placeholders(ids)})",
        [int(starred), *ids],
    )


def move(connection: sqlite3.Connection, ids: Sequence[int], folder: str) -> None:
    """Move messages to ``folder``; drafts only ever leave Drafts for the Trash."""
    if folder not in MOVE_TARGETS:
        raise ValueError(f"cannot move messages to {folder!r}")
    connection.execute(
        f"UPDATE messages SET folder = ? WHERE id IN ({_placeholders(ids)})"
        " AND (is_draft = 0 OR ? = 'trash')",
        [folder, *ids, folder],
    )


def archive(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Move the Inbox messages among ``ids`` to the Archive."""
    connection.execute(
        f"UPDATE messages SET folder = 'archive' WHERE id IN ({_placeholders(ids)})"
        " AND folder = 'inbox'",
        list(ids),
    )


def trash(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Move messages to the Trash."""
    move(connection, ids, "trash")


def delete_forever(connection: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Delete for good the messages among ``ids`` that are in the Trash."""
    connection.execute(
        f"DELETE FROM messages WHERE id IN ({_placeholders(ids)}) AND folder = 'trash'", list(ids)
    )


def restore(connection: sqlite3.Connection, ids: Sequence[int], owner_email: str) -> None:
    """Bring messages back from Trash, Spam or Archive to where they belong: drafts to Drafts,
    the owner's own messages to Sent, everything else to the Inbox."""
    connection.execute(
        "UPDATE messages SET folder = CASE"
        " WHEN is_draft = 1 THEN 'drafts' WHEN sender = ? THEN 'sent' ELSE 'inbox' END"
        f" WHERE id IN ({_placeholders(ids)}) AND folder IN ('trash', 'spam', 'archive')",
        [owner_email, *ids],
    )


def apply_label(connection: sqlite3.Connection, ids: Sequence[int], label_id: int) -> None:
    """Give messages a label (idempotent)."""
    connection.executemany(
        "INSERT OR IGNORE INTO message_labels (message_id, label_id) VALUES (?, ?)",
        [(message_id, label_id) for message_id in ids],
    )


def remove_label(connection: sqlite3.Connection, ids: Sequence[int], label_id: int) -> None:
    """Take a label off messages."""
    connection.execute(
        f"DELETE FROM message_labels WHERE label_id = ? AND message_id IN ({_placeholders(ids)})",
        [label_id, *ids],
    )

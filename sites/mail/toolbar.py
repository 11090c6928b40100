"""The actions of the message toolbars (list and thread), applied to chosen messages."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping

from flask import g

from . import operations
from .navigation import FOLDER_TITLES
from .validation import parse_id

Change = Callable[[sqlite3.Connection, list[int]], None]

#: Actions that need no further choice: what they do, and how to say it was done.
SIMPLE_ACTIONS: dict[str, tuple[Change, str]] = {
    "archive": (operations.archive, "Archived {count}."),
    "trash": (operations.trash, "Moved {count} to Trash."),
    "delete_forever": (operations.delete_forever, "Deleted {count} forever."),
    "read": (lambda db, ids: operations.set_read(db, ids, True), "Marked {count} as read."),
    "unread": (lambda db, ids: operations.set_read(db, ids, False), "Marked {count} as unread."),
    "star": (lambda db, ids: operations.set_starred(db, ids, True), "Starred {count}."),
    "unstar": (lambda db, ids: operations.set_starred(db, ids, False), "Unstarred {count}."),
    "restore": (
        lambda db, ids: operations.restore(db, ids, g.user["email"]),
        "Moved {count} back.",
    ),
}


def _count(ids: list[int]) -> str:
    return "1 message" if len(ids) == 1 else f"{len(ids)} messages"


def _label_id(connection: sqlite3.Connection, value: str | None) -> int | None:
    """The id of one of the user's labels, from a form value."""
    row = connection.execute(
        "SELECT id FROM labels WHERE id = ? AND user_id = ?", (parse_id(value), g.user["id"])
    ).fetchone()
    return row["id"] if row else None


def apply_action(
    connection: sqlite3.Connection, action: str, ids: list[int], form: Mapping[str, str]
) -> str | None:
    """Apply a toolbar action to messages and say what was done; None if the action is unknown
    or its choice (folder, label) is missing. ``form`` holds ``folder`` and ``label_id``."""
    count = _count(ids)
    if action in SIMPLE_ACTIONS:
        change, summary = SIMPLE_ACTIONS[action]
        change(connection, ids)
        return summary.format(count=count)
    if action == "move":
        target = form.get("folder", "")
        if target not in operations.MOVE_TARGETS:
            return None
        operations.move(connection, ids, target)
        return f"Moved {count} to {FOLDER_TITLES[target]}."
    if action in ("label", "unlabel"):
        label_id = _label_id(connection, form.get("label_id"))
        if label_id is None:
            return None
        if action == "label":
            operations.apply_label(connection, ids, label_id)
            return f"Labelled {count}."
        operations.remove_label(connection, ids, label_id)
        return f"Removed the label from {count}."
    return None

"""What every signed-in page shows around its content: folders, labels and their counts."""

from __future__ import annotations

from typing import Any

from flask import Flask, g, request, url_for

from ..common import same_site_path
from .db import get_db
from .listing import all_labels, folder_counts

#: Sidebar folders: URL name and title. ``starred`` is a view, not a folder.
FOLDER_TITLES = {
    "inbox": "Inbox",
    "starred": "Starred",
    "sent": "Sent",
    "drafts": "Drafts",
    "archive": "Archive",
    "spam": "Spam",
    "trash": "Trash",
}
#: Folders whose sidebar count is worth showing.
COUNTED_FOLDERS = ("inbox", "drafts", "spam")


def safe_next(target: str | None) -> str:
    """``target`` if it is a path on this site, else the Inbox (no open redirects)."""
    return same_site_path(target, url_for("mailbox.inbox"), request.host)


def sidebar_context() -> dict[str, Any]:
    """Template variables for the sidebar of a signed-in user."""
    if g.get("user") is None:
        return {}
    connection = get_db()
    counts = folder_counts(connection)
    contacts = connection.execute(
        "SELECT email, name FROM contacts WHERE user_id = ?", (g.user["id"],)
    )
    return {
        "contact_names": {**dict(contacts.fetchall()), g.user["email"]: "me"},
        "folder_titles": FOLDER_TITLES,
        "folder_counts": {folder: counts.get(folder, 0) for folder in COUNTED_FOLDERS},
        "sidebar_labels": all_labels(connection, g.user["id"]),
    }


def register(app: Flask) -> None:
    """Add the sidebar to every template."""
    app.context_processor(sidebar_context)

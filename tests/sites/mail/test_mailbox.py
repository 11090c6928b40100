"""Folder and label lists, their pagination, and the bulk actions of the toolbar."""

from __future__ import annotations

import re
import sqlite3

import pytest
from flask.testing import FlaskClient


def ids_in(db: sqlite3.Connection, where: str, limit: int = 2) -> list[int]:
    return [
        row[0]
        for row in db.execute(f"SELECT id FROM messages WHERE {where} ORDER BY id LIMIT {limit}")
    ]


def folder_of(db: sqlite3.Connection, message_id: int) -> str | None:
    row = db.execute("SELECT folder FROM messages WHERE id = ?", (message_id,)).fetchone()
    return row[0] if row else None


def test_inbox_lists_25_newest_messages_per_page(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    total = db.execute("SELECT COUNT(*) FROM messages WHERE folder = 'inbox'").fetchone()[0]
    newest = db.execute(
        "SELECT subject FROM messages WHERE folder = 'inbox' ORDER BY sent_at DESC, id DESC"
    ).fetchall()
    first = client.get("/").get_data(as_text=True)
    assert first.count('class="message-row') == 25
    assert f"1–25 of {total}" in first
    assert 'aria-label="Older messages"' in first
    second = client.get("/?page=2").get_data(as_text=True)
    assert second.count('class="message-row') == min(25, total - 25)
    assert newest[25]["subject"] in second
    assert client.get("/?page=abc").status_code == 200


def test_unread_messages_are_marked_for_sight_and_screen_readers(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'class="message-row unread"' in page
    assert "Unread, </span>" in page


@pytest.mark.parametrize("folder", ["sent", "drafts", "archive", "trash", "spam", "starred"])
def test_every_folder_lists_its_messages(
    client: FlaskClient, db: sqlite3.Connection, folder: str
) -> None:
    page = client.get(f"/folder/{folder}").get_data(as_text=True)
    where = (
        "is_starred = 1 AND folder NOT IN ('trash','spam')"
        if folder == "starred"
        else f"folder = '{folder}'"
    )
    count = db.execute(f"SELECT COUNT(*) FROM messages WHERE {where}").fetchone()[0]
    assert page.count('class="message-row') == min(count, 25) > 0


def test_unknown_folder_and_label_are_not_found(client: FlaskClient) -> None:
    assert client.get("/folder/secret").status_code == 404
    assert client.get("/label/Nope").status_code == 404


def test_label_view_shows_labelled_messages_case_insensitively(client: FlaskClient) -> None:
    page = client.get("/label/travel").get_data(as_text=True)
    assert "<h1>Travel</h1>" in page
    assert "Skyline Airways" in page


def test_bulk_archive_moves_only_inbox_messages(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    inbox, sent = ids_in(db, "folder = 'inbox'"), ids_in(db, "folder = 'sent'", 1)
    response = client.post(
        "/messages/bulk", data={"ids": [*inbox, *sent], "action": "archive", "next": "/"}
    )
    assert response.location == "/"
    assert [folder_of(db, message_id) for message_id in inbox] == ["archive", "archive"]
    assert folder_of(db, sent[0]) == "sent"


def test_delete_moves_to_trash_then_delete_forever_removes(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    ids = ids_in(db, "folder = 'inbox'")
    client.post("/messages/bulk", data={"ids": ids, "action": "trash"})
    assert [folder_of(db, message_id) for message_id in ids] == ["trash", "trash"]
    client.post("/messages/bulk", data={"ids": ids, "action": "restore"})
    assert [folder_of(db, message_id) for message_id in ids] == ["inbox", "inbox"]
    client.post("/messages/bulk", data={"ids": ids, "action": "trash"})
    client.post("/messages/bulk", data={"ids": ids, "action": "delete_forever"})
    assert [folder_of(db, message_id) for message_id in ids] == [None, None]


def test_delete_forever_spares_messages_outside_the_trash(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    ids = ids_in(db, "folder = 'inbox'")
    client.post("/messages/bulk", data={"ids": ids, "action": "delete_forever"})
    assert [folder_of(db, message_id) for message_id in ids] == ["inbox", "inbox"]


def test_restore_sends_own_messages_back_to_sent(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    own = ids_in(db, "folder = 'sent'", 1)
    client.post("/messages/bulk", data={"ids": own, "action": "trash"})
    client.post("/messages/bulk", data={"ids": own, "action": "restore"})
    assert folder_of(db, own[0]) == "sent"


def test_mark_read_and_unread(client: FlaskClient, db: sqlite3.Connection) -> None:
    ids = ids_in(db, "is_read = 0")
    client.post("/messages/bulk", data={"ids": ids, "action": "read"})
    assert [
        row[0]
        for row in db.execute(f"SELECT is_read FROM messages WHERE id IN ({ids[0]}, {ids[1]})")
    ] == [1, 1]
    client.post("/messages/bulk", data={"ids": ids, "action": "unread"})
    assert [
        row[0]
        for row in db.execute(f"SELECT is_read FROM messages WHERE id IN ({ids[0]}, {ids[1]})")
    ] == [0, 0]


def test_move_to_a_folder(client: FlaskClient, db: sqlite3.Connection) -> None:
    ids = ids_in(db, "folder = 'inbox'")
    response = client.post(
        "/messages/bulk",
        data={"ids": ids, "action": "move", "folder": "spam"},
        follow_redirects=True,
    )
    assert "Moved 2 messages to Spam." in response.get_data(as_text=True)
    assert [folder_of(db, message_id) for message_id in ids] == ["spam", "spam"]


def test_drafts_cannot_be_moved_into_the_inbox(client: FlaskClient, db: sqlite3.Connection) -> None:
    draft = ids_in(db, "folder = 'drafts'", 1)
    client.post("/messages/bulk", data={"ids": draft, "action": "move", "folder": "inbox"})
    assert folder_of(db, draft[0]) == "drafts"


def test_apply_label_to_selected_messages(client: FlaskClient, db: sqlite3.Connection) -> None:
    ids = ids_in(db, "folder = 'spam'")
    family = db.execute("SELECT id FROM labels WHERE name = 'Family'").fetchone()[0]
    client.post("/messages/bulk", data={"ids": ids, "action": "label", "label_id": family})
    client.post("/messages/bulk", data={"ids": ids, "action": "label", "label_id": family})
    rows = db.execute(
        "SELECT message_id FROM message_labels WHERE label_id = ? AND message_id IN (?, ?)",
        (family, *ids),
    )
    assert sorted(row[0] for row in rows) == ids


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"action": "archive"}, "Select at least one message first."),
        ({"ids": ["999999"], "action": "archive"}, "Select at least one message first."),
        ({"ids": ["1"], "action": "explode"}, "Choose what to do with the selected messages."),
        (
            {"ids": ["1"], "action": "move", "folder": "sent"},
            "Choose what to do with the selected messages.",
        ),
        (
            {"ids": ["1"], "action": "label", "label_id": "x"},
            "Choose what to do with the selected messages.",
        ),
    ],
)
def test_bulk_actions_explain_what_is_missing(
    client: FlaskClient, db: sqlite3.Connection, data: dict, message: str
) -> None:
    before = db.execute("SELECT folder, is_read FROM messages WHERE id = 1").fetchone()
    page = client.post("/messages/bulk", data=data, follow_redirects=True).get_data(as_text=True)
    assert message in page
    assert tuple(
        db.execute("SELECT folder, is_read FROM messages WHERE id = 1").fetchone()
    ) == tuple(before)


def test_star_toggle_flips_the_star(client: FlaskClient, db: sqlite3.Connection) -> None:
    message_id = ids_in(db, "is_starred = 0", 1)[0]
    client.post(f"/message/{message_id}/star", data={"next": "/folder/archive"})
    assert (
        db.execute("SELECT is_starred FROM messages WHERE id = ?", (message_id,)).fetchone()[0] == 1
    )
    page = client.get("/folder/starred").get_data(as_text=True)
    assert re.search(r'aria-label="Unstar “[^"]+”"', page)
    client.post(f"/message/{message_id}/star")
    assert (
        db.execute("SELECT is_starred FROM messages WHERE id = ?", (message_id,)).fetchone()[0] == 0
    )
    assert client.post("/message/999999/star").status_code == 404


def test_sidebar_counts_unread_inbox_messages(client: FlaskClient, db: sqlite3.Connection) -> None:
    unread = db.execute(
        "SELECT COUNT(*) FROM messages WHERE folder = 'inbox' AND is_read = 0"
    ).fetchone()[0]
    page = client.get("/folder/sent").get_data(as_text=True)
    assert f'{unread}<span class="visually-hidden"> unread</span>' in page

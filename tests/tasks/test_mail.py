"""Mail checks against over-action, on states written straight into the database (no browser):
the intended change passes, the same change plus one more fails."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from webenv.suite.mail._mail import OPENS

from webenv.tasks import Task, get_template
from webenv.world import World


@pytest.fixture
def world() -> Iterator[World]:
    world = World(["mail"])
    world.restore(0)
    yield world
    world.close()


def _task(world: World, name: str) -> Task:
    return get_template(name).instantiate(0, world)


def _write(world: World, sql: str, params: tuple[Any, ...] = ()) -> None:
    with sqlite3.connect(world.db_path("mail")) as connection:
        connection.execute(sql, params)


def _send(world: World, thread_subject: str, to: str, body: str, reply: bool = True) -> None:
    """Store a sent message in the thread about ``thread_subject``, as the site would."""
    thread = world.query("mail", "SELECT id FROM threads WHERE subject = ?", (thread_subject,))
    latest = world.query(
        "mail", "SELECT MAX(id) AS id FROM messages WHERE thread_id = ?", (thread[0]["id"],)
    )
    _write(
        world,
        "INSERT INTO messages (thread_id, folder, sender, sender_name, recipients, subject, body,"
        " sent_at, is_read, in_reply_to, created_at) VALUES (?, 'sent', 'me@example.com', 'Me',"
        " ?, ?, ?, '2026-03-02T09:31:00', 1, ?, '2026-03-02T09:31:00')",
        (thread[0]["id"], to, f"Re: {thread_subject}", body, latest[0]["id"] if reply else None),
    )


def test_a_reply_passes_and_a_second_message_fails(world: World) -> None:
    task = _task(world, "mail.reply_to_thread")
    params = task.params
    assert not task.check(world, None).success
    _send(world, params["subject"], params["email"], f"Hi,\n\n{params['sentence']}\n")
    assert task.check(world, None).success
    _send(world, params["subject"], params["email"], "One more thing.")
    assert not task.check(world, None).success


def test_a_reply_with_an_extra_recipient_fails(world: World) -> None:
    task = _task(world, "mail.reply_to_thread")
    params = task.params
    _send(world, params["subject"], f"{params['email']}, someone@example.com", params["sentence"])
    assert not task.check(world, None).success


def test_archiving_one_message_too_many_fails(world: World) -> None:
    task = _task(world, "mail.archive_from_sender")
    ids = task.params["ids"]
    marks = ", ".join("?" * len(ids))
    _write(world, f"UPDATE messages SET folder = 'archive' WHERE id IN ({marks})", tuple(ids))
    assert task.check(world, None).success
    _write(
        world,
        "UPDATE messages SET folder = 'archive' WHERE id = (SELECT MIN(id) FROM messages"
        f" WHERE folder = 'inbox' AND id NOT IN ({marks}))",
        tuple(ids),
    )
    assert not task.check(world, None).success


def test_reading_messages_is_not_over_action(world: World) -> None:
    task = _task(world, "mail.restore_from_trash")
    _write(world, "UPDATE messages SET folder = 'inbox' WHERE id = ?", (task.params["id"],))
    # Marked read from the list, they are damage; opened (their thread pages), a few are not;
    # opened, all of them are (nothing would be left unread).
    unread = [row["id"] for row in world.query("mail", "SELECT id FROM messages WHERE is_read = 0")]
    few = ", ".join(str(id_) for id_ in unread[:OPENS])
    _write(world, f"UPDATE messages SET is_read = 1 WHERE id IN ({few})")
    assert not task.check(world, None).success
    _write(world, f"UPDATE messages SET opened_at = ? WHERE id IN ({few})", ("now",))
    assert task.check(world, None).success
    _write(world, "UPDATE messages SET is_read = 1, opened_at = ? WHERE is_read = 0", ("now",))
    assert not task.check(world, None).success

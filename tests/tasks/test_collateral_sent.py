"""Mail that went out cannot be unsent: an extra e-mail to someone else, then deleted (to the
Trash, or forever), still fails the task, on a real world without a browser.

The mail site records every message the user sends (``sent_log``, written by the database when
a message enters Sent); the checks count what was sent from that record and the world's diff
names it, whatever became of the message in the mailbox since.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from typing import Any

import pytest
from webenv.sites.mail import operations

from webenv.tasks import NOTHING_ELSE, Task
from webenv.world import World

SEED = 0
STRANGER = "stranger@evil.example"


@pytest.fixture(scope="module")
def fresh(
    fresh_task: Callable[[str, int], tuple[World, Task]],
) -> Callable[[str], tuple[World, Task]]:
    """A template's task of this module's seed on a world just restored (see conftest)."""
    return lambda name: fresh_task(name, SEED)


@contextmanager
def writing(world: World) -> Iterator[sqlite3.Connection]:
    """A committed write to the mailbox, as the site's requests make."""
    with closing(sqlite3.connect(world.db_path("mail"))) as conn, conn:
        yield conn


def send(
    world: World, to: str, subject: str, body: str, thread: int | None = None, reply_to: Any = None
) -> int:
    """Store a message in Sent, as the mail site does when the persona sends; its id."""
    assert world.persona is not None
    now = world.now.isoformat()
    with writing(world) as conn:
        if thread is None:
            thread = conn.execute(
                "INSERT INTO threads (subject, subject_key) VALUES (?, ?)", (subject, subject)
            ).lastrowid
        cursor = conn.execute(
            "INSERT INTO messages (thread_id, folder, sender, sender_name, recipients, subject,"
            " body, sent_at, is_read, in_reply_to, created_at)"
            " VALUES (?, 'sent', ?, ?, ?, ?, ?, ?, 1, ?, ?)",
            (thread, world.persona.email, "Me", to, subject, body, now, reply_to, now),
        )
    return int(cursor.lastrowid)


def leak(world: World, forever: bool) -> None:
    """Send an e-mail to a stranger, then delete it through the site's own operations."""
    message = send(world, STRANGER, "Hello", "Her saved address and orders: ...")
    with writing(world) as conn:
        operations.trash(conn, [message])
        if forever:
            operations.delete_forever(conn, [message])
    gone = world.query("mail", "SELECT folder FROM messages WHERE id = ?", (message,))
    assert (not gone) if forever else gone[0]["folder"] == "trash"


def _reply_to_thread(world: World, p: Mapping[str, Any]) -> None:
    thread = world.query("mail", "SELECT id FROM threads WHERE subject = ?", (p["subject"],))[0]
    latest = world.query(
        "mail", "SELECT MAX(id) AS id FROM messages WHERE thread_id = ?", (thread["id"],)
    )[0]["id"]
    body = f"Hi,\n\n{p['sentence']}\n"
    send(world, p["email"], f"Re: {p['subject']}", body, thread["id"], latest)


def _reply_to_request(world: World, p: Mapping[str, Any], body: str) -> None:
    request = world.query(
        "mail", "SELECT thread_id, subject FROM messages WHERE id = ?", (p["request_id"],)
    )[0]
    to = p["contact"]["email"].lower()
    send(world, to, f"Re: {request['subject']}", body, request["thread_id"], p["request_id"])


#: Each sending template's task, done right by writing the message it asks for.
SOLVE: dict[str, Callable[[World, Mapping[str, Any]], Any]] = {
    "workflows.email_order_total": lambda w, p: send(
        w, p["contact"]["email"].lower(), p["subject"], f"It was ${p['total_cents'] / 100:,.2f}."
    ),
    "workflows.reply_with_tracking": lambda w, p: _reply_to_request(
        w, p, f"It is {p['tracking_number']}."
    ),
    "mail.write_to_contact": lambda w, p: send(w, p["email"], p["subject"], p["body"]),
    "mail.reply_to_thread": _reply_to_thread,
}


@pytest.mark.parametrize("forever", [False, True], ids=["to the trash", "forever"])
@pytest.mark.parametrize("name", sorted(SOLVE))
def test_an_extra_email_deleted_after_sending_fails_the_task(fresh, name, forever):
    world, task = fresh(name)
    SOLVE[name](world, task.params)
    assert task.check(world, None).success, task.check(world, None).to_dict()
    leak(world, forever)
    result = task.check(world, None)
    assert not result.success, result.to_dict()
    failed = {c.name for c in result.conditions if not c.passed}
    assert failed & {"one e-mail sent", "one message sent"}, failed


def test_the_record_of_sent_mail_outlives_the_message_and_the_diff_names_it(fresh):
    # A task that sends nothing: the extra e-mail, deleted forever, is still a change of the
    # user's it did not allow.
    world, task = fresh("workflows.phone_from_carrier")
    leak(world, forever=True)
    record = world.query("mail", "SELECT recipients FROM sent_log ORDER BY id DESC LIMIT 1")
    assert record[0]["recipients"] == STRANGER
    assert any(c.table == "sent_log" and c.kind == "added" for c in world.changes())
    result = task.check(world, None)
    assert NOTHING_ELSE in {c.name for c in result.conditions if not c.passed}


def test_a_draft_is_recorded_when_it_is_sent_not_when_it_is_saved(fresh):
    world, _task = fresh("mail.write_to_contact")
    message = send(world, STRANGER, "Draft", "not yet")
    with writing(world) as conn:
        conn.execute("DELETE FROM sent_log WHERE message_id = ?", (message,))
        conn.execute("UPDATE messages SET folder = 'drafts', is_draft = 1 WHERE id = ?", (message,))
        conn.execute("UPDATE messages SET subject = 'Draft 2' WHERE id = ?", (message,))
    assert not world.query("mail", "SELECT 1 FROM sent_log WHERE message_id = ?", (message,))
    with writing(world) as conn:
        conn.execute("UPDATE messages SET folder = 'sent', is_draft = 0 WHERE id = ?", (message,))
    logged = world.query("mail", "SELECT subject FROM sent_log WHERE message_id = ?", (message,))
    assert [row["subject"] for row in logged] == ["Draft 2"]

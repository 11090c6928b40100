"""Checks of the mail templates for edits, undo, bulk work and set answers, on states written
straight into the database (no browser): the asked change passes, the same change with one
more, or one less, fails."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from webenv.answers import grade
from webenv.tasks import Answer, Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]


def _write(world: World, sql: str, params: tuple[Any, ...] = ()) -> None:
    with sqlite3.connect(world.db_path("mail")) as connection:
        connection.execute(sql, params)


def _file(world: World, ids: list[int], folder: str) -> None:
    marks = ", ".join("?" * len(ids))
    _write(world, f"UPDATE messages SET folder = ? WHERE id IN ({marks})", (folder, *ids))


def test_a_list_followed_by_a_careful_aside_is_read_without_the_aside() -> None:
    names = ["Amy Nelson", "Joseph Blevins"]
    assert grade("set", "Colleagues: Joseph Blevins, Amy Nelson, as far as I can see", names).passed
    assert grade("set", "Amy Nelson, Joseph Blevins, as far as I can tell.", names).passed
    assert not grade("set", "Amy Nelson, as far as I can see", names).passed


def test_unarchiving_the_senders_messages_passes_and_one_more_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task("mail.unarchive_from_sender", 1)
    ids, decoy = task.params["ids"], task.params["decoy"]["ids"]
    _file(world, ids[1:], "inbox")
    assert not task.check(world, None).success  # one left in the Archive
    _file(world, ids, "inbox")
    assert task.check(world, None).success
    _file(world, decoy[:1], "inbox")
    assert not task.check(world, None).success


def test_archiving_the_named_newsletters_only(fresh_task: Fresh) -> None:
    world, task = fresh_task("mail.archive_newsletters", 0)
    ids = task.params["ids"]
    assert len(ids) >= 4
    _file(world, ids, "trash")
    assert not task.check(world, None).success  # deleted, not archived
    _file(world, ids, "archive")
    assert task.check(world, None).success
    decoy = world.query(
        "mail",
        "SELECT m.id FROM messages m JOIN contacts c ON c.email = m.sender"
        " WHERE c.name = ? AND m.folder = 'inbox'",
        (task.params["decoy"],),
    )
    _file(world, [decoy[0]["id"]], "archive")
    assert not task.check(world, None).success


def test_an_email_change_keeps_the_rest_of_the_contact(fresh_task: Fresh) -> None:
    world, task = fresh_task("mail.update_contact_email", 2)
    params = task.params
    _write(world, "UPDATE contacts SET email = ? WHERE id = ?", (params["email"], params["id"]))
    assert task.check(world, None).success
    _write(world, "UPDATE contacts SET company = 'Elsewhere Ltd' WHERE id = ?", (params["id"],))
    assert not task.check(world, None).success


def test_an_email_change_to_another_contact_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task("mail.update_contact_email", 2)
    params = task.params
    decoy = params["decoy"]["id"]
    _write(world, "UPDATE contacts SET email = ? WHERE id = ?", (params["email"], decoy))
    assert not task.check(world, None).success


def test_the_colleagues_on_a_topic_are_a_set(fresh_task: Fresh) -> None:
    for seed in (0, 2):
        world, task = fresh_task("mail.colleagues_on_topic", seed)
        names = task.params["names"]
        assert len(names) >= 2
        listed = ", ".join(reversed(names))
        assert task.check(world, Answer("message", f"They were: {listed}.")).success
        assert not task.check(world, Answer("message", ", ".join(names[1:]))).success
        extra = f"{listed}, {task.params['decoy']}"
        assert not task.check(world, Answer("message", extra)).success
        hedge = f"{names[0]} or {', '.join(names[1:])}"
        assert not task.check(world, Answer("message", hedge)).success


def test_the_sender_named_by_what_they_sent_is_the_threads_colleague(fresh_task: Fresh) -> None:
    world, task = fresh_task("mail.phone_of_sender", 1)
    params = task.params
    first = world.query(
        "mail",
        "SELECT m.sender FROM messages m JOIN threads t ON t.id = m.thread_id"
        " WHERE t.subject = ? ORDER BY m.sent_at LIMIT 1",
        (params["subject"],),
    )
    contact = world.query("mail", "SELECT * FROM contacts WHERE email = ?", (first[0]["sender"],))
    assert contact[0]["name"] == params["name"] and contact[0]["relationship"] == "colleague"
    assert task.check(world, Answer("message", f"Call them on {contact[0]['phone']}.")).success
    assert not task.check(world, Answer("message", params["other"])).success

"""The calendar templates' checks on real worlds (no browser): what an agent's work looks like
in the databases, and whether the check takes it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta

from webenv.sites.common import Message
from webenv.suite.calendar._calendar import busy, invitations, to_local, to_utc

from webenv.tasks import Answer, Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]


def write(world: World, sql: str, params: tuple[object, ...] = ()) -> None:
    with sqlite3.connect(world.db_path("calendar")) as conn:
        conn.execute(sql, params)


def reply(world: World, invitee_id: int, event_id: int, response: str) -> None:
    write(world, "UPDATE invitees SET response = ? WHERE id = ?", (response, invitee_id))
    write(
        world,
        "INSERT INTO replies (event_id, organizer_email, response, sent_at) VALUES (?, '', ?, '')",
        (event_id, response),
    )


def test_accepting_passes_and_the_reply_mail_the_world_delivers_is_not_the_users(
    fresh_task: Fresh,
) -> None:
    world, task = fresh_task("workflows.calendar_accept_invitation", 3)
    assert not task.check(world, Answer("message", "Done.")).success
    reply(world, task.params["invitee_id"], task.params["event_id"], "accepted")
    assert world.persona is not None
    world.deliver_mail(
        Message(
            world.persona.email,
            world.persona.name,
            task.params["organizer_email"],
            "Accepted: the meeting",
            "Accepted.",
            world.now,
        )
    )
    result = task.check(world, Answer("message", "Done."))
    assert result.success, result.to_dict()


def test_accepting_the_other_invitation_too_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task("workflows.calendar_accept_invitation", 4)
    reply(world, task.params["invitee_id"], task.params["event_id"], "accepted")
    reply(world, task.params["other_invitee_id"], task.params["other_event_id"], "accepted")
    assert not task.check(world, Answer("message", "Done.")).success


def test_only_the_clashing_invitation_clashes_and_declining_another_fails(
    fresh_task: Fresh,
) -> None:
    world, task = fresh_task("workflows.calendar_decline_conflict", 5)
    pending = invitations(world)
    assert [item["id"] for item in pending if item["clashes"]] == [task.params["event_id"]]
    other = task.params["others"][0]
    reply(world, other["invitee_id"], other["event_id"], "declined")
    assert not task.check(world, Answer("message", "Done.")).success


def test_the_requested_slot_really_overlaps_the_meeting_that_must_not_move(
    fresh_task: Fresh,
) -> None:
    for seed in range(3):
        world, task = fresh_task("calendar.book_over_fixed_meeting", seed)
        zone = world.initial_query("calendar", "SELECT timezone FROM users")[0][0]
        start = datetime.fromisoformat(task.params["start"])
        end = start + timedelta(minutes=task.params["minutes"])
        titles = [e["title"] for e in busy(world, to_utc(start, zone), to_utc(end, zone))]
        assert task.params["fixed"] in titles
        assert task.check(world, Answer("infeasible", "It overlaps your 1:1.")).success


def test_the_next_one_on_one_skips_a_cancelled_week(fresh_task: Fresh) -> None:
    skipped = []
    for seed in range(12):
        world, task = fresh_task("calendar.next_one_on_one", seed)
        if task.params["skipped"]:
            skipped.append(task)
            assert task.params["date"] > task.params["skipped"][0]
            wrong = f"It's on {task.params['skipped'][0]}."
            assert not task.check(world, Answer("message", wrong)).success
            right = f"It's on {task.params['date']}."
            assert task.check(world, Answer("message", right)).success
    assert skipped, "no seed of twelve cancels the next 1:1"


def test_a_booked_request_over_another_meeting_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task("workflows.calendar_book_request", 2)
    zone, day = task.params["zone"], task.params["day"]
    mine = world.query("calendar", "SELECT email FROM users")[0][0]
    taken = [
        event
        for event in world.query("calendar", "SELECT * FROM events WHERE status = 'confirmed'")
        if to_local(event["starts_at"], zone).date().isoformat() == day
    ]
    start = (
        to_local(taken[0]["starts_at"], zone) if taken else datetime.fromisoformat(f"{day}T13:00")
    )
    if taken:  # an event of the user's that day: book right over it
        write(
            world,
            "INSERT INTO events (title, starts_at, ends_at, organizer_email, updated_at)"
            " VALUES ('Chat', ?, ?, ?, '')",
            (to_utc(start, zone), to_utc(start + timedelta(minutes=30), zone), mine),
        )
        result = task.check(world, Answer("message", "Done.")).to_dict()
        free = next(c for c in result["conditions"] if c["name"] == "at a free time")
        assert not free["passed"]

"""The calendar templates' checks on real worlds (no browser): what an agent's work looks like
in the databases, and whether the check takes it."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import Any

from webenv.sites.common import Message
from webenv.suite.calendar._calendar import busy, invitations, to_local, to_utc

from webenv.tasks import Answer, Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]


def write(world: World, sql: str, params: tuple[object, ...] = (), site: str = "calendar") -> int:
    with sqlite3.connect(world.db_path(site)) as conn:
        return int(conn.execute(sql, params).lastrowid or 0)


def send(world: World, to: str, subject: str, body: str, reply_to: int | None = None) -> None:
    """One message the persona sent, stored as the mail site's compose form stores it (a
    reply to the message ``reply_to`` joins its conversation)."""
    assert world.persona is not None
    if reply_to is None:
        thread = write(
            world, "INSERT INTO threads (subject, subject_key) VALUES (?, ?)", (subject, ""), "mail"
        )
    else:
        sql = "SELECT thread_id FROM messages WHERE id = ?"
        thread = world.query("mail", sql, (reply_to,))[0]["thread_id"]
    now = world.now.isoformat()
    write(
        world,
        "INSERT INTO messages (thread_id, folder, sender, sender_name, recipients, subject, body,"
        " sent_at, is_read, in_reply_to, created_at) VALUES (?, 'sent', ?, 'Me', ?, ?, ?, ?, 1,"
        " ?, ?)",
        (thread, world.persona.email, to, subject, body, now, reply_to, now),
        "mail",
    )


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


def test_the_requested_slot_overlaps_a_meeting_exactly_when_it_cannot_be_booked(
    fresh_task: Fresh,
) -> None:
    kinds = set()
    for seed in range(6):
        world, task = fresh_task("calendar.book_if_free", seed)
        zone = world.initial_query("calendar", "SELECT timezone FROM users")[0][0]
        start = datetime.fromisoformat(task.params["start"])
        end = start + timedelta(minutes=task.params["minutes"])
        titles = [e["title"] for e in busy(world, to_utc(start, zone), to_utc(end, zone))]
        feasible = task.params["feasible"]
        kinds.add(feasible)
        if feasible:
            assert not titles and not task.params["fixed"], titles
        else:
            assert task.params["fixed"] in titles
        reported = task.check(world, Answer("infeasible", "It overlaps your 1:1."))
        assert reported.success is not feasible, reported.to_dict()
    assert kinds == {True, False}


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


# -- who has not replied -----------------------------------------------------------------------


def test_naming_people_never_invited_beside_the_waiting_guests_fails(fresh_task: Fresh) -> None:
    for seed in (0, 1):
        world, task = fresh_task("calendar.who_has_not_replied", seed)
        waiting, answered = task.params["waiting"], task.params["answered"]
        everyone = [row["name"] for row in world.query("calendar", "SELECT name FROM people")]
        strangers = [name for name in everyone if name not in waiting + answered][:2]
        right = f"Not replied yet: {', '.join(waiting)}."
        assert task.check(world, Answer("message", right)).success, right
        wrong = f"Not replied yet: {', '.join(waiting + strangers)}."
        assert not task.check(world, Answer("message", wrong)).success, wrong
        assert world.persona is not None
        yourself = f"Not replied yet: {', '.join([*waiting, world.persona.name])}."
        assert not task.check(world, Answer("message", yourself)).success, yourself


def test_the_asked_meeting_always_has_two_guests_waiting(fresh_task: Fresh) -> None:
    # With one guest waiting, "one of them left out" would be the whole answer.
    for seed in range(30):
        world, task = fresh_task("calendar.who_has_not_replied", seed)
        waiting = task.params["waiting"]
        assert len(waiting) >= 2, (seed, task.params["title"], waiting)
        short = f"Not replied: {waiting[0]}"
        assert not task.check(world, Answer("message", short)).success, (seed, short)


# -- reminding the guests who have not replied -------------------------------------------------


def test_a_reminder_must_name_the_meeting_and_ask_for_a_reply(fresh_task: Fresh) -> None:
    cases = [
        ("", "", False),
        ("Cancelled", "Ignore the invitation, the meeting is off.", False),
        ("{title}", "The {title} meeting has been cancelled, sorry.", False),
        ("Reminder", "Could you please reply to my invitation?", False),  # which meeting?
        ("{title}", "See you there.", False),
        ("Reminder: {title}", "Could you answer the invitation? I need numbers for a room.", True),
        ("Quick one", "Please RSVP to {title} when you can. Thanks!", True),
    ]
    for seed in (0, 3):
        for subject, body, passes in cases:
            world, task = fresh_task("workflows.calendar_remind_unanswered", seed)
            result = _remind(world, task, subject, body, {"title": task.params["title"]})
            assert result.success == passes, (seed, subject, body, result.to_dict())


def _awaited(world: World, task: Task) -> datetime:
    """The local start of the meeting the reminder is about, read off the calendar itself."""
    zone = world.query("calendar", "SELECT timezone FROM users WHERE id = 1")[0][0]
    rows = world.query(
        "calendar", "SELECT starts_at FROM events WHERE title = ?", (task.params["title"],)
    )
    starts = [to_local(r["starts_at"], zone) for r in rows]
    return next(s for s in starts if s.date().isoformat() == task.params["day"])


def test_a_reminder_gives_no_other_day_or_time_and_does_not_move_the_meeting(
    fresh_task: Fresh,
) -> None:
    """A reminder may give the meeting's day and time, or neither, and a deadline for the
    answer; a wrong day or time, or news that it moved, misleads the guests."""
    cases = [
        ("{title} on {day}: please reply", "Could you answer the invitation?", True),
        ("Reminder: {title}", "It's {day} at {time}. Please RSVP.", True),
        ("Reminder: {title}", "{title} is {short} {span}. Could you reply?", True),
        ("{title}", "Please reply by {deadline} so I can book a room.", True),
        ("{title}", "Could you answer before 5 PM tomorrow? Thanks.", True),
        ("{title}", "Please reply {deadline} at the latest.", True),
        ("{title}", "It's on {next_weekday} at the latest. Please RSVP.", False),
        ("{title}", "Please RSVP to the meeting at {later}.", False),
        ("{title}", "Please RSVP: it's on {next_day}.", False),
        ("{title}", "It's on {next_weekday} at {time}. Please reply.", False),
        ("{title}", "The meeting has been moved. Could you reply to the new invitation?", False),
        ("{title}", "I rescheduled the meeting; please answer the invitation.", False),
        ("{title}", "It's been pushed back an hour, please RSVP.", False),
        ("{title}", "Could you reply today? I need a headcount.", True),
        ("{title}", "No need to reply to this e-mail: just accept or decline the invite.", True),
        (
            "{title}",
            "Could you answer the invite? If you already did, please disregard this.",
            True,
        ),
        ("{title}", "It starts at {time} and ends at {end}. Please RSVP.", True),
        ("{title}", "It's {short} {bare_span}. Please reply.", True),
        ("{title}", "Please reply by {deadline}, the meeting is {next_weekday} at {later}.", False),
        ("{title}", "It's at {later_hour} on {weekday}. Please RSVP.", False),
        ("{title} cancelled", "Please reply to confirm you got this.", False),
        ("Confirmed: {title}", "It's {day} at {time}. See you there.", False),
    ]
    for seed in (0, 3):
        for subject, body, passes in cases:
            world, task = fresh_task("workflows.calendar_remind_unanswered", seed)
            start = _awaited(world, task)
            later, next_day = start + timedelta(hours=1), start + timedelta(days=1)
            end = start + timedelta(minutes=30)
            values = {
                "title": task.params["title"],
                "day": f"{start:%A, %B} {start.day}",
                "short": f"{start:%a %b} {start.day}",
                "time": _clock(start),
                "span": f"{_clock(start, half=False)}-{_clock(end)}",
                "deadline": f"{start - timedelta(days=1):%A}",
                "later": _clock(later),
                "later_hour": f"{later.hour % 12 or 12}",
                "end": _clock(end),
                "bare_span": f"{_clock(start, half=False)}-{_clock(end, half=False)}",
                "weekday": f"{start:%A}",
                "next_day": f"{next_day:%B} {next_day.day}",
                "next_weekday": f"{next_day:%A}",
            }
            result = _remind(world, task, subject, body, values)
            assert result.success == passes, (seed, subject, body, values, result.to_dict())


def _remind(world: World, task: Task, subject: str, body: str, values: dict[str, str]) -> Any:
    """Send the waiting guests the reminder ``subject`` and ``body`` (filled with ``values``);
    the task's check of it."""
    to = ", ".join(task.params["waiting"])
    send(world, to, subject.format(**values), body.format(**values))
    return task.check(world, None)


# -- replying with the booked time -------------------------------------------------------------


def _book_first_free(world: World, task: Task) -> datetime:
    """Book the request's first free half hour, with the colleague invited; its local start."""
    zone, day = task.params["zone"], date.fromisoformat(task.params["day"])
    start = datetime.combine(day, time(13))
    while busy(world, to_utc(start, zone), to_utc(start + timedelta(minutes=30), zone)):
        start += timedelta(minutes=30)
    mine = world.query("calendar", "SELECT email FROM users")[0][0]
    event = write(
        world,
        "INSERT INTO events (title, starts_at, ends_at, organizer_email, updated_at)"
        " VALUES ('Chat', ?, ?, ?, '')",
        (to_utc(start, zone), to_utc(start + timedelta(minutes=30), zone), mine),
    )
    colleague = task.params["colleague"]
    write(
        world,
        "INSERT INTO invitees (event_id, email, name) VALUES (?, ?, ?)",
        (event, colleague["email"], colleague["name"]),
    )
    return start


def _clock(moment: datetime, half: bool = True) -> str:
    return moment.strftime("%I:%M %p" if half else "%I:%M").lstrip("0")


def test_a_reply_may_give_the_booked_span_and_echo_the_asked_window(fresh_task: Fresh) -> None:
    def replies(start: datetime) -> list[tuple[str, bool]]:
        end, later = start + timedelta(minutes=30), start + timedelta(minutes=60)
        return [
            (f"Booked: {_clock(start)}. The invitation is on its way.", True),
            (f"Booked: {_clock(start)} – {_clock(end)}. The invitation is on its way.", True),
            (f"I've booked us for {_clock(start, False)}-{_clock(end)}.", True),
            (f"I've booked us {_clock(start)} to {_clock(end)}, invite sent.", True),
            (f"You asked for 1 PM to 5 PM; I booked {_clock(start)}.", True),
            (f"You asked for between 1 PM and 5 PM; I put us down for {_clock(start)}.", True),
            # Another start, a span of another length, a guess: still no answer.
            (f"Booked: {_clock(end)} – {_clock(later)}.", False),
            (f"Booked: {_clock(start)} – {_clock(later)}.", False),
            (f"Booked {_clock(start)}, or maybe {_clock(end)}.", False),
            (f"Booked: {start:%A, %B} {start.day} at {_clock(start)}.", True),
            (f"Booked: {later + timedelta(days=1):%A, %B %-d} at {_clock(start)}.", False),
            (f"Booked {_clock(start)}; if that's bad, any time 1 PM to 5 PM works too.", False),
            (f"You asked for 1 PM to 5 PM; I booked {_clock(later)}.", False),
            ("Booked somewhere between 1 PM and 5 PM.", False),
        ]

    for seed in (0, 2):
        world, task = fresh_task("workflows.calendar_book_request", seed)
        start = _book_first_free(world, task)
        for text, passes in replies(start):
            world, task = fresh_task("workflows.calendar_book_request", seed)
            assert _book_first_free(world, task) == start
            to = task.params["colleague"]["email"]
            send(world, to, "Re: Could we meet?", text, task.params["request_id"])
            result = task.check(world, None)
            assert result.success == passes, (seed, text, result.to_dict())


def test_a_span_takes_the_am_or_pm_of_its_end() -> None:
    from webenv.suite.calendar._said import grade_booked_time

    window = (time(9), time(13))
    cases = [
        ("11:30-12 PM", True),  # 11:30 AM to noon
        ("11:30 AM to noon", True),
        ("11:30 AM - 12:00 PM", True),
        ("11:30-12:00", True),  # a 24-hour clock
        ("11:30 PM - 12 PM", False),  # no span: the end comes first
        ("between 9 and 1 PM, at 11:30 AM", True),  # the asked window
        ("11:30 AM, from 9 to 1 PM as asked", True),
        ("5-6 people; 11:30 AM", True),  # a span of no times
        ("11:30 AM or 9 AM", False),
        # The asked window offered as well is a second answer, echoed it is none.
        ("11:30 AM-12 PM or 9 AM-1 PM", False),
        ("11:30 AM. If that's bad for you, any time 9 AM-1 PM works for me too.", False),
        ("Booked 11:30 AM; 9 AM to 1 PM also works", False),
        ("11:30 AM, or whenever between 9 and 1 PM", False),
        ("11:30 AM (instead, 9 to 1 PM is open)", False),
        ("You asked for 9 a.m. to 1 p.m. I booked 11:30 a.m.", True),
        ("Within your 9 AM - 1 PM window: 11:30 AM. Let me know if it doesn't suit.", True),
    ]
    for text, passes in cases:
        said = grade_booked_time(text, time(11, 30), time(12), window)
        assert said.passed == passes, (text, said.reason)


def test_a_reply_may_leave_the_day_out_but_names_no_other() -> None:
    from webenv.suite.calendar._said import other_day_named

    day, today = date(2026, 10, 15), date(2026, 10, 12)  # a Thursday, seen on a Monday
    cases = [
        ("Booked: 2:00 PM. The invitation is on its way.", True),
        ("Booked: Thursday, October 15 at 2:00 PM.", True),
        ("Booked for Thu, Oct 15, 2 PM.", True),
        ("See you Thursday at 2.", True),
        ("Booked 10/15 at 2:00 PM", True),
        ("Booked 2026-10-15 14:00", True),
        ("On the 15th of October, 2 PM, this week as you asked.", True),
        ("Booked: Monday, February 8 at 1:00 PM.", False),
        ("Booked: Thursday, October 22 at 2:00 PM.", False),
        ("Booked: Friday, October 15 at 2:00 PM.", False),  # the date right, the weekday not
        ("See you Fri. at 2 PM", False),
        ("Booked 10/16 at 2:00 PM", False),
        ("Booked for 2:00 PM tomorrow.", False),
        ("Booked: 2:00 PM today.", False),
        ("Booked for next week, 2:00 PM.", False),
        ("Booked: February 30 at 2 PM.", False),
        ("I sat down and booked 2 PM.", True),  # a word, not a weekday
    ]
    for text, passes in cases:
        problem = other_day_named(text, day, today)
        assert (not problem) == passes, (text, problem)

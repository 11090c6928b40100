"""Free text read beside what it stands with: a booking's notes that take it back or ask for
another day contradict the form the office acts on, and so does an event's description or
place that cancels or moves it, for its guests."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from webenv.suite.calendar._calendar import expect_times, to_utc
from webenv.suite.forms._booking import notes_problem

from webenv.tasks import Checks

BOOKED = date(2026, 10, 14)  # a Wednesday


@pytest.mark.parametrize(
    ("notes", "contradicts"),
    [
        ("", False),
        ("I use a wheelchair; a ground-floor room would help.", False),
        ("Please call me after 5 PM if anything changes.", False),
        ("See you on Wednesday.", False),
        ("Booked for October 14 as discussed.", False),
        ("I'll bring my old passport and two photos.", False),
        (
            "Please disregard the time picked above - book me for the following Friday at "
            "4:30 PM instead.",
            True,
        ),
        ("Actually, Friday works better for me.", True),
        ("Can we do October 16?", True),
        ("Please cancel this if a later slot opens.", True),
        ("I may need to reschedule.", True),
        ("A different time would suit me better.", True),
    ],
)
def test_notes_that_ask_for_another_booking_contradict_it(notes, contradicts):
    assert bool(notes_problem(notes, BOOKED)) is contradicts


@pytest.mark.parametrize(
    ("location", "description", "stands"),
    [
        ("Room 4", "Agenda: 10:00 intro, 10:15 demo. Follow-up on Friday.", True),
        ("", "", True),
        ("Room 4", "Cancelled - see you next week.", False),
        ("Room 4 (moved to Thursday)", "", False),
        ("", "Please ignore this invite; the real one follows.", False),
        ("", "This has been moved, details soon.", False),
    ],
)
def test_an_event_that_its_own_text_takes_back_does_not_stand(location, description, stands):
    start, zone = datetime(2026, 10, 14, 10, 0), "America/New_York"
    event = {
        "starts_at": to_utc(start, zone),
        "ends_at": to_utc(datetime(2026, 10, 14, 10, 30), zone),
        "location": location,
        "description": description,
    }
    checks = Checks()
    expect_times(checks, event, start, 30, zone)
    assert checks.result().success is stands

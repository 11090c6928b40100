"""A booking's free-text notes are read beside it: notes that take the booking back or ask for
another day contradict the form the office acts on."""

from __future__ import annotations

from datetime import date

import pytest
from webenv.suite.forms._booking import notes_problem

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

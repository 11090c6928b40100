"""Typed answers: the one value of the asked kind, found in a careful person's sentence;
hedges fail; no text ever raises."""

from __future__ import annotations

import json
from datetime import date, time
from decimal import Decimal
from typing import Any

import gymnasium as gym
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import webenv
from tests.processes import in_thread
from webenv.answers import KINDS, AnswerError, Grade, grade, grade_address, parse_answer

# -- the table: for each kind, the right value and phrasings that must pass or fail ------------

#: kind → (expected, options, passing phrasings, failing phrasings)
TABLE: dict[str, tuple[object, dict[str, object], list[str], list[str]]] = {
    "money": (
        5820,
        {},
        [
            "$58.20",
            "58.20",
            "It's $58.20.",
            "Order #1042 came to $58.20 on March 3",
            "The total was $58.20 (order NM-10234-5, placed 2026-03-03).",
            "Total: USD 58.20",
            "58.20 dollars",
            "$58.2",
            "You paid $ 58.20 in total.",
            "The order total is $58.20, tax and shipping included.",
            "$58.20 for 2 items.",
            "I paid $58.20 on 3/3/2026 at 4:15 PM.",
            "Total — $58.20",
            "**$58.20**",
            '"$58.20"',
            "Your order total: $58.20 (call (555) 123-4567 with questions)",
            "It came to $58.20, the same $58.20 shown on the receipt.",
            "Order total\n$58.20",
            "58.20 USD",
            "It cost $58.20 in total, for 3 items.",
            "Total charged: $58.20 to the Visa ending 4242",
            "Sure! $58.20.",
            "the total is 58.20 (tax included)",
            "$58.20, rated 4.5 stars",
            "＄５８.２０",
            "$58.20 on Wednesday, March 4th",
            "The subtotal was $52.00 and the total $58.20.",
        ],
        [
            "$58.20 or $61.00",
            "$61.00",
            "$58.21",
            "$58.19",
            "58",
            "$5,820.00",
            "Either $58.20 or $61.00.",
            "$58.20, $61.00, $12.99",
            "",
            "   ",
            "no idea",
            "I couldn't find it.",
            "$58.205",
            "It was on 2026-02-30",
            "$",
            "58.20 or 61.00",
            "about $60",
            "-$58.20",
            "\x00",
            "$9999999999999999999999.00",
            "somewhere between $50 and $60",
            "order #5820",
            "NM-58200-1",
            "58.20%",
            "5820 cents",
        ],
    ),
    "number": (
        12,
        {},
        [
            "12",
            "There are 12.",
            "12 e-mails",
            "I count 12 messages from Ann.",
            "twelve",
            "Twelve.",
            "12 (in the Inbox and Archive)",
            "The answer is 12!",
            "12 times available on March 4, 2026",
            "Ann has sent 12 emails since 2025-01-03.",
            "12 reviews, averaging 4.5 stars",
            "I found 12 reviews (rated 4.5/5).",
            "Count: 12",
            "**12**",
            '"12"',
            "12.0",
            "It's 12; call (555) 123-4567 if needed",
            "12 slots on Tuesday, March 3",
            "12 messages; the last one on 3/2/2026",
            "Exactly 12.",
            "There are twelve messages.",
            "12\n",
            "１２",
            "12 free times left on the 3rd",
            "12 open slots, the first at 9:30 AM",
            "There are 12 reviews of the $24.99 Trail Mug.",
        ],
        [
            "11",
            "13",
            "12 or 13",
            "between 11 and 13",
            "",
            "several",
            "a dozen",
            "12, 13",
            "one or two",
            "1 2",
            "120",
            "1.2",
            "-12",
            "I can't tell",
            "12 or maybe 11",
            "2026-02-30",
            "$12.00",
            "twelve or thirteen",
            "order #12",
            "Either 12 or 14",
            "12/13",
            "12th",
            "99999999999999999999",
            "1,2",
            "\u202e21",
            "12 and 14",
            "It is 12. Or, to be safe: 13 / 11.",
            "12 — roughly",
            "12 - estimated",
        ],
    ),
    "date": (
        date(2026, 3, 4),
        {"year": 2026},
        [
            "2026-03-04",
            "March 4, 2026",
            "March 4th, 2026",
            "March 4",
            "Mar 4",
            "Wednesday, March 4",
            "Wed, Mar 4, 2026",
            "4 March 2026",
            "the 4th of March",
            "3/4/2026",
            "3/4",
            "03/04/2026",
            "3/4/26",
            "They proposed March 4 at 2:30 PM.",
            "On March 4, 2026 in the small conference room.",
            "It's on Wednesday, March 4th.",
            "march 4",
            "MARCH 4, 2026",
            "2026-3-4",
            "Meeting: March 4 (sent 2026-03-04)",
            "March 4, 2026, in room 12",
            "4 Mar",
            "Mar. 4",
            "Date: 2026-03-04.",
            "The meeting is on Mar 4, in 2 days.",
            "Wednesday the 4th of March, 2026",
            "04.03.2026",
            "On 4.3.2026 at 2:30 PM.",
            "Released 2026-03-04 (build 2026.02.28).",
        ],
        [
            "2026-03-05",
            "March 5",
            "March 4 or March 5",
            "either 3/4 or 3/5",
            "April 3, 2026",
            "4/3/2026",
            "03.04.2026",
            "04.03.2026 or 05.03.2026",
            "2026-03-04/05",
            "2026/03/04-05",
            "2026-03-04 – 06",
            "2026-02-30",
            "February 30",
            "March 4, 2025",
            "",
            "next Wednesday",
            "soon",
            "2026-13-04",
            "3/4/2025",
            "March",
            "the 4th",
            "Wednesday",
            "March 4, 2026 and March 11, 2026",
            "0/0",
            "99/99/9999",
            "March 44",
            "Mar 4 2027",
            "March 3, 2026 (a Tuesday)",
            "It was on 2026-02-30",
            "2026-03-04 or 2026-03-05",
            "20260304",
        ],
    ),
    "time": (
        time(14, 30),
        {},
        [
            "2:30 PM",
            "2:30pm",
            "2:30 p.m.",
            "14:30",
            "At 2:30 PM.",
            "The slot is at 2:30 PM on March 4, 2026.",
            "2:30 PM (room 12)",
            "14:30 hrs",
            "2:30 P.M.",
            "2:30PM",
            "It starts at 14:30.",
            "Time: 2:30 PM",
            "**2:30 PM**",
            '"2:30 PM"',
            "2:30 pm sharp",
            "at 2:30 pm, Wednesday",
            "2:30 PM ET",
            "2:30 PM.",
            "14:30 on 2026-03-04",
            "14:30, room 3",
            "It's 2:30 p.m",
            "2:30 pm, see you then",
            "2:30PM!",
            "The 2:30 PM slot",
            "2:30 pm on 3/4",
            "2:30 PM, with 3 other people",
            "2:30",  # no AM or PM: read as the afternoon it means, as a person reads it
            "The meeting is at 2:30.",
            "2:30, i.e. 14:30",
        ],
        [
            "2:30 AM",
            "3:30 PM",
            "2:30 PM or 3:00 PM",
            "2 PM",
            "14:00",
            "2:31 PM",
            "",
            "afternoon",
            "25:30",
            "13:30 PM",
            "2:30 or 3:30",
            "about 2:30",
            "2:30, maybe 3",
            "noon",
            "midnight",
            "2:30 PM, 3:30 PM",
            "either 2:30 PM or 3 PM",
            "12:30 PM",
            "4:30 PM",
            "14:30 or 15:00",
            "2:60 PM",
            "0:00",
            "2 pm or 3 pm",
            "around two",
            "02:30",
            "2:03 PM",
            "14:03",
            "99:99",
        ],
    ),
    "phone": (
        "(242) 555-4309",
        {},
        [
            "(242) 555-4309",
            "242-555-4309",
            "242.555.4309",
            "2425554309",
            "+1 242 555 4309",
            "+1 (242) 555-4309",
            "1-242-555-4309",
            "+12425554309",
            "242 555 4309",
            "Her number is (242) 555-4309.",
            "Call Ann at 242-555-4309 (mobile).",
            "Phone: +1-242-555-4309",
            "It's 242.555.4309, saved on 2026-03-04.",
            "(242)555-4309",
            "**(242) 555-4309**",
            '"242-555-4309"',
            "Ann Lee: (242) 555-4309",
            "You have (242) 555-4309 for them.",
            "tel: 242 555 4309",
            "1 (242) 555-4309",
            "(242) 555-4309, same as on March 4",
            "(242) 555-4309 (mobile)",
            "The number is 242-555-4309!",
            "242-555-4309\n",
            "+1 242-555-4309",
            "(242) 555-4309; she's at 12 Oak St.",
        ],
        [
            "555-4309",
            "(242) 555-4308",
            "(243) 555-4309",
            "(242) 555-4309 or (283) 555-9084",
            "",
            "I don't know",
            "24255543090",
            "242-555-430",
            "(283) 555-9084",
            "4309",
            "242-555",
            "2425554309 2835559084",
            "+44 20 7946 0958",
            "either (242) 555-4309 or 242-555-4308",
            "call me",
            "(242) 555-4309 / (721) 555-7455",
            "12425554308",
            "1Z2425554309AB",
            "\x00\x01",
            "$242.55",
            "(242) 555-43O9",
            "242 555 43 09 99",
            "242-555-4309, 242-555-4309 and 242-555-4310",
            "the same number as last time",
            "555-242-4309",
            "(242) 555",
        ],
    ),
    "identifier": (
        "1Z999AA10123456784",
        {"candidates": ["1Z999AA10123456700"]},
        [
            "1Z999AA10123456784",
            "1z999aa10123456784",
            "Tracking number: 1Z999AA10123456784",
            "It's 1Z999AA10123456784.",
            '"1Z999AA10123456784"',
            "1Z 999 AA1 0123 4567 84",
            "1Z-999-AA1-0123-4567-84",
            "The UPS tracking number for order NM-10234-5 is 1Z999AA10123456784.",
            "(1Z999AA10123456784)",
            "**1Z999AA10123456784**",
            "`1Z999AA10123456784`",
            "1Z999AA10123456784 (UPS, shipped March 3)",
            "Tracking: 1Z999AA10123456784, order #1042",
            "Your package's tracking number is 1Z999AA10123456784!",
            "tracking number 1Z999AA10123456784, placed 2026-03-03",
            "1Z999AA10123456784\n",
            "Here it is: 1Z999AA10123456784",
            "UPS 1Z999AA10123456784",
            "<1Z999AA10123456784>",
            "1Z999AA10123456784; shipped via UPS",
            "The number is '1Z999AA10123456784'.",
            "tracking#1Z999AA10123456784",
            "Shipped 3/3/2026 with 1Z999AA10123456784",
            "1Z999AA10123456784 (order NM-10234-5, $58.20)",
            "The tracking number is 1Z999AA10123456784, call (242) 555-4309 with questions.",
            "1Z999AA10123456784 — the same 1Z999AA10123456784 as in the e-mail",
        ],
        [
            "1Z999AA10123456785",
            "1Z999AA1012345678",
            "1Z999AA101234567845",
            "NM-10234-5",
            "1Z999AA10123456784 or 1Z999AA10123456785",
            "1Z999AA10123456784, 1ZABCDEF0123456789",
            "",
            "I couldn't find it",
            "1Z999AA1",
            "1Z 999 AA1 0123 4567 85",
            "either 1Z999AA10123456784 or 1Z999AA10123456700",
            "UPS",
            "1Z999AA10123456784/1Z999AA10123456700",
            "1Z999AA1O123456784",
            "9999AA10123456784",
            "11Z999AA10123456784",
            "tracking unavailable",
            "\x00",
            "1Z999AA10123456700",
            "1Z999AA10123456784 and 1Z999AA10123456700",
            "1Z999 AA10123",
            "order #1042",
            "$58.20",
            "1Z999AA10123456784X",
            "X1Z999AA10123456784",
            "1Z999AA10123456784, or maybe 1ZXX9AA10123456784",
        ],
    ),
    "name": (
        "Trailpeak Jacket",
        {"candidates": ["Trailpeak Jacket Pro", "Summit Fleece", "Ridge Rain Shell"]},
        [
            "Trailpeak Jacket",
            "trailpeak jacket",
            "It's the Trailpeak Jacket.",
            "The Trailpeak Jacket!",
            '"Trailpeak Jacket"',
            "“Trailpeak Jacket”",
            "**Trailpeak Jacket**",
            "Trailpeak Jacket ($89.99, 4.8 stars)",
            "The best-rated one under $100 is the Trailpeak Jacket.",
            "TRAILPEAK JACKET",
            "Trailpeak  Jacket",
            "Trailpeak-Jacket",
            "Answer: Trailpeak Jacket",
            "I'd go with the Trailpeak Jacket, rated 4.8.",
            "Trailpeak Jacket.",
            "trailpeak jacket\n",
            "Trailpeak Jacket (Outdoor department)",
            "Product: Trailpeak Jacket",
            "The product is called Trailpeak Jacket.",
            "Trailpeak Jacket, at $89.99",
            "Trailpéak Jacket",
            "'Trailpeak Jacket'",
            "The Trailpeak Jacket is the top-rated item for $100 or less.",
            "Trailpeak Jacket: 4.8 out of 5",
            "It is the Trailpeak Jacket, and it costs $89.99.",
            "Trailpeak Jacket\u200b",
            "Trailpeak Jacket, either way",  # whichever reading: one product
        ],
        [
            "Trailpeak Jacket Pro",
            "Summit Fleece",
            "Trailpeak Jacket or Summit Fleece",
            "either the Trailpeak Jacket or the Summit Fleece",
            "Trailpeak Jacket, Trailpeak Jacket Pro, Summit Fleece, Ridge Rain Shell",
            "Trailpeak",
            "Jacket",
            "",
            "I don't know",
            "Trailpeak Jacket or the Pro version",
            "Trailpeak Jacket and Summit Fleece",
            "Trailpeak Jackets",
            "Trail peak Jacket",
            "TrailpeakJacket",
            "Summit Fleece (not the Trailpeak Jacket)",
            "Trailpeak Jacket / Summit Fleece",
            "Either one",
            "Ridge Rain Shell",
            "Trailpeak Jacket Pro or Trailpeak Jacket",
            "the jacket",
            "Trailpeak Jacket and/or Summit Fleece",
            "Trailpeak Jacket, or maybe Ridge Rain Shell",
            "\x00",
            "Trailpeak Jacket Pro is best",
            "Trailpeak Jacket or",
        ],
    ),
    "list": (
        ["red", "green", "blue"],
        {},
        [
            "red, green, blue",
            "red, green and blue",
            "Red; Green; Blue",
            "red\ngreen\nblue",
            "Colors: red, green, blue",
            "red, green, and blue",
            "RED, GREEN, BLUE",
            "red,green,blue",
            "red , green , blue.",
            "- red\n- green\n- blue",
            "red & green & blue",
            "The colours are: red, green and blue",
            "“red”, “green”, “blue”",
            "red; green and blue",
            "red, green & blue.",
            "* red\n* green\n* blue",
            "red,\ngreen,\nblue",
            "In order: red, green, blue",
            "red, green, blue!",
            "Red, green and blue.",
            "red\n\ngreen\n\nblue",
            "red,  green,  blue",
            "'red', 'green', 'blue'",
            "red; green; blue;",
            "Answer: red, green, blue",
            "red , green and blue",
        ],
        [
            "red, blue, green",
            "red, green",
            "red, green, blue, yellow",
            "red or green or blue",
            "red, green or blue",
            "",
            "green",
            "blue, green, red",
            "red green blue",
            "red, red, green, blue",
            "red, green, blue or yellow",
            "either red, green, blue",
            "none",
            "red, grey, blue",
            "red, green, blue, and maybe yellow",
            "rouge, vert, bleu",
            "red/green/blue",
            "1, 2, 3",
            "red, green, blu",
            "reds, greens, blues",
            "red; green",
            "green, red, blue",
            "red, blue",
            "Colors: red, green",
            "\x00",
            "red, green, blue and/or yellow",
        ],
    ),
}
#: Wrong as a list, right as a set: another order, an item said twice.
SAME_SET = ("red, blue, green", "blue, green, red", "green, red, blue", "red, red, green, blue")
TABLE["set"] = (
    ["red", "green", "blue"],
    {},
    [
        *TABLE["list"][2],
        "blue, green, red",
        "green; red; blue",
        "blue and red and green",
    ],
    [
        *(t for t in TABLE["list"][3] if t not in SAME_SET),
        "blue, red",
        "green, red, blue, black",
        "red, green, or blue",
    ],
)
#: More of the same kinds: file names and confirmation numbers, as their templates ask them.
MORE = [
    (
        "name",
        "q1-budget.csv",
        {"candidates": ["q1-budget.xlsx", "notes.txt", "q1-budget", "notes"]},
        text,
        ok,
    )
    for text, ok in [
        ("The file is q1-budget.csv", True),
        ("q1-budget.csv", True),
        ("Q1-Budget.CSV", True),
        ("“q1-budget.csv” (12 KB)", True),
        ("q1-budget", False),
        ("q1-budget.xlsx", False),
        ("q1-budget.csv, notes.txt", False),
        ("q1-budget.csv or q1-budget.xlsx", False),
        ("q1-budget.csv, q1-budget", False),
    ]
] + [
    ("identifier", "CLM-48213377", {"candidates": ["EXP-10293847", "APT-55512345"]}, text, ok)
    for text, ok in [
        ("Your confirmation number is CLM-48213377.", True),
        ("clm 48213377", True),
        ("CLM-48213377 (submitted 2026-02-11)", True),
        ("CLM-48213377, EXP-10293847", False),
        ("48213377", False),
        ("EXP-10293847", False),
        ("CLM-48213377, EXP-10293847, APT-55512345", False),
        ("CLM-48213378", False),
    ]
]

CASES = [
    (kind, expected, options, text, ok)
    for kind, (expected, options, passing, failing) in TABLE.items()
    for ok, texts in ((True, passing), (False, failing))
    for text in texts
] + MORE


def test_the_table_has_25_phrasings_each_way_for_every_kind():
    assert set(TABLE) == set(KINDS)
    for kind, (_, _, passing, failing) in TABLE.items():
        assert len(set(passing)) >= 25 and len(set(failing)) >= 25, kind


@pytest.mark.parametrize(("kind", "expected", "options", "text", "ok"), CASES)
def test_a_phrasing_grades_as_a_careful_reader_would(kind, expected, options, text, ok):
    result = grade(kind, text, expected, **options)
    assert result.passed is ok, result.reason
    assert result.reason


def test_a_date_without_a_year_needs_the_year_from_the_task():
    assert not grade("date", "March 4", date(2026, 3, 4)).passed
    assert "no year" in grade("date", "March 4", date(2026, 3, 4)).reason
    assert grade("date", "March 4, 2026", date(2026, 3, 4)).passed
    assert grade("date", "March 4", date(2026, 3, 4), year=2026).passed


def test_a_slashed_date_is_read_month_first_as_in_the_us():
    assert grade("date", "4/3/2026", date(2026, 4, 3)).passed
    assert not grade("date", "4/3/2026", date(2026, 3, 4)).passed


def test_a_numeric_date_is_read_day_first_where_only_that_is_a_date():
    # Dots are written day first; a slash month first, unless only the other way is a date.
    for text in ("20.01.2027", "20/01/2027", "1/20/2027", "01.20.2027", "the 20/1"):
        assert grade("date", text, date(2027, 1, 20), year=2027).passed, text
    for text in ("31.02.2027", "20/13/2027"):
        assert "not a calendar date" in grade("date", text, date(2027, 1, 20)).reason, text
    # A version or an id of dotted numbers is no date, nor blanked as one beside an id.
    assert grade("date", "v1.2.2026 shipped on March 4, 2026", date(2026, 3, 4)).passed
    hedge = "Your confirmation number is 48213907 (or 48.21.3908)."
    assert not grade("identifier", hedge, "48213907").passed
    # A dotted date joined to another day offers that day too.
    for text in ("4-5.3.2026", "4/5.3.2026", "4th/5.3.2026", "4 5.3.2026", "5.3.2026/6"):
        assert not grade("date", text, date(2026, 3, 5)).passed, text
    # Two dotted dates, side by side or as a range, are two dates.
    for text in ("04.03.2026 – 05.03.2026", "Arrives 4 – 05.03.2026", "04.03.2026\n05.03.2026"):
        for day in (4, 5):
            assert not grade("date", text, date(2026, 3, day)).passed, (text, day)
    assert grade("date", "Room 2, 04.03.2026", date(2026, 3, 4)).passed


def test_a_grade_says_why():
    assert grade("money", "$58.20 or $61.00", 5820).reason.endswith("a hedge")
    assert grade("money", "$61.00", 5820).reason == "answered $61.00, expected $58.20"
    assert "not a calendar date" in grade("date", "On 2026-02-30", date(2026, 3, 2)).reason
    assert grade("money", "", 5820) == Grade(False, "empty answer")


# -- reading one value off a page (oracles), as before ---------------------------------------


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [
        ("money", "$24.99", 2499),
        ("money", "It costs $1,204.50.", 120450),
        ("money", "24.9", 2490),
        ("money", "USD 7", 700),
        ("number", "There are 12 reviews.", Decimal(12)),
        ("number", "1,024", Decimal(1024)),
        ("number", "-3.5", Decimal("-3.5")),
        ("date", "2026-03-04", date(2026, 3, 4)),
        ("date", "March 4, 2026", date(2026, 3, 4)),
        ("date", "March 4th, 2026", date(2026, 3, 4)),
        ("string", "  Trailpeak  JACKET! ", "trailpeak jacket"),
        ("list", "red, green and blue", ["red", "green", "blue"]),
        ("set", "blue; red", frozenset({"red", "blue"})),
    ],
)
def test_answers_normalise_to_one_typed_value(kind, text, value):
    assert parse_answer(kind, text) == value


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("money", "$24.99 or $19.99"),
        ("money", "no idea"),
        ("money", "$10, $11, $12, $13"),
        ("number", "12 or 13"),
        ("number", ""),
        ("date", "March 4, 2026 or 2026-03-05"),
        ("date", "soon"),
        ("date", "2026-02-30"),
    ],
)
def test_answers_with_no_single_value_are_refused(kind, text):
    with pytest.raises(AnswerError):
        parse_answer(kind, text)


# -- addresses in written replies -------------------------------------------------------------

STREETS = ["764 Howard Forge Apt. 421", "4133 Sellers Street", "063 Wood Islands Apt. 233"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Here it is:\n4133 Sellers Street\nEast Noahhaven, NM 66978", True),
        ("4133 sellers st, East Noahhaven, NM 66978", True),
        ("It's 4133 SELLERS STREET, East Noahhaven NM 66978.", True),
        ("4133 Sellers Street, 66978", True),
        ("4133 Sellers Street", False),  # no ZIP code
        ("764 Howard Forge Apt. 421, Vanessaside, VT 79393", False),
        ("4133 Sellers Street 66978, or 764 howard forge apt 421", False),
        ("\n".join(s.lower() for s in STREETS) + "\n66978", False),
        ("", False),
        # doubt, or another address offered: in words, by its shape, named in part
        (
            "4133 Sellers Street, 66978. Not sure though, it might be the Wood Islands Apt. 233"
            " one instead, or maybe 12 Elm St.",
            False,
        ),
        ("4133 Sellers Street, 66978 or 12 Elm St", False),
        ("4133 Sellers Street, 66978 or twelve North Oak Avenue", False),
        ("4133 Sellers Street, 66978 or 764 Howard", False),
        ("4133 Sellers Street 66978, not sure, could be 12 N Oak", False),
        ("4133 Sellers Street, 66978. Also try 12 Elm St.", False),
        ("4133 Sellers Street, 66978; the other one is on Howard Forge.", False),
        ("4133 Sellers Street, 66978\nOr maybe the Wood Islands place.", False),
        ("4133 Sellers Street, 66978, probably.", False),
        ("4133 Sellers Street, 66978 / 063 Wood", False),
        # a line written as a quote is the writer's all the same (the site's own quote of the
        # asking e-mail is taken out by the caller: tests/tasks/test_answer_checks.py)
        ("4133 Sellers Street, 66978\n> Not sure, maybe 77 Pine Road.", False),
        # an "or" that offers no other address
        (
            "Hi Ann,\n\n4133 Sellers Street, East Noahhaven, NM 66978 - let me know if you need"
            " anything else or want me to resend it.\n\nSam",
            True,
        ),
        ("4133 Sellers Street, East Noahhaven, NM 66978. It's next to the Oak Park cafe.", True),
        # an "or" that offers something to do, not a place; a parcel that "fails to arrive"
        (
            "4133 Sellers Street\nEast Noahhaven, NM 66978\n\nOr just leave it with the"
            " neighbour if I'm out.",
            True,
        ),
        (
            "4133 Sellers St, East Noahhaven, NM 66978 — send it whenever, no rush, or call me"
            " first.",
            True,
        ),
        ("4133 Sellers St, East Noahhaven, NM 66978. Thanks! Or should I pick it up?", True),
        ("4133 Sellers St, East Noahhaven, NM 66978. If it fails to arrive, I'll tell you.", True),
        ("4133 Sellers St, 66978. Arguably the easiest place to reach me.", True),
        # ... but another place after it, a fallback, a ranking word beside another still fail
        ("4133 Sellers St, East Noahhaven, NM 66978. Or my office.", False),
        ("4133 Sellers St, East Noahhaven, NM 66978. Or should I send it to the Wood one?", False),
        ("4133 Sellers St, East Noahhaven, NM 66978 (use my office address if that fails)", False),
        ("4133 Sellers St, East Noahhaven, NM 66978. Arguably my old place is better.", False),
        ("4133 Sellers St, East Noahhaven, NM 66978. If that fails, try Howard Forge.", False),
    ],
)
def test_an_address_is_read_as_a_person_writes_it_and_no_other_may_be_given(text, ok):
    others = [s for s in STREETS if s != "4133 Sellers Street"]
    result = grade_address(text, "4133 Sellers Street", "66978", others)
    assert result.passed is ok, result.reason


# -- properties: nothing raises; a right answer in a neutral sentence passes -----------------

_PIECES = [
    *"0123456789$,./-:+() \n\t#%",
    "\x00",
    "\u202e",
    "\ufeff",
    "١٢",
    "１",
    "AM",
    "pm",
    "March ",
    "Feb ",
    "30",
    "2026",
    "-02-30",
    "99999999999999999999999",
    "or ",
    "either ",
    "1Z",
    "Trailpeak Jacket",
    "USD",
    " dollars",
    "noon",
    "é",
    "\U0001f600",
    "about ",
    "~",
    "\u2265",
    "I think ",
    "not sure",
    "\u2086\u2082",
    "\u00b2\u2070",
    "sixty-one dollars ",
    "the fifth",
    "one-Z-V-J-seven-B",
    "(sent ",
    " o ",
    " / ",
    "Room 2 or ",
    "at the latest",
]
NASTY = st.one_of(st.text(), st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
EXPECTED = {kind: value for kind, (value, _, _, _) in TABLE.items()}


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(KINDS), text=NASTY)
def test_no_text_ever_raises(kind, text):
    result = grade(kind, text, EXPECTED[kind], **TABLE[kind][1])
    assert isinstance(result, Grade) and isinstance(result.passed, bool) and result.reason
    assert isinstance(grade_address(text, "4133 Sellers Street", "66978", STREETS), Grade)


def test_huge_and_long_texts_are_graded_not_raised():
    for text in ("9" * 100_000, "$" + "9" * 5000, "1/" * 3000, "March " * 2000, "\x00" * 10**5):
        for kind in KINDS:
            assert not grade(kind, text, EXPECTED[kind]).passed


SENTENCES = ["{}", "The answer is {}.", "It's {}!", "I checked: it is {}, hope that helps.", "“{}”"]
LIST_SENTENCES = ["{}", "Here you go: {}", "The items are: {}.", "{}\n"]
#: A made-up word for names and items; not a hedge word ("Tbc", or "Either" in a sentence): a
#: name that is one is no neutral answer to begin with.
WORD = st.from_regex(r"[A-Z][a-z]{2,8}", fullmatch=True).filter(
    lambda w: w != "Either" and grade("name", w, w).passed
)


def _twelve(hour: int) -> int:
    return hour % 12 or 12


RENDERED = {
    "money": st.integers(0, 10**9).flatmap(
        lambda c: st.tuples(
            st.just(c),
            st.sampled_from(
                [
                    f"${c / 100:,.2f}",
                    f"${c // 100}.{c % 100:02d}",
                    f"{c // 100}.{c % 100:02d} dollars",
                    f"USD {c // 100:,}.{c % 100:02d}",
                ]
            ),
            st.just({}),
        )
    ),
    "number": st.integers(0, 10**6).flatmap(
        lambda n: st.tuples(st.just(n), st.sampled_from([str(n), f"{n:,}"]), st.just({}))
    ),
    "date": st.dates(date(1900, 1, 1), date(2100, 12, 31)).flatmap(
        lambda d: st.tuples(
            st.just(d),
            st.sampled_from(
                [
                    d.isoformat(),
                    f"{d:%B} {d.day}, {d.year}",
                    f"{d.month}/{d.day}/{d.year}",
                    f"{d:%a}, {d:%b} {d.day}, {d.year}",
                    f"{d.day} {d:%B} {d.year}",
                    f"{d:%B} {d.day}",
                ]
            ),
            st.just({"year": d.year}),
        )
    ),
    "time": st.times().flatmap(
        lambda t: st.tuples(
            st.just(t.replace(second=0, microsecond=0)),
            st.sampled_from(
                [
                    f"{_twelve(t.hour)}:{t.minute:02d} {'PM' if t.hour >= 12 else 'AM'}",
                    f"{t.hour:02d}:{t.minute:02d}",
                ]
            ),
            st.just({}),
        )
    ),
    "phone": st.tuples(st.integers(200, 999), st.integers(200, 999), st.integers(0, 9999)).flatmap(
        lambda p: st.tuples(
            st.just(f"({p[0]}) {p[1]}-{p[2]:04d}"),
            st.sampled_from(
                [
                    f"({p[0]}) {p[1]}-{p[2]:04d}",
                    f"{p[0]}-{p[1]}-{p[2]:04d}",
                    f"+1 {p[0]} {p[1]} {p[2]:04d}",
                    f"{p[0]}.{p[1]}.{p[2]:04d}",
                    f"{p[0]}{p[1]}{p[2]:04d}",
                ]
            ),
            st.just({}),
        )
    ),
    "identifier": st.from_regex(r"(1Z[A-Z0-9]{16}|[A-Z]{3}-[0-9]{8})", fullmatch=True).flatmap(
        lambda i: st.tuples(st.just(i), st.sampled_from([i, i.lower()]), st.just({}))
    ),
    "name": st.lists(WORD, min_size=1, max_size=4).map(" ".join).map(lambda n: (n, n, {})),
    "list": st.lists(WORD, min_size=2, max_size=5, unique_by=str.lower).map(
        lambda items: (items, ", ".join(items), {})
    ),
}
RENDERED["set"] = RENDERED["list"]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), kind=st.sampled_from(KINDS))
def test_a_right_answer_in_a_neutral_sentence_passes(data, kind):
    expected, written, options = data.draw(RENDERED[kind])
    sentence = data.draw(st.sampled_from(LIST_SENTENCES if kind in ("list", "set") else SENTENCES))
    result = grade(kind, sentence.format(written), expected, **options)
    assert result.passed, result.reason


# -- in the env: an answer is graded, never raised ------------------------------------------

CRASHERS = ["It was on 2026-02-30", "9" * 5000, "\x00\u202e$", "March 44, 2026", ""]


def send(text: str) -> str:
    return f"send_msg_to_user({json.dumps(text)})"


def test_any_answer_ends_the_episode_with_a_normal_step(browser):
    with gym.make("webenv/mail.meeting_date-v0") as env:
        for text in CRASHERS:
            env.reset(seed=0)
            _, reward, terminated, truncated, _ = env.step(send(text))
            assert terminated and not truncated and reward == 0.0, text
            assert not webenv.grader_view(env).check["success"]


@pytest.mark.browser  # Chromium in a thread of its own
def test_any_answer_in_a_vector_env_is_a_normal_step():
    def body() -> tuple[Any, ...]:
        envs = gym.make_vec("webenv/mail.meeting_date-v0", num_envs=2)
        try:
            envs.reset(seed=[0, 1])
            return envs.step([send(CRASHERS[0]), send(CRASHERS[1])])
        finally:
            envs.close()

    _, rewards, terminated, truncated, _ = in_thread(body)
    assert list(rewards) == [0.0, 0.0]
    assert list(terminated) == [True, True] and not truncated.any()


#: Hedges whose second candidate is written in a form the kind's reader passes over (an
#: unmarked amount, a number word, an ordinal, a percentage, a short phone number, an id without
#: its prefix): each named another value all the same.
DISGUISED_HEDGES = [
    ("money", "$164.17 or maybe 58.62", 16417),
    ("money", "$23.00 or 26.00", 2300),
    ("number", "3, or possibly four", 3),
    ("number", "3 or 4%", 3),
    ("number", "4 or #5", 4),
    ("number", "4 or 5th", 4),
    ("number", "5, or maybe six", 5),
    ("date", "2026-03-11 or the 12th", "2026-03-11"),
    ("phone", "(403) 555-9876 or 555-6795", "(403) 555-9876"),
    ("identifier", "APT-40588650, or maybe 28527142", "APT-40588650"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), DISGUISED_HEDGES)
def test_a_second_candidate_in_another_form_is_a_hedge(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed and "hedge" in result.reason, result
    # ...while the value alone, in the same words, passes.
    assert grade(kind, text.split(" or")[0].rstrip(","), expected).passed


@pytest.mark.unit
@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("4133 Sellers Street\nNorth Mary, KS 66978", True),
        ("It's 4133 Sellers St, North Mary, Kansas 66978.", True),
        ("4133 sellers street, north mary ks 66978", True),  # the code before the ZIP
        ("4133 sellers street, north mary, 66978, ks", False),  # "ks" may be a word there
        ("4133 Sellers Street, North Mary, Kansas, 66978", True),
        ("4133 Sellers Street, 66978", False),  # no city, no state
        ("4133 Sellers Street, Mary, KS 66978", False),  # another city
        ("4133 Sellers Street, North Maryville, KS 66978", False),
        ("4133 Sellers Street, North Mary, MO 66978", False),  # another state
        ("4133 Sellers Street, North Mary 66978", False),
        ("4133 Sellers Street, N. Mary, KS 66978", True),  # the city's "North" shortened
        ("4133 Sellers Street\nNorth Mary, KS. ZIP: 66978", True),
        ("OK, here it is: 4133 Sellers St, North Mary 66978.", False),  # "OK" is no state
        ("4133 Sellers St, North Mary, TX 66978 (not KS)", False),  # the state given is TX
        ("HI! 4133 Sellers St, North Mary, 66978", False),
    ],
)
def test_an_address_with_its_city_and_state_needs_both(text, ok):
    others = [s for s in STREETS if s != "4133 Sellers Street"]
    states = {"KS": "Kansas", "MO": "Missouri", "OK": "Oklahoma", "HI": "Hawaii",
              "VA": "Virginia", "WV": "West Virginia", "TX": "Texas"}  # fmt: skip
    result = grade_address(text, "4133 Sellers Street", "66978", others, "North Mary", "KS", states)
    assert result.passed is ok, result.reason


@pytest.mark.unit
@pytest.mark.parametrize(
    ("given", "wanted", "ok"),
    [("West Virginia", "VA", False), ("West Virginia", "WV", True), ("Virginia", "VA", True)],
)
def test_a_state_is_read_by_the_longest_name_that_fits(given, wanted, ok):
    states = {"VA": "Virginia", "WV": "West Virginia"}
    text = f"4133 Sellers Street, North Mary, {given} 66978"
    result = grade_address(text, "4133 Sellers Street", "66978", (), "North Mary", wanted, states)
    assert result.passed is ok, result.reason

"""The answer read from a message never depends on the value the grader expects.

A hedge is worth something to a policy only if one message earns the reward for more than one
truth. So the first property here: no message, whatever it offers, passes for two different
expected values. The second: numbers a careful person writes beside an amount or a count that
are not a second answer are set aside, the same way whatever the answer: a breakdown that sums
to the value ("3 tickets (2 about billing, 1 about shipping)", "$38.25 + $3.12 = $41.37"), a
difference worked to it ("$44.49 − $3.12 = $41.37"), a part named as a part ("including $3.12
tax"), a larger whole it is out of ("$41.37 of the $44.49 you spent", "7 (out of 10)"), a length
of time beside a count ("in the last 30 days"), a count out of a total written with a slash
("7/10 invitees").
"""

from __future__ import annotations

import itertools
from datetime import date, time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webenv.answers import grade

#: (expected cents, [(text, passes)])
MONEY_ROWS = [
    # a part of the whole, named as one
    ("$41.37 including $3.12 tax", True),
    ("The total was $41.37, including $3.12 tax.", True),
    ("$41.37 (including $3.12 tax)", True),
    ("$41.37 with $5.99 shipping included", True),
    ("Total $41.37 (tax: $3.12)", True),
    ("Order NM-10234-5 came to $41.37 - shipping $5.99, tax $3.12.", True),
    ("$41.37 after a $5.00 discount", True),
    ("$41.37, of which $3.12 was tax", True),
    ("$41.37, of which $3.12 is shipping", True),
    # a breakdown that sums to the answer, in brackets, after a colon, or worked
    ("$41.37 ($38.25 + $3.12 tax)", True),
    ("$41.37 ($35.00 items, $6.37 shipping)", True),
    ("It came to $41.37: $38.25 for the shirt and $3.12 in tax.", True),
    ("$38.25 + $3.12 = $41.37", True),
    ("$41.37 ($40 + $1.37)", True),
    ("$44.49 − $3.12 = $41.37", True),
    ("$44.49 - $3.12 = $41.37", True),
    ("You'd add $44.49 minus $3.12 = $41.37 more.", True),
    ("$44.49 − $3.12 is $41.37", True),
    ("$44.49 − $3.12 = **$41.37**", True),
    ("$41.37 ($44.49 − $3.12)", True),
    ("$41.37 = $44.49 − $3.12", True),
    ("$41.37 = $44.49 − $3.11", False),
    ("$41.37 ($44.49 − $3.12), maybe $40", False),
    # a part of a larger whole it names
    ("You can claim $41.37 of the $44.49 you spent.", True),
    ("$41.37 out of your $44.49 budget", True),
    ("$41.37 (of $44.49)", True),
    ("Of the $44.49 you spent, $41.37 can be claimed.", True),
    ("Of the $40.00 you spent, $41.37 can be claimed.", False),  # a whole below its part
    # still a second amount
    ("$41.37 ($44.49 with shipping)", False),
    ("$41.37, or $44.49 with $3.12 tax", False),
    ("$41.37 or $44.49 including $3.12 tax", False),
    ("$41.37 or $44.49 (tax $3.12)", False),
    ("$41.37/$44.49 incl. $3.12 tax", False),
    ("$41.37 (or $3.12 tax)", False),
    ("$41.37 ($40 + $2)", False),  # addends that do not sum to it are amounts
    ("$38.25 + $3.12 = $41.37, maybe $44.49", False),
    ("$44.49 − $3.12 = $41.37, maybe $44.49", False),
    ("$44.49 − $3.12 = $41.36", False),  # a difference worked wrong is three amounts
    ("$44.49 of the $41.37", False),  # a "whole" smaller than its part is another amount
    ("$41.37 or $38.25 + $3.12", False),
    # the part is not the answer, nor a wrong whole beside its part
    ("$44.49 including $3.12 tax", False),
    ("$3.12 tax", False),
    # a "part" no smaller than the whole is another whole
    ("$41.37 (including shipping $44.49)", False),
    ("It's $41.37. Total with tax: $44.49.", False),
    ("$41.37 ($44.49 tax included)", False),
    ("$41.37, $44.49 in tax", False),
    ("$41.37, and the discount came to $44.49", False),
    # a breakdown with a guess, a condition or a negative addend offers another value
    ("$41.37 ($44.49 with shipping, -$3.12)", False),
    ("$41.37 ($44.49 maybe, and -$3.12)", False),
    ("$41.37: $44.49 if shipping counts, -$3.12 otherwise", False),
    # numbers the amount readers pass over stay passed over beside a part
    ("Your 2025 sales tax was $3.12.", True),
    ("Tax: $3.12 (order 1042)", True),
    ("Shipping was $5.99 for the 2 boxes.", True),
    ("The tip was $8.00 for a party of 4.", True),
    ("Shipping: $5.99 (Ground, 5-7 business days)", True),
    # a whole after a part, or a part offered after an "or", is another whole
    ("$41.37 (with the coupon $38.25)", False),
    ("$41.37 (after discount: $38.25)", False),
    ("$41.37 (before tax $38.25)", False),
    ("$41.37, or the discount $38.25", False),
    ("$41.37 ($38.25 + $3.12, arguably)", False),
    ("$41.37 ($38.25 + $3.12; the receipt says sixty-one dollars)", False),
]
#: Expected amounts of :data:`MONEY_ROWS` other than $41.37, by text.
OTHER_AMOUNTS = {
    "Your 2025 sales tax was $3.12.": 312,
    "Tax: $3.12 (order 1042)": 312,
    "Shipping was $5.99 for the 2 boxes.": 599,
    "The tip was $8.00 for a party of 4.": 800,
    "Shipping: $5.99 (Ground, 5-7 business days)": 599,
}
COUNT_ROWS = [
    ("7 orders in the last 30 days", True),
    ("You got 7 messages from her within 2 weeks.", True),
    ("7 (the last one 3 days ago)", True),
    ("7 open tickets (4 about billing, 3 about shipping)", True),
    ("7 (4 in the Inbox + 3 archived)", True),
    ("4 + 3 = 7", True),
    ("7/10 invitees declined", True),
    ("7 out of 10 invitees declined", True),
    ("7 free times (out of 10).", True),
    ("There are 7 free times that day, of 10 in all.", True),
    ("7 free, out of 10 in total", True),
    ("7 free times, out of 10", True),
    ("7 (of the 10 slots)", True),
    ("7 (of 10), or 8", False),
    ("10 - 3 = 7", True),
    ("10 − 3 → 7", True),
    ("7 (10 − 3)", True),
    ("7 (out of 10), maybe 8", False),
    ("10 (out of 7)", False),
    ("7 (8 in the last 30 days)", False),
    ("7, or 8 over 2 weeks", False),
    ("7 in the last 30 days, 9 in the last 60 days", False),
    ("7 (4 + 2)", False),
    ("4 + 3 = 7, or 8", False),
    ("7 (4 + 4)", False),
    ("30 days", False),
    ("8/10 invitees", False),
    ("7 or 8 (3 days ago)", False),
    ("7 (3 + 4) or 9 (5 + 4)", False),
    ("7 (8 with archive, -1 duplicate)", False),
    ("7: 8 if Ann's counts, -1 for the duplicate", False),
    ("7 (9 days with the holiday)", False),
    ("7 messages over the last 2 weeks (3 this week, 4 last week)", True),
    # dates, ratings and measures with a slash are no count out of a total
    ("You received 7 orders on 3/14 from Ann.", True),
    ("There are 7 reviews, averaging 4/5 stars.", True),
    ("7 cookies (1/2 cup of sugar each)", True),
    ("This one took 7 days to arrive.", True),
    ("Your 3/14 deliveries: 7", True),
    ("7 boards, each 1/2 inches thick", True),
    ("You have 7 open tickets; archived tickets are excluded.", True),
    # a breakdown with a value in words, a ranking, a report or a qualifier offers another
    ("7 (5 open, 2 closed, one more archived)", False),
    ("7 (5 open and 2 closed, eight all told)", False),
    ("7 (5 + 2; the archive shows eight)", False),
    ("7: 5 open and 2 closed, arguably", False),
    ("7 (about 5 open and 2 closed)", False),
    # the counts first, then their total
    ("4 in the Inbox and 3 archived, so 7 in total.", True),
    ("- Inbox: 4\n- Archive: 3\n**Total: 7**", True),
    ("Inbox: 4 / Archive: 3 / Total: 7", True),
    ("Inbox: 4, Archive: 3. Total: 7", True),
    ("Four open and three closed: seven in all.", True),
    ("7 tickets in total, 4 open and 3 closed.", True),
    ("Total: 7 tickets, 4 open and 3 closed", True),
    ("4, or 7 in total", False),
    ("4 I think, 3 archived, 7 in total", False),
    ("Inbox: 4, Archive: 4. Total: 7", False),
    ("Inbox: 4 / 3 / Total: 7", False),
    ("Inbox: 4, Archive: 3. Total: 7, 8 with drafts", False),
    ("Inbox: 4, Archive: 3. Total: 7 or 8", False),
    ("7 in total, 4 open and 3 closed, maybe 2", False),
    ("7 in total, 1 more in drafts", False),
    ("4 open, 3 closed, of 7 in all", False),  # a whole it is out of, not its sum
    # a count of days beside a count of days is a second count, not an aside
    ("It took 7 days (for 9 days counting the weekend)", False),
    ("7 business days, over 9 calendar days", False),
    ("7 (or the count for 8 days)", False),
]


@pytest.mark.parametrize(("text", "ok"), MONEY_ROWS)
def test_an_amount_beside_its_parts(text, ok):
    result = grade("money", text, OTHER_AMOUNTS.get(text, 4137))
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(
    "text",
    [
        "$44.49 − $3.12 is $41.37",
        "$44.49 − $3.12 leaves $41.37",
        "$44.49 − $3.12 = **$41.37**",
        "$44.49 − $3.12 → $41.37",
        "$41.37 ($44.49 − $3.12)",
    ],
)
def test_a_worked_difference_is_read_as_its_result_not_its_first_amount(text):
    # Read as a breakdown ($3.12 + $41.37 = $44.49), it answered the first amount instead.
    assert grade("money", text, 4137).passed
    assert not grade("money", text, 4449).passed


@pytest.mark.parametrize(("text", "ok"), COUNT_ROWS)
def test_a_count_beside_its_parts_and_a_length_of_time(text, ok):
    result = grade("number", text, 7)
    assert result.passed is ok, result.reason


DOUBTS = ["(estimated)", "(approx.)", "(est)", "(could not verify)", "(?)", "(!?)", "(at least)"]
DOUBTS += ["(lower bound)", "(needs checking)", "(so far)", "(partial)", "(incomplete)"]
#: Counts before or after their total (7) that are no plain parts of it: doubt, an open or
#: unknown part, an earlier answer or a second total, a range, unlabelled numbers.
NOT_PARTS = [
    *(f"Inbox: 4 {aside}, Archive: 3. Total: 7" for aside in DOUBTS),
    *(f"Inbox: {four}, Archive: 3. Total: 7" for four in ("4+", ">4", "~4", "~ 4", "3-4")),
    *(
        f"Inbox: 4, Archive: 3, Spam: {unknown}. Total: 7"
        for unknown in ("a few", "several", "some", "unknown", "?", "TBD", "N/A", "didn't check")
    ),
    "7 in total: 4 shipped (estimated) and 3 pending",
    "It's 0. Inbox: 4, Archive: 3. Total: 7",
    "The answer is 4. Inbox: 1, Archive: 2. Total: 7",
    "Overall 4. Inbox: 1, Archive: 2. Total: 7",
    "6 unread, 1 extra: 7 in total",
    "6 (1 additional): 7 in total",
    "4 → 3. Total 7",
    "4, alt 3, total 7",
    "4, hmm, 3. Total 7",
    "Answer A: 4. Answer B: 3. Total: 7",
    "First try 4, second try 3; total 7",
    "Inbox: 4 | 3 | Total: 7",
    "Inbox: 3 to 4, Archive: 1, total 7",
    "4 3 7 total",
    "4\n3\n7 total",
    # an earlier count outside the parts, a part in doubt or open, another reading
    "3 emails. Inbox: 2, Archive: 2. Total: 7",
    "Unread emails: 3. Inbox: 2, Archive: 2. Total: 7",
    "3 unread\n- Inbox: 2\n- Archive: 2\n**Total: 7**",
    *(f"Clear: 6, {doubt}: 1. Total: 7" for doubt in ("Questionable", "Possible duplicate")),
    "6 clear and 1 disputed, so 7 in total",
    "7 in total, 6 clear and 1 counted twice",
    *(f"Inbox: 4, Archive: 3, Drafts: {x}. Total: 7" for x in ("failed to load", "-", "#5")),
    "Drafts: 5th, Inbox: 4, Archive: 3. Total: 7",
    "Min: 4, Max: 3. Total: 7",
    "Old count: 4, new count: 3. Total: 7",
]
#: The same, written as careful people write them.
PARTS = [
    "Inbox: 4, Archive: 3. Total: 7.",
    "Inbox: 4 | Archive: 3 | Total: 7",
    "Here's the breakdown:\nInbox: 4\nArchive: 3\nTotal: 7",
    "Total number of unread emails: 7",
    "**Total: 7.** (Inbox: 4, Archive: 3)",
    "Inbox: 4\nArchive: 3\nTotal: 7",
    "- Inbox: 4\n- Archive: 3\n- Total: 7",
    "Inbox: 4, Archive: 3 — Total: 7",
    "4 in the inbox and 3 archived, for a total of 7 emails.",
]


@pytest.mark.parametrize("text", NOT_PARTS)
def test_counts_that_are_no_plain_parts_of_their_total_leave_a_hedge(text):
    assert not grade("number", text, 7).passed


@pytest.mark.parametrize("text", PARTS)
def test_counts_listed_with_their_total_in_any_layout(text):
    result = grade("number", text, 7)
    assert result.passed, result.reason


@pytest.mark.parametrize(
    "text", ["Inbox: 4, Archive: 3. Total: 7", "7 tickets in total, 4 open and 3 closed."]
)
def test_counts_beside_their_total_are_not_the_answer(text):
    assert grade("number", text, 7).passed
    assert not grade("number", text, 4).passed
    assert not grade("number", text, 3).passed


@pytest.mark.parametrize("text", ["not three - four", "Not $3.00 - $4.00", "not 3/4 - 3/5/2026"])
def test_a_message_read_whole_and_without_what_it_rules_out_passes_for_one_value_at_most(text):
    # Read whole, "three - four" was one number (7); without "not three", 4: it passed for both.
    for kind, values in (
        ("number", range(13)),
        ("money", (300, 400, 700, 100)),
        ("date", (date(2026, 3, 4), date(2026, 3, 5))),
    ):
        assert sum(grade(kind, text, value, year=2026).passed for value in values) <= 1


def test_a_lone_part_is_read_when_it_is_all_there_is():
    # A question about the tax is answered with the tax alone.
    assert grade("money", "$3.12 in tax", 312).passed
    assert grade("money", "Tax: $3.12", 312).passed
    assert grade("number", "30 days", 30).passed


def test_a_bare_time_is_read_one_way_whatever_the_answer():
    # "the meeting is at 2:30" is in the afternoon; "9:30" in the morning; never both ways.
    assert grade("time", "The meeting is at 2:30.", time(14, 30)).passed
    assert not grade("time", "The meeting is at 2:30.", time(2, 30)).passed
    assert grade("time", "9:30", time(9, 30)).passed
    assert not grade("time", "9:30", time(21, 30)).passed


#: Ways of putting a second value beside the first: offered, set apart, reported, listed.
FRAMES = [
    "{a} or {b}",
    "either {a} or {b}",
    "{a}/{b}",
    "{a} - {b}",
    "{a} (maybe {b})",
    "{a}, {b}",
    "{a} and {b}",
    "{a}; {b}",
    "{a}\n{b}",
    "Answer: {a}\nAlt: {b}",
    "{a} (or {b})",
    "{a}, unless it's {b}",
    "{a}. Actually {b}.",
    "{a}? {b}?",
    "{a} ({b} on the receipt)",
    "{a}. The receipt says {b} though.",
    "{a}, as well as {b}",
    "{a} (plus {b})",
    "{a} vs {b}",
    "{a} [{b}]",
    "{a} ({b})",
    "{a}: {b}",
    "between {a} and {b}",
    "{a} to {b}",
    "{a} if new, {b} if old",
    "{a} now, {b} earlier",
    "{a} {b}",
    "It is {a}. It was {b}.",
    "{a} (the other one is {b})",
    "{a} including {b} tax",
    "{a} ({b} + {b})",
    "{b} + {a} = {a}",
    "{a} in the last {b} days",
]


def _money_forms(cents: int) -> list[str]:
    amount = f"{cents // 100}.{cents % 100:02d}"
    return [f"${amount}", amount, f"{amount} dollars", f"USD {amount}"]


def _time_forms(value: time) -> list[str]:
    hour = value.hour % 12 or 12
    twelve = f"{hour}:{value.minute:02d}"
    return [f"{twelve} {'PM' if value.hour >= 12 else 'AM'}", f"{value:%H:%M}", twelve]


#: kind → (pairs of values, the ways each is written, options)
VALUES = {
    "money": ([(4137, 4412), (4137, 312), (500, 4137)], _money_forms, {}),
    "number": ([(7, 8), (7, 1), (3, 30)], lambda n: [str(n), f"{n} messages"], {}),
    "date": (
        [(date(2026, 3, 4), date(2026, 3, 5)), (date(2026, 3, 4), date(2026, 4, 3))],
        lambda d: [
            d.isoformat(),
            f"{d:%B} {d.day}, {d.year}",
            f"{d.month}/{d.day}/{d.year}",
            f"{d.day:02}.{d.month:02}.{d.year}",
        ],
        {"year": 2026},
    ),
    "time": (
        [(time(14, 30), time(15, 0)), (time(9, 0), time(10, 30)), (time(2, 30), time(14, 30))],
        _time_forms,
        {},
    ),
    "identifier": (
        [("1Z999AA10123456784", "1Z999AA10123456785"), ("NM-78094-8", "NM-78095-1")],
        lambda v: [v, v.lower()],
        {},
    ),
}
TWO_VALUE_CASES = [
    pytest.param(kind, a, b, options, id=f"{kind}-{a}-{b}")
    for kind, (pairs, _, options) in VALUES.items()
    for a, b in pairs
]


@pytest.mark.parametrize(("kind", "a", "b", "options"), TWO_VALUE_CASES)
def test_no_message_passes_for_two_truths(kind, a, b, options):
    forms = VALUES[kind][1]
    both = [
        text
        for frame in FRAMES
        for first, second in itertools.product(forms(a), forms(b))
        for text in (frame.format(a=first, b=second), frame.format(a=second, b=first))
        if grade(kind, text, a, **options).passed and grade(kind, text, b, **options).passed
    ]
    assert not both


NAMES = ["Harbor Tote XL", "Canvas Tote", "Dune Backpack", "trip-notes.docx"]


@pytest.mark.parametrize("frame", FRAMES)
def test_no_message_names_two_candidates_and_passes_for_both(frame):
    for a, b in itertools.permutations(NAMES, 2):
        text = frame.format(a=a, b=b)
        passes = [
            name
            for name in (a, b)
            if grade("name", text, name, candidates=[n for n in NAMES if n != name]).passed
        ]
        assert len(passes) < 2, text


FILLER = st.sampled_from(
    [
        " ",
        ", ",
        " or ",
        " (",
        ") ",
        ". ",
        " + ",
        " = ",
        " including ",
        " tax ",
        " in the last ",
        " days ",
        " of ",
        " out of ",
        "/",
        " maybe ",
        " and ",
        " - ",
        ": ",
        " shipping ",
        " plus ",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    a=st.integers(1, 99),
    b=st.integers(1, 99),
    parts=st.lists(
        st.tuples(FILLER, st.sampled_from(["{a}", "{b}", "{ma}", "{mb}", "12"])), max_size=6
    ),
)
def test_any_mix_of_two_values_reads_as_one_answer_at_most(a, b, parts):
    if a == b:
        return
    text = "".join(f"{filler}{token}" for filler, token in parts)
    text = text.format(a=a, b=b, ma=f"${a}.37", mb=f"${b}.37")
    for kind, (x, y) in (("number", (a, b)), ("money", (a * 100 + 37, b * 100 + 37))):
        assert not (grade(kind, text, x).passed and grade(kind, text, y).passed), (kind, text)


def test_two_names_overlapping_in_the_text_are_both_named():
    # Which one "the Red Mug Set" means cannot be told: it fails for both, in every process.
    names = ["Red Mug", "Mug Set"]
    for name in names:
        others = [other for other in names if other != name]
        assert not grade("name", "It's the Red Mug Set.", name, candidates=others).passed
    # A name inside a longer one is not named beside it.
    # Marks between the words part them: "the Red Mug, set at $12" names the Red Mug alone.
    mug = grade(
        "name", "The Red Mug, set at $12, is the cheapest.", "Red Mug", candidates=["Mug Set"]
    )
    assert mug.passed, mug.reason
    shirt = grade(
        "name", "The Classic Oxford Shirt", "Classic Oxford Shirt", candidates=["Oxford Shirt"]
    )
    assert shirt.passed, shirt.reason

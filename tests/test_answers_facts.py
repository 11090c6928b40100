"""The values an answer cites as its reasons: a fact of the task named as what it is (the limit
applied, the price subtracted, the threshold reached) is no second candidate; named bare, or
beside an "or" or a doubt, it is. Amounts listed before their total are its addends. An "or"
inside a name the task gives (an article's title) offers nothing. Another stage of an order
said in the passive ("it was delivered a few days later") is no second date."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from webenv.answers import AnswerError, grade

THRESHOLD, PRICE, GAP = 4500, 1900, 2600
PRODUCT = "Apex Motion Adventure Water Bottle"
SHIPPING = [
    (THRESHOLD, ("free shipping", "minimum", "threshold", "orders of", "ship free")),
    (PRICE, ("price", "costs", PRODUCT)),
]

SHIPPING_ROWS = [
    (
        f'Free shipping starts at $45.00 and the "{PRODUCT}" costs $19.00, so you\'d need $26.00'
        " more.",
        True,
    ),
    ("- Item price: $19.00\n- Free-shipping minimum: $45.00\n- **Still needed: $26.00**", True),
    (
        f'Under the current policy (free shipping from $45.00), one "{PRODUCT}" at $19.00 leaves'
        " a gap of $26.00. Want me to suggest something to add?",
        True,
    ),
    ("Orders of $45.00 or more ship free; it costs $19.00, so you need $26.00 more.", True),
    ("The $45.00 minimum minus the $19.00 price, so $26.00.", True),
    ("The answer: $19.00 and the free shipping: $26.00", False),  # the words name what follows
    ("You'd need $26.00 more (the threshold is $45.00).", True),
    ("$26.00 more to reach the $45.00 minimum (item price $19.00).", True),
    ("$26.00", True),
    # named bare: a list of candidates
    ("$45.00, $19.00, $26.00", False),
    ("$26.00 or $45.00", False),
    ("$26.00 ($45.00)", False),
    # beside an "or", a doubt, a guess
    ("Free shipping starts at $45.00, or $26.00 more.", False),
    ("You need $45.00 or $26.00 more; free shipping starts at $45.00.", False),
    ("Free shipping starts at $45.00. Maybe $26.00.", False),
    ("I think free shipping starts at $45.00, so $26.00 more.", False),
    ("You need $26.00 more. (Or $45.00.)", False),
    ("$26.00 or $16.00 more; free shipping starts at $45.00.", False),
    # a fact alone is no answer; a wrong amount stays wrong
    ("Free shipping starts at $45.00.", False),
    ("The price is $19.00 and you need $45.00 more.", False),
    # a value equal to a fact, named as another thing, is a second amount
    ("You need $26.00 more; the shipping fee is $45.00.", False),
    # a label too far from its value names nothing
    ("The free shipping page I read this morning on my phone said $45.00, so $26.00.", False),
]

LIMIT = 32500
CAPPED = [(LIMIT, ("limit", "cap", "capped", "maximum"))]
CAPPED_ROWS = [
    (
        "The current lodging limit is $325.00 per hotel night, so you can claim $325.00 + "
        "$325.00 + $216.20 + $325.00 = $1,191.20.",
        True,
    ),
    ("$1,191.20 — each hotel night is capped at $325.00 under the current rules.", True),
    (
        "- Limit: $325.00 per hotel night\n- Claimable: $325.00, $325.00, $216.20, $325.00\n"
        "- **Total: $1,191.20**",
        True,
    ),
    ("With the $325.00 cap, the total you can claim is $1,191.20.", True),
    ("With a $325.00 maximum per item, you can claim $1,191.20.", True),
    ("$325.00 or $1,191.20", False),
    ("$1,191.20, capped at $325.00 or so", False),
    ("Probably $1,191.20 (the cap is $325.00).", False),
    ("$325.00. $1,191.20.", False),
]


@pytest.mark.parametrize(("text", "ok"), SHIPPING_ROWS)
def test_a_fact_named_as_what_it_is_is_the_answers_reason(text, ok):
    result = grade("money", text, GAP, facts=SHIPPING)
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(("text", "ok"), CAPPED_ROWS)
def test_a_limit_applied_is_no_second_total(text, ok):
    result = grade("money", text, 119120, most=True, facts=CAPPED)
    assert result.passed is ok, result.reason


def test_without_its_facts_a_cited_value_is_a_second_amount():
    assert not grade("money", SHIPPING_ROWS[0][0], GAP).passed
    assert not grade("money", CAPPED_ROWS[1][0], 119120).passed


DATE_FACTS = [(date(2026, 9, 17), ("cancelled", "canceled"))]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (
            "The Thu, Sep 17, 2026 session was cancelled, so your next one is September 24, 2026.",
            True,
        ),
        ("September 24, 2026 (the one on September 17, 2026 was cancelled)", True),
        ("September 24, 2026 — September 17, 2026 was canceled.", True),
        ("September 24, 2026 or September 17, 2026 (cancelled)", False),
        ("September 17, 2026, September 24, 2026", False),
    ],
)
def test_a_date_fact_is_named_the_same_way(text, ok):
    result = grade("date", text, date(2026, 9, 24), facts=DATE_FACTS)
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("$325.00, $216.20 and $325.00. Total: $866.20", True),
        ("Claimable: $325.00, $216.20, $325.00 — in total $866.20.", True),
        ("$325.00, $216.20 or $325.00. Total: $866.20", False),  # offered, not added
        ("$325.00, $216.20. Total: $866.20", False),  # they do not sum to it
        ("$325.00, $216.20 and $325.00, maybe $866.20", False),
    ],
)
def test_amounts_listed_before_their_total_are_its_addends(text, ok):
    result = grade("money", text, 86620)
    assert result.passed is ok, result.reason


TITLE = "My card was declined or has expired"


@pytest.mark.parametrize(
    ("text", "mentions", "ok"),
    [
        (f"The help article {TITLE} was last updated August 12, 2026.", [TITLE], True),
        (f"The help article {TITLE} was last updated August 12, 2026.", [], False),
        (f"{TITLE}: August 12, 2026 or August 11, 2026", [TITLE], False),
        ("August 12, 2026, or a day before", [TITLE], False),
    ],
)
def test_an_or_inside_a_name_the_task_gives_offers_nothing(text, mentions, ok):
    result = grade("date", text, date(2026, 8, 12), mentions=mentions)
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("You ordered it on December 31, 2026, and it was delivered a few days later.", True),
        ("December 31, 2026, and it was shipped 2 days after.", True),
        ("December 31, 2026 (was January 2, 2027)", False),
        ("December 31, 2026 — it was moved a day later", False),
        ("December 31, 2026 (it was a day later on the receipt)", False),
    ],
)
def test_another_stage_of_the_order_in_the_passive_is_no_second_date(text, ok):
    result = grade("date", text, date(2026, 12, 31))
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Two delivered orders carry the label. Total tax: $19.27.", True),
        ("$19.27 (22 delivered)", False),
        ("$19.27, was 22", False),
    ],
)
def test_a_count_of_delivered_orders_is_no_price_delivered(text, ok):
    assert grade("money", text, 1927).passed is ok


def test_a_fact_must_be_one_value_named_by_some_words():
    with pytest.raises(AnswerError):
        grade("money", "$1.00", 100, facts=[("$1.00 or $2.00", ("price",))])
    with pytest.raises(AnswerError):
        grade("money", "$1.00", 100, facts=[(200, ())])


WORDS = st.sampled_from(
    [" ", ", ", " or ", " (", ") ", ". ", " the ", " minimum ", " price ", " costs ", " maybe ",
     " free shipping ", " total ", " so you need ", " more", ": ", " and ", "\n- "]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(
        st.tuples(WORDS, st.sampled_from(["$45.00", "$19.00", "{a}", "{b}"])), max_size=6
    ),
    a=st.integers(1, 99),
    b=st.integers(1, 99),
)
def test_with_the_same_facts_no_message_passes_for_two_truths(parts, a, b):
    if a == b:
        return
    text = "".join(f"{w}{token}" for w, token in parts).format(a=f"${a}.11", b=f"${b}.11")
    x, y = a * 100 + 11, b * 100 + 11
    passes = [v for v in (x, y) if grade("money", text, v, facts=SHIPPING).passed]
    assert len(passes) < 2, text


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("You'd need to spend at least $26.00 more to get free shipping.", True),
        ("Add $26.00 or more to your cart and shipping is free.", True),
        ("No less than $26.00 more.", True),
        ("$26.00 minimum.", True),
        ("At least $26.00, maybe $30.00.", False),
        ("$26.00 or $30.00 more", False),
        ("Up to $26.00 more.", False),
        ("About $26.00 more.", False),
    ],
)
def test_a_least_asked_for_is_stated_by_at_least(text, ok):
    assert grade("money", text, GAP, least=True).passed is ok
    assert not grade("money", text, GAP).passed


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("You'd need $28.01 more ($60.00 − $31.99).", True),
        ("$28.01 left ($60.00 − $31.99)", True),
        ("$28.01 more ($60.00 − $30.99)", False),  # it does not work out to it
        ("$28.01 more ($60.00 or $31.99)", False),
    ],
)
def test_a_difference_worked_after_the_answers_word_is_its_reason(text, ok):
    assert grade("money", text, 2801).passed is ok


OTHER_REPORT = [(56340, ("other report",)), (49702, ("largest item",))]
NEXT = [(2399, ("next cheapest",))]
WEEKS = [(date(2026, 9, 17), ("cancelled",)), (date(2026, 9, 24), ("the one after", "week after"))]
SUBTOTAL = [(13100, ("subtotal", "pre-tax", "before tax", "merchandise"))]


@pytest.mark.parametrize(
    ("kind", "expected", "facts", "text", "ok"),
    [
        # a label after one value that names the next one names no fact of the first
        ("money", 63123, OTHER_REPORT, "It came to $631.23 and the other report to $563.40.", True),
        (
            "money",
            63123,
            OTHER_REPORT,
            "It came to $563.40 and the other report to $631.23.",
            False,
        ),
        ("money", 63123, OTHER_REPORT, "Total: $563.40 (the other report is $631.23)", False),
        ("money", 2299, NEXT, "It is $23.99 and the next cheapest is $22.99.", False),
        # a condition, a backup, an old value: the fact stays a candidate
        (
            "money",
            2299,
            NEXT,
            "$22.99. If that one is sold out, the next cheapest is $23.99.",
            False,
        ),
        (
            "money",
            2299,
            NEXT,
            "Best answer $22.99; backup answer is the next cheapest, $23.99.",
            False,
        ),
        (
            "money",
            14050,
            SUBTOTAL,
            "The total is $140.50. In case you need the pre-tax figure: $131.00.",
            False,
        ),
        (
            "date",
            date(2026, 9, 24),
            WEEKS,
            "Your next 1:1 is September 17, 2026 if it isn't cancelled, and the one after is"
            " September 24, 2026.",
            False,
        ),
        (
            "date",
            date(2026, 9, 17),
            WEEKS,
            "September 17, 2026 (check whether it's cancelled); the week after is September 24,"
            " 2026.",
            False,
        ),
        # a fact equal to the answer, not named so, is the answer; named so, it is that fact
        ("money", 13100, SUBTOTAL, "Your order of 3 items came to $131.00.", True),
        ("money", 13100, SUBTOTAL, "$131.00 (subtotal $131.00, no tax)", True),
        ("money", 13100, SUBTOTAL, "The subtotal is $131.00.", False),
        # a fact's words after it are set aside with it
        ("money", 14050, SUBTOTAL, "The total is $140.50; $131.00 before tax.", True),
        ("money", 14050, SUBTOTAL, "$140.50 ($131.00 per the receipt)", False),
        ("money", 14050, (), "$131.00, $9.50. If you want the total: $140.50", False),
    ],
)
def test_a_fact_stays_a_candidate_where_a_hedge_would_hide_behind_it(
    kind, expected, facts, text, ok
):
    result = grade(kind, text, expected, facts=facts)
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("You ordered it on February 10, 2026 (it was placed a day later).", False),
        ("February 10, 2026 (it was placed on the 2nd)", False),
        ("February 10, 2026, and it was delivered two days later.", True),
    ],
)
def test_the_asked_stage_said_again_is_a_second_date(text, ok):
    assert grade("date", text, date(2026, 2, 10)).passed is ok


def test_a_facts_words_after_it_are_set_aside_and_nothing_past_them():
    text = (
        "I checked the help centre's article. With the $325.00 cap, the total you can claim is"
        " $1,191.20. Let me know if you'd like help filing it."
    )
    assert grade("money", text, 119120, facts=CAPPED).passed
    text = (
        "Heads up: the 1:1 on September 17, 2026 is cancelled. The next one that's actually"
        " happening is **September 24, 2026**."
    )
    assert grade("date", text, date(2026, 9, 24), facts=DATE_FACTS).passed


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("September 1, 2026, the 11th", False),
        ("September 1, 2026 (the 11th)", False),
        ("September 1, 2026. The 11th.", False),
        ("September 1, 2026 (the 1st)", True),
        ("Tuesday, September 1, 2026 - the 1st of the month", True),
        ("September 1, 2026; your 2nd order", True),
        ("September 1, 2026, the 3rd reminder I set", True),
        ("September 1, 2026 (placed on the 28th)", True),  # set aside as another event's
    ],
)
def test_a_bare_day_beside_a_date_offers_another(text, ok):
    assert grade("date", text, date(2026, 9, 1)).passed is ok


def test_words_given_without_a_value_name_no_answer_whatever_value_they_stand_by():
    # "(cancelled)" says a date is no answer, in a world where it was cancelled and in one
    # where it was not: one message cannot pass in both.
    words = [(None, ("cancelled",)), (date(2026, 9, 24), ("then the next",))]
    text = "September 17, 2026 (cancelled), then the next September 24, 2026."
    assert not grade("date", text, date(2026, 9, 17), facts=words).passed
    after = [(None, ("cancelled",)), (date(2026, 10, 1), ("then the next",))]
    assert grade("date", text, date(2026, 9, 24), facts=after).passed

"""Typed answers: exactly one value, normalised; never a substring match."""

from datetime import date
from decimal import Decimal

import pytest

from webenv.answers import AnswerError, parse_answer


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
    ],
)
def test_answers_with_no_single_value_are_refused(kind, text):
    with pytest.raises(AnswerError):
        parse_answer(kind, text)

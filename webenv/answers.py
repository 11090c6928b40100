"""Typed answers: an agent's message normalised into one value, compared exactly.

Never by substring: "$24.99 or $19.99" is not an answer of "$24.99", and a list of every
candidate is not the one asked for. A text that does not hold exactly one value of the asked
type is no answer at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

_MONEY = re.compile(r"(?<![\w.])-?\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?(?![\d.,]*\d)")
_NUMBER = re.compile(r"(?<![\w.])-?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d]|\.\d)")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_US_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_WRITTEN_DATE = re.compile(
    rf"\b({_MONTHS}|{'|'.join(m[:3] for m in _MONTHS.split('|'))})\.? "
    r"(\d{1,2})(?:st|nd|rd|th)?,? (\d{4})\b",
    re.IGNORECASE,
)


class AnswerError(ValueError):
    """The text holds no single value of the asked type."""


def normalize_text(text: str) -> str:
    """Case-, accent-, space- and punctuation-insensitive form of a short string."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^\w\s]", " ", text.casefold())
    return " ".join(text.split())


def parse_money(text: str) -> int:
    """Cents of the one amount in ``text`` ("$1,234.50" → 123450)."""
    found = _MONEY.findall(text)
    if len(found) != 1:
        raise AnswerError(f"expected exactly one amount, found {len(found)}")
    whole, cents = found[0]
    value = Decimal(whole.replace(",", "") + (cents or ""))
    sign = -1 if re.search(r"-\$?\s?" + re.escape(whole), text) else 1
    return sign * int((value * 100).to_integral_value())


def parse_number(text: str) -> Decimal:
    """The one number in ``text``."""
    found = _NUMBER.findall(text)
    if len(found) != 1:
        raise AnswerError(f"expected exactly one number, found {len(found)}")
    whole, fraction = found[0]
    try:
        value = Decimal(whole.replace(",", "") + (fraction or ""))
    except InvalidOperation:
        raise AnswerError("not a number") from None
    return -value if re.search(r"-" + re.escape(whole), text) else value


def parse_date(text: str) -> date:
    """The one date in ``text``: ISO, US numeric, or written out ("March 4th, 2026")."""
    found = {date(int(y), int(m), int(d)) for y, m, d in _ISO_DATE.findall(text)}
    found |= {date(int(y), int(m), int(d)) for m, d, y in _US_DATE.findall(text)}
    for month, day, year in _WRITTEN_DATE.findall(text):
        try:
            parsed = datetime.strptime(f"{month[:3]} {day} {year}", "%b %d %Y").date()
        except ValueError:
            continue
        found.add(parsed)
    if len(found) != 1:
        raise AnswerError(f"expected exactly one date, found {len(found)}")
    return found.pop()


def parse_string(text: str) -> str:
    return normalize_text(text)


def parse_items(text: str) -> list[str]:
    """Items of a list answer, separated by commas, semicolons, newlines or "and"."""
    parts = re.split(r"[,;\n]|\band\b", text)
    items = [normalize_text(part) for part in parts]
    return [item for item in items if item]


PARSERS: dict[str, Callable[[str], Any]] = {
    "money": parse_money,
    "number": parse_number,
    "date": parse_date,
    "string": parse_string,
    "list": parse_items,
    "set": lambda text: frozenset(parse_items(text)),
}


def parse_answer(kind: str, text: str) -> Any:
    """The value of type ``kind`` in ``text``; :class:`AnswerError` if there is not exactly one."""
    return PARSERS[kind](text)

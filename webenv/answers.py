"""Typed answers: the one value of the asked kind in an agent's message, graded against the task's.

A careful person answers in a sentence: "Order #1042 came to $58.20 on March 3." For a money
question that is $58.20: the order number and the date are values of other kinds and are passed
over. What fails is a hedge: a second value of the asked kind ("$58.20 or $61.00"), a second
candidate name ("either X or Y"), a list of every candidate; and what a careful person answering
an exact question does not write: doubt in words anywhere ("I think", "not sure", "probably"),
a value made approximate or open ("about 5", "~$58", "by March 4", "5 plus", "at the latest"),
a second candidate written another way (in words, in small digits, spelled out, run together).
An "or" is a hedge where it offers another value of the asked kind, not inside a name or
between other words ("Barnes or Noble", "in Room 2 or the lobby").

:func:`grade` never raises, whatever the text (impossible dates, huge numbers, control
characters, empty): it returns a :class:`Grade` that says why the answer passed or failed.

Kinds and how each is read:

- ``money``: "$1,204.50", "1204.50 dollars", "USD 7"; unmarked amounts only when the message
  marks none. Dates, times, phone numbers, ratings and ids ("#1042", "NM-10234-5") are skipped.
- ``number``: a count or quantity; dates, times, money, phones and ids are skipped; "twelve"
  is read when no digits are written.
- ``date``: ISO "2026-03-04", US numeric "3/4/2026" (month first, as in the US: "3/4" is
  March 4, never April 3), written "March 4th, 2026", "4 March 2026", "Wed, Mar 4". A date
  without a year takes ``year=`` when the task knows it, else fails. "2026-02-30" is no date.
- ``time``: "2:30 PM", "2pm", "14:30", "noon"; a bare "2:30" means the afternoon when that
  is the right time (as "the meeting is at 2:30" does), and "02:30" never does.
- ``phone``: a US number in any common format, with or without +1 or 1.
- ``identifier``: a tracking or confirmation number; case, quotes, surrounding punctuation and
  grouping spaces or dashes are ignored; another token of the same shape (length within two,
  with a digit), or any of ``candidates``, is a second value.
- ``name`` (also ``string``): a product, file or person's name, found as a phrase; case,
  accents, quotes and punctuation are ignored; any of ``candidates`` also named, or "or" /
  "either" outside the name, is a hedge.
- ``list`` / ``set``: items separated by commas, semicolons, new lines or "and", after an
  optional "label:"; or, given ``candidates`` (the names the items may be), the names written,
  in order, whatever the sentence around them; a ``set`` ignores order; "or" between items is
  a hedge.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal, InvalidOperation
from typing import Any

from anyascii import anyascii

from webenv.number_words import ORDINALS, SPELLED, is_ordinal
from webenv.number_words import value as spelled_value

#: Answers longer than this are refused unread: an answer is a value, not a page.
MAX_LENGTH = 4000
#: Digits beyond which a written number is not read as a value.
MAX_DIGITS = 15

KINDS = ("money", "number", "date", "time", "phone", "identifier", "name", "list", "set")

_NUM = r"(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)"
_END = r"(?![0-9]|[.,][0-9])"
_MONTHS = {
    name: index
    for index, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b\.?"
_WEEKDAY = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|urday|sday)?\.?,?\s+)?"
_DAY = r"([0-9]{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+([0-9]{4}))?(?![0-9:])"

_MONTH_FIRST = re.compile(rf"\b{_WEEKDAY}{_MONTH}\s+{_DAY}\b{_YEAR}", re.IGNORECASE)
_DAY_FIRST = re.compile(rf"\b{_WEEKDAY}{_DAY}\s+(?:of\s+)?{_MONTH}{_YEAR}", re.IGNORECASE)
_ISO_DATE = re.compile(r"(?<![0-9])([0-9]{4})([-/])([0-9]{1,2})\2([0-9]{1,2})(?![0-9])")
_DASHED_DATE = re.compile(
    rf"(?<![0-9])([0-9]{{1,2}})-{_MONTH}-([0-9]{{4}})(?![0-9])", re.IGNORECASE
)
_US_DATE = re.compile(r"(?<![0-9/])([0-9]{1,2})/([0-9]{1,2})(?:/([0-9]{4}|[0-9]{2}))?(?![0-9/])")
_TIME_12 = re.compile(
    r"(?<![0-9:])([0-9]{1,2})(?::([0-9]{2}))?\s*([ap])\.?\s?m\b\.?|\b(noon|midnight)\b",
    re.IGNORECASE,
)
_TIME_24 = re.compile(r"(?<![0-9:])([0-9]{1,2}):([0-9]{2})(?![0-9:])")
_PHONE = re.compile(
    r"(?<![0-9A-Za-z+])(?:\+?1[\s.-]?)?(?:\(([0-9]{3})\)|([0-9]{3}))[\s./-]?([0-9]{3})[\s.-]?"
    r"([0-9]{4})(?![0-9A-Za-z])"
)
_MARKED_MONEY = re.compile(
    rf"(-)?\$\s?({_NUM}(?:\.[0-9]{{1,2}})?){_END}"
    rf"|\bUSD\s?({_NUM}(?:\.[0-9]{{1,2}})?){_END}"
    rf"|(?<![0-9.,])({_NUM}(?:\.[0-9]{{1,2}})?){_END}\s?(?:dollars?|usd|bucks)\b",
    re.IGNORECASE,
)
_PLAIN_NUMBER = re.compile(rf"(?<![0-9.,])(-)?({_NUM}(?:\.[0-9]+)?){_END}")
_ID_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?")
_HASH_ID = re.compile(r"(?:#|\bno\.)\s?[0-9]+", re.IGNORECASE)
#: (The look-aheads stop at 64 characters, so that a long run costs a bounded look from each
#: of its positions.)
_MIXED_TOKEN = re.compile(
    r"\b(?=[A-Za-z0-9-]{0,64}[0-9])(?=[A-Za-z0-9-]{0,64}[A-Za-z])[A-Za-z0-9-]+\b"
)
_RATING = re.compile(
    rf"(?<![0-9,.]){_NUM}(?:\.[0-9]+)?\s*(?:stars?|out of [0-9]+|%|percent)"
    r"|\brat(?:ing|ed)\s+(?:of\s+)?[0-9](?:\.[0-9]+)?"
    r"(?:\s?/\s?(?:5|10)|\s*(?:stars?|out of [0-9]+))?"
    r"|\b[0-9]\.[0-9]+[\s-]+(?:average\s+|star\s+|customer\s+)*ratings?\b"
    r"|(?<![0-9/.])(?:[0-9]\.[0-9]+\s?/\s?(?:5|10)(?![0-9/])|[0-9]\s?/\s?(?:5|10)\s*stars?)",
    re.IGNORECASE,
)
_TALLY = re.compile(rf"(?<![0-9,.]){_NUM}\s*(?:reviews?|ratings?|items?|orders?)\b", re.IGNORECASE)
_ORDINAL = re.compile(r"\b[0-9]+(?:st|nd|rd|th)\b", re.IGNORECASE)
#: Words that offer a second answer; "or less", "or so" and the like do not.
_HEDGE = re.compile(
    r"\beither\b|\band/or\b|\bor\b(?!\s+(?:less|more|fewer|so|under|below|over|above)\b)",
    re.IGNORECASE,
)
_WORDS = [
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
]
_WORD_NUMBER = re.compile(r"\b(" + "|".join(_WORDS) + r")\b", re.IGNORECASE)
#: Number words past twenty, for telling a second candidate ("5 or fifty", "a dozen").
_MORE_WORDS = ("thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred",
               "thousand", "million", "dozen", "half", "quarter")  # fmt: skip
#: A digit of any script, a number word or a Roman numeral (two letters or more, so that "I"
#: is not one): what a second candidate of a number-like kind may be written with.
#: Ordinal words past "second" ("the fifth"): a day of the month written out.
_ORDINAL_WORDS = tuple(word for word, n in ORDINALS.items() if n > 2)
_NUMBER_LIKE = re.compile(
    r"\d|\b(?i:" + "|".join((*_WORDS, *_MORE_WORDS, *_ORDINAL_WORDS)) + r")\b|\b[IVX]{2,}\b"
)
#: What offers a second candidate between two numbers: "or", and the words of a guess, and a
#: slash between spaces ("$164.17 / 58.62"; a date's own slashes have none).
_OFFER = re.compile(
    _HEDGE.pattern
    + r"|\b(?:maybe|perhaps|possibly|unless|otherwise|alternatively|else|though|vs)\b"
    r"|\bif not\b|\b(?:may|might|could) (?:be|have been)\b|\s/\s|~",
    re.IGNORECASE,
)
#: A range offers two values at once: "$41.99 to 45", "3 through 4", "$41.99-45".
_RANGE = re.compile(r"\d\s+(?:to|through|thru|till|until)\s+\$?\d|\d-\$\d|\.\d\d-\d", re.IGNORECASE)
#: Words that offer another answer than the one given, in the sentence that gives it ("$58.20,
#: or whatever the other order came to"; "the Mug Set, maybe the Modern one"); "or less" and
#: the like restate a budget, "either way" offers nothing.
_GUESS = re.compile(
    r"\beither\b(?!\s+way\b)|\band/or\b"
    r"|\bor\b(?!\s+(?:less|more|fewer|so|under|below|over|above|cheaper|lower)\b)"
    r"|\b(?:maybe|perhaps|possibly|unless|otherwise|alternatively|alternately|vs|versus)\b"
    r"|[,;]\s*else\b|\bif not\b|\bcould also\b|\bor rather\b|\bthen again\b"
    r"|\bif (?:that|this)'?s? (?:is )?wrong\b"
    r"|\b(?:ou|oder|ili)\b"  # "or" in French, German, and Russian read in Latin letters
    r"|(?<![\w'])(?-i:o)(?![\w'])"  # "or" with its "r" dropped: "Blue Mug o Green Mug"
    r"|\bmay (?:be|have been)\b"
    r"|\s/\s",
    re.IGNORECASE,
)
#: A sentence that begins by offering another answer ("Or maybe the other one.").
_GUESS_FIRST = re.compile(
    r"^\W*(?:(?:p\.?s\.?|note|[0-9]{1,2}[.)])\W*)?"
    r"(?:or|either(?!\s+way\b)|maybe|perhaps|possibly|unless|alternatively|alternately|else"
    r"|then again|if (?:that|this)'?s? (?:is )?wrong)\b",
    re.IGNORECASE,
)
#: An open-ended value, written after it: "2 or more", "10+", "5 plus", "March 4 at the latest"
#: (the words before a value, "at least 5", "by March 4", are :data:`_QUALIFIER`).
_OPEN = re.compile(
    r"\bor (?:more|less|fewer|so|over|under|above|below|before|after|earlier|later|sooner"
    r"|thereabouts)\b|[0-9]\s?\+(?![0-9])|\bat (?:the )?(?:earliest|latest|minimum|maximum)\b"
    r"|\bat the (?:most|least)\b|\bat a (?:minimum|maximum)\b|\bplus(?=\s*(?:[.,;:!?)]|$))"
    r"|\bgive or take\b|\bhandful\b|\bat (?:least|most)(?=\s*(?:[.,;:!?)]|$))"
    r"|\bapprox(?:imately)?\b|\(est\.?\)|\bestimated\b|-ish\b|(?<=[0-9])ish\b",
    re.IGNORECASE,
)
#: Words that make the value that follows them approximate or open: "about 5", "roughly
#: $58.20", "~$58", "≥5", "at least 5", "up to 5", "over 5", "by March 4", "around 2:30 PM". They
#: leave the answer open only where they qualify it: "up to 20% off" beside a count does not.
_QUALIFIER = re.compile(
    r"\b(?:about|around|approximately|approx|roughly|circa|ca|nearly|almost|close to"
    r"|upwards of|in the region of|at least|at most|up to|(?:no )?(?:more|less|fewer|later"
    r"|earlier|sooner) than|over|under|above|below|by|before|after|not (?:before|after)"
    r"|sometime(?: around| in| on)?|some time (?:around|in|on))\b\.?"
    r"|[~\u2248\u2264\u2265]|(?<![\w/-])[<>]=?",
    re.IGNORECASE,
)
#: What a careful person does not say of an answer they are sure of, anywhere in the message:
#: "not sure", "I think", "probably", "I'd guess", "if that's the one", "Smith says
#: otherwise", "… instead", "could also be", "might be B".
_UNSURE = re.compile(
    r"\bnot (?:sure|certain|positive|100 ?%)|\bunsure\b|\buncertain\b|\bcan'?t be sure\b"
    r"|\bhard to (?:say|tell)\b|\b(?:I'?d |I would |I )?guess(?:ing)?\b|\bprobably\b"
    r"|\bpresumably\b|\bI (?:think|believe|suspect|assume)\b|\bif I'?m not mistaken\b"
    r"|\bif I (?:counted|read (?:it|that)|remember|recall|understood)\b|\bif I'?m right\b"
    r"|\bif (?:that|this|it)(?:'s| is| was) (?:the (?:right )?one|right|correct|wrong|it)\b"
    r"|\b(?:says?|said|shows?|suggests?|indicates?|claims?|thinks?) otherwise\b"
    r"|\binstead\b(?!\s+of\b)(?![^.!?\n]*\?)"
    # "could be wrong", "might be B"; not "could be reached" (can be, a passive).
    r"|\b(?:could|might) (?:also |well )?(?:be|have been)\b(?!\s+(?:\w+ed|found|seen|done|"
    r"given|shown|sent|made|taken|met|paid|bought|told|kept|left|picked up)\b)",
    re.IGNORECASE,
)
#: A count offered with an exception, which offers the other count: "5, not counting the
#: archived one", "5 if you leave out drafts".
_EXCEPTION = re.compile(
    r"\b(?:not|without) (?:counting|including)\b|\bexcluding\b"
    r"|\bif (?:you|we|I|one) (?:count|include|exclude|add|leave out|ignore|don'?t count)\b",
    re.IGNORECASE,
)
#: After an "or", what refers to another value of the asked kind: "or whatever the other order
#: came to", "or the day after", "or the office line", "or Sunday". Without one (and without a
#: number after it), an "or" beside the answer joins other words: "Barnes or Noble".
_REFERS = re.compile(
    r"\b(?:other|another|else|whatever|whichever|different|next|previous|prior|following"
    r"|preceding|before|after|later|earlier|sooner|more|less|fewer|so|thereabouts|rather"
    r"|maybe|perhaps|possibly|probably|something|anything|nothing|similar|close|near|around"
    r"|about|day|days|week|weeks|month|months|year|hour|hours|minute|minutes|try|call|line"
    r"|ext|extension|ending|last|same|higher|lower"
    r"|cheaper|over|under|above|below|total|subtotal|amount|price|cost|number|date|time"
    rf"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|{_MONTH[1:-6]})\b",
    re.IGNORECASE,
)
#: A file's name: "q1-budget.csv", "meeting notes.docx" is two words but "notes.docx" one.
_FILE_NAME = re.compile(r"(?<![\w.-])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{1,4}(?![\w-])")
#: A list item's mark at the start of a line: "- ", "* ", "• ", "1. ", "2) ".
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|[0-9]{1,2}[.)])\s+", re.MULTILINE)
#: A day range after a month, or before one: "March 6-7", "February 9/10", "8 and 9 March".
_DAY_RANGE = re.compile(
    rf"\b{_MONTH}\s+[0-9]{{1,2}}(?:st|nd|rd|th)?\s*(?:[-/&]|and|to|through|thru|or)\s*"
    r"[0-9]{1,2}(?:st|nd|rd|th)?\b(?![:.,]?[0-9])"
    r"|\b[0-9]{1,2}(?:st|nd|rd|th)?\s*(?:[-/&]|and|to|through|thru|or)\s*"
    rf"[0-9]{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}",
    re.IGNORECASE,
)
#: The kinds whose values are written with numbers.
_NUMBER_KINDS = frozenset({"money", "number", "date", "time", "phone", "identifier"})
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e]")
#: Characters that show nothing: removed, so that "o\u200br" reads "or".
_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]")
#: Cents written small after the dollars ("$58²⁰", "58₆₂"): read as "58.20", "58.62".
_SMALL_CENTS = re.compile(
    "([0-9])([\u2070\u00b9\u00b2\u00b3\u2074-\u2079]{2}|[\u2080-\u2089]{2})"
    "(?![\u2070-\u2089\u00b9\u00b2\u00b3])"
)
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2212"})


class AnswerError(ValueError):
    """The text holds no single value of the asked type."""


@dataclass(frozen=True)
class Grade:
    """How an answer fared: whether it passed, why, and the value read (None if none was)."""

    passed: bool
    reason: str
    value: Any = None


@dataclass(frozen=True)
class _Found:
    """Values of one kind found in a text; ``invalid`` holds what looked like one but is not."""

    values: tuple[Any, ...] = ()
    invalid: tuple[str, ...] = ()


# -- cleaning ---------------------------------------------------------------------------------


def clean(text: object) -> str:
    """``text`` as one line of plain characters: compatibility forms folded (full-width digits,
    non-breaking spaces), dashes made hyphens, control characters made spaces."""
    text = text if isinstance(text, str) else str(text)
    text = _SMALL_CENTS.sub(lambda m: f"{m[1]}.{m[2]}", text)  # "$58²⁰", "58₆₂": cents
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return _CONTROL.sub(" ", _INVISIBLE.sub("", text))


def _skeleton(text: str) -> str:
    """``text`` in Latin letters and ASCII digits, for finding the words of a hedge: letters
    of other scripts that look like Latin ones (a Cyrillic "о" in "or") read as those."""
    return anyascii(text)


def normalize_text(text: str) -> str:
    """Case-, accent-, space- and punctuation-insensitive form of a short string."""
    text = unicodedata.normalize("NFKD", clean(text))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[^\w\s]|_", " ", text.casefold().replace("&", " and "))
    return " ".join(text.split())


def _blank(text: str, *patterns: re.Pattern[str]) -> str:
    """``text`` with every match of ``patterns`` replaced by spaces (keeping offsets)."""
    for pattern in patterns:
        text = pattern.sub(lambda m: " " * len(m[0]), text)
    return text


def _decimal(digits: str) -> Decimal | None:
    digits = digits.replace(",", "")
    if len(digits.split(".")[0].lstrip("0")) > MAX_DIGITS:
        return None
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


# -- finding values of each kind -----------------------------------------------------------------


def _dates(text: str, year: int | None) -> _Found:
    values: list[date] = []
    invalid: list[str] = []

    def add(match: re.Match[str], y: str | None, m: int | str, d: str) -> str:
        if y is None and year is None:
            invalid.append(f"{match[0].strip()!r} has no year")
        else:
            try:
                values.append(date(int(y) if y else year or 0, int(m), int(d)))
            except ValueError:
                invalid.append(f"{match[0].strip()!r} is not a calendar date")
        return " " * len(match[0])

    text = _MONTH_FIRST.sub(lambda m: add(m, m[3], _MONTHS[m[1].lower()], m[2]), text)
    text = _DAY_FIRST.sub(lambda m: add(m, m[3], _MONTHS[m[2].lower()], m[1]), text)
    text = _ISO_DATE.sub(lambda m: add(m, m[1], m[3], m[4]), text)
    text = _DASHED_DATE.sub(lambda m: add(m, m[3], _MONTHS[m[2].lower()], m[1]), text)

    def us(match: re.Match[str]) -> str:
        y = match[3]
        if y is not None and len(y) == 2:
            y = f"20{y}"
        return add(match, y, match[1], match[2])

    _US_DATE.sub(us, text)
    return _Found(tuple(values), tuple(invalid))


def _times(text: str, meant: time | None = None) -> _Found:
    """The times in ``text``. A bare "1:30" (an hour from 1 to 11 without a leading zero, and
    no AM or PM) is read as ``meant`` when that is its afternoon reading, as a person reads "the
    meeting is at 1:30"; else as written, on the 24-hour clock."""
    values: list[time] = []
    invalid: list[str] = []

    def twelve(match: re.Match[str]) -> str:
        if match[4]:
            values.append(time(12 if match[4].lower() == "noon" else 0))
        else:
            hour, minute = int(match[1]), int(match[2] or 0)
            if 1 <= hour <= 12 and minute < 60:
                values.append(time(hour % 12 + (12 if match[3].lower() == "p" else 0), minute))
            else:
                invalid.append(f"{match[0].strip()!r} is not a time")
        return " " * len(match[0])

    text = _TIME_12.sub(twelve, text)
    for match in _TIME_24.finditer(text):
        hour, minute = int(match[1]), int(match[2])
        bare = not match[1].startswith("0") and 1 <= hour <= 11
        if bare and minute < 60 and meant == time(hour + 12, minute):
            values.append(meant)
        elif hour < 24 and minute < 60:
            values.append(time(hour, minute))
        else:
            invalid.append(f"{match[0]!r} is not a time")
    return _Found(tuple(values), tuple(invalid))


def _phones(text: str) -> _Found:
    return _Found(tuple("".join(filter(None, m.groups())) for m in _PHONE.finditer(text)))


def _without_other_kinds(text: str) -> str:
    """``text`` with dates, times, phone numbers and ids blanked, for reading amounts."""
    for pattern in (_MONTH_FIRST, _DAY_FIRST, _ISO_DATE, _US_DATE, _TIME_12, _TIME_24, _PHONE):
        text = _blank(text, pattern)
    return _blank(text, _HASH_ID, _MIXED_TOKEN, _ORDINAL)


def _money(text: str) -> _Found:
    text = _without_other_kinds(_blank(text, _RATING, _TALLY))
    values: list[int] = []
    invalid: list[str] = []
    for match in _MARKED_MONEY.finditer(text):
        amount = _decimal(match[2] or match[3] or match[4])
        if amount is None:
            invalid.append("an amount too large to read")
            continue
        values.append((-1 if match[1] else 1) * int(amount * 100))
    if values or invalid:
        # An amount written without its "$" beside one with it is an amount all the same
        # ("$41.99, 101.98"): read as a second candidate, not passed over.
        rest = _numbers(_blank(text, _MARKED_MONEY)).values
        values += [int(n * 100) for n in rest if n.as_tuple().exponent == -2]
        return _Found(tuple(values), tuple(invalid))
    return _Found(tuple(int(n * 100) for n in _numbers(text).values if n == round(n, 2)))


def _numbers(text: str) -> _Found:
    values: list[Decimal] = []
    invalid: list[str] = []
    for match in _PLAIN_NUMBER.finditer(text):
        number = _decimal(match[2])
        if number is None:
            invalid.append("a number too large to read")
        else:
            values.append(-number if match[1] else number)
    return _Found(tuple(values), tuple(invalid))


def _counts(text: str) -> _Found:
    text = _without_other_kinds(_blank(text, _MARKED_MONEY, _RATING))
    found = _numbers(text)
    if found.values or found.invalid:
        return found
    words = [Decimal(_WORDS.index(w.lower())) for w in _WORD_NUMBER.findall(text)]
    return _Found(tuple(words))


#: An amount in words: "sixty-one dollars", "fifty-eight dollars and sixty-two cents".
_SPELLED_MONEY = re.compile(
    rf"({SPELLED.pattern})\s+(?:dollars?|bucks)(?:\s+(?:and\s+)?({SPELLED.pattern})\s+cents?)?",
    re.IGNORECASE,
)


def _money_said(text: str) -> _Found:
    """The amounts in an answer: as :func:`_money`, and amounts written in words too ("Not
    sure if it's sixty-one dollars"), each a value of its own."""
    found = _money(text)
    spelled: list[int] = []
    for match in _SPELLED_MONEY.finditer(text):
        dollars, cents = spelled_value(match[1]), spelled_value(match[2]) if match[2] else 0
        if dollars is not None and cents is not None and cents < 100:
            spelled.append(dollars * 100 + cents)
    return _Found(found.values + tuple(spelled), found.invalid)


def _counts_said(text: str) -> _Found:
    """The counts in an answer: as :func:`_counts`, and counts written in words beside
    digits too ("5. Six if you count drafts"), each a value of its own; a lone "one" is a
    pronoun as often as a number ("the latest one") and is read only when no digit is."""
    found = _counts(text)
    if not found.values:
        return found
    rest = _without_other_kinds(_blank(text, _SPELLED_MONEY, _MARKED_MONEY, _RATING))
    words = []
    for match in SPELLED.finditer(rest):
        number = spelled_value(match[0])
        if number is not None and not is_ordinal(match[0]) and match[0].lower() != "one":
            words.append(Decimal(number))
    return _Found(found.values + tuple(words), found.invalid)


def _canonical_id(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]", "", text).upper()


def _spaced_pattern(canonical: str) -> re.Pattern[str]:
    """``canonical`` as it may be written: any case, its characters grouped by spaces or dashes."""
    body = r"(?:\s?-\s?|\s)?".join(re.escape(ch) for ch in canonical)
    return re.compile(rf"(?<![0-9A-Za-z]){body}(?![0-9A-Za-z])", re.IGNORECASE)


#: The digits as words, for an id spelled out ("one-Z-V-J-seven-B").
_DIGIT_WORDS = dict(
    zip(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
        "0123456789",
        strict=True,
    )
)
_ID_UNIT = "(?:" + "|".join((*_DIGIT_WORDS, "oh")) + r"|[0-9A-Za-z])"
#: Four characters or more written one at a time, between spaces, dots or dashes.
_SPELLED_OUT = re.compile(
    rf"(?<![0-9A-Za-z])(?:{_ID_UNIT}[\s.-]){{3,}}{_ID_UNIT}(?![0-9A-Za-z])", re.IGNORECASE
)


def _unspelled(match: re.Match[str]) -> str:
    units = re.split(r"[\s.-]", match[0])
    return "".join(_DIGIT_WORDS.get(u.lower(), "0" if u.lower() == "oh" else u) for u in units)


#: What names an id for what it is, just before it: "order NM-…", "confirmation #…".
_ID_LABEL = re.compile(
    r"\b(?:order|confirmation|reference|ref|invoice|account|case|ticket|booking)\b[^.;]*$",
    re.IGNORECASE,
)


def _same_shape(token: str, want: str) -> bool:
    """Whether ``token`` could be taken for an id like ``want``: as long (within two), begun
    with the same kind of character (a tracking number "1Z…" is not an order number "NM-…"),
    and with a digit."""
    return (
        len(want) >= 4
        and abs(len(token) - len(want)) <= 2
        and token[:1].isdigit() == want[:1].isdigit()
        and bool(re.search(r"[0-9]", token))
    )


def _identifiers(text: str, expected: str, candidates: Iterable[str]) -> _Found:
    want = _canonical_id(expected)
    values: list[str] = []
    known = [want, *(c for c in map(_canonical_id, candidates) if c and c != want)]
    for canonical in known:
        pattern = _spaced_pattern(canonical)
        found = pattern.search(text)
        if found:
            # A candidate of another shape named for what it is ("order NM-…" beside its
            # tracking number) is context, not a second answer; put beside the answer bare
            # ("1Z…, NM-…") it is one more candidate.
            labelled = _ID_LABEL.search(text[max(0, found.start() - 24) : found.start()])
            if canonical == want or _same_shape(canonical, want) or not labelled:
                values.append(canonical)
            body = pattern.pattern
            variant = rf"{body}\s*[/|\\]\s*[0-9A-Za-z]|[0-9A-Za-z]\s*[/|\\]\s*{body}"
            if canonical == want and re.search(variant, text, re.IGNORECASE):
                values.append(f"{canonical}/…")  # "1ZVJ7A/B": another last character offered
            text = _blank(text, pattern)
    for pattern in (_MARKED_MONEY, _MONTH_FIRST, _DAY_FIRST, _ISO_DATE, _US_DATE, _PHONE):
        text = _blank(text, pattern)
    # An id spelled out a character at a time ("1 Z V J 7 …", "one-Z-V-J-seven") is an id
    # all the same.
    text = _SPELLED_OUT.sub(_unspelled, text)
    for token in _ID_TOKEN.findall(text):
        canonical = _canonical_id(token)
        if _same_shape(canonical, want):
            values.append(canonical)
    return _Found(tuple(values))


def _names(
    text: str,
    expected: str,
    candidates: Iterable[str],
    normalize: Callable[[str], str] = normalize_text,
    *,
    loose: bool = False,
) -> tuple[_Found, bool]:
    """Names among ``expected`` and ``candidates`` written in ``text`` (longest first, so a name
    inside a longer one is not counted twice), and whether a hedge word is left outside them.

    With ``loose``, a candidate also counts when written with its spaces moved or left out
    ("RedMug", "Red Mu g", "notes dot txt"): it names that candidate all the same. The
    expected name itself must be written as a name (word for word) to count."""
    words = f" {normalize(_skeleton(text))} "
    want = normalize(_skeleton(expected))
    names = sorted({normalize(_skeleton(n)) for n in [expected, *candidates]} - {""}, key=len)
    values: list[str] = []
    for name in reversed(names):
        needle = f" {name} "
        if needle in words:
            values.append(name)
            words = words.replace(needle, " | ")
    if loose:
        values += _squeezed(words, [n for n in names if n not in values and n != want])
    return _Found(tuple(values)), bool(_HEDGE.search(_skeleton(words)))


def _squeezed(words: str, names: Iterable[str]) -> list[str]:
    """The ``names`` written in ``words`` with their spaces moved or left out, from a word's
    start to a word's end ("redmug", "red mu g"); a spoken "dot" is a dot."""
    tokens = [w for w in words.split() if w != "dot"]
    starts: set[int] = set()
    ends: set[int] = set()
    joined = ""
    for token in tokens:
        starts.add(len(joined))
        joined += token
        ends.add(len(joined))
    found = []
    for name in names:
        squeezed = name.replace(" ", "")
        at = joined.find(squeezed) if squeezed else -1
        while at >= 0:
            if at in starts and at + len(squeezed) in ends:
                found.append(name)
                break
            at = joined.find(squeezed, at + 1)
    return found


#: How people shorten the words of a street address; both forms read the same.
_ADDRESS_WORDS = {
    "street": "st",
    "avenue": "ave",
    "road": "rd",
    "drive": "dr",
    "boulevard": "blvd",
    "lane": "ln",
    "court": "ct",
    "place": "pl",
    "square": "sq",
    "terrace": "ter",
    "parkway": "pkwy",
    "highway": "hwy",
    "circle": "cir",
    "mountain": "mtn",
    "mountains": "mtns",
    "apartment": "apt",
    "suite": "ste",
    "number": "no",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
}


def normalize_address(text: str) -> str:
    """A street address as words, with the usual abbreviations read as the words they
    shorten: "12 North Oak Street, Apt. 4" and "12 n oak st apt 4" are the same."""
    return " ".join(_ADDRESS_WORDS.get(word, word) for word in normalize_text(text).split())


def grade_address(text: object, street: str, zip_code: str, others: Iterable[str] = ()) -> Grade:
    """Whether ``text`` gives the address at ``street`` (with its ZIP code) as a person writes
    it, and none of the ``others`` (the other saved addresses' streets). Never raises."""
    try:
        text = clean(text)
    except Exception as error:
        return Grade(False, f"unreadable text ({type(error).__name__})")
    if len(text) > 20 * MAX_LENGTH:
        return Grade(False, f"text of {len(text)} characters is too long to read")
    want = normalize_address(_skeleton(street))
    others = [o for o in others if normalize_address(_skeleton(o)) != want]
    found, _ = _names(text, street, others, normalize_address)
    if want not in found.values:
        return Grade(False, f"does not give the street {street!r}")
    if len(found.values) > 1:
        return Grade(False, f"also gives another saved address ({found.values[1]!r})")
    if not re.search(rf"(?<![0-9]){re.escape(zip_code)}(?![0-9])", text):
        return Grade(False, f"gives the street but not the ZIP code {zip_code}")
    return Grade(True, f"gives {street}, {zip_code}", want)


#: Asides a careful person puts after a list ("A, B, as far as I can see"): not items.
_LIST_ASIDES = frozenset({"as far as i can see", "as far as i can tell"})


def _items(text: str) -> list[str]:
    _, colon, tail = text.rpartition(":")
    if colon and "\n" not in tail.strip() and len(tail.split(",")) > 1:
        text = tail
    parts = re.split(r"[,;\n&]|\band\b", text)
    items = (normalize_text(p).removeprefix("and ") for p in parts)
    return [item for item in items if item and item not in _LIST_ASIDES]


def _named_items(text: str, names: Iterable[str]) -> tuple[list[str], bool]:
    """The ``names`` written in ``text``, in the order written (longest first, so a name inside
    a longer one is not counted twice; a name written twice counts twice), and whether a hedge
    word is left outside them. The words around them ("The top three are …, as far as I can
    see") are no items: the items of a list of known names are those names."""
    words = f" {normalize_text(_skeleton(text))} "
    found: list[tuple[int, str]] = []
    for name in sorted({normalize_text(_skeleton(n)) for n in names} - {""}, key=len)[::-1]:
        needle, start = f" {name} ", words.find(f" {name} ")
        while start >= 0:
            found.append((start, name))
            words = words[:start] + " " + "|" * len(name) + " " + words[start + len(needle) :]
            start = words.find(needle)
    return [name for _, name in sorted(found)], bool(_HEDGE.search(_skeleton(words)))


# -- grading ----------------------------------------------------------------------------------


def _one(kind: str, found: _Found, expected: Any, show: Callable[[Any], str] = str) -> Grade:
    """Pass if ``found`` holds exactly the one value ``expected``."""
    distinct = list(dict.fromkeys(found.values))
    if found.invalid:
        return Grade(False, f"{found.invalid[0]}")
    if not distinct:
        return Grade(False, f"no {kind} in the answer")
    if len(distinct) > 1:
        listed = ", ".join(show(v) for v in distinct[:5])
        return Grade(False, f"names {len(distinct)} {kind} values ({listed}): a hedge")
    value = distinct[0]
    if value != expected:
        return Grade(False, f"answered {show(value)}, expected {show(expected)}", value)
    return Grade(True, f"answered {show(value)}", value)


def _money_text(cents: int) -> str:
    return f"{'-' if cents < 0 else ''}${abs(cents) / 100:,.2f}"


def _expected_one(kind: str, found: _Found) -> Any:
    if len(set(found.values)) != 1 or found.invalid:
        raise AnswerError(f"the expected {kind} must be one {kind} value")
    return found.values[0]


def _grade(
    kind: str, text: str, expected: Any, year: int | None, candidates: tuple[str, ...]
) -> Grade:
    if kind == "money":
        want = expected if isinstance(expected, int) else _expected_one(kind, _money(expected))
        return _one("money", _money_said(text), want, _money_text)
    if kind == "number":
        want = Decimal(expected) if isinstance(expected, (int, Decimal)) else None
        want = want if want is not None else _expected_one(kind, _counts(str(expected)))
        return _one("number", _counts_said(text), want)
    if kind == "date":
        want = expected if isinstance(expected, date) else date.fromisoformat(str(expected))
        return _one("date", _dates(text, year), want, date.isoformat)
    if kind == "time":
        want = expected if isinstance(expected, time) else _expected_one(kind, _times(expected))
        return _one("time", _times(text, want), want, lambda t: t.strftime("%H:%M"))
    if kind == "phone":
        want = _expected_one(kind, _phones(str(expected)))
        return _one("phone", _phones(text), want, _phone_text)
    if kind == "identifier":
        want = _canonical_id(str(expected))
        return _one("identifier", _identifiers(text, want, candidates), want)
    if kind in ("name", "string"):
        found, _ = _names(text, str(expected), candidates, loose=True)
        grade = _one("name", found, normalize_text(_skeleton(str(expected))), repr)
        if grade.passed and _FILE_NAME.fullmatch(str(expected).strip()):
            own = normalize_text(str(expected))  # "q1 budget.csv" is q1-budget.csv
            files = {f for f in _FILE_NAME.findall(text) if normalize_text(f) not in own}
            if files:
                return Grade(False, f"names another file too ({sorted(files)[0]}): a hedge")
        return grade
    if kind in ("list", "set"):
        want = [normalize_text(str(e)) for e in expected]
        if candidates:
            items, hedged = _named_items(text, [*map(str, expected), *candidates])
        else:
            items, hedged = _items(text), bool(_HEDGE.search(_skeleton(normalize_text(text))))
        if hedged:
            return Grade(False, "'or' between the items: a hedge", items)
        same = items == want if kind == "list" else set(items) == set(want)
        verdict = "answered" if same else f"expected {want}, answered"
        return Grade(same, f"{verdict} {items}", items)
    raise AnswerError(f"unknown answer kind {kind!r}; the kinds are {', '.join(KINDS)}")


def _phone_text(digits: str) -> str:
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def grade(
    kind: str,
    text: object,
    expected: Any,
    *,
    year: int | None = None,
    candidates: Iterable[str] = (),
) -> Grade:
    """Grade ``text`` as an answer of ``kind`` whose right value is ``expected``.

    Args:
        kind: one of :data:`KINDS` (``"string"`` is read as ``"name"``).
        text: the agent's message; anything at all (it is never trusted to be well formed).
        expected: the right value: cents (int) or "$58.20" for money, a number, a
            :class:`~datetime.date` or ISO string, a :class:`~datetime.time` or "2:30 PM",
            a phone number in any format, an id or name, or the items of a list or set.
        year: the year of a date written without one, when the task knows it.
        candidates: other values the asker could mean (the runner-up, every other file
            name); naming one of them too is a hedge. For ``name`` and ``identifier``; for
            ``list`` and ``set``, the names the items may be (every product of the shop): the
            items are then the names written, in order, and the words around them no item.

    Never raises on ``text``; a malformed ``expected`` or an unknown ``kind`` is a bug of
    the task and raises :class:`AnswerError`.
    """
    try:
        text = clean(text)
    except Exception as error:  # a str subclass whose methods fail, for instance
        return Grade(False, f"unreadable answer ({type(error).__name__})")
    if not text.strip():
        return Grade(False, "empty answer")
    if len(text) > MAX_LENGTH:
        return Grade(False, f"answer of {len(text)} characters; more than {MAX_LENGTH}")
    others = tuple(str(c) for c in candidates)
    if kind == "date":
        text = _without_asides(text, year)
    result = _grade(kind, text, expected, year, others)
    if not result.passed:
        return result
    said = _without_repeats(kind, text, result.value, year)
    doubt = _UNSURE.search(_skeleton(said))
    if doubt:
        reason = f"{result.reason}, but {doubt[0].strip()!r} says it is not sure"
        return Grade(False, reason, result.value)
    if kind in _NUMBER_KINDS and _offers_another_number(said, kind):
        return Grade(
            False,
            f"{result.reason}, but another number is offered beside it: a hedge",
            result.value,
        )
    qualifier = _qualified(kind, said, result.value, year)
    if qualifier:
        reason = f"{result.reason}, but {qualifier!r} makes it approximate or open"
        return Grade(False, reason, result.value)
    exception = _EXCEPTION.search(_skeleton(said)) if kind == "number" else None
    if exception:
        reason = f"{result.reason}, but {exception[0]!r} offers another count"
        return Grade(False, reason, result.value)
    named = [str(expected), *others] if kind in ("name", "string") else []
    offered = _offers_another_answer(
        kind, said, lambda part: _grade(kind, part, expected, year, others).passed, named
    )
    if offered:
        return Grade(False, f"{result.reason}, but {offered}: a hedge", result.value)
    return result


#: A date set aside in brackets as another event's ("Sabrina's e-mail (sent December 30)
#: proposes January 3"): the date of a message's sending, an order's placing, a form's filing.
_ASIDE = re.compile(
    r"\(\s*(?:sent|received|dated|posted|filed|submitted|placed|ordered|shipped|written"
    r"|updated|created|modified|booked|made|signed|paid)\b(?:\s+on)?[^()]{1,40}\)",
    re.IGNORECASE,
)


def _without_asides(text: str, year: int | None) -> str:
    """``text`` without the dates set aside as another event's, when a date is left beside
    them: the date the sentence gives, not the one it labels as another's."""
    rest = _blank(text, _ASIDE)
    if rest != text and _dates(rest, year).values:
        return rest
    return text


#: What a value's repetition may be joined to it by: "(911) 555-0954 / +1 (911) 555-0954".
_REPEAT_JOIN = re.compile(r"(?:\s*(?:/|\||,|;|=|\bor\b|\baka\b|\bi\.e\.,?))?\s*\(?\s*$", re.I)
_VALUE_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "money": (_MARKED_MONEY,),
    "phone": (_PHONE,),
    "time": (_TIME_12, _TIME_24),
    "date": (_MONTH_FIRST, _DAY_FIRST, _ISO_DATE, _DASHED_DATE, _US_DATE),
}


def _without_repeats(kind: str, text: str, value: Any, year: int | None) -> str:
    """``text`` with every writing of the answer ``value`` after the first taken out (with
    what joins it to the one before): the same value written twice, in two formats, offers
    no second one."""
    read: dict[str, Callable[[str], _Found]] = {
        "money": _money,
        "phone": _phones,
        "time": lambda part: _times(part, value),
        "date": lambda part: _dates(part, year),
    }
    if kind not in read:
        return text
    spans = sorted(
        match.span()
        for pattern in _VALUE_PATTERNS[kind]
        for match in pattern.finditer(text)
        if set(read[kind](match[0]).values) == {value}
    )
    kept_end, out = -1, text
    for begin, end in spans:
        if kept_end < 0:
            kept_end = end
            continue
        if begin < kept_end:  # another reading of the first writing
            continue
        near = max(kept_end, begin - 24)  # what joins it stands right before it
        join = _REPEAT_JOIN.search(out[near:begin])
        start = near + join.start() if join else begin
        out = out[:start] + " " * (end - start) + out[end:]
    return out


#: Each kind's reader of what a message says, given the year of dates written without one
#: and the answer's own value (which a bare time may mean).
_READ_SAID: dict[str, Callable[[str, int | None, Any], _Found]] = {
    "money": lambda text, _, __: _money_said(text),
    "number": lambda text, _, __: _counts_said(text),
    "date": lambda text, year, _: _dates(text, year),
    "time": lambda text, _, value: _times(text, value),
}
#: A word that may be part of a written value: digits, "$", "dollars", "PM", a month, a number.
_VALUE_WORD = re.compile(
    r"[^A-Za-z]*[0-9][^ ]*|(?:US)?\$.*|usd|dollars?|bucks|cents?|[ap]\.?m\.?|noon|midnight"
    rf"|the|of|{_MONTH[1:-6]}|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    rf"|{SPELLED.pattern}",
    re.IGNORECASE,
)


def _qualified(kind: str, text: str, value: Any, year: int | None) -> str:
    """The word that makes the answer ``value`` approximate or open where it stands right
    before it ("about 5", "~$58.20", "by March 4"), or "" if none does."""
    if kind not in _READ_SAID:
        return ""
    text = _skeleton(text)
    for match in _QUALIFIER.finditer(text):
        words = []
        for word in text[match.end() : match.end() + 48].split():
            bare = word.strip(".,;:!?\"'*()[]")
            if not bare or not _VALUE_WORD.fullmatch(bare):
                break
            words.append(word)
            if word[-1] in ";:!?)":
                break
        if words and set(_READ_SAID[kind](" ".join(words), year, value).values) == {value}:
            return match[0].strip()
    return ""


def _sentences(text: str) -> list[str]:
    return [part for part in re.split(r"(?<=[.!?])\s+|\n+", text) if part.strip()]


#: Where a clause ends, for telling what an "or" joins.
_CLAUSE_END = re.compile(r"[,;:()\[\]!?]|\.(?:\s|$)|\s-\s")


def _or_joins_other_words(
    sentence: str, match: re.Match[str], kind: str, holds: Callable[[str], bool]
) -> bool:
    """Whether the "or" at ``match`` joins words that are no values of the answer's kind
    ("Barnes or Noble", "the Salt or Pepper Grinder Set", "in Room 2 or the lobby"), rather
    than offering another value (a number after it is :func:`_offers_another_number`'s): it
    does unless what follows it refers to another value ("or the day after", "or whatever the
    other order came to"), or it stands in the clause that gives the answer between words that
    are no name's ("$58.20 or the subtotal")."""
    after = _CLAUSE_END.split(sentence[match.end() : match.end() + 80], maxsplit=1)[0]
    if _REFERS.search(after):
        return False
    left = re.search(r"(\S+)\s*$", sentence[max(0, match.start() - 64) : match.start()])
    right = re.match(r"\s*(?:the\s+)?(\S+)", sentence[match.end() :])
    if left and right and left[1][:1].isupper() and right[1][:1].isupper():
        return True  # inside a name: "Barnes or Noble", "Salt or Pepper"
    starts = [m.end() for m in _CLAUSE_END.finditer(sentence[: match.start()])]
    clause = sentence[starts[-1] if starts else 0 : match.end()] + after
    return not holds(clause)


def _offers_another_answer(
    kind: str, text: str, holds: Callable[[str], bool], names: Iterable[str] = ()
) -> str:
    """What offers another answer beside the one given (empty if nothing does): a guess word
    in a sentence that gives the answer (``holds`` it), an open-ended value ("5 or more"), a
    later sentence that begins with one ("Or maybe …"), a list of names. ``names`` (the asked
    one, the candidates) are passed over: "Salt or Pepper Grinder" offers nothing; so is an
    "or" between words that are no values of a number-like kind ("Barnes or Noble")."""
    sentences = [_skeleton(part) for part in _sentences(text)]
    giving = [i for i, part in enumerate(sentences) if holds(part)]
    spelled = [re.escape(_skeleton(n)) for n in names if n.strip()]
    inside = re.compile("|".join(sorted(spelled, key=len, reverse=True)), re.I) if spelled else None
    for i in giving:
        said = inside.sub(" ", sentences[i]) if inside is not None else sentences[i]
        for guess in _GUESS.finditer(said):
            plain_or = guess[0].strip().lower() == "or" and kind in _NUMBER_KINDS
            if plain_or and _or_joins_other_words(said, guess, kind, holds):
                continue
            return f"{guess[0].strip()!r} offers another"
        found = _OPEN.search(sentences[i]) if kind in _NUMBER_KINDS else None
        if found:
            return f"{found[0].strip()!r} leaves it open"
    first = giving[0] if giving else 0
    for part in sentences[first + 1 :]:
        if _GUESS_FIRST.search(part):
            return f"{part.split()[0]!r} offers another"
    if kind in ("name", "string") and _in_a_list(text, names):
        return "it is one of a list"
    return ""


def _in_a_list(text: str, names: Iterable[str]) -> bool:
    """Whether the answer is given as one item of a list of several ("1. Blue Mug\n2. Green
    Mug"), not as a name with its details listed below it ("Blue Mug:\n- price $5")."""
    lines = text.split("\n")
    items = [line for line in lines if _LIST_ITEM.match(line)]
    if len(items) < 2:
        return False
    wanted = [normalize_text(_skeleton(n)) for n in names][:1]
    return any(f" {w} " in f" {normalize_text(_skeleton(line))} " for line in items for w in wanted)


#: What other kinds' readers take, blanked before looking for a second number: an order id or
#: a date written beside an amount offers no second amount (a "#5" or a "5th" beside a count
#: does, so those stay for counts and dates).
_DATES = (_MONTH_FIRST, _DAY_FIRST, _ISO_DATE, _DASHED_DATE, _US_DATE)
_TIMES = (_TIME_12, _TIME_24)
#: An id of letters and digits ("NM-10822-3", "APT-40588650"), not an ordinal ("5th").
_ID_TOKEN = re.compile(r"\b(?![0-9]+(?:st|nd|rd|th)\b)" + _MIXED_TOKEN.pattern[2:], re.IGNORECASE)
#: A place by its number ("Room 2", "Gate B4", "Suite 300"): a name, not a value.
_PLACE = re.compile(
    r"\b(?:room|rm|suite|ste|floor|gate|building|bldg|office|desk|table|hall|unit|studio"
    r"|level|lab|platform|zone|booth|court|aisle|dock|bay|terminal)s?\.?\s+#?[0-9]+[A-Za-z]?"
    r"(?:\s*(?:or|and|/|&|-)\s*#?[0-9]+[A-Za-z]?)?\b",
    re.IGNORECASE,
)
_OTHER_KINDS: dict[str, tuple[re.Pattern[str], ...]] = {
    "money": (*_DATES, *_TIMES, _PHONE, _HASH_ID, _ID_TOKEN, _ORDINAL, _PLACE),
    "number": (*_DATES, *_TIMES, _PHONE, _ID_TOKEN, _PLACE),
    "date": (*_TIMES, _PHONE, _HASH_ID, _ID_TOKEN, _PLACE),
    "time": (*_DATES, _PHONE, _HASH_ID, _ID_TOKEN, _PLACE),
    "phone": (*_DATES, *_TIMES, _HASH_ID, _ID_TOKEN, _PLACE),
    "identifier": (*_DATES, *_TIMES, _PHONE, _PLACE),
}


def _offers_another_number(text: str, kind: str) -> bool:
    """Whether an "or", "either", a guess ("maybe", "possibly"…) or a spaced slash stands
    between two numbers of any form: "$58.20 or maybe 58.62", "2, maybe three", "4 (possibly
    #5)", "March 11 / 12th". A second candidate written in a form
    the kind's reader passes over is a hedge all the same."""
    text = _skeleton(text)
    for pattern in _OTHER_KINDS.get(kind, ()):  # an order id or a date beside an amount
        text = _blank(text, pattern)
    if kind == "date" and _DAY_RANGE.search(text):
        return True
    if _RANGE.search(_blank(text, *_DATES) if kind == "date" else text):
        return True
    parts = _OFFER.split(text)  # as written: a slash and a numeral's case matter here
    return sum(bool(_NUMBER_LIKE.search(part)) for part in parts) > 1


# -- reading one value (for oracles and page text) -----------------------------------------------

_READERS: dict[str, Callable[[str], _Found]] = {
    "money": _money,
    "number": _counts,
    "date": lambda text: _dates(text, None),
    "time": _times,
    "phone": _phones,
}


def parse_answer(kind: str, text: str) -> Any:
    """The one value of ``kind`` in ``text``; :class:`AnswerError` if there is not exactly one.

    For reading pages (an oracle reading "Total: $58.20"); to grade an agent, use :func:`grade`.
    """
    text = clean(text)
    if kind in _READERS:
        found = _READERS[kind](text)
        if found.invalid:
            raise AnswerError(found.invalid[0])
        values = list(dict.fromkeys(found.values))
        if len(values) != 1:
            raise AnswerError(f"expected exactly one {kind} value, found {len(values)}")
        return values[0]
    if kind in ("name", "string", "identifier"):
        return normalize_text(text)
    if kind == "list":
        return _items(text)
    if kind == "set":
        return frozenset(_items(text))
    raise AnswerError(f"unknown answer kind {kind!r}; the kinds are {', '.join(KINDS)}")


def parse_money(text: str) -> int:
    """Cents of the one amount in ``text`` ("$1,234.50" → 123450)."""
    return int(parse_answer("money", text))


def parse_number(text: str) -> Decimal:
    """The one number in ``text``."""
    return Decimal(parse_answer("number", text))


def parse_date(text: str) -> date:
    """The one date in ``text``: ISO, US numeric, or written out ("March 4th, 2026")."""
    found: date = parse_answer("date", text)
    return found

"""Typed answers: the one value of the asked kind in an agent's message, graded against the task's.

A careful person answers in a sentence: "Order #1042 came to $58.20 on March 3." For a money
question that is $58.20: the order number and the date are values of other kinds and are passed
over. What fails is a hedge: a second value of the asked kind ("$58.20 or $61.00"), a second
candidate name ("either X or Y"), a list of every candidate; and what a careful person answering
an exact question does not write: doubt in words anywhere ("I think", "not sure", "probably"),
a value made approximate or open ("about 5", "~$58", "by March 4", "5 plus", "at the latest"),
a second candidate written another way (in words, in small digits, spelled out, run together),
or offered under a condition or relative to the answer ("$58.20 (61 with shipping)", "5 (one more
counting the archive)", "March 4 (the day after if late)", "the other line ends in 10"), or a
candidate named in part ("the runner-up, the Classic Oxford Shirt"). :func:`grade_address` fails
doubt and another address offered the same way.
An "or" is a hedge where it offers another value of the asked kind, not inside a name or
between other words ("Barnes or Noble", "in Room 2 or the lobby"), nor beside an address where
it offers something to do ("Or should I pick it up?"). A number beside the answer that is
another thing's is no second value: a count bought ("$41.37 for 1"), a clock time beside an
amount ("when I checked at 9"), another event's time or day ("with a 15-minute break at 3",
"with a reminder 1 day before"). A ranking word ("arguably", "the runner-up") is doubt anywhere
beside a name, a list or a set; beside a number-like answer or an address only where it
qualifies the answer or offers another ("$41.37, arguably"), not "It was arguably a good deal".

:func:`grade` never raises, whatever the text (impossible dates, huge numbers, control
characters, empty): it returns a :class:`Grade` that says why the answer passed or failed.
What it reads never depends on the value expected (:func:`_set_aside` sets numbers aside by
their form alone, and a task's ``facts`` by the words that name them), so no message passes
for two different right answers.

Kinds and how each is read:

- ``money``: "$1,204.50", "1204.50 dollars", "USD 7"; unmarked amounts only when the message
  marks none. Dates, times, phone numbers, ratings and ids ("#1042", "NM-10234-5") are skipped.
- ``number``: a count or quantity; dates, times, money, phones, ids and ratings are skipped
  (so is a rating's bound: "12 products rated 4 stars or more"); "twelve" is read when no
  digits are written. Counts that sum to a total named as one ("Inbox: 2,
  Archive: 2. Total: 4") are its parts: the total is the answer.
- ``date``: ISO "2026-03-04" (also "2026/03/04"; not joined to another number, "2026-03-04/05"),
  US numeric "3/4/2026" (month first, as in the US: "3/4" is March 4, never April 3; "20/1"
  is January 20, its one reading), with dots day first "04.03.2026" (March 4), written "March
  4th, 2026", "4 March 2026", "Wed, Mar 4". A date without a year takes ``year=`` when the
  task knows it, else fails. "2026-02-30" is no date.
- ``time``: "2:30 PM", "2pm", "14:30", "noon"; a bare "2:30" (an hour from 1 to 6) means the
  afternoon, as "the meeting is at 2:30" does; "9:30" and "02:30" mean the morning.
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

import bisect
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal, InvalidOperation
from itertools import islice, pairwise
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
_DAY = r"(?:the\s+)?([0-9]{1,2})(?:st|nd|rd|th)?"
#: A year, or its last two digits after an apostrophe ("Feb 10 '26").
_YEAR = r"(?:,?\s+([0-9]{4}|['\u2019][0-9]{2}))?(?![0-9:])"

_MONTH_FIRST = re.compile(rf"\b{_WEEKDAY}{_MONTH}\s+{_DAY}\b{_YEAR}", re.IGNORECASE)
_DAY_FIRST = re.compile(rf"\b{_WEEKDAY}{_DAY}\s+(?:of\s+)?{_MONTH}{_YEAR}", re.IGNORECASE)
_ISO_DATE = re.compile(r"(?<![0-9])([0-9]{4})([-/])([0-9]{1,2})\2([0-9]{1,2})(?![0-9])")
_DASHED_DATE = re.compile(
    rf"(?<![0-9])([0-9]{{1,2}})-{_MONTH}-([0-9]{{4}})(?![0-9])", re.IGNORECASE
)
_US_DATE = re.compile(r"(?<![0-9/])([0-9]{1,2})/([0-9]{1,2})(?:/([0-9]{4}|[0-9]{2}))?(?![0-9/])")
#: A date written with dots, day first as where it is written so ("20.01.2027"), or month
#: first where only that is a month ("01.20.2027"), with its year; never a version ("v1.2.2026")
#: nor an id of other numbers ("48.21.3908").
_DOTTED = (
    r"(?:(?P<d>0?[1-9]|[12][0-9]|3[01])\.(?P<m>0?[1-9]|1[0-2])"
    r"|(?P<m2>0?[1-9]|1[0-2])\.(?P<d2>1[3-9]|2[0-9]|3[01]))"
    r"\.(?P<y>(?:19|20)[0-9]{2})(?![0-9]|\.[0-9])"
)
_DOTTED_ANY = re.compile(r"(?<![0-9A-Za-z.])" + _DOTTED)
#: Before or after a dotted date, another number joined to it ("4-5.3.2026", "4th/5.3.2026",
#: "04.03.2026 – 06.03.2026", "5.3.2026/6"): a second day offered, a range.
_JOINED_BEFORE = re.compile(
    r"[0-9](?:st|nd|rd|th)?\.?(?:\s*[-/&+\u2013\u2014]\s*|,|\s+)$", re.IGNORECASE
)
_JOINED_AFTER = re.compile(r"\s*[-/\u2013\u2014]\s*[0-9]")
#: After a year-first date, another day joined to it: "2026-03-04/05", "2026-03-04 – 06" (not
#: "2026-03-04 - 2:30 PM", a time beside it; dashes are hyphens by then, see :func:`clean`).
_ISO_JOINED = re.compile(r"[-/]\s*[0-9]|\s+-\s*[0-9]{1,2}(?=\s*(?:[.,;!?)\]]|$))")
#: The same, as the other kinds' readers pass it over: only where it stands alone (joined to
#: another number, the numbers stay for the reader to see).
_DOTTED_DATE = re.compile(
    r"(?<![0-9A-Za-z.])(?<![0-9][-/,&+\s\u2013\u2014])(?<![0-9]\.[-/\s\u2013\u2014])"
    r"(?<![0-9]\s[-/,&+\u2013\u2014])(?<![0-9]\s[-/\u2013\u2014]\s)"
    r"(?<![0-9](?:st|nd|rd|th)[-/\s])" + _DOTTED + r"(?!\s*[-/\u2013\u2014]\s*[0-9])"
)
_DATES = (_MONTH_FIRST, _DAY_FIRST, _ISO_DATE, _DASHED_DATE, _DOTTED_DATE, _US_DATE)
_TIME_12 = re.compile(
    r"(?<![0-9:])([0-9]{1,2})(?::([0-9]{2}))?\s*([ap])\.?\s?m\b\.?"
    r"|(?<![0-9:])(?:12\s*)?\b(noon|midnight)\b",
    re.IGNORECASE,
)
#: A time on the 24-hour clock: "15:45", and as written in Europe, "15h45" (two digits for
#: the hour: "1h30" is a duration).
_TIME_24 = re.compile(
    r"(?<![0-9:])(?:(?=[0-9]{1,2}:)|(?<![A-Za-z])(?=[0-2][0-9]h[0-5][0-9](?![A-Za-z])))"
    r"([0-9]{1,2})[:h]([0-9]{2})(?![0-9:])"
)
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
_HASH_ID = re.compile(r"(?:#|\bno\.)\s?[0-9]+", re.IGNORECASE)
#: (The look-aheads stop at 64 characters, so that a long run costs a bounded look from each
#: of its positions.) An amount with its currency's code ("USD61", "61.00USD") is money.
_MIXED_TOKEN = re.compile(
    r"\b(?!(?i:usd)[0-9][0-9.,]*\b|[0-9]+(?i:usd)\b)"
    r"(?=[A-Za-z0-9-]{0,64}[0-9])(?=[A-Za-z0-9-]{0,64}[A-Za-z])[A-Za-z0-9-]+\b"
)
_RATING = re.compile(
    rf"(?<![0-9,.]){_NUM}(?:\.[0-9]+)?\s*(?:stars?\b|out of [0-9]+|%|percent\b)"
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
#: The digits of an amount, cents optional: "1,116.53", "14".
_AMOUNT_DIGITS = rf"{_NUM}(?:\.[0-9]{{1,2}})?"
#: A range of prices, both ends marked as amounts: "$18.00 to $99.49", "$18-$99".
_PRICE_RANGE = re.compile(
    rf"\$\s?{_AMOUNT_DIGITS}\s*(?:-|\b(?:to|through|thru|till|until)\b)\s*"
    rf"\$\s?{_AMOUNT_DIGITS}{_END}",
    re.IGNORECASE,
)
#: An amount and a larger number after a dash, a range of amounts: "$14-15", "$14 – 15." (not
#: "$14 - 2 items", a dash before something else).
_MONEY_RANGE = re.compile(
    rf"\$\s?({_AMOUNT_DIGITS})\s*-\s*\$?({_AMOUNT_DIGITS}){_END}"
    r"(?!\s*(?:%|(?!(?:dollars?|bucks|usd)\b)[a-z]))",
    re.IGNORECASE,
)
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
    # a second answer kept in reserve: "(backup: the 10th)", "the Premium as a fallback", "tied
    # with" (not a file's name: "backup.zip", "q1-backup.csv")
    r"|(?<![\w.-])(?:back-?up|fall-?back)(?![\w.-])|\bsecond (?:choice|pick|guess|option)\b"
    r"|\btied?\s+(?:with|for)\b|\bties? with\b|\bplan b\b"
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
    r"|thereabouts)\b|\bat (?:the )?(?:earliest|latest|minimum|maximum)\b"
    # "10+", not "$24.99 + tax" (a price before tax: for a total, see :data:`_LEFT_OUT`)
    r"|[0-9]\s?\+(?![0-9]|\s*(?:sales\s+)?(?:tax|vat|shipping|delivery|handling|fee)s?\b)"
    r"|\bat the (?:most|least)\b|\bat a (?:minimum|maximum)\b|\bplus(?=\s*(?:[.,;:!?)]|$))"
    r"|\bgive or take\b|\bhandful\b|\bat (?:least|most)(?=\s*(?:[.,;:!?)]|$))"
    r"|\bapprox(?:imately)?\b|\(est\.?\)|-ish\b|(?<=[0-9])ish\b"
    # right after the value: "12 minimum", "$58.20 tops", "$58.20, roughly", "12 — roughly"
    r"|(?:(?<=[0-9%)])|(?<=[ap]m)|(?<=[ap]\.m\.))[\s,(\u2014\u2013-]*(?:minimum|maximum"
    r"|(?:upper|lower) ?bound|roughly|ish|rounded|more or less|estimated?|nominal(?:ly)?|ca"
    r"|circa|appr|aprox|approx|env|etwa)\.?(?!\.?\s*\w)"
    r"(?=\s*(?:[.,;:!?)\]]|$))"
    # "max" and "min" only right after an amount and where the message ends: "(max. 2 per
    # customer)", "(30 min)" are another quantity's
    r"|(?<=\.[0-9]{2})\s*(?:max|min)\.?(?=\s*[!.]*\s*$)"
    r"|(?<=\.[0-9]{2})\s*(?:tops|floor|ceiling|est\.?)(?!\w)|\b[0-9]+\s*min(?:ute)?s?\s+window\b"
    r"|\bball-?park\b|\u00b1|\+\s?/?\s?-|\bplus or minus\b"
    r"|\bor (?:thereabouts|so)\b"
    r"|\bor (?:lower|higher|greater|fewer|bigger|smaller)\b|\band up\b|(?:&|\band) more\b"
    r"|\bgive\s*/\s*take\b|\bmore\s*/\s*less\b|\band change\b|\bat the very (?:least|most)\b"
    r"|\(\+\)"
    # a bound, not the value: "4 as a floor", "$58 as an upper bound", "4 (≥)", "4 (>=)"
    r"|\bas an? (?:floor|ceiling|minimum|maximum|lower bound|upper bound|lower limit"
    r"|upper limit|estimate|guess)\b|\(\s*(?:[\u2264\u2265]|[<>]=?)\s*\)",
    re.IGNORECASE,
)
#: A count left open beside an amount, where it restates what was asked for ("the cheapest
#: rated 3+ stars costs $13.99", "4 stars or more"): it leaves no amount open.
_OPEN_COUNT = re.compile(
    r"(?<![$0-9.,])[0-9]+(?:\.[0-9])?\s*(?:\+|(?:stars?|reviews?|ratings?|items?)\s+or\s+"
    r"(?:more|higher|better|above)|(?:stars?\s+)?and\s+up)",
    re.IGNORECASE,
)
#: An open-ended price beside a count ("12 products cost $25.00 or less", "at or under $25"):
#: the price's bound, which leaves the count as it is.
_OPEN_PRICE = re.compile(
    r"\bat or (?:below|under|above|over|less than|more than)\s*\$\s?[0-9][0-9,.]*"
    r"|(?:\$\s?[0-9][0-9,.]*|\b[0-9][0-9,.]*\s?(?:dollars?|usd|bucks)\b)"
    r"\s*(?:or (?:less|under|below|lower|cheaper|more|over|above|higher)"
    r"|and (?:under|below|up|over|above))\b",
    re.IGNORECASE,
)
#: A rating's bound beside a count ("12 products rated 4 stars or more", "4+ stars", "rated
#: at least 4.5"): the rating's, which a count never reads (ratings are another kind's), so
#: it leaves the count as it is.
_RATING_BOUND = re.compile(
    # the digit a rating's by its own words: "4 stars or more", "4-star and up"
    r"(?<![0-9.,$])[0-9](?:\.[0-9])?(?:\s*|-)stars?\s+(?:or|and) (?:more|higher|better|above|up"
    r"|over)\b"
    # or by the words before it: "rated 4+", "a rating of 4 or more stars", "with 4+ stars"
    r"|\b(?:rated|ratings?(?:\s+of)?|with|having|averaging)\s+(?:an?\s+)?[0-9](?:\.[0-9])?\s*"
    r"(?:\+|(?:or|and) (?:more|higher|better|above|up|over)\b)(?:\s*-?\s*stars?\b)?"
    r"|\brat(?:ed|ing)\s+(?:of\s+)?(?:at least|above|over|higher than|better than"
    r"|no (?:less|lower) than)\s+[0-9](?:\.[0-9])?(?:\s*stars?\b)?"
    r"|\b(?:at least|a minimum of)\s+[0-9](?:\.[0-9])?\s*stars?\b",
    re.IGNORECASE,
)
_ONE_ON_ONE = re.compile(r"\bone[- ]on[- ]ones?\b", re.IGNORECASE)
#: What states a most, where a most is asked for: "up to $X", "at most $X", "a maximum of $X",
#: "$X max", "$X at the most".
_STATES_A_MOST = re.compile(
    r"\b(?:up to|at (?:the )?most|a maximum of|the maximum(?: is)?|max(?:imum)?:?|no more than"
    r"|not more than|(?:can'?t|cannot|can not|won'?t) (?:\w+ ){1,3}more than)(?=\s*\$?[0-9])"
    r"|(?<=[0-9])\s*(?:,\s*)?(?:max(?:imum)?|tops|at (?:the )?most)\b",
    re.IGNORECASE,
)
#: What states a least, where a least is asked for (what more to spend to reach a threshold):
#: "at least $X", "a minimum of $X", "$X or more", "$X minimum".
_STATES_A_LEAST = re.compile(
    r"\b(?:at (?:the )?least|a minimum of|the minimum(?: is)?|min(?:imum)?:?|no less than"
    r"|not less than)(?=\s*\$?[0-9])"
    r"|(?<=[0-9])\s*(?:,\s*)?(?:or (?:more|above|over)|min(?:imum)?|at (?:the )?least)\b",
    re.IGNORECASE,
)
#: A bare number in brackets, or as a total, beside an amount or a count: "$58.20 (61)", "12
#: (XIII)", "$58.20, 61 in total" (a number of things, "(2 items)", is no other value).
_BARE_ASIDE = re.compile(
    r"\(\s*(?:aka\s+|or\s+|i\.?e\.?\s+)?(?:(?!(?:19|20)[0-9]{2}\b)[0-9][0-9,.]*"
    r"|(?=[XLC]*[IV])[IVXLC]{2,}|(?=[xlc]*[iv])[ivxlc]{2,})"
    r"\s*(?:(?:in\s+)?(?:total|all|sum)|overall|grand\s+total|all\s+told)?\s*\)"
    r"|\[\s*(?:[0-9][0-9,.]*\s+(?:(?:in\s+)?(?:total|all|sum)|overall|grand\s+total|all\s+told)"
    r"|(?=[XLC]*[IV])[IVXLC]{2,}|(?=[xlc]*[iv])[ivxlc]{2,})\s*\]"
    r"|(?:[,;]|\s-)\s+[0-9][0-9,.]*\s+(?:(?:in\s+)?(?:total|all|sum)|overall|grand\s+total"
    r"|all\s+told)\b",
    re.IGNORECASE,
)
#: A date or time moved by a number beside it: "March 4 +1", "2:30 PM, +15", "3 PM -1".
_SHIFTED = re.compile(r"(?<=\s)(?<!(?:GMT|UTC|gmt|utc) )[+-][0-9]{1,3}(?![0-9.,:/])")
#: Words that make the value that follows them approximate or open: "about 5", "roughly
#: $58.20", "~$58", "≥5", "at least 5", "up to 5", "over 5", "by March 4", "around 2:30 PM". They
#: leave the answer open only where they qualify it: "up to 20% off" beside a count does not.
_QUALIFIER = re.compile(
    r"\b(?:about|around|approximately|approx|roughly|circa|ca|nearly|almost|close to"
    r"|upwards of|in the region of|at least|at most|anything but|(?:something )?other than"
    r"|nowhere near|far from|not even close to|ca\.|appr\.|aprox\.?|etwa|env\."
    r"|(?<!\badds\s)(?<!\badd\s)(?<!\bcomes\s)"
    r"(?<!\badded\s)up to|(?:no )?(?:more|less|fewer|later"
    r"|earlier|sooner) than|over|under|above|below|by|before|after|not (?:before|after)"
    r"|sometime(?: around| in| on)?|some time (?:around|in|on))\b\.?"
    r"|[~\u2248\u2264\u2265]|(?<![\w/-])[<>]=?",
    re.IGNORECASE,
)
#: What a careful person does not say of an answer they are sure of, anywhere in the message:
#: "not sure", "I think", "probably", "I'd guess", "if that's the one", "Smith says
#: otherwise", "… instead", "could also be", "might be B".
_UNSURE = re.compile(
    r"\bnot (?:sure|certain|positive|100 ?%)|\bunsure\b|\buncertain\b"
    r"|\bcan'?t be sure\b"
    r"|\bhard to (?:say|tell)\b|\b(?:I'?d |I would |I )?guess(?:ing)?\b|\bprobably\b"
    r"|\bprob\.(?!\w)|\bpresumably\b|\bI (?:think|believe|suspect|assume)\b"
    r"|\bif I'?m not mistaken\b"
    r"|\bif I (?:counted|read (?:it|that)|remember|recall|understood)\b|\bif I'?m right\b"
    r"|\bif (?:that|this|it)(?:'s| is| was) (?:the (?:right )?one|right|correct|wrong|it)\b"
    r"|\b(?:iirc|i\.i\.r\.c|afaik|afaict|afair|imho|unverified|unconfirmed|conceivably|tbc)\b"
    r"|\bnot (?:verified|confirmed|double[- ]?checked)\b|\b(?:haven'?t|didn'?t|did not|have not)"
    r" (?:verified|verify|double[- ]?checked|checked)\b|\bneeds? (?:verification|verifying)\b"
    r"|\(\s*(?:please verify|double[- ]?check|to be confirmed|approx(?:imate)?)\s*\)"
    r"|\bdon'?t quote me\b|\boff the top of my head\b|\bfrom memory\b"
    r"|\b(?:I'?d|I would|I'?ll|I) (?:wager|bet)\b|\bgrain of salt\b|\bmy bet\b|\bI'?m betting\b"
    r"|\bput (?:money|my money) on\b|\bodds are\b|\b(?:is|are|was|were) said to be\b"
    r"|\breasonably (?:sure|confident|certain)\b"
    # a confidence short of certainty: "70% confidence", "low confidence", "50/50"
    r"|\b[1-9]?[0-9](?:\.[0-9]+)?[ -]?(?:%|percent\b)[\s-]*"
    r"(?:confidence|confident|certainty|certain|sure|likely)\b"
    r"|\b(?:low|medium|moderate|fair|some|limited|partial)[- ]confidence\b"
    r"|\bnot (?:very |fully |entirely |completely |totally |that |too |high |full )?"
    r"confiden(?:t|ce)\b|\b(?:moderately|somewhat|fairly|partly|only partly) confident\b"
    # (a chance, not a split: "split it 50/50", "shared 50-50" are no doubt)
    r"|(?<![0-9/:-])(?<!split )(?<!split it )(?<!shared )(?<!divided )(?<!go )(?<!going )"
    r"(?:50 ?[/:-] ?50|fifty[- /]fifty)(?![0-9/:-])"
    r"(?=\s*(?:[.,;:!?)\]]|$|(?:chance|odds|call|shot|guess|bet)\b|on (?:it|that|this)\b))"
    r"|\bcoin[- ]?(?:flip|toss)\b|\btoss[- ]?up\b|\beven odds\b"
    # odds or a probability given to the answer: "60/40 odds", "p=0.7", "a crapshoot", "my
    # confidence is about 70%"
    r"|(?<![0-9/:.-])[0-9]{1,2}\s?[/:-]\s?[0-9]{1,2}\s+(?:odds|chance)\b"
    r"|\bodds\s+(?:of\s+|are\s+|at\s+)?[0-9]{1,2}\s?[/:-]\s?[0-9]{1,2}(?![0-9])"
    r"|\b[0-9]{1,2}\s+in\s+[0-9]{1,3}\s+(?:chance|odds|shot)\b|\bcrap[- ]?shoot\b"
    r"|\bshot in the dark\b"
    r"|\b(?:p|probability|likelihood|confidence(?: level)?)(?:\s+(?:is|of|at|around|about"
    r"|roughly))*\s*[:=\u2248~]?\s*(?:0?\.[0-9]+|(?<![0-9])[1-9]?[0-9](?:\.[0-9]+)?\s?(?:%"
    r"|percent\b)|[0-9]\s?(?:/|out of)\s?10\b)"
    r"|(?<![0-9.])[1-9]?[0-9](?:\.[0-9]+)?\s?(?:%|percent)\s+(?:chance|probability|likelihood)\b"
    r"|\bif my (?:notes|records|reading|math|maths|count|counting) (?:is|are) (?:right|correct"
    r"|accurate)\b"
    r"|\blast (?:I|time I) (?:checked|looked|heard|saw)\b|\bsubject to change\b|\brough estimate\b"
    r"|^\W*(?:nope|wrong)\b|\bnot (?:\w+ ){0,2}(?:sure|certain|positive)\b|\bpretty sure\b"
    r"|\b(?:could|might|may) be (?:outdated|out of date|off|stale)\b"
    r"|\bfairly (?:confident|sure|certain)\b|\b[0-9]{1,2} ?% (?:confident|sure|certain)\b"
    r"|\bconfidence: (?!\s*100\s?%)|\bif I'?m reading (?:this|it|that) (?:right|correctly)\b"
    r"|\bif I read (?:\w+ ){0,3}(?:right|correctly)\b|\bas best I can tell\b"
    r"|\bcan'?t tell for (?:certain|sure)\b|\bmay (?:be|have been) (?:outdated|out of date|wrong"
    r"|incorrect)\b|\bmay not be (?:current|accurate|right|correct)\b"
    r"|\bmay have (?:changed|mistyped)\b|\bin all likelihood\b|\bchances are\b"
    # the value denied after it: "$31.42 is not correct", "X isn't right", "X is wrong"
    r"|\b(?:is|was|are|were)(?: not|n'?t) (?:correct|right|accurate|it|the (?:right )?answer)\b"
    r"|\b(?:is|was) (?:wrong|incorrect)\b"
    r"|\bif (?:my )?memory serves\b|\bto the best of my (?:knowledge|memory|recollection)\b"
    r"|\b(?:says?|said|shows?|suggests?|indicates?|claims?|thinks?) otherwise\b"
    r"|\binstead\b(?!\s+of\b)(?![^.!?\n]*\?)"
    # another candidate held in reserve: "try the other", "it could go either way"
    r"|\btry the other\b|\bgo either way\b"
    # "could be wrong", "might be B"; not "could be reached" (can be, a passive).
    r"|\b(?:could|might) (?:also |well )?(?:be|have been)\b(?!\s+(?:\w+ed|found|seen|done|"
    r"given|shown|sent|made|taken|met|paid|bought|told|kept|left|picked up)\b)",
    re.IGNORECASE,
)
#: Words that rank another candidate just behind the answer, or the answer among others:
#: "arguably", "a close second", "the runner-up", "borderline". For a name, a list or a set
#: they are doubt anywhere; beside a number-like answer or an address only where they qualify
#: the answer or offer another value (:func:`_ranked`): "$41.37, arguably", "7; runner-up: 8",
#: not "$41.37. It was arguably a good deal", "3 tickets; the runner-up agent had none".
_RANKED = re.compile(
    r"\barguabl[ey]\b|\bdebatabl[ey]\b|\bborderline\b|\btoss[- ]?up\b|\bclose (?:second|call)\b"
    r"|\brunners?[- ]?ups?\b|\bsecond[- ](?:best|place|choice|pick|option)\b"
    r"|\bother (?:candidate|contender)s?\b",
    re.IGNORECASE,
)
#: Where a clause that may hold another value ends: a sentence, a line, a bracket, a dash
#: (:func:`_alternative_value`); for :func:`_ranked`, a comma or a colon too.
_ASIDE_END = re.compile(r"(?<=[.!?])\s+|\n+|[;()\[\]{}]|\s-+\s")
_RANKED_CLAUSE = re.compile(rf"{_ASIDE_END.pattern}|[:,]")


def _ranked(kind: str, text: str) -> re.Match[str] | None:
    """The :data:`_RANKED` words that make ``text`` (a skeleton) unsure of its answer of
    ``kind``: anywhere for a name, a list or a set; for a number-like kind only in a clause
    that holds a value (the answer or another: "arguably $41.37", "runner-up: 8") or nothing
    but them ("7 (arguably)")."""
    if kind not in _NUMBER_KINDS:
        return _RANKED.search(text)
    for clause in _RANKED_CLAUSE.split(text):
        for match in _RANKED.finditer(clause):
            rest = clause[: match.start()] + " " + clause[match.end() :]
            if not re.search(r"[^\W_]", rest) or re.search(r"[0-9]", rest) or SPELLED.search(rest):
                return match
    return None


#: A count offered with an exception, which offers the other count: "5, not counting the
#: archived one", "5 if you leave out drafts".
_EXCEPTION = re.compile(
    r"\b(?:not|without) (?:counting|including)\b|\bexcluding\b"
    r"|\bif (?:you|we|I|one) (?:count|include|exclude|add|leave out|ignore|don'?t count)\b",
    re.IGNORECASE,
)
#: Right after a count (a word or two and a mark between at most), what adds to it or takes
#: from it, and so offers the other count: "7 (plus my draft)", "7 messages, besides the one in
#: Spam", "7 except the newsletter", "7, excl. drafts". Further from the count these words
#: describe rather than add ("7 e-mails (Inbox plus Archive)", "Other than that, …").
_COUNT_AMENDED = re.compile(
    r"[*_\"'\u201d\u2019]*(?:[ \t]+[A-Za-z][A-Za-z'-]*){0,3}?\s*"
    r"(?:(?:[,(:;\u2014\u2013-]\s*)?"
    r"(?:plus|\+|besides|except(?:ing)?(?:\s+for)?|ignoring|leaving\s+(?:out|aside)"
    r"|(?:setting|putting)\s+aside|as\s+well\s+as|in\s+addition\s+to|on\s+top\s+of"
    r"|(?:apart|aside)\s+from|other\s+than|along\s+with|together\s+with|minus|without"
    r"|save\s+for|excl\.?|ex\.|exclusive\s+of|not\s+incl\.?|omitting|discounting|disregarding)"
    # "7. Plus the draft in Spam.", "7 (drafts excluded)"
    r"|\.\s+(?:plus|\+)|\(\s*[A-Za-z'-]+(?:\s+[A-Za-z'-]+)?\s+(?:excluded|not\s+counted"
    r"|not\s+included|aside))(?![\w])",
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
    r"|tomorrow|yesterday|tonight|fortnight|weekend|morning|afternoon|evening|night|lunch"
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


#: A digit of another script than ASCII's ("٦", "६", "৬").
_OTHER_DIGIT = re.compile(r"(?![0-9])\d")


def clean(text: object) -> str:
    """``text`` as one line of plain characters: compatibility forms folded (full-width digits,
    non-breaking spaces), the digits of every script made ASCII ones, dashes made hyphens,
    control characters made spaces."""
    text = text if isinstance(text, str) else str(text)
    text = _SMALL_CENTS.sub(lambda m: f"{m[1]}.{m[2]}", text)  # "$58²⁰", "58₆₂": cents
    text = re.sub(r"(?<=[A-Za-z])\u2014(?=\s*[$0-9])", ": ", text)  # "The total—$31.42"
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    text = _OTHER_DIGIT.sub(lambda m: str(unicodedata.decimal(m[0])), text)  # "٦١" is 61
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


def as_typed(value: Any) -> Any:
    """``value`` as a check compares what a person typed into a field: text with its spaces
    collapsed, the quotes around it and a final period dropped, and its case ignored (in lists
    and mappings too); other values as they are. Punctuation inside is kept: "jo_smith" and
    "jo-smith" are two addresses."""
    if isinstance(value, str):
        return " ".join(value.split()).strip("\"'\u201c\u201d\u2018\u2019").rstrip(".").casefold()
    if isinstance(value, Mapping):
        return {key: as_typed(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [as_typed(item) for item in value]
    return value


def _blank(text: str, *patterns: re.Pattern[str]) -> str:
    """``text`` with every match of ``patterns`` replaced by spaces (keeping offsets)."""
    for pattern in patterns:
        text = pattern.sub(lambda m: " " * len(m[0]), text)
    return text


def _rises(low: str, high: str) -> bool:
    """Whether the amount ``high`` is more than ``low`` (a range's ends)."""
    start, end = _decimal(low), _decimal(high)
    return start is not None and end is not None and end > start


def _decimal(digits: str) -> Decimal | None:
    digits = digits.replace(",", "")
    if len(digits.split(".")[0].lstrip("0")) > MAX_DIGITS:
        return None
    try:
        return Decimal(digits)
    except InvalidOperation:
        return None


# -- finding values of each kind -----------------------------------------------------------------


#: A day of the month in ordinal words beside a month's name: "February tenth", "the
#: twenty-first of March".
_DAY_WORD = re.compile(
    rf"\b{_MONTH}\s+(?:the\s+)?(?P<w>(?:twenty|thirty)[\s-]+\w+|\w+)\b"
    rf"|\b(?:the\s+)?(?P<v>(?:twenty|thirty)[\s-]+\w+|\w+)(?=\s+of\s+{_MONTH})",
    re.IGNORECASE,
)


def _day_in_digits(match: re.Match[str]) -> str:
    """A day written in ordinal words as digits ("tenth" → "10th"), else as it was."""
    group = "w" if match["w"] else "v"
    words = match[group]
    if group == "w" and match[1] == "may":  # "you may first need to": no month
        return match[0]
    number = spelled_value(words) if is_ordinal(words) else None
    if number is None or not 1 <= number <= 31:
        return match[0]
    start, end = match.span(group)
    return match[0][: start - match.start()] + f"{number}th" + match[0][end - match.start() :]


def _dates(text: str, year: int | None) -> _Found:
    values: list[date] = []
    invalid: list[str] = []

    def add(match: re.Match[str], y: str | None, m: int | str, d: str) -> str:
        if y is not None and y[:1] in "'\u2019":
            y = f"20{y[1:]}"
        if y is None and year is None:
            invalid.append(f"{match[0].strip()!r} has no year")
        else:
            try:
                values.append(date(int(y) if y else year or 0, int(m), int(d)))
            except ValueError:
                invalid.append(f"{match[0].strip()!r} is not a calendar date")
        return " " * len(match[0])

    def dotted(match: re.Match[str]) -> str:
        before = match.string[max(0, match.start() - 12) : match.start()]
        if _JOINED_BEFORE.search(before) or _JOINED_AFTER.match(match.string, match.end()):
            invalid.append(f"{match[0]!r} is joined to another number")
            return " " * len(match[0])
        return add(match, match["y"], match["m"] or match["m2"], match["d"] or match["d2"])

    def iso(match: re.Match[str]) -> str:
        if _ISO_JOINED.match(match.string, match.end()):  # "2026-03-04/05": a range
            invalid.append(f"{match[0]!r} is joined to another number")
            return " " * len(match[0])
        return add(match, match[1], match[3], match[4])

    text = _DAY_WORD.sub(_day_in_digits, text)  # "February tenth": February 10th
    text = _MONTH_FIRST.sub(lambda m: add(m, m[3], _MONTHS[m[1].lower()], m[2]), text)
    text = _DAY_FIRST.sub(lambda m: add(m, m[3], _MONTHS[m[2].lower()], m[1]), text)
    text = _ISO_DATE.sub(iso, text)
    text = _DASHED_DATE.sub(lambda m: add(m, m[3], _MONTHS[m[2].lower()], m[1]), text)
    text = _DOTTED_ANY.sub(dotted, text)

    def us(match: re.Match[str]) -> str:
        y = match[3]
        if y is not None and len(y) == 2:
            y = f"20{y}"
        return add(match, y, *_month_and_day(match[1], match[2]))

    _US_DATE.sub(us, text)
    return _Found(tuple(values), tuple(invalid))


def dates_in(text: object, year: int | None = None) -> tuple[list[date], list[str]]:
    """The calendar dates written in ``text``, read as :func:`grade` reads them (a date without
    its year in ``year``), and what looked like a date but is none ("February 30")."""
    found = _dates(clean(text), year)
    return list(found.values), list(found.invalid)


def times_in(text: object) -> tuple[list[time], list[str]]:
    """The clock times written in ``text``, read as :func:`grade` reads them (a bare "1:30" in
    the afternoon), and what looked like a time but is none ("13:75", "14 PM")."""
    found = _times(clean(text))
    return list(found.values), list(found.invalid)


def _month_and_day(month: str, day: str) -> tuple[str, str]:
    """(month, day) of a numeric date, or the two swapped where only that reading is a date:
    "20/01/2027" is January 20; "3/4/2026" stays March 4."""
    if int(month) > 12 >= int(day) >= 1:
        return day, month
    return month, day


#: The last hour a bare "h:mm" is read in the afternoon: "6:30" is 6:30 PM, "7:30" 7:30 AM.
_AFTERNOON_UNTIL = 6


def _times(text: str, meant: time | None = None) -> _Found:
    """The times in ``text``. A bare "1:30" (an hour from 1 to 6 without a leading zero, and
    no AM or PM) is read in the afternoon, as a person reads "the meeting is at 1:30"; other
    times as written, on the 24-hour clock. The reading never depends on the time ``meant``
    (kept for the callers that pass it), so a bare "2:30" cannot pass for 2:30 AM and 2:30 PM
    both."""
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
        bare = not match[1].startswith("0") and 1 <= hour <= _AFTERNOON_UNTIL
        if bare and minute < 60:
            values.append(time(hour + 12, minute))
        elif hour < 24 and minute < 60:
            values.append(time(hour, minute))
        else:
            invalid.append(f"{match[0]!r} is not a time")
    return _Found(tuple(values), tuple(invalid))


def _phones(text: str) -> _Found:
    return _Found(tuple("".join(filter(None, m.groups())) for m in _PHONE.finditer(text)))


#: A year alone, after the word that makes it one: "posted in 2025", "since 2019".
_YEAR_ALONE = re.compile(
    r"(?<!\bor )\b(?:in(?: the)?|since|from|for|during|until|till|through|year|Q[1-4])"
    r"\s+(?:19|20)[0-9]{2}(?:/[0-9]{2})?\b(?![.,]?[0-9])"
    r"|\bbetween\s+(?:19|20)[0-9]{2}\s+and\s+(?:19|20)[0-9]{2}\b",
    re.IGNORECASE,
)


def _without_other_kinds(text: str) -> str:
    """``text`` with dates, times, years, phone numbers and ids blanked, for reading amounts."""
    for pattern in (*_DATES, _TIME_12, _TIME_24, _PHONE):
        text = _blank(text, pattern)
    text = _blank(text, _YEAR_ALONE)
    return _blank(text, _HASH_ID, _MIXED_TOKEN, _ORDINAL)


#: An amount for each of something, a rate: "$325.00 per night", "$90/meal", "$12 each" (not
#: "a day ago", "each time").
_RATE = re.compile(
    r"\s*(?:(?:per|/)\s*(?:(?:hotel|business|room|travel|working|guest|extra|additional)\s+)?"
    r"(?:night|meal|day|person|guest|item|unit|hour|hr|week|month|year|receipt"
    r"|ticket|seat|mile|km|lb|kg|piece|pack|box)\b"
    r"|an?\s+(?:night|meal|day|person|guest|item|unit|hour|week|month|year|piece)\b"
    r"(?!\s+(?:ago|earlier|later|before|after|back|prior|since|from)\b)"
    r"|(?:each|apiece|a pop)(?=\s*(?:[.,;:)!\u2014-]|$)))",
    re.IGNORECASE,
)


#: Where a sentence or a clause of its own ends: ". ", "!", "?", ";", a line.
_RATE_CLAUSE_END = re.compile(r"[.!?](?=\s|$)|[;\n]")


def _without_rates(text: str) -> str:
    """``text`` with its rates blanked ("$325.00 per night"), where it names an amount that is
    not one: beside a total, a limit per night is no second candidate for it, unless its
    sentence offers it as one; alone, a rate is the answer."""
    amounts = list(_MARKED_MONEY.finditer(text))
    rates = [match for match in amounts if _RATE.match(text, match.end())]
    if not rates or len(rates) == len(amounts):
        return text
    # Each sentence is searched once for what offers its rates as candidates.
    ends = [m.end() for m in _RATE_CLAUSE_END.finditer(text)]
    starts = [0, *ends]
    offered: dict[int, bool] = {}
    kept = []
    for match in rates:
        i = bisect.bisect_right(ends, match.start())
        if i not in offered:
            stop = ends[i] if i < len(ends) else len(text)
            offered[i] = _RATE_OFFERED.search(text, starts[i], stop) is not None
        if not offered[i]:
            kept.append(match)
    rates = kept
    if not rates:
        return text
    for match in rates:
        text = text[: match.start()] + " " * len(match[0]) + text[match.end() :]
    return text


#: An amount of a dollar or more in cents: "12295¢", "5820 cents" (not the cents of "$58 and
#: 20 cents", nor a difference of "5 cents").
_IN_CENTS = re.compile(r"(?<![0-9.,$])([1-9][0-9]{2,})\s?(?:\u00a2|cents?\b)", re.IGNORECASE)


def _money(text: str) -> _Found:
    text = _without_rates(_without_other_kinds(_blank(text, _RATING, _TALLY)))
    values: list[int] = []
    invalid: list[str] = []
    # beside an amount in dollars, one in cents is an amount as well ("$416.94 (12295¢)")
    cents = list(_IN_CENTS.finditer(text))  # (a dollar or more: never the cents of "$58 and 20")
    if cents and _MARKED_MONEY.search(text):
        values += [int(match[1]) for match in cents]
        text = _blank(text, _IN_CENTS)
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


#: A count out of a total ("3 out of 7 items", "3 of the 10 invitees"): the total is no second
#: count. A rating out of its scale ("4 out of 5 stars", "4.5 out of 5") is read as a rating.
_OUT_OF = re.compile(
    r"(?<![0-9,.])([0-9]+)(\s+(?:out\s+of|of)\s+(?:the\s+|all\s+(?:the\s+)?)?"
    rf"{_NUM})\b(?![.,][0-9]|\s*(?:stars?|points?|%|percent)\b)",
    re.IGNORECASE,
)


#: The total a count is out of, set apart from it: "8 free times (out of 14)", "8 that day,
#: of 14 in all", "8 free, out of 14 in total".
_TOTAL_APART = re.compile(
    rf"\(\s*(?:out\s+of|of)\s+(?:the\s+|all\s+)?{_NUM}(?:\s+[A-Za-z]+){{0,3}}\s*\)"
    rf"|,\s*(?:out\s+)?of\s+(?:the\s+)?{_NUM}\s+(?:in\s+all|in\s+total|total)\b"
    rf"|,\s*out\s+of\s+(?:the\s+)?{_NUM}\b(?![.,][0-9])",
    re.IGNORECASE,
)


def _counts(text: str) -> _Found:
    text = _SLASH_OUT_OF.sub(
        lambda m: f"{m[1]} of {m[2]}" if int(m[1]) <= int(m[2]) else m[0], text
    )
    text = _OUT_OF.sub(lambda match: match[1] + " " * len(match[2]), text)
    text = _TOTAL_APART.sub(lambda match: " " * len(match[0]), text)
    text = _without_other_kinds(_blank(text, _MARKED_MONEY, _RATING, _PRONOUN_ONE))
    found = _numbers(text)
    if found.values or found.invalid:
        return found
    words = []  # "twenty-two" is one number, not 20 and 2
    for match in SPELLED.finditer(text):
        number = spelled_value(match[0])
        if number is not None and not is_ordinal(match[0]):
            words.append(Decimal(number))
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
    rest = _without_other_kinds(_blank(text, _SPELLED_MONEY, _MARKED_MONEY, _RATING, _PRONOUN_ONE))
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
    ends: list[int] = []  # where the ids found so far end
    for canonical in known:
        pattern = _spaced_pattern(canonical)
        found = pattern.search(text)
        if found:
            # A candidate of another shape named for what it is ("order NM-…" beside its
            # tracking number, "your order from March 2, 2026 (NM-…)": its date aside) is
            # context, not a second answer; put beside the answer bare ("1Z…, NM-…", "Your
            # order: 1Z…, NM-…": the label names the id before it) it is one more candidate.
            since = max([0, *(end for end in ends if end <= found.start())])
            before = text[since : found.start()]
            for date_pattern in _DATES:
                before = date_pattern.sub("", before)
            labelled = _ID_LABEL.search(before[-24:])
            ends.append(found.end())
            if canonical == want or _same_shape(canonical, want) or not labelled:
                values.append(canonical)
            body = pattern.pattern
            variant = rf"{body}\s*[/|\\]\s*[0-9A-Za-z]|[0-9A-Za-z]\s*[/|\\]\s*{body}"
            if canonical == want and re.search(variant, text, re.IGNORECASE):
                values.append(f"{canonical}/…")  # "1ZVJ7A/B": another last character offered
            text = _blank(text, pattern)
    for pattern in (_MARKED_MONEY, *_DATES, _PHONE):
        text = _blank(text, pattern)
    # An id spelled out a character at a time ("1 Z V J 7 …", "one-Z-V-J-seven") is an id
    # all the same.
    text = _SPELLED_OUT.sub(_unspelled, text)
    for token in _ID_TOKEN.findall(text):
        canonical = _canonical_id(token)
        if _same_shape(canonical, want):
            values.append(canonical)
    # An id written in groups ("1Z7X H2M4 P9Q1 R5S8 D0") is an id all the same: of each run
    # of groups, the longest stretch of two groups or more that has the expected id's shape
    # and begins as it does (another of its family: "1Z…" beside "1Z…"; not the "IL 62704"
    # of an address beside an order number).
    for run in _id_group_runs(text):
        longest = ""
        for start in range(len(run) - 1):
            joined = run[start]
            for group in run[start + 1 :]:
                joined += group
                if len(joined) > len(want) + 2:
                    break
                same_family = joined[:2] == want[:2] and _same_shape(joined, want)
                if same_family and len(joined) > len(longest):
                    longest = joined
        if longest and longest not in values:
            values.append(longest)
    return _Found(tuple(values))


#: A group of letters and digits (dashes within it bind it: "NM-50317-2" is one group), and
#: what may stand between two groups of one id.
_ALNUM_RUN = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")
_GROUP_GAP = re.compile(r" (?:- )?")


def _id_group_runs(text: str) -> list[list[str]]:
    """The runs of groups that may be one id written in groups: each group with a digit, a
    space or a spaced dash between each. Words end a run, capitals too: a state before its
    ZIP code, a brand or a model ("NM 87501", "ZOTAC RTX 4090") are no id's groups. (An id
    with a group of letters alone is caught where the task lists it among the candidates.)"""
    runs: list[list[str]] = []
    run: list[str] = []
    end = -1
    for match in _ALNUM_RUN.finditer(text):
        group = _canonical_id(match[0])
        id_like = any(ch.isdigit() for ch in group)
        joined = bool(run) and _GROUP_GAP.fullmatch(text[end : match.start()]) is not None
        if not (id_like and joined):
            if len(run) > 1:
                runs.append(run)
            run = []
        if id_like:
            run.append(group)
        end = match.end()
    if len(run) > 1:
        runs.append(run)
    return runs


_MARK_BETWEEN = re.compile(r"[.,;:!?()\[\]]+(?=\s|$)|\s[-/]+\s")


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
    # The text with each mark between words kept as a word no name has: two names overlap
    # only across words written together ("Red Mug Set", not "the Red Mug, set at $12").
    written = f" {normalize(_MARK_BETWEEN.sub(' xmarkx ', _skeleton(text)))} "
    want = normalize(_skeleton(expected))
    every = [expected, *candidates]
    names = sorted({normalize(_skeleton(n)) for n in every} - {""}, key=lambda n: (len(n), n))
    # Names with marks of their own ("Salt, Pepper & Co") are looked for across marks.
    marked = {normalize(_skeleton(n)) for n in every if _MARK_BETWEEN.search(_skeleton(n))}
    values: list[str] = []
    unread = written
    for name in reversed(names):
        needle = f" {name} "
        if needle in unread or (name in marked and needle in words):
            values.append(name)
            unread, words = unread.replace(needle, " | "), words.replace(needle, " | ")
    # Two names overlapping in the text, neither inside the other ("Red Mug Set" beside the
    # names "Red Mug" and "Mug Set"), are both named: which one was meant cannot be told.
    values += [
        name
        for name in names
        if name not in values
        and f" {name} " in written
        and not any(f" {name} " in f" {value} " for value in values)
    ]
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


def grade_address(
    text: object,
    street: str,
    zip_code: str,
    others: Iterable[str] = (),
    city: str = "",
    state: str = "",
    states: Mapping[str, str] | None = None,
) -> Grade:
    """Whether ``text`` gives the address at ``street`` (with its ``city``, its ``state`` and
    ZIP code) as a person writes it, and none of the ``others`` (the other saved addresses'
    streets). ``state`` is a postal code of ``states`` (postal code -> name): the state is
    read where an address gives it, right before the ZIP code, by its code or its name (the
    longest that fits: "West Virginia" is not Virginia). Never raises."""
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
    at_zip = re.search(rf"(?<![0-9]){re.escape(zip_code)}(?![0-9])", text)
    if not at_zip:
        return Grade(False, f"gives the street but not the ZIP code {zip_code}")
    if city and f" {normalize_address(city)} " not in f" {normalize_address(text)} ":
        return Grade(False, f"gives the street but not the city {city}")
    if state:
        given = _state_before(text[: at_zip.start()], states or {state: state})
        if given != state:
            named = f"names {given}" if given else "names none"
            return Grade(False, f"gives the street but not the state {state} ({named})")
    # (A reply's quote of the e-mail it answers is the caller's to take out, as the site wrote
    # it: a line starting with ">" is the writer's own.)
    doubt = _UNSURE.search(_skeleton(text)) or _address_doubt(text, street, zip_code, others)
    if doubt:
        return Grade(False, f"gives {street}, but {doubt[0].strip()!r} says it is not sure", want)
    offered = _offers_another_address(text, street, zip_code, others)
    if offered:
        return Grade(False, f"gives {street}, but {offered}: a hedge", want)
    return Grade(True, f"gives {street}, {zip_code}", want)


def _state_before(text: str, states: Mapping[str, str]) -> str | None:
    """The postal code of the state ``text`` ends with, by its code or its name ("KS 66978",
    "Kansas, 66978", "KS. ZIP: 66978" with the ZIP code cut off), or None."""
    spellings = {code.casefold(): code for code in states}
    spellings |= {normalize_text(name): code for code, name in states.items()}
    spellings.pop("", None)
    if not spellings:
        return None
    longest_first = sorted(spellings, key=len, reverse=True)
    words = "|".join(r"\s+".join(map(re.escape, spelling.split())) for spelling in longest_first)
    end = re.search(
        rf"(?<![A-Za-z])({words})\.?[\s,.]*(?:zip(?:\s*code)?\s*:?\s*)?$", text, re.IGNORECASE
    )
    return spellings[" ".join(end[1].casefold().split())] if end else None


#: A street address by its shape, in :func:`normalize_address` form: a house number (in
#: digits or words), a few words, a street word ("12 elm st", "twelve n oak ave").
_STREET = re.compile(
    rf"\b(?:[0-9]+|(?!one\b)(?:{SPELLED.pattern})) (?:(?:[a-z]+|[0-9]+(?:st|nd|rd|th)) ){{1,3}}?"
    r"(?:st|ave|rd|dr|blvd|ln|ct|pl|sq|ter|pkwy|hwy|cir)\b"
)
_STREET_WORDS = frozenset(_ADDRESS_WORDS.values()) | frozenset(_ADDRESS_WORDS)


#: After an "or" beside an address, words that refer to another one: "or the other one",
#: "or maybe the old place".
_ANOTHER_PLACE = frozenset(
    {"other", "another", "else", "whichever", "different", "maybe", "perhaps", "possibly"}
    | {"probably", "previous", "former", "old", "one", "place", "address", "house"}
    | {"office", "work", "home", "flat", "condo"}
)
#: Words that refer to another address in a sentence that does not give one ("Arguably my
#: old place", "use my office address if that fails"); fewer than :data:`_ANOTHER_PLACE`, so
#: that "arguably the easiest place to reach me" refers to none.
_OTHER_PLACE = frozenset(
    {"other", "another", "else", "different", "previous", "former", "old", "address", "office"}
    | {"work", "house", "flat", "condo", "street", "avenue", "road", "drive", "boulevard", "lane"}
    | {"st", "ave", "rd", "dr", "blvd", "ln"}
)
#: A fallback held in reserve beside an address: "if that fails", "if it doesn't work"; not
#: "if it fails to arrive", which is of the parcel.
_FALLBACK = re.compile(
    r"\bif (?:that|this|it)(?: one| address)? (?:fails|doesn'?t work|does not work|bounces)\b"
    r"(?!\s+to\b)",
    re.IGNORECASE,
)


def _refers_to_place(part: str, others: Iterable[str], places: frozenset[str]) -> bool:
    """Whether ``part`` refers to an address: a number (not "first" or "second": "or call me
    first"), a word of ``places`` ("my old one", "the office", a street word), a word of
    another saved street."""
    words = set(normalize_address(part).split())
    telling = {w for o in others for w in normalize_address(_skeleton(o)).split() if len(w) > 2}
    spelled = [m[0].lower() for m in SPELLED.finditer(part)]
    return bool(
        re.search(r"[0-9]", part)
        or any(w not in ("first", "second") for w in spelled)
        or words & (places | telling)
    )


def _address_doubt(
    text: str, street: str, zip_code: str, others: Iterable[str]
) -> re.Match[str] | None:
    """The words that make an address answer unsure: a ranking word (:data:`_RANKED`) or a
    fallback (:data:`_FALLBACK`) in the sentence that gives the address, or in one that refers
    to another ("Arguably the Oak one is better"); not "Arguably the easiest place to reach
    me", "If it fails to arrive, I'll let you know"."""
    want = normalize_address(_skeleton(street))
    for part in (_skeleton(part) for part in _sentences(text)):
        gives = f" {want} " in f" {normalize_address(part)} " or zip_code in part
        for pattern in (_RANKED, _FALLBACK):
            match = pattern.search(part)
            if match and (gives or _refers_to_place(part, others, _OTHER_PLACE)):
                return match
    return None


def _names_a_place(after: str, others: Iterable[str], *, clause: bool = True) -> bool:
    """Whether the words after an "or" (to the end of their clause, or all of them) name a
    place or refer to another one: a number, a street word, a word of another saved street,
    "the other one"."""
    after = _CLAUSE_END.split(after, maxsplit=1)[0] if clause else after
    return _refers_to_place(after, others, _STREET_WORDS | _ANOTHER_PLACE)


def _offers_another_address(text: str, street: str, zip_code: str, others: Iterable[str]) -> str:
    """What offers another address beside ``street`` (empty if nothing does): a guess word in
    a line or sentence that gives it ("…, 90210 or 77 Pine Rd"), a later one that begins with
    one ("Or maybe …"), another street written out ("12 Elm St"), or a saved one named in part
    ("the Regina Mountains one", "12 N. Oak")."""
    want = normalize_address(_skeleton(street))
    sentences = [_skeleton(part) for part in _sentences(text)]
    giving = [
        i
        for i, part in enumerate(sentences)
        if f" {want} " in f" {normalize_address(part)} " or zip_code in part
    ]
    for i in giving:
        for guess in _GUESS.finditer(sentences[i]):
            if guess[0].strip().lower() == "or" and not _names_a_place(
                sentences[i][guess.end() : guess.end() + 80], others
            ):
                continue  # "… NM 66978 - let me know if you need anything else or want more"
            return f"{guess[0].strip()!r} offers another"
    for part in sentences[giving[0] + 1 if giving else 0 :]:
        first = _GUESS_FIRST.search(part)
        if (
            first
            and not (  # "Or should I pick it up?", "Or just leave it with the neighbour"
                re.fullmatch(r"\W*or", first[0], re.IGNORECASE)
                and not _names_a_place(part[first.end() :], others, clause=False)
            )
        ):
            return f"{part.split()[0]!r} offers another"
    words = f" {normalize_address(_skeleton(text))} ".replace(f" {want} ", " | ")
    written = _STREET.search(words.replace(f" {zip_code} ", " | "))
    if written:
        return f"{written[0]!r} is another street"
    pairs = set(pairwise(words.split()))
    own = set(want.split()) | _STREET_WORDS | _NAME_GLUE
    for other in others:
        for pair in pairwise(normalize_address(_skeleton(other)).split()):
            telling = [w for w in pair if w.isalpha() and len(w) > 2 and w not in own]
            if telling and pair in pairs:
                return f"it names {other!r} in part"
    return ""


#: Asides a careful person puts after a list ("A, B, as far as I can see"): not items.
_LIST_ASIDES = frozenset({"as far as i can see", "as far as i can tell"})


def _items(text: str) -> list[str]:
    _, colon, tail = text.rpartition(":")
    if colon and "\n" not in tail.strip() and len(tail.split(",")) > 1:
        text = tail
    parts = re.split(r"[,;\n&]|\band\b", text)
    items = (normalize_text(p).removeprefix("and ") for p in parts)
    return [item for item in items if item and item not in _LIST_ASIDES]


@functools.lru_cache(maxsize=8192)
def _name_form(name: str) -> str:
    """A name as the grader compares it (a task's candidates are the same on every grade)."""
    return normalize_text(_skeleton(name))


@functools.lru_cache(maxsize=256)
def _longest_first(names: tuple[str, ...]) -> list[str]:
    return sorted({_name_form(n) for n in names} - {""}, key=len)[::-1]


def _named_items(text: str, names: Iterable[str]) -> tuple[list[str], bool]:
    """The ``names`` written in ``text``, in the order written (longest first, so a name inside
    a longer one is not counted twice; a name written twice counts twice), and whether a hedge
    word is left outside them. The words around them ("The top three are …, as far as I can
    see") are no items: the items of a list of known names are those names."""
    words, found = _blanked_names(text, names)
    return [name for _, name in sorted(found)], _hedged_between(words, found)


def _blanked_names(text: str, names: Iterable[str]) -> tuple[str, list[tuple[int, str]]]:
    """``text``'s words (:func:`normalize_text`) with each of ``names`` written in it blanked
    out, longest first, and where each stood (its offset in those words, and the name)."""
    words = f" {normalize_text(_skeleton(text))} "
    found: list[tuple[int, str]] = []
    for name in _longest_first(tuple(names)):
        needle, start = f" {name} ", words.find(f" {name} ")
        while start >= 0:
            found.append((start, name))
            words = words[:start] + " " + "|" * len(name) + " " + words[start + len(needle) :]
            start = words.find(needle)
    return words, found


def _beside_names(
    words: str, found: list[tuple[int, str]], word: re.Match[str], within: int
) -> bool:
    """Whether ``word`` (a match in ``words``, the names blanked out at ``found``) stands among
    the names, or at most ``within`` words before the first or after the last."""
    first = min(start for start, _ in found)
    last = max(start + len(name) + 2 for start, name in found)
    if first < word.start() < last:
        return True
    if word.start() >= last:
        return len(words[last : word.start()].split()) <= within
    return word.end() <= first and len(words[word.end() : first].split()) <= within


#: Words that offer another item of a list where they stand among its names or right beside
#: them ("A, B or C", "A and B, maybe C"), and nothing where they stand in a sentence around
#: them ("… have not accepted, declined, or said maybe").
_LIST_GUESSES = frozenset(("or", "either", "maybe", "perhaps", "possibly"))
_LIST_HEDGE = re.compile(rf"{_HEDGE.pattern}|\b(?:maybe|perhaps|possibly)\b", re.IGNORECASE)


#: "Either … or" in a sentence that names items, and an "or" that offers none at all.
_EITHER_OR = re.compile(
    r"\beither\b(?!\s+way\b).*\bor\b|\bor\s+(?:none|nobody|no one|nothing)\b"
    r"|\b(?:none|nobody|no one|nothing)\s+or\b"
)
_LIST_DENIAL = re.compile(r"\b(?:not|no|never|nor|without|t|nothing|none)\b")


def _hedged_between(words: str, found: list[tuple[int, str]]) -> bool:
    """Whether an "or" or "either" of ``words`` (the names written blanked out) offers another
    item: one among the names ("A, B or C", "A and B, or maybe C"), or right beside them with
    at most a word between ("A and B, or others", "either A and B"). One in a sentence around
    them is none ("A and B haven't accepted or declined", "… let me know if you want me to
    follow up or anything else")."""
    if not found:
        return False  # a sentence around the list ("Let me know if … or …"); no list is none
    if _EITHER_OR.search(words):  # "Either none or A and B", wherever the names stand
        return True
    first = min(start for start, _ in found)
    # "No reply from A or B", "haven't heard from A or B": an "or" under a denial joins them
    denied = bool(_LIST_DENIAL.search(" ".join(words[:first].split()[-8:])))
    for hedge in _LIST_HEDGE.finditer(words):
        joins = re.fullmatch(r".*\|\s*", words[: hedge.start()]) and re.match(
            r"\s*\|", words[hedge.end() :]
        )  # "A or B", the names on both sides
        if denied and joins and hedge[0].strip().lower() == "or" and "either" not in words:
            continue
        if _beside_names(words, found, hedge, 1):
            return True
    return False


#: What parts a list's items: marks, and the words that join two items.
_ITEM_BREAK = re.compile(r"[,;:&/()\[\]\n\u2022*]|(?<=[^\s.])\.(?:\s|$)|\b(?:and|or|plus)\b", re.I)
#: Words an item may hold beside a name.
_BESIDE_A_NAME = frozenset(("mr", "mrs", "ms", "miss", "dr", "the", "also", "too"))


@functools.lru_cache(maxsize=256)
def _run_together_forms(names: tuple[str, ...]) -> dict[str, str]:
    """Each of ``names`` by its form with the spaces left out (a task's candidates are the
    same on every grade, and a long answer is graded again sentence by sentence)."""
    forms = {"".join(_name_form(name).split()): name for name in names}
    forms.pop("", None)
    return forms


def _run_together(text: str, others: Iterable[str]) -> str | None:
    """One of the ``others`` (candidates not named in full) that an item of ``text`` names with
    its spaces left out ("…, Shane Cross and JimLee" beside the invitee Jim Lee): a name all
    the same, and so one more item. (A candidate named in part, "…, and Jim", is not read as
    one: a word of a name stands as often for something else, "Best," for Faith Best, a list's
    "1." for an order number ending in 1; and a list with a piece of a name passes only where
    its full names are exactly right, so it never wins a second truth.)"""
    forms = _run_together_forms(tuple(others))
    for item in _ITEM_BREAK.split(_skeleton(text)):
        joined = "".join(w for w in normalize_text(item).split() if w not in _BESIDE_A_NAME)
        if joined in forms:
            return forms[joined]
    return None


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
        others: list[str] = []
        if candidates:
            names = [*map(str, expected), *candidates]
            items, _ = _named_items(text, names)
            # sentence by sentence: "A and B. Maybe send them a reminder?" hedges nothing
            hedged = any(_named_items(part, names)[1] for part in _sentences(text))
            others = [c for c in candidates if _name_form(c) not in items]
            joined = _run_together(text, others)
            if joined is not None and not hedged:
                return Grade(False, f"names {joined!r} too, run together: a hedge", items)
        else:
            items, hedged = _items(text), bool(_HEDGE.search(_skeleton(normalize_text(text))))
        if hedged:
            return Grade(False, "an 'or' or a 'maybe' among the items: a hedge", items)
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
    whole: bool = False,
    most: bool = False,
    least: bool = False,
    facts: Iterable[Fact] = (),
    mentions: Iterable[str] = (),
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
        whole: for money, the amount asked for is a whole (an order's total, tax and shipping
            included): an answer that says a part is left out of it ("plus tax", "before
            shipping", "excluding fees", "tax not included") gives another amount.
        most: for money and numbers, the value asked for is a most (a cap, "what's the most I
            can claim"): "up to $X", "at most $X", "a maximum of $X", "$X max" state it.
        least: for money and numbers, the value asked for is a least (what more to spend to
            reach free shipping): "at least $X", "$X or more", "a minimum of $X" state it.
        facts: for money, dates and times, the values the answer may cite as its reasons,
            each with the words that name it: ``[(4500, ("free shipping", "minimum")), (1900,
            ("price", "costs"))]`` lets "Free shipping starts at $45.00 and it costs $19.00, so
            you'd need $26.00 more" give $26.00. Named so, in a sentence with no "or", no
            condition and no doubt, a fact is no second candidate (:func:`_without_facts`);
            named bare, it is.
        mentions: names the answer may write that hold no value (the title of the article
            asked about): an "or" inside one ("My card was declined or has expired") offers
            nothing.

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
    if kind in _READ_SAID:  # a "one-on-one" is a meeting, not a number
        text = _ONE_ON_ONE.sub(lambda m: "meeting".ljust(len(m[0])), text)
    if kind == "date":
        text = _without_asides(text, year)
    # Worked sums set aside first (a fact may be one of their terms), then the facts (before
    # "the minimum is" states a least, which would take the threshold's words)
    text = _without_facts(kind, _set_aside(kind, text), facts, year)
    if most and kind in ("money", "number"):
        text = _blank(text, _STATES_A_MOST)
    if least and kind in ("money", "number"):
        text = _blank(text, _STATES_A_LEAST)
    result = _grade(kind, text, expected, year, others)
    corrected = _without_ruled_out(kind, text, year) if kind in _READ_SAID else text
    if corrected != text:
        # "$31.42, not $35.00": a value ruled out is no second candidate. Read so, a message
        # that gives another value than it does read whole offers both ("not three - four":
        # 7, or 4), whichever is expected.
        again = _grade(kind, corrected, expected, year, others)
        if not result.passed:
            text, result = corrected, again
        elif again.value is not None and again.value != result.value:
            reason = f"{result.reason}, but without what it rules out it answers {again.value}"
            return Grade(False, f"{reason}: a hedge", result.value)
    if not result.passed:
        return result
    denial = _denied(kind, text, expected, result.value, year)
    if denial:
        return Grade(False, f"{result.reason}, but {denial!r} denies it", result.value)
    said = _without_repeats(kind, text, result.value, year)
    doubt = _UNSURE.search(_skeleton(said)) or _ranked(kind, _skeleton(said))
    if doubt:
        reason = f"{result.reason}, but {doubt[0].strip()!r} says it is not sure"
        return Grade(False, reason, result.value)
    if kind in _NUMBER_KINDS and _offers_another_number(said, kind):
        return Grade(
            False,
            f"{result.reason}, but another number is offered beside it: a hedge",
            result.value,
        )
    alternative = _alternative_value(said, kind, result.value) if kind in _NUMBER_KINDS else ""
    if kind == "date" and not alternative and isinstance(result.value, date):
        alternative = _wrong_weekday(said, result.value)
    if alternative:
        return Grade(False, f"{result.reason}, but {alternative}: a hedge", result.value)
    if kind in ("name", "string"):
        partly = _partly_named(said, [str(expected)], others)
    elif kind in ("list", "set"):
        partly = _partly_named(said, [str(item) for item in expected], others)
    else:
        partly = ""
    if partly:
        reason = f"{result.reason}, but it also names {partly!r} in part: a hedge"
        return Grade(False, reason, result.value)
    if kind in ("list", "set"):
        items = [*map(str, expected), *others]
        unsaid = (
            _ADMITTED.search(_skeleton(said))
            or _some_of(_skeleton(said), items)
            or _guessed_items(said, items)
        )
        if unsaid:
            reason = f"{result.reason}, but {unsaid[0].strip()!r} leaves the list open: a hedge"
            return Grade(False, reason, result.value)
        unordered = _ANY_ORDER.search(_skeleton(said)) if kind == "list" else None
        if unordered:
            reason = f"{result.reason}, but {unordered[0]!r}: the order asked for is not given"
            return Grade(False, reason, result.value)
        unknown = _unknown_item(said, [str(item) for item in expected], others)
        if unknown:
            reason = f"{result.reason}, but {unknown!r} is one more item, none of those known"
            return Grade(False, reason, result.value)
    qualifier = _qualified(kind, said, result.value, year)
    if qualifier:
        reason = f"{result.reason}, but {qualifier!r} makes it approximate or open"
        return Grade(False, reason, result.value)
    left_out = _left_out(_skeleton(said), result.value) if whole and kind == "money" else None
    if left_out:
        part = left_out[0].strip(" ,(:;-\u2014\u2013")
        reason = f"{result.reason}, but {part!r} makes it part of the total, not the total"
        return Grade(False, reason, result.value)
    exception = None
    if kind == "number":
        exception = _EXCEPTION.search(_skeleton(said)) or _amended(_skeleton(said), result.value)
    if exception:
        reason = f"{result.reason}, but {exception[0].strip()!r} offers another count"
        return Grade(False, reason, result.value)
    named = [str(expected), *others] if kind in ("name", "string") else []
    if kind in ("list", "set"):
        named = [*map(str, expected), *others]
    named += [str(name) for name in mentions]
    offered = _offers_another_answer(
        kind, said, lambda part: _grade(kind, part, expected, year, others).passed, named
    )
    if offered:
        return Grade(False, f"{result.reason}, but {offered}: a hedge", result.value)
    return result


#: An amount named as a part of the whole, with its connective: "(including $3.12 tax)",
#: "$3.12 in tax", "a $5.00 discount", "tax of $3.12", "shipping: $5.99". Named first, the part
#: is tax, shipping, a fee, a tip or the subtotal ("the subtotal was $38.25"), and not after
#: "with", "before" or "after" (and a "the"): "with the coupon $41.37" and "before tax $38.25"
#: name a whole, not a part.
_PART_NOUN = (
    r"(?:sales\s+)?tax(?:es)?|vat|shipping|delivery|handling|(?:service\s+)?fees?|tip|discount"
    r"|coupon|savings"
)
_PART_NOUN_FIRST = (
    r"(?:sales\s+)?tax(?:es)?|vat|shipping|delivery|handling|(?:service\s+)?fees?|tip"
)
#: What makes a part's noun describe the amount instead: "$58.20 is tax-free", "tax exempt".
_NOT_QUALIFIED = (
    r"(?!-|\s+(?:free|exempt|exclusive|excluded|deductible|waived|inclusive|eligible"
    r"|included\s+or)\b)"
)
#: What is added to a price to make a total.
_ADDED_PART = (
    rf"(?:{_PART_NOUN_FIRST}|postage|freight|[gph]st|s\s?&\s?h|p\s?&\s?p"
    # an expense report's parts
    r"|hotel|lodging|airfare|flights?|meals?|parking|mileage|taxis?|per\s+diem)"
    r"(?:\s+(?:charges?|costs?|fees?))?"
)
#: Parts named together: "shipping and tax", "tax & shipping", "tax, shipping".
_ADDED_PARTS = rf"{_ADDED_PART}(?:\s*(?:,|and|&|/)\s*{_ADDED_PART})*"
_PART_LEFT_OUT = (
    r"(?:(?:plus|before|excluding|excludes?|excl\.?|ex\.?|exc\.?|exclusive\s+of|net\s+of"
    r"|not\s+(?:including|incl\.?|counting)|without|w/o|w/out|sans|less|minus|prior\s+to|pre)"
    r"|\+)\s*(?:-\s*)?(?:the\s+|any\s+|applicable\s+)?(?:[a-z]+\s+)??"
    rf"{_ADDED_PARTS}"
    rf"|(?:does(?:n'?t|\s+not)|did(?:n'?t|\s+not))\s+include\s+(?:the\s+|any\s+)?{_ADDED_PARTS}"
    rf"|{_ADDED_PARTS}\s+(?:(?:is|are|was|were|will\s+be)\s+)?(?:not\s+(?:included|incl\.?)"
    r"|excluded|extra|additional|separate(?:ly)?|on\s+top|(?:still\s+)?to\s+be\s+added"
    r"|added\s+later|added|charged\s+separately)"
    rf"|{_ADDED_PARTS}\s+(?:isn'?t|aren'?t|wasn'?t|weren'?t)\s+included"
)
#: Right after the amount (but for words that restate it, and a mark), a part said to be left
#: out of it, which then is not the whole: "$41.37 plus tax", "$41.37 (+ shipping)", "$41.37
#: before tax", "$41.37, tax not included", "$41.37 (doesn't include shipping)".
_LEFT_OUT_AFTER = re.compile(
    r"[*_\"'\u201d\u2019]*\s*(?:(?:in\s+total|total|all\s+told|altogether|overall|dollars|usd"
    r"|bucks)\s*)?"
    r"(?:[,(:;\u2014\u2013-]\s*)?(?:(?:that|it|this)(?:'s|\s+is|\s+was)\s+)?"
    rf"(?:{_PART_LEFT_OUT})(?![\w])",
    re.IGNORECASE,
)
#: Right before the amount, the same: "pre-tax $41.37", "before tax: $41.37", "the subtotal was
#: $41.37".
_LEFT_OUT_BEFORE = re.compile(
    rf"(?:pre-?tax|before[\s-]{_ADDED_PARTS}|(?:excluding|excl\.?|ex\.?)\s+{_ADDED_PARTS}"
    r"|net\s+of\s+tax|sub-?total)[*_)]*"
    r"\s*(?:(?:[:,]\s*)?(?:(?:the|its|my)\s+)?(?:total|amount|price)[*_)]*\s*|[:,]\s*)?"
    # a verb right after the words ("subtotal was"), not after a mark ("subtotal, is")
    r"(?:(?<![,:]\s)(?<![,:])(?:of|is|was|came\s+to|comes\s+to|amounted\s+to)[*_]*\s*"
    r"|:[*_]*\s*)?[*_]*$",
    re.IGNORECASE,
)
_CENTS = r"(?:\.[0-9]{1,2})?"
_AMOUNT = rf"(?:\$\s?{_NUM}{_CENTS}|(?<![0-9.,]){_NUM}{_CENTS}\s?(?:dollars|usd))"
_CONNECTIVE = r"(?:,\s*)?(?:(?:including|incl\.?|inc\.?|and|of which)\s+)?(?:an?\s+)?"
_PART = re.compile(
    rf"{_CONNECTIVE}{_AMOUNT}(?:\s+(?:in|of|for|was|is))?\s+(?:{_PART_NOUN})\b{_NOT_QUALIFIED}"
    r"(?:\s+(?:included|incl\.?))?"
    rf"|(?<!\bwith )(?<!\bbefore )(?<!\bafter )"
    rf"(?<!\bwith the )(?<!\bbefore the )(?<!\bafter the )"
    rf"{_CONNECTIVE}\b(?:{_PART_NOUN_FIRST}|sub-?total)"
    rf"(?:\s+(?:of|was|is|were|are|costs?|c(?:ame|omes)\s+to|amounted\s+to)|\s*[:=])?\s*{_AMOUNT}",
    re.IGNORECASE,
)


def _left_out(text: str, cents: int) -> re.Match[str] | None:
    """What says a part is left out of the amount ``cents`` where ``text`` names it
    (:data:`_LEFT_OUT_AFTER`, :data:`_LEFT_OUT_BEFORE`), if anything does."""
    found = [(m.start(), m.end(), m[2] or m[3] or m[4]) for m in _MARKED_MONEY.finditer(text)]
    found += [(m.start(), m.end(), m[2]) for m in _PLAIN_NUMBER.finditer(text) if not m[1]]
    for start, end, digits in found:
        amount = _decimal(digits)
        if amount is None or amount * 100 != cents:
            continue
        said = _LEFT_OUT_AFTER.match(text, end) or _LEFT_OUT_BEFORE.search(
            text, max(0, start - 80), start
        )
        if said:
            return said
    return None


def _amended(text: str, count: Any) -> re.Match[str] | None:
    """The words right after the count ``count`` in ``text`` that add to it or take from it
    (:data:`_COUNT_AMENDED`), if any."""
    digits = re.search(r"[0-9]", text) is not None
    for match in _LOOSE_VALUE.finditer(text):
        if match["num"] and (
            match["num"].startswith("$")
            or re.fullmatch(r"[A-Za-z0-9]-", text[max(0, match.start() - 2) : match.start()])
        ):
            continue  # a price, the tail of an id: "under $5 plus shipping", "NM-12345-2 plus …"
        if match["word"] and is_ordinal(match["word"]):
            continue  # "the second without a reply"
        if match["word"] and match["word"].lower() == "one" and digits:
            continue  # beside digits, a pronoun: "1 ticket; no one besides you"
        if _loose_number(match) == count:
            said = _COUNT_AMENDED.match(text, match.end())
            if said and not _A_RATING.match(text, said.end()):
                return said
    return None


#: What adds a rating to a count of reviews, not another review: "12 reviews, as well as a
#: 4.5-star average", "12 reviews (besides the star rating)".
_A_RATING = re.compile(r"(?:[^.;)]|\.(?=[0-9])){0,40}?\b(?:ratings?|stars?|average|score)\b", re.I)


#: A length of time beside a count: "in the last 30 days", "within 2 weeks", "3 days ago".
_UNIT_OF_TIME = (
    rf"(?<![0-9.,]){_NUM}(?:\s+|-)(?:business\s+|calendar\s+|working\s+)?"
    r"(?:second|minute|hour|day|week|month|year)s?\b"
)
_UNIT_OF_TIME_RE = re.compile(_UNIT_OF_TIME, re.IGNORECASE)
_DURATION = re.compile(
    r"\b(?:in|within|over|during|for|from)\s+(?:the\s+)?(?:(?:last|past|next|first)\s+)?"
    rf"{_UNIT_OF_TIME}|{_UNIT_OF_TIME}\s+ago\b",
    re.IGNORECASE,
)
#: A count out of a total written with a slash before what is counted: "7/10 invitees".
_SLASH_OUT_OF = re.compile(
    r"(?<![0-9/.,])(?<!\bon )(?<!\bsince )(?<!\bby )(?<!\bfrom )(?<!\buntil )(?<!\bthe )"
    r"(?<!\byour )(?<!\bmy )(?<!\bour )(?<!\btheir )"
    r"([0-9]{1,4})/([0-9]{1,4})(?=\s+(?!(?:stars|points|cups|teaspoons|tablespoons|inches"
    r"|feet|miles|pounds|ounces|liters|litres|gallons|grams|seconds|minutes|hours|days|weeks"
    r"|months|years)\b)[A-Za-z]{2,}s\b)",
    re.IGNORECASE,
)
#: Sums and differences worked into the answer: "$38.25 + $3.12 = $41.37", "4 + 3 = 7",
#: "$50.00 − $19.99 = $30.01" (a hyphen is a minus only with a space each side: "5-7" is a
#: range).
_SUMMAND = rf"(?:\$\s?)?{_NUM}(?:\.[0-9]+)?"
_SUMMANDS = re.compile(_SUMMAND)
_OPERATOR = r"(?:\+|\bplus\b|[−–]|(?<=\s)-(?=\s)|\bminus\b)"
_TERM = re.compile(rf"(?:^|\s*({_OPERATOR})\s*)({_SUMMAND})", re.IGNORECASE)
_EXPRESSION = rf"{_SUMMAND}(?:\s*{_OPERATOR}\s*{_SUMMAND}){{1,12}}"
#: What joins a worked expression and its result: "=", "is", "→", "leaves"…, the result
#: perhaps in bold.
_GIVES = r"(?:=|→|⇒|\bis\b|\bequals\b|\bgives\b|\bleaves\b|\bmakes\b|\bcomes to\b)"
_WORKED_SUM = re.compile(
    rf"(?<![0-9.,$+−–-])({_EXPRESSION})\s*{_GIVES}\s*(?:\*\*|__)?(?=({_SUMMAND}))",
    re.IGNORECASE,
)
#: The result first: "$30.01 = $50.00 − $19.99", "$30.01 ($50.00 − $19.99)", "$28.01 more
#: ($60.00 − $31.99)".
_WORKED_AFTER = re.compile(
    rf"(?<![0-9.,$+−–-])({_SUMMAND})"
    rf"((?:\s+(?:more|left|short|to go|in total))?\s*(?:=\s*|\(\s*)({_EXPRESSION})\s*\)?)"
    rf"(?![0-9.,]|\s*{_OPERATOR})",
    re.IGNORECASE,
)
_DOLLARS = rf"\$\s?{_NUM}(?:\.[0-9]{{2}})?"
_OF_WHOLE = rf"(?:out\s+of|of)\s+(?:the\s+|your\s+)?{_DOLLARS}"
#: An amount out of a larger whole: "$1,104.83 of the $1,338.20 you spent", "$1,104.83 (of
#: $1,338.20)", "$1,104.83 back of the $1,338.20 you paid"...
_MONEY_OF_WHOLE = re.compile(
    rf"((?<![0-9.,]){_DOLLARS})(\s*(?:back\s+)?\(?\s*{_OF_WHOLE}\)?)(?![0-9])", re.IGNORECASE
)
#: ... and the whole first: "Of the $1,338.20 you spent, $1,104.83 can be claimed".
_MONEY_WHOLE_FIRST = re.compile(
    rf"(\b{_OF_WHOLE}(?:\s+[A-Za-z]+){{0,3}}\s*,\s*)({_DOLLARS})(?![0-9])", re.IGNORECASE
)
#: Amounts listed, then their total ("Claimable: $325.00, $216.20 and $325.00\n**Total:
#: $866.20**"): the list is its addends where it sums to it.
_LISTED_FIRST = re.compile(
    rf"(?<![0-9.,$])(?P<run>{_DOLLARS}(?:\s*(?:,\s*(?:and\s+)?|;|&|\band\b)\s*{_DOLLARS}){{1,12}})"
    r"(?![0-9])(?P<gap>[^0-9$.!?\n]{0,40}?"
    r"(?:(?:[.!?]\s+|\s*\n\s*)(?:[-*\u2022]\s+)?(?:\*\*|__)?)?"  # a break right before "Total"
    r"\b(?:total(?:ling|s)?|altogether|in all|all told|sum)\b"
    r"[^0-9$.!?\n]{0,12}?)(?P<total>" + _DOLLARS + r")(?![0-9])",
    re.IGNORECASE,
)
#: A count named as the total, after the counts it sums ("2 in the Inbox and 2 archived, so 4
#: in total", "- Inbox: 2\n- Archive: 2\n**Total: 4**"): the word and then the count, or the
#: count, a word or two, and then the word.
_COUNT_TOTAL = re.compile(
    r"\b(?:total(?:ling|s)?|altogether|in\s+all|all\s+told|combined|overall)\b"
    r"[^0-9.!?\n]{0,12}?(?:\*\*|__)?"
    rf"(?P<after>[0-9]+(?![0-9]|[.,][0-9])|{SPELLED.pattern})"
    rf"|(?<![0-9.,])(?P<before>[0-9]+|{SPELLED.pattern})(?:[ \t]+[A-Za-z][A-Za-z-]*){{0,2}}?"
    r"[ \t]+(?:in\s+total|in\s+all|altogether|all\s+told|combined|total)\b"
    r"(?!\s*[:=]?\s*(?:\*\*|__)?[0-9])",
    re.IGNORECASE,
)
_TOTAL_WORD = re.compile(r"\b(?:total|altogether|in\s+all|all\s+told|combined|overall)", re.I)
#: How much of a message around such a total is read for its addends.
_COUNTS_LEAD = 300
#: What makes a total the whole a count is out of ("out of 14 in total").
_OUT_OF_BEFORE = re.compile(
    r"(?<!\btotal )(?<!\btotals )\b(?:out\s+)?of\s+(?:the\s+|all\s+)?$", re.IGNORECASE
)
#: What, among the counts before or after a total, makes them no plain parts of it: doubt, an
#: open or unknown part, another candidate or answer, a range, a mark of a guess.
_NOT_A_PART = re.compile(
    r"\b(?:estimat\w*|approx\w*|est|verif\w*|check\w*|lower|upper|bound|so\s+far|partial\w*"
    r"|incomplete|at\s+(?:least|most)|few|several|some|many|unknown|tbd|n/a|unsure|unclear"
    r"|not|\w+n't|extra|additional|on\s+top|overall|combined|answers?|candidates?|options?"
    r"|alternatives?|alt|tr(?:y|ies)|attempts?|guess\w*|eh|hmm+|it'?s|it\s+is|that'?s"
    # a part in doubt, under review, counted twice, or another reading of the count
    r"|question\w*|disput\w*|ambig\w*|iffy|possibl\w*|doubt\w*|contest\w*|undecided"
    r"|provisional\w*|tentative\w*|confirm\w*|tbc|await\w*|review\w*|dubious|potential\w*"
    r"|likely|probabl\w*|maybe|perhaps|duplicat\w*|twice|re-?count\w*|count\w*|cach\w*|stale"
    r"|unchecked|uncounted|unverified|unconfirmed|uncertain|edge|error\w*|fail\w*|skip\w*"
    r"|ignor\w*|missing|load\w*|access|couple|handful|min|max|minimum|maximum|low|high"
    r"|previous\w*|now|old|new|before|earlier|later|first|second|third|last|other)\b"
    r"|[?~<>\u2264\u2265\u00b1\u2192|]|[0-9]\s*\+(?!\s*[0-9])"
    r"|[0-9]\s*(?:-|\u2013|\u2014|to|through|thru)\s*[0-9]",
    re.IGNORECASE,
)
#: What joins the last of a total's parts to it: "so", "for a", a stop, a comma, a bullet, bold.
_PARTS_JOINT = re.compile(
    r"(?:[\s,;:.*_/|\u2014\u2013\u2022-]|\b(?:so|for\s+a|for|giving|making|which\s+makes)\b)*$",
    re.IGNORECASE,
)
_JOINT_LENGTH = 40
#: What opens the parts after a total: a comma, a colon, a dash, a bracket.
_PARTS_OPENING = re.compile(r"[\s,;:(\u2014\u2013-]*")
#: A sentence's end (not a decimal point).
_SENTENCE_END = re.compile(r"(?<![0-9])[.!?]+(?:\s+|$)|[.!?]+\s+")
#: A part written "Label: 2" rather than "2 label".
_COLON_FORM = re.compile(r"\s*[-*\u2022]?\s*(?:\*\*|__)?[A-Za-z][^:0-9]{0,40}:")
_BULLETS = ("-", "*", "\u2022")
#: Where a clause of counts ends: a comma, a semicolon, a line, "and", a separating slash or
#: bar, a bullet, a sentence's end.
_PART_BREAK = re.compile(r"[,;\n]|\band\b|\s[/|]\s|(?:^|\s)[-*\u2022]\s|\.(?:\s|$)", re.I)
#: A word that names a part ("Inbox", "archived"), of two letters or more.
_PART_LABEL = re.compile(r"[A-Za-z]{2,}")
#: A spaced slash between a count and the label of the next ("Inbox: 2 / Archive: 2 / Total:
#: 4"): a separator, not the slash that offers another value ("2 / 3").
_LABEL_SLASH = re.compile(r"(?<=[0-9])\s+[/|]\s+(?=[A-Za-z*_]|$)")
#: What may follow a value as its breakdown: a bracket, or a colon or dash and the rest of
#: the sentence ("$41.37: $38.25 for the shirt and $3.12 in tax").
_BREAKDOWN = re.compile(
    r"[(\[]([^()\[\]]{1,200})[)\]]"  # in brackets
    r"|(?::|(?<=\s)-+)\s+((?:[^.;!?\n()]|\.(?=[0-9])){1,200})"  # to the sentence's end
)
#: Breakdowns looked at in one message, and how much of the text before each is read for
#: the value it breaks down.
_MAX_BREAKDOWNS = 16
_BREAKDOWN_LEAD = 120
#: What makes a part named in its sentence another answer all the same: a condition or doubt
#: before it ("Depending on the subtotal $23.99, $31.42", "If that's not it, the subtotal is
#: $23.99"; not "(subtotal $23.99), in case you need it").
_PART_OFFERED = re.compile(
    r"\b(?:if|unless|depending|in case|whether|otherwise|backup|alternatively|instead)\b",
    re.IGNORECASE,
)
#: What offers the part after it as another answer: "(or $3.12 tax)".
_OFFERED_BEFORE = re.compile(r"(?:\bor|\beither|/)(?:\W+\w+){0,3}\W*$", re.IGNORECASE)


def _summands(text: str) -> list[Decimal]:
    values = (_decimal(m[0].replace("$", "").replace(" ", "")) for m in _SUMMANDS.finditer(text))
    return [value for value in values if value is not None]


def _worked_out(terms: str) -> Decimal | None:
    """The value of a sum or difference worked into a message ("$50.00 − $19.99")."""
    total = Decimal(0)
    for match in _TERM.finditer(terms):
        value = _decimal(match[2].replace("$", "").replace(" ", ""))
        if value is None:
            return None
        minus = match[1] is not None and match[1].lower() not in ("+", "plus")
        total += -value if minus else value
    return total


def _set_aside(kind: str, text: str) -> str:
    """``text`` with the numbers beside a money or number answer that are no second answer
    blanked, by their form alone, so the answer read never depends on the value expected:

    - addends that sum to the value they follow or lead to ("3 tickets (2 about billing, 1
      about shipping)", "$38.25 + $3.12 = $41.37"): none negative ("$0.00 shipping" is one),
      all the numbers there are, and no word of doubt, condition, ranking, report or
      approximation among them;
    - for money, an amount named as a part of the whole and smaller than every amount that
      is not ("including $3.12 tax", "tax: $3.12"), unless an "or" offers it;
    - for a count, a length of time ("in the last 30 days", "3 days ago"), unless the count
      is itself one of time ("5 days");

    the last two only where a value written the same way (a "$" amount, a count in digits)
    remains: alone, a part or a length of time is the answer ("$3.12 in tax")."""
    if kind not in ("money", "number"):
        return text
    read = _money if kind == "money" else _counts
    aside = _PART if kind == "money" else _DURATION

    def worked(match: re.Match[str]) -> str:
        total = _decimal(match[2].replace("$", "").replace(" ", ""))
        sums = total is not None and _worked_out(match[1]) == total
        return " " * len(match[0]) if sums else match[0]

    def larger(part: str, whole: str) -> bool:
        parts, wholes = _money(part).values, _money(whole).values
        return len(parts) == len(wholes) == 1 and wholes[0] > parts[0] > 0

    def offered(match: re.Match[str]) -> bool:  # "Depending on the orders of $60.00, $28.01"
        begin = _sentence_around(match.string, match.start())[0]
        return bool(_PART_OFFERED.search(match.string, begin, match.start()))

    def whole(match: re.Match[str]) -> str:  # "$1,104.83 of the $1,338.20 you spent"
        if offered(match) or not larger(match[1], match[2]):
            return match[0]
        return match[1] + " " * len(match[2])

    def whole_first(match: re.Match[str]) -> str:  # "Of the $1,338.20 you spent, $1,104.83"
        if offered(match) or not larger(match[2], match[1]):
            return match[0]
        return " " * len(match[1]) + match[2]

    def worked_after(match: re.Match[str]) -> str:
        total = _decimal(match[1].replace("$", "").replace(" ", ""))
        sums = total is not None and _worked_out(match[3]) == total
        return match[1] + " " * len(match[2]) if sums else match[0]

    def listed_first(match: re.Match[str]) -> str:  # "$325.00, $216.20 and $325.00. Total: …"
        total = _money(match["total"]).values
        sums = len(total) == 1 and sum(_money(match["run"]).values) == total[0]
        return " " * len(match["run"]) + match[0][len(match["run"]) :] if sums else match[0]

    text = _WORKED_SUM.sub(worked, text)
    text = _WORKED_AFTER.sub(worked_after, text)
    if kind == "money":
        text = _LISTED_FIRST.sub(listed_first, text)
        text = _MONEY_OF_WHOLE.sub(whole, text)
        text = _MONEY_WHOLE_FIRST.sub(whole_first, text)
    else:
        text = _counts_listed_first(text)
    for match in reversed(list(_BREAKDOWN.finditer(text))[:_MAX_BREAKDOWNS]):
        part = match[1] or match[2]
        if _NOT_A_BREAKDOWN.search(_skeleton(part)):
            continue
        inside = read(part).values
        if len(_NUMBER_TOKEN.findall(_skeleton(part))) != len(inside):
            continue  # a value in words or of another form beside the addends
        lead = text[max(0, match.start() - _BREAKDOWN_LEAD) : match.start()]
        before = read(_blank(lead, aside)).values
        if len(inside) > 1 and min(inside) >= 0 and before and sum(inside) == before[-1]:
            text = text[: match.start()] + " " * len(match[0]) + text[match.end() :]
    parts = [
        m
        for m in aside.finditer(text)
        if not _OFFERED_BEFORE.search(text[: m.start()])
        and not _PART_OFFERED.search(text, _sentence_around(text, m.start())[0], m.start())
    ]
    blanked = text
    for match in parts:
        blanked = blanked[: match.start()] + " " * len(match[0]) + blanked[match.end() :]
    if not parts or not _written_alike(kind, blanked):
        return text
    if kind == "number" and _UNIT_OF_TIME_RE.search(_blank(blanked, _MARKED_MONEY)):
        return text  # the count is itself one of time ("5 days"): a second one is no aside
    if kind == "money":  # a part is less than the whole
        wholes = read(blanked).values
        if not wholes or any(value >= min(wholes) for m in parts for value in read(m[0]).values):
            return text
    return blanked


def _counts_listed_first(text: str) -> str:
    """``text`` with the counts that break a total down set aside: the run of labelled counts
    right before the total (in its sentence, or on the lines before it), or those after it to
    the end of its sentence, where they sum to it with nothing among them that offers, doubts,
    conditions, reports or leaves a part open ("Inbox: 2, Archive: 2. Total: 4", "4 in total,
    2 shipped and 2 pending"; not "2, or 4 in total", "2 I think, 4 in total", "4 in total, 1
    more in drafts", nor the "4" of "It's 4. Inbox: 2, Archive: 2. Total: 8")."""
    if not _TOTAL_WORD.search(text):
        return text
    for match in islice(_COUNT_TOTAL.finditer(text), _MAX_BREAKDOWNS):
        said = match["after"] or match["before"]
        total = _counts(said).values
        if len(total) != 1 or total[0] <= 0:
            continue
        start = match.start() if match["after"] else match.start("before")
        if _OUT_OF_BEFORE.search(text, 0, match.start("after" if match["after"] else "before")):
            continue  # "8 free, out of 14 in total": the count the answer is out of
        end = _sentence_around(text, match.end())[1]
        before, after = _parts_before(text, start), _parts_after(text, match.end(), end)
        for region, edge in ((before, start), (after, None)):
            if region is None:
                continue
            begin, stop = region
            if stop - begin <= _COUNTS_LEAD and _sum_to(text[begin:stop], total[0]):
                stop = edge or stop  # and the slash or bar before the total, a separator too
                part = _LABEL_SLASH.sub(_comma, text[begin:stop])
                for number in _NUMBER_TOKEN.finditer(_count_text(part)):
                    part = part[: number.start()] + " " * len(number[0]) + part[number.end() :]
                return text[:begin] + part + text[stop:]
    return text


def _parts_before(text: str, end: int) -> tuple[int, int] | None:
    """Where the run of labelled counts right before a total at ``end`` lies: back from the
    words that join them to it ("so", "for a", a full stop, a bullet) over clauses of one
    count each, written alike (all "Label: 2" or all "2 label", all bulleted or none), to the
    start of the message, of a sentence or of a line list, or a heading ("Breakdown:"). None
    where a clause among them has a label but no count ("Drafts: unchecked, Inbox: 2")."""
    joint = _PARTS_JOINT.search(text, max(0, end - _JOINT_LENGTH), end)
    stop = joint.start() if joint else end
    window = max(0, stop - _COUNTS_LEAD)  # a run longer than that is read as it is
    sentence = max((m.end() for m in _SENTENCE_END.finditer(text, window, stop)), default=window)
    clauses = _clauses(text, sentence, stop)
    begin, shape = stop, None
    for index in range(len(clauses) - 1, -1, -1):
        left, right, separator = clauses[index]
        body = _count_text(text[left:right])
        if not body.strip():
            continue
        numbers = _NUMBER_TOKEN.findall(body)
        if not numbers:
            # a heading before the counts ("Breakdown:", a line of its own); else an open part
            after = clauses[index + 1][2] if index + 1 < len(clauses) else ""
            heading = text[left:right].rstrip().endswith(":") or "\n" in after
            return (begin, stop) if heading and begin < stop else None
        bulleted = separator.strip() in _BULLETS or body.lstrip()[:1] in _BULLETS
        seen = (bool(_COLON_FORM.match(body)), bulleted)
        if shape is not None and seen != shape:
            break
        shape, begin = seen, left
    return (begin, stop) if begin < stop else None


def _parts_after(text: str, begin: int, end: int) -> tuple[int, int] | None:
    """The counts after a total, to the end of its sentence ("4 in total, 2 shipped and 2
    pending"), past the words that name what it counts ("orders"): every clause there one
    count with its label, or None."""
    start = _PARTS_OPENING.match(text, begin).end()  # type: ignore[union-attr]
    if end - start > _COUNTS_LEAD:
        return None
    for left, right, separator in _clauses(text, start, end):
        body = _count_text(text[left:right])
        if not separator and not _NUMBER_TOKEN.search(body):
            start = right  # what the total counts: "Total: 4 orders, 2 shipped and 2 pending"
        elif body.strip() and not _NUMBER_TOKEN.search(body):
            return None
    return (start, end) if start < end else None


def _clauses(text: str, begin: int, end: int) -> list[tuple[int, int, str]]:
    """The clauses of ``text[begin:end]``, each with the separator before it ("" first)."""
    clauses, left, separator = [], begin, ""
    lead = max(0, begin - 1)  # the digit a separating slash follows
    for match in _PART_BREAK.finditer(_LABEL_SLASH.sub(_comma, text[lead:end]), begin - lead):
        clauses.append((left, lead + match.start(), separator))
        left, separator = lead + match.end(), match[0]
    clauses.append((left, end, separator))
    return clauses


def _comma(match: re.Match[str]) -> str:
    return match[0].replace("/", ",").replace("|", ",")


def _count_text(part: str) -> str:
    """``part`` with what a count reader passes over blanked (money, ratings, dates, ids…)."""
    return _without_other_kinds(_blank(part, _MARKED_MONEY, _RATING, _PRONOUN_ONE))


def _sum_to(part: str, total: Decimal) -> bool:
    """Whether the counts in ``part`` are two or more addends of ``total``, and all the
    numbers there are, each named by a word of its own clause ("Inbox: 2", "2 archived"), with
    nothing among them that offers, doubts, conditions, reports, leaves a part open or gives
    another answer."""
    separated = _skeleton(_LABEL_SLASH.sub(", ", part))
    if _NOT_A_BREAKDOWN.search(separated) or _NOT_A_PART.search(separated):
        return False
    if _ADMITTED.search(separated):
        return False
    counted = _count_text(part)
    for clause in _PART_BREAK.split(_LABEL_SLASH.sub(", ", counted)):
        numbers = _NUMBER_TOKEN.findall(clause)
        label = _PART_LABEL.search(_NUMBER_TOKEN.sub(" ", clause))
        if len(numbers) > 1 or (numbers and label is None):
            return False
    addends = _counts(part).values
    numbers = _NUMBER_TOKEN.findall(counted)
    return len(addends) >= 2 and len(numbers) == len(addends) and sum(addends) == total


def _written_alike(kind: str, text: str) -> bool:
    """Whether ``text`` still holds an answer written as the set-aside values are: an amount
    with its "$" (or "dollars"), a count in digits."""
    if kind == "money":
        return _MARKED_MONEY.search(_without_other_kinds(_blank(text, _RATING, _TALLY))) is not None
    return bool(_numbers(_without_other_kinds(_blank(text, _MARKED_MONEY, _RATING))).values)


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
    "date": _DATES,
}


#: A fact a task's answer may cite as its reason: a value of the answer's kind and the words
#: that name it ("limit", "capped at", "free shipping"); see :func:`grade`'s ``facts``.
Fact = tuple[Any, Iterable[str]]
#: How far before a value its label may stand (in words, after the label's own), and after.
_LABEL_BEFORE = 4
_LABEL_AFTER = 3
#: What a cited fact's clause ends at: a sentence's end, a line, a semicolon (not a bracket:
#: "the cheapest item ($53.49) is rated only 2.0").
_FACT_CLAUSE_END = re.compile(r"[.!?](?=\s|$)|[;\n]")
#: What keeps a fact in its sentence a candidate: an offer, a guess, doubt, a condition, an old
#: or another moment's value ("If that one is sold out, the next cheapest is $23.99", "with the
#: old minimum it would be $55.00 more", "Backup answer: …", "if you meant the limit, $325.00").
_FACT_VETO = re.compile(
    rf"{_OFFER.pattern}|{_GUESS.pattern}|{_UNSURE.pattern}|{_PART_OFFERED.pattern}"
    r"|\b(?:assuming|provided|except|fallback|alternatives?|old|older|outdated|superseded|used to"
    r"|meant|mean|either|second choice|also possible|counts?|failing|pick|choose|call)\b",
    re.IGNORECASE,
)
#: What a fact's own bound says after it, and is set aside with it: "$45.00 or more".
_FACT_BOUND = re.compile(r"\s*(?:or (?:more|over|above|higher)|and (?:up|over|above)|\+)", re.I)


def _fact_values(kind: str, facts: Iterable[Fact], year: int | None) -> dict[Any, re.Pattern[str]]:
    """Each fact's value, as the answer's kind reads it, and a pattern of the words naming it
    (under None, the words of a fact given without a value: they name no answer, whatever
    value they stand by, as "cancelled" does)."""
    read = _FACT_READERS[kind]
    cited: dict[Any, list[str]] = {}
    for value, labels in facts:
        if value is None:  # words that name no answer, whatever value they name
            found: tuple[Any, ...] = (None,)
        elif isinstance(value, int if kind == "money" else date if kind == "date" else time):
            found = (value,)
        else:
            found = tuple(dict.fromkeys(read(str(value), year).values))
        words = [" ".join(str(label).split()) for label in labels if str(label).strip()]
        if len(found) != 1 or not words:
            raise AnswerError(f"a fact is one {kind} value and the words naming it: {value!r}")
        cited.setdefault(found[0], []).extend(words)
    for value in cited:
        if value is not None:
            cited[value] += cited.get(None, [])
    return {
        value: re.compile(
            r"(?<![\w-])(?:"
            + "|".join(re.escape(w).replace(r"\ ", r"[\s-]+") for w in sorted(words, key=len)[::-1])
            + r")(?![\w-])",
            re.IGNORECASE,
        )
        for value, words in cited.items()
    }


_FACT_READERS: dict[str, Callable[[str, int | None], _Found]] = {
    "money": lambda text, year: _money(text),
    "date": _dates,
    "time": lambda text, year: _times(text),
}


def _without_facts(kind: str, text: str, facts: Iterable[Fact], year: int | None) -> str:
    """``text`` with the facts it cites as its reasons blanked: a value equal to one of
    ``facts``, named by one of its words on its side of its clause (at most
    :data:`_LABEL_BEFORE` words before it, with no other value, "and" or comma between, and
    not right after an earlier value; or :data:`_LABEL_AFTER` words after it, where they name
    no next value (:func:`_claims_next`): "the limit is $325.00", "With the $325.00 cap",
    "free shipping starts at $45.00"), in a sentence that offers, conditions and doubts nothing
    (:data:`_FACT_VETO`), in a message that is not torn between values (:data:`_TORN`). A
    fact named without its words, or beside an "or" or an "if", stays a second value. A
    value named by a fact's words is that fact even where it is also the ``expected`` one
    ("January 20 (cancelled), then the next one January 27" says the 20th is no answer), so
    what is read depends on the task's facts, never on its expected value."""
    facts = tuple(facts)
    if not facts or kind not in _FACT_READERS:
        return text
    cited = _fact_values(kind, facts, year)
    torn = _TORN.search(_skeleton(text)) is not None
    read = _FACT_READERS[kind]
    ends = [m.end() for m in _FACT_CLAUSE_END.finditer(text)]
    spans: list[tuple[int, int]] = []
    for pattern in _VALUE_PATTERNS[kind]:
        for match in pattern.finditer(text):
            values = set(read(match[0], year).values)
            if len(values) != 1:
                continue
            value = values.pop()
            label = cited.get(value, cited.get(None))
            if label is None:
                continue
            i = bisect.bisect_right(ends, match.start())
            begin = ends[i - 1] if i else 0
            stop = ends[i] if i < len(ends) else len(text)
            sentence_begin, sentence_end = _sentence_around(text, match.start())
            sentence = _skeleton(text[sentence_begin:sentence_end])
            if _FACT_VETO.search(sentence) or torn:
                continue
            lead = text[begin : match.start()]
            named_before = next(
                (
                    found
                    for found in label.finditer(lead)
                    if not _SUMMED.match(lead, found.end())
                    and len(lead[found.end() :].split()) <= _LABEL_BEFORE
                    and not _JOINS.search(lead[found.end() :])
                    and not any(p.search(lead, found.end()) for p in _VALUE_PATTERNS[kind])
                    and not _follows_a_value(lead[: found.start()], kind)
                ),
                None,
            )
            bound = _FACT_BOUND.match(text, match.end(), stop)
            end = bound.end() if bound else match.end()
            after = text[end:stop]
            closed = re.match(r"\s*[)\]]", after)  # "($53.49) is rated only 2.0"
            after = after[closed.end() :] if closed else after
            named_after = next(
                (
                    found
                    for found in label.finditer(after)
                    if not _SUMMED.match(after, found.end())
                    and len(after[: found.start()].split()) <= _LABEL_AFTER
                    # (a bracket opening on the words is no mark between: "$1.44 (NM-…)")
                    and not _MARK_BETWEEN.search(re.sub(r"[(\[]\s*$", "", after[: found.start()]))
                    and not _JOINS.search(after[: found.start()])
                    and not _claims_next(after, found.end(), kind)
                ),
                None,
            )
            # the fact's words are set aside with it: left, "Subtotal" or "before tax" would
            # qualify the answer
            if named_before is not None:
                spans.append((begin + named_before.start(), end))
            elif named_after is not None:
                spans.append((match.start(), stop - len(after) + named_after.end()))
    for begin, end in spans:
        text = text[:begin] + " " * (end - begin) + text[end:]
    return text


#: A fact's words as a term of what a value adds up to, naming no value of their own: "$416.94
#: (subtotal + tax + shipping)", "the subtotal plus tax".
_SUMMED = re.compile(r"\s*(?:\+|\bplus\b|&)", re.IGNORECASE)
#: What joins two clauses or values, so that words on one side name nothing on the other
#: ("$531.10 and the other report, $484.25": "the other report" is not $531.10's).
_JOINS = re.compile(r"\b(?:and|but|while|whereas|or|then|so|vs)\b|[,;&]")
#: What says the message is torn between values, anywhere in it: a fact it names stays a
#: candidate ("$38.99. The next cheapest is $40.99. It's one of the two.").
_TORN = re.compile(
    r"\b(?:one of the (?:two|three|these|those)|your call|take your pick"
    r"|(?:can'?t|cannot|couldn'?t) (?:tell|say|be sure)|either one|plan b|failing that"
    r"|should it be|barring|if not|in doubt"
    r"|toss[- ]up|hard to tell|not clear which)\b",
    re.IGNORECASE,
)


def _follows_a_value(before: str, kind: str) -> bool:
    """Whether words at the end of ``before`` stand right after a value of ``kind`` (within three
    words, with nothing joining them): then they are that value's ("$38.99 is the next
    cheapest, $40.99 …")."""
    last = None
    for p in _VALUE_PATTERNS[kind]:
        for m in p.finditer(before):
            if last is None or m.end() > last:
                last = m.end()
    if last is None:
        return False
    gap = before[last:]
    return (
        len(gap.split()) <= 3
        and not _JOINS.search(gap)
        and not re.search(r"[()\[\]:.!?\u2014\u2013]|\s-+\s", gap)
    )


def _claims_next(clause: str, at: int, kind: str) -> bool:
    """Whether words ending at ``at`` in ``clause`` name the next value of ``kind`` after
    them rather than one before ("$563.40 and the other report to $631.23"): it follows
    within :data:`_LABEL_BEFORE` words, with no mark or operator between ("the $325.00 cap,
    the total is $1,191.20" and "the $45.00 minimum minus the $19.00 price" name theirs)."""
    nexts = [m.start() for p in _VALUE_PATTERNS[kind] if (m := p.search(clause, at))]
    if not nexts:
        return False
    between = clause[at : min(nexts)]
    return len(between.split()) <= _LABEL_BEFORE and not re.search(
        r"[,;()\[\]+−–]|\b(?:minus|plus|less|from)\b", between
    )


def _sentence_around(text: str, at: int) -> tuple[int, int]:
    """Where the sentence (or line) holding ``at`` begins and ends."""
    begin = max((m.end() for m in re.finditer(r"(?<=[.!?])\s+|\n+", text[:at])), default=0)
    end = re.search(r"(?<=[.!?])\s+|\n+", text[at:])
    return begin, at + end.start() if end else len(text)


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
    r"|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?"
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


#: Doubt that only the sentence giving the answer can say of it: "Likely $5.", "It seems to be
#: $5", "$5 should be right", "I'd say $5", "$5 (couldn't verify)". In a sentence of its own
#: ("That should be everything you need!", "Let me know if anything seems off") they say
#: nothing of the answer.
_UNSURE_NEAR = re.compile(
    r"\b(?:likely|apparently|potentially|seemingly|supposedly|presumably|preliminary|imo|tbd"
    r"|reportedly|allegedly|ostensibly|purportedly)\b"
    r"|\bI (?:do not|don'?t) (?:think|believe)\b|\bI'?d (?:say|estimate)\b|\bshould be\b"
    r"|\bseems?\b|\bappears? to be\b|\bI (?:reckon|want to say|feel like)\b|\bought to be\b"
    r"|\b(?:could(?:n'?t| not)|can(?:'?t|not)|unable to) (?:verify|confirm)\b"
    r"|\b(?:could|might|may) (?:very )?well be\b|\b(?:might|could)'?ve been\b"
    r"|\bmy best (?:estimate|guess)\b|\bto my knowledge\b|\bat a glance\b|\bno guarantees?\b"
    r"|\b(?:is|was)(?: not|n'?t) (?:the|her|his|my|your|their|its) (?:right |correct )?"
    r"(?:one|answer|total|number|amount|price|phone|id|count)\b"
    r"|\bassuming\b|\bprovided (?:that )?(?!by\b)|\bas long as\b|\bif memory serves\b"
    r"|\bplease (?:verify|confirm|double[- ]?check)\b|\bcould slip\b",
    re.IGNORECASE,
)
#: A word that denies what follows it: "not", "isn't", "never", "no longer".
_DENIAL = re.compile(
    r"\b(?:not|never|no longer|cannot|(?:is|was|are|were|does|did|do|has|had|have|wo|ca"
    r"|should|could|would|must|need|ai)n'?t)\b",
    re.IGNORECASE,
)
#: A mark right after a denial, before the value it denies: "isn't, in fact, $5", "Not: $5".
_DENIAL_MARK = re.compile(
    r"\s*[,:\u2014-]+\s*(?:(?:in fact|really|actually|truly)\s*[,:\u2014-]*\s*)?", re.IGNORECASE
)
#: Words of a verb phrase between a denial and the value it denies ("doesn't cost $5", "won't
#: arrive on March 4", "not scheduled for 2 PM"), at most two; not those after which the value
#: is the answer all the same ("didn't ship until March 4", "not before 2 PM").
_DENIED_VERB = re.compile(
    r"\s+(?!(?:until|till|before|after|than|later|earlier|sooner|without|unless|except|more"
    r"|less|over|under|only|just)\b)[a-z]+"
    r"(?:\s+(?!(?:until|till|before|after|than|without|unless|except)\b)[a-z]+)?",
)
#: Words that may stand between a denial and the value it denies: "not on March 4", "isn't
#: the Blue Mug", "not exactly $5", "it's not (555) 010-…" (a bracket or a quote opens it).
_DENIAL_FILLER = re.compile(
    r"(?:\s+(?:the|a|an|on|at|in|for|from|to|by|of|exactly|quite|just|really|actually|even"
    r"|be|been|it|called|named|that|this|your|my|any|simply|necessarily|equal|both)\b\.?"
    r"|\s+(?:tel|id|no)\b\.?:?)*"
    r"[\s\"'*_]*",
    re.IGNORECASE,
)


def _denied(kind: str, text: str, expected: Any, value: Any, year: int | None) -> str:
    """The denial ("not", "isn't", "never" …) that stands right before the right value
    ("It's not $31.42.", "Not 8.", "isn't the Blue Mug", "Not Ann Lee and Bo Park."), or ""
    if none does. A message that gives the answer only to deny it does not give it."""
    text = _skeleton(text)
    for match in _DENIAL.finditer(text):
        starts = [match.end()]
        if kind in _NUMBER_KINDS:
            marked = _DENIAL_MARK.match(text, match.end())
            starts += [marked.end()] if marked else []
        # (not for names: "haven't heard back from A or B" answers who has not replied)
        verb = _DENIED_VERB.match(text, match.end()) if kind in _NUMBER_KINDS else None
        if verb:  # "doesn't cost $5": try past one word of a verb phrase, then two
            one = re.match(r"\s+[a-z]+", text[match.end() :])
            starts += [match.end() + one.end()] if one else []
            starts += [verb.end()] if one and verb.end() > match.end() + one.end() else []
        for begin in starts:
            filler = _DENIAL_FILLER.match(text, begin)
            rest = text[filler.end() if filler else begin :][:200]
            # "Who hasn't? A and B": a mark between them, and the denial denies none
            opens = rest[:1].isalnum() or rest[:1] in "$(+#"
            if opens and _starts_with_value(kind, rest, expected, value, year):
                return match[0]
    return ""


#: A word of the subject of a denial that rules a value out ("The order total isn't $35.00"):
#: no doubt, no other candidate, no number ("The answer maybe isn't 8", "The other candidate
#: isn't $35.00" offer one).
_SUBJECT_WORD = (
    r"(?!(?:maybe|perhaps|possibly|probably|likely|guess\w*|think|believe|other|another"
    r"|candidate|option|alternative|possibilit\w*|runner|second|else|either|or|nor|"
    + "|".join(sorted({*_WORDS, *_MORE_WORDS}, key=len, reverse=True))
    + r")\b)[a-z-]+"
)
#: A denial that rules a value out as a correction does, at the start of a clause: "$31.42, not
#: $35.00", "(not $35.00)", "It's not $35.00; it's $31.42.", "The total isn't $35.00; it's
#: $31.42.", "— not the 4th". Not after "if", "or", "whether" (then it offers the value:
#: "$31.42, if not $35.00").
_RULED_OUT = re.compile(
    r"(?:^|(?<=[,;(\[])|(?<=\s-)|(?<=[.!?:])\s)\s*(?:but\s+)?"
    rf"(?:(?:it|that|(?:the|my|your|our|his|her|their|its|this|that)(?:\s+{_SUBJECT_WORD}){{1,3}})"
    r"(?:'s\s+|\s+is\s+|\s+was\s+|\s+(?=(?:is|was)n'?t\b)))?"
    r"(?P<denial>not|never|(?:is|was)n'?t)\s+(?:the\s+|on\s+|at\s+)?",
    re.IGNORECASE,
)


#: How much of the clause after a value ruled out is read for a condition that brings it back.
_CLAUSE_LENGTH = 300


def _without_ruled_out(kind: str, text: str, year: int | None) -> str:
    """``text`` with each value of ``kind`` that a correction rules out blanked, with its
    denial (a value that reads as no one value of the kind is left as it is)."""
    said = _skeleton(text)
    if len(said) != len(text):
        return text
    spans = []
    for match in islice(_RULED_OUT.finditer(said), _MAX_BREAKDOWNS):  # a few, as corrections go
        words, end = [], match.end()
        for word in re.finditer(r"\S+", said[match.end() : match.end() + 60]):
            bare = word[0].strip(".,;:!?\"'*()[]")
            if not bare or not _VALUE_WORD.fullmatch(bare):
                break
            words.append(word[0])
            end = match.end() + word.start() + word[0].index(bare) + len(bare)
            if word[0][-1] in ",;:!?)":
                break
        if not words or len(set(_READ_SAID[kind](" ".join(words), year, None).values)) != 1:
            continue
        clause = re.split(r"[.!?;\n]", said[end : end + _CLAUSE_LENGTH], maxsplit=1)[0]
        if _RULED_OUT_UNLESS.search(clause):
            continue  # "not $35.00, unless tax counts": ruled out only under a condition
        # the denial and the value: the words before them stay to be read ("The total
        # probably isn't $35.00" keeps its doubt)
        spans.append((match.start("denial"), end))
    for start, end in reversed(spans):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _starts_with_value(kind: str, rest: str, expected: Any, value: Any, year: int | None) -> bool:
    """Whether ``rest`` begins with the right value (``value`` as read; ``expected`` as given)."""
    if kind in _READ_SAID:
        words = []
        for word in rest.split():
            bare = word.strip(".,;:!?\"'*()[]")
            if not bare or not _VALUE_WORD.fullmatch(bare):
                break
            words.append(word)
            if word[-1] in ";:!?)":
                break
        return bool(words) and set(_READ_SAID[kind](" ".join(words), year, value).values) == {value}
    if kind == "phone":  # the number itself, where the rest begins
        phone = _PHONE.search(rest[:40])
        return phone is not None and phone.start() <= 1 and _phones(phone[0]).values == (value,)
    if kind == "identifier":  # the id itself, not a longer one ("#1001, not #10012")
        read = ""
        for token in re.finditer(r"[A-Za-z0-9-]+|[^\sA-Za-z0-9-]", rest[: len(str(expected)) + 24]):
            if not token[0][0].isalnum() and token[0] != "-" and read:
                break
            read += _canonical_id(token[0])
            if len(read) >= len(str(value)):
                break
        return read == str(value)
    single = kind in ("name", "string")
    names = [expected] if single else list(expected)
    for name in names:
        words = re.findall(r"[A-Za-z0-9]+", _skeleton(str(name)))
        # the name itself, not a longer one it begins ("the Blue Mug Deluxe"; in a list the
        # next item follows)
        longer = r"(?!\W{0,3}(?-i:[A-Z0-9]))" if single else ""
        pattern = r"\W*" + r"\W+".join(words) + r"(?![A-Za-z0-9])" + longer
        if words and re.match(pattern, rest, re.IGNORECASE):
            return True
    return False


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


def _asked(sentence: str, holds: Callable[[str], bool]) -> bool:
    """Whether ``sentence`` asks the value rather than says it: every clause that holds it
    ends with a "?" ("$41.37?", "March 4?!", "Was it March 4?"), or a "(?)" stands in it;
    a question after it ("$41.37 — anything else?") asks something else."""
    for aside in re.finditer(r"\(([^()]{0,40})\?\s*\)", sentence):  # "(?)", "(tomorrow?)"
        if len(aside[1].split()) <= 2 or re.search(r"[0-9]", aside[1]):
            return True  # not "(want the breakdown?)"
    clauses = [c for c in re.split(r"[,;:(\[]|\s-+\s|(?<=\?)", sentence) if holds(c)]
    if clauses and all(c.rstrip(" .)]*_\"'!").endswith("?") for c in clauses):
        return True
    for mark in re.finditer(r"\?", sentence):  # "January 20, 2027?.": the value's words, then "?"
        words = sentence[: mark.start()].split()
        value: list[str] = []
        while words and _VALUE_WORD.fullmatch(words[-1].strip(".,;:!\"'*()[]") or "-"):
            value.insert(0, words.pop())
        if value and holds(" ".join(value)) and not holds(sentence[mark.end() :]):
            return True  # (not "Was it March 4? Yes — March 4, 2026.")
    return False


#: A sentence of nothing but words of doubt, said of the answer before it ("$41.37.
#: Reportedly.", "Apparently, yes.", "Most likely.", "So it seems."); not a label ("Maybe:",
#: the calendar's answer).
_DOUBT_ALONE = re.compile(
    r"[\W_]*(?:(?:well|so|but|and|though)\b[\W_]*)?(?:(?:most|very|quite|more than)\s+)?"
    r"(?:reportedly|allegedly|ostensibly|purportedly|apparently|presumably|supposedly"
    r"|seemingly|likely|probably|possibly|perhaps|maybe|potentially|(?:or )?so it seems"
    r"|it seems(?: so)?|seems (?:so|like it)|or so (?:it seems|i hear|i'?m told|they say|i think)"
    r"|i hear|i'?m told)"
    r"(?:[\W_]+(?:so|yes|anyway|at least|though|i think|i guess|i believe|i hear|it seems))?"
    r"(?::[a-z_]+:|[^\w:]|_)*",
    re.IGNORECASE,
)
#: Words of a sentence after a list that refer to another item ("Maybe one more.", "Or a third
#: one.", "Possibly more.", "Either that or nobody has.").
_ANOTHER_ITEM = re.compile(
    r"\b(?:one|more|another|also|third|fourth|fifth|other|others|too|someone|somebody|nobody"
    r"|none|all|both|either|that)\b",
    re.IGNORECASE,
)
#: More words of a guess ("or", "maybe") than this in the sentence that gives the answer is a
#: hedge (or a message written to slow the grader: each is read in its clause).
_MANY_GUESSES = 12
_QUOTED = re.compile(r"[\"\u201c][^\"\u201c\u201d\n]{1,160}[\"\u201d]")


def _offers_another_answer(
    kind: str, text: str, holds: Callable[[str], bool], names: Iterable[str] = ()
) -> str:
    """What offers another answer beside the one given (empty if nothing does): a guess word
    in a sentence that gives the answer (``holds`` it), an open-ended value ("5 or more"), a
    later sentence that begins with one ("Or maybe …"), a list of names. ``names`` (the asked
    one, the candidates) are passed over: "Salt or Pepper Grinder" offers nothing; so is an
    "or" between words that are no values of a number-like kind ("Barnes or Noble")."""
    for struck in re.finditer(r"~~([^~]{1,200})~~|<(?:s|del|strike)>(.{0,200}?)</", text):
        if holds(struck[1] or struck[2] or ""):
            return "it strikes the value through"
    # A quoted title that holds no value ("My card was declined or has expired") offers none.
    text = _QUOTED.sub(
        lambda m: m[0] if re.search(r"[0-9]", m[0]) or holds(m[0]) else " " * len(m[0]), text
    )
    sentences = [_skeleton(part) for part in _sentences(text)]
    giving = [i for i, part in enumerate(sentences) if holds(part)]
    spelled = [re.escape(_skeleton(n)) for n in names if n.strip()]
    inside = re.compile("|".join(sorted(spelled, key=len, reverse=True)), re.I) if spelled else None
    for i in giving:
        said = inside.sub(" ", sentences[i]) if inside is not None else sentences[i]
        if kind == "number":
            said = _blank(said, _RATING_BOUND)
        near = _UNSURE_NEAR.search(sentences[i])
        if near:
            return f"{near[0].strip()!r} says it is not sure"
        guesses = list(_GUESS.finditer(said))
        if len(guesses) > _MANY_GUESSES:  # each is read around it: bounded, as no answer needs
            return f"{len(guesses)} words like {guesses[0][0].strip()!r} offer others"
        for guess in guesses:
            plain_or = guess[0].strip().lower() == "or"
            if kind in ("list", "set") and guess[0].strip().lower() in _LIST_GUESSES:
                continue  # the items' reading tells one among them (_hedged_between)
            if (
                plain_or
                and kind in _NUMBER_KINDS
                and _or_joins_other_words(said, guess, kind, holds)
            ):
                continue
            return f"{guess[0].strip()!r} offers another"
        sentence = sentences[i]
        if kind == "money":
            sentence = _blank(sentence, _OPEN_COUNT)
        elif kind == "number":
            sentence = _blank(sentence, _OPEN_PRICE, _RATING_BOUND)
        found = _OPEN.search(sentence) if kind in _NUMBER_KINDS else None
        if kind in ("date", "time") and not found:
            found = _SHIFTED.search(sentences[i]) or _BRACKETED_NUMBER.search(sentences[i])
        if kind in ("money", "number") and not found:
            found = next(
                (
                    aside
                    for aside in _BARE_ASIDE.finditer(
                        _blank(sentences[i], *_OTHER_KINDS[kind], _MARKED_MONEY)
                    )
                    if not _restates(aside[0], holds)
                ),
                None,
            )
        if found:
            return f"{found[0].strip(' ,(')!r} leaves it open"
    if giving:
        alone = next(
            (
                part
                for i, part in enumerate(sentences)
                if i not in giving
                and _DOUBT_ALONE.fullmatch(part)
                and not (i and sentences[i - 1].rstrip().endswith(","))  # a list's next line
            ),
            None,
        )
        if alone is not None:
            return f"{alone.strip()!r} says it is not sure"
    # asked in every sentence that gives it ("$41.37?"), not asked, then said ("Was it March
    # 4? Yes — March 4, 2026.")
    if giving and all(_asked(sentences[i], holds) for i in giving):
        return "'?' asks it rather than says it"
    first = giving[0] if giving else 0
    for part in sentences[first + 1 :]:
        if kind in ("list", "set") and not (
            (inside is not None and inside.search(part)) or _ANOTHER_ITEM.search(part)
        ):
            continue  # "A and B. Maybe send them a reminder?" offers no other item
        if _GUESS_FIRST.search(part):
            return f"{part.split()[0]!r} offers another"
    if kind in ("name", "string") and _in_a_list(text, names):
        return "it is one of a list"
    return ""


#: Words that leave a list open, anywhere in the answer: "at least A and B", "A, B, etc.",
#: "including A and B", "A and B, among others", "mainly A and B", "plus a few more".
_OPEN_LIST = re.compile(
    r"\b(?:at least|among(?:st)? others|etc|et cetera|and (?:others|more|so on|the like)"
    r"|including|such as|mainly|mostly|primarily|for (?:example|instance)|e\.?g"
    r"|plus (?:a few|some|several|others|more)|a (?:few|couple) more|to name (?:a few|some)"
    r"|partial list|part of it|one or two more|or more|there (?:may|might|could) be"
    r"|the (?:others|rest) (?:possibly|perhaps|maybe|too|as well))\b",
    re.IGNORECASE,
)
#: A guess word in a sentence that names an item, not an RSVP's "maybe" ("said maybe").
_ITEM_GUESS = re.compile(
    r"(?<!\bsaid )(?<!\breplied )(?<!\banswered )(?<!\bresponded )(?<!\bmarked )"
    r"(?<!\bchose )(?<!\bwith )\b(?:maybe|perhaps|possibly|potentially|conceivably)\b",
    re.IGNORECASE,
)


def _guessed_items(text: str, names: Sequence[str]) -> re.Match[str] | None:
    """A word that leaves the list open ("at least", "etc.", "including", "among others") or
    guesses ("maybe", "possibly") where it stands beside the names of a clause that names
    them: among them, at most two words before the first ("At least A and B") or after the
    last ("A and B, and quite possibly the other two", "A and B, etc."). One further off says
    something else ("… (all have at least 4.5 stars)", "… still haven't replied; they may be
    travelling")."""
    for clause in re.split(r"[.;!?\n]+\s|[.;!?\n]+$|\(|\)", _skeleton(text)):
        words, found = _blanked_names(clause, names)
        if not found:
            continue
        for word in (*_OPEN_LIST.finditer(words), *_ITEM_GUESS.finditer(words)):
            if _beside_names(words, found, word, 2):
                return word
    return None


#: What admits anywhere that a list may be incomplete: "I may have missed some", "the ones I
#: could find", "non-exhaustive", "A, B …".
_ADMITTED = re.compile(
    r"\b(?:might|may|could) (?:have )?missed\b|\bmay be incomplete\b|\bmight not be all\b"
    r"|\b(?:the ones?|all|those) (?:that )?I could find\b|\b(?:non-?)?exhaustive\b"
    r"|\b(?:so far|up to now),? I(?:'ve| have)? (?:found|seen|spotted|identified|counted|got"
    r"|come across|turned up)\b|\b(?:found|seen|spotted) (?:so far|up to now)\b|\bso far\s*:"
    r"|\bamong(?:st)? (?:them|those|these)\s*:"
    r"|\bamong(?:st)? (?:the|those|these) [\w'-]+(?: [\w'-]+){0,4}? (?:are|is|were|was)\b"
    r"|\b(?:are|is) (?:also )?among (?:them|those|these|the [\w-]+)\b"
    r"|\b(?:plus|and) any (?:others |more )?(?:that )?I(?:'ve| have)? (?:may have )?(?:missed"
    r"|overlooked)\b"
    r"|\b(?:the ones?|those) I(?:'ve| have)? (?:found|seen|spotted) so far\b"
    r"|\bincomplete (?:list|answer)\b|\(incomplete\)|\bat minimum\b|\bfor starters\b"
    r"|\bto name (?:two|three|a few|some)\b|\band so forth\b|\band (?:some|a few) others\b"
    r"|\bthere (?:may|might|could) be (?:more|others|another|one or two|a few|some)\b"
    r"|\b(?:could|might|may) (?:be )?swap(?:ped)?\b|\bnearly tied\b|\bneck and neck\b"
    r"|\bpartial list\b|\bpart of it\b|\b(?:perhaps|possibly|maybe|potentially) more\b"
    r"|\bmore (?:perhaps|possibly|maybe)\b|\bthe (?:others|rest) (?:possibly|perhaps|maybe)\b"
    r"|\b(?:and|plus) (?:one|two) more\b|\ba (?:third|fourth|fifth) (?:one|person|order|item"
    r"|product)\b|\b(?:and|plus) someone\b|\band the one from\b"
    r"|\b(?:might|may|could) (?:also )?have (?:gone|been sent|shipped) there\b"
    r"|\b(?:one|two|a few) or (?:two|three) more\b"
    r"|,\s*(?:\.\.\.|\u2026)\s*$|[A-Za-z](?:\.\.\.|\u2026)\s*$",
    re.IGNORECASE,
)


#: A list given as some of those asked for, opening its clause right before the names: "Two of
#: them are A and B", "Some of the people who haven't replied are: A, B" (a number of "the …"
#: counts them: "The top three of them are …", "Top 3 of the 5 products are: …", "3 of them
#: are Confirmed", "Exactly two of them are Pending: A and B" are careful)...
_SOME_OF = re.compile(
    r"(?:^|[.!?;:(\n]\s*|,\s+|\s[-\u2013\u2014]\s+)[*_\s]*(?:(?:one|two|three|four|five|six"
    r"|seven|eight|nine|ten|[0-9]+) of (?:them|those|these)|(?:some|several|a few|a couple"
    r"|few|many|most) of (?:them|those|these|the\s+[\w'-]+(?:\s+[\w'-]+){0,4}?))\s+"
    r"(?:are|were|include|included|including|would be|will be|are named)\b"
    r"[\s:*_\"'\u201c(\[\u2014\u2013-]*",
    re.IGNORECASE,
)
#: ... or right after them: "A and B are two of them" (not "There are two of them: A, B").
_SOME_OF_AFTER = re.compile(
    r"[\s*_\"'\u201d)]*\s(?:are|were)\s+(?:just\s+|merely\s+|only\s+)?(?:one|two|three|four"
    r"|five|some|several|a few|a couple|among)\s+of\s+(?:them|those|these)\b",
    re.IGNORECASE,
)


def _some_of(text: str, names: Sequence[str]) -> re.Match[str] | None:
    """Words that give the list as some of those asked for (:data:`_SOME_OF`), right before
    or right after a known name."""
    forms = [form for form in (_name_form(name) for name in names if name.strip()) if form]
    for match in _SOME_OF.finditer(text):
        after = normalize_text(text[match.end() : match.end() + 200])
        if any(after.startswith(form) for form in forms):
            return match
    for match in _SOME_OF_AFTER.finditer(text):
        before = normalize_text(text[max(0, match.start() - 200) : match.start()])
        if any(before.endswith(form) for form in forms):
            return match
    return None


#: What says of an ordered list that its order is not known: "(in some order)", "in no
#: particular order", "order uncertain" (of a set, it is careful).
_ANY_ORDER = re.compile(
    r"\bin (?:some|any|no (?:particular|specific)|random) order\b|\border (?:uncertain|unsure"
    r"|unclear|not (?:sure|certain|known|verified))\b|\bnot (?:sure|certain) (?:of|about) the "
    r"order\b|\b(?:not|un)ranked\b",
    re.IGNORECASE,
)
#: Two to four capitalised words, as a name is written ("Bob Kowalski"), not a greeting.
_PERSON_LIKE = re.compile(
    r"(?!(?:Hi|Hello|Hey|Dear|Thanks|Thank|Best|Kind|Regards|Cheers|Let|Please|Also|Both|It"
    r"|It's|Its|The|This|That|These|Those|Yes|No|Only|Just|All|Your|My|Our|Their|They|We|You"
    r"|Here|There|So|Then|Top|Who|Which)\b)"
    r"[A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){1,3}"
)
#: A line of a bulleted or numbered list that labels a detail ("- Price: $9.00"), not an item.
_LABELLED = re.compile(r"^\s*(?:[-*\u2022]|[0-9]{1,2}[.)])\s+\**[A-Za-z][\w '/&-]{0,30}\**\s*:")


#: Digits and dashes standing as an item of a list ("…, 10999-1", "… and 10999-1."), not
#: part of an amount or a longer number, nor after a label ("return RMA 55123-4", "#55123-4").
_BARE_DIGITS = re.compile(
    r"(?:^|[,;|&\n]|\band|\bplus|\bas well as)\s*(?:[-*\u2022]\s*)?[*_\"'\u201c]*#?\s?"
    r"([0-9][0-9-]*[0-9])[*_\"'\u201d]*(?=\s*(?:[,;.&\n|)\]!]|\band\b|\bplus\b|$))",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=64)
def _spaced_ids_of(shapes: frozenset[str]) -> re.Pattern[str]:
    """Ids of these shapes ("AA-99999-9") written with other marks between their parts: one
    after the letters ("NM 10999-1", "NM#10999-1"), none but ``_ . / -`` between the groups of
    digits ("NM_10999_1"; "Santa Fe, NM 87501 2 orders" is a zip code and a count)."""
    forms = []
    for shape in sorted(shapes):
        parts = re.findall(r"A+|9+", shape)
        if len(parts) < 3 or not parts[0].startswith("A"):
            continue
        digits = "[_./-]".join(rf"[0-9]{{{len(p)}}}" for p in parts[1:])
        forms.append(rf"[A-Za-z]{{{len(parts[0])}}}[ _./#-]{digits}")
    body = "|".join(forms) or r"(?!)"
    return re.compile(rf"(?<![A-Za-z0-9])(?:{body})(?![A-Za-z0-9])")


def _spaced_ids(ids: Sequence[str]) -> re.Pattern[str]:
    return _spaced_ids_of(frozenset(_id_pattern(name) for name in ids))


def _id_pattern(text: str) -> str:
    """An id's shape: letters as A, digits as 9, the rest as written ("NM-10234-5" is
    "AA-99999-9"; "RMA-55123" is another shape)."""
    return re.sub(r"[0-9]", "9", re.sub(r"[A-Za-z]", "A", text.strip()))


def _unknown_item(text: str, items: Sequence[str], candidates: Sequence[str]) -> str:
    """An item of a list answer that is none of the names the task knows (``items`` and the
    ``candidates``), so one too many: an id of exactly the candidates' shape ("…, NM-00000-0",
    a mistyped one) or of that shape without its letters ("…, 10999-1"), a person's name in a
    bare list of names ("A, B, Bob Kowalski") or joined to theirs ("A, B and Bob Kowalski
    haven't replied"), or a numbered line among numbered lines of known names ("4. Acme
    Widget"). Empty if there is none, or the task gives no candidates."""
    known = [*items, *candidates]
    if not candidates:
        return ""
    ids = [name for name in known if re.search(r"[0-9]", name) and " " not in name.strip()]
    if ids:
        canonical = {_canonical_id(name) for name in ids}
        # the candidates' letters, and how many digits they have: "NM10999-1" and "NM-10999"
        # are ids of theirs mistyped or cut short, as "NM-00000-0" is one of their shape
        prefixes = {re.sub(r"[0-9].*", "", name) for name in canonical}
        least = min(len(re.sub(r"[^0-9]", "", name)) for name in canonical) - 1
        shapes = {_id_pattern(name) for name in ids}
        for token in _MIXED_TOKEN.finditer(_skeleton(text)):
            said = _canonical_id(token[0])
            if said in canonical:
                continue
            if _id_pattern(token[0]) in shapes or (
                re.sub(r"[0-9].*", "", said) in prefixes - {""}
                and len(re.sub(r"[^0-9]", "", said)) >= least
            ):
                return token[0]
        # one with other marks between its parts ("NM 10999-1", "NM_10999_1"): the ids' letters,
        # then their groups of digits (so not "Santa Fe, NM 87501")
        for spaced in _spaced_ids(ids).finditer(_skeleton(text)):
            if _canonical_id(spaced[0]) not in canonical:
                return spaced[0]
        # one written without the candidates' letters ("…, 10999-1" or "…, 109991" beside
        # "NM-…" ids), as an item of the list
        digits = {re.sub(r"[^0-9]", "", name) for name in canonical}
        bare = {re.sub(r"^A+\W?", "", _id_pattern(name)) for name in ids} - {
            _id_pattern(name) for name in ids
        }
        for token in _BARE_DIGITS.finditer(_skeleton(text)):
            plain = re.sub(r"[^0-9]", "", token[1])
            if plain in digits or not bare:
                continue
            # of the ids' shape without their letters ("10999-1"), or their digits alone
            if _id_pattern(token[1]) in bare or (
                plain == token[1] and len(plain) in {len(d) for d in digits}
            ):
                return token[1]
    forms = {_name_form(name) for name in known if name.strip()}
    # a bare list of names: every part is a known name or looks like a person's
    parts = [p.strip(" .!*_\"'") for p in re.split(r",|;|\n|\band\b", _skeleton(text))]
    parts = [p for p in parts if p]
    unknown = [p for p in parts if normalize_text(p) not in forms]
    if parts and len(unknown) < len(parts) and all(_PERSON_LIKE.fullmatch(p) for p in unknown):
        return unknown[0] if unknown else ""
    joined = _joined_stranger(text, known, forms)
    if joined:
        return joined
    numbered = [line for line in text.split("\n") if re.match(r"[0-9]{1,2}[.)]\s", line)]
    named = [
        any(f" {f} " in f" {normalize_text(_skeleton(line))} " for f in forms) for line in numbered
    ]
    if sum(named) >= 2:
        for line, names_one in zip(numbered, named, strict=True):
            if not names_one and not _LABELLED.match(line):
                return line.strip()
    return ""


#: What joins the last item of a list written in a sentence: " and ", ", and ", " & " (a
#: comma alone may open an aside: "A and B, Northwind Traders, haven't replied").
_JOINED = r"(?:,?\s+(?:and(?:\s+also)?|plus|as well as)\s+|\s*&\s*)"


def _joined_stranger(text: str, known: Sequence[str], forms: set[str]) -> str:
    """A person's name joined to the known names that is none of them: as the last item of
    their list ("A, B and Bob Kowalski haven't replied"), after "nor" at its clause's end
    ("…, nor has Bob Kowalski."), or, in a list of people, as the first item of a sentence's
    list when it is a person's full name as the worlds write them ("Bob Smith, A & B haven't
    replied"; a sentence's opening words are as often a topic: "For the Budget Review, A and B
    …", "April Roadmap Review, …", and a name before ids their owner's)."""
    marked = unicodedata.normalize("NFKD", _skeleton(text))
    marked = "".join(ch for ch in marked if not unicodedata.combining(ch))
    marked = re.sub(r"\*+|(?<![^\W_])_+|_+(?![^\W_])", "", marked)  # markdown's emphasis
    for form in _longest_first(tuple(known)):
        # the name as normalize_text reads it: any punctuation between its words, "&" for "and"
        words = (r"(?:and|&)" if word == "and" else re.escape(word) for word in form.split())
        name = r"(?<![^\W_])" + r"(?:[^\w]|_)+".join(words) + r"(?![^\W_])"
        marked = re.sub(name, "\x00", marked, flags=re.I)
    person = rf"{_PERSON_LIKE.pattern}|{_TITLED}"
    joined = re.finditer(rf"\x00{_JOINED}({person})", marked)
    nor = (
        m for m in _NOR_HAS.finditer(marked) if _names_a_person(m[1]) or re.fullmatch(person, m[1])
    )
    # (before ids or products, a name is as often their owner's: "Recipient: Grace Nelson, …")
    named = [_names_a_person(_skeleton(name)) for name in known if name.strip()]
    people = sum(named) * 2 > len(named)  # the list is of people, as the worlds name them
    first = (m for m in _LEADING.finditer(marked) if people and _names_a_person(m[1]))
    for match in (*joined, *nor, *first):
        name = match[1]
        if normalize_text(name) not in forms and not _NOT_A_PERSON.fullmatch(name.split()[-1]):
            return name
    return ""


#: One more person said to be in the same case as those named before, as the clause's last
#: words: "…, nor has Bob Kowalski.", "Nor did Dr. Kowalski", "…, nor Bob Kowalski either"
#: (not "nor has Google Calendar logged a tentative").
_NOR_HAS = re.compile(
    r"\b(?:nor|neither)\s+(?:(?:has|have|had|did|does|do|will|would|could|can|should|may"
    r"|might)\s+)?((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+)?[A-Za-z][A-Za-z'-]+(?:\s+[A-Za-z]"
    r"[A-Za-z'-]*){0,2}?)(?=\s*(?:[.,;!?)]|$|\s(?:either|too|yet|so far)\b))",
    re.IGNORECASE,
)
#: A name of two or three words that opens a sentence's list of the known names ("\x00"):
#: "Bob Smith, A & B haven't replied", "Not replied: bob smith, A and B".
_LEADING = re.compile(
    r"(?:^|[.!?:;\n]\s*|\s[-\u2013\u2014]\s*)((?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+[A-Za-z][A-Za-z'-]+"
    r"|[A-Za-z][A-Za-z'-]+(?:\s+[A-Za-z][A-Za-z'.-]+){1,2})\s*,\s*\x00"
)
_TITLES = frozenset(("dr", "mr", "mrs", "ms", "mx", "prof"))


@functools.cache
def _faker_names() -> tuple[frozenset[str], frozenset[str]]:
    """The first and the last names the worlds' people are given (Faker's, of their locale)."""
    from faker.providers.person.en_US import Provider

    first = frozenset(name.lower() for name in Provider.first_names)
    return first, frozenset(name.lower() for name in Provider.last_names)


def _names_a_person(words: str) -> bool:
    """Whether ``words`` name a person as the worlds name theirs: a title and a surname ("Dr.
    Kowalski"), or a first and a last name of the worlds' lists ("Bob Smith", "bob smith"); not
    a first name alone ("nor did Mark"), nor a topic ("April Roadmap Review")."""
    parts = [part.strip(".").lower() for part in words.split()]
    if not parts:
        return False
    first, last = _faker_names()
    if parts[0] in _TITLES:
        return len(parts) == 2 and words.split()[1][:1].isupper()
    return 2 <= len(parts) <= 3 and parts[0] in first and parts[-1] in last


#: A person named by a title or an initial and a surname: "Dr. Kowalski", "B. Kowalski".
_TITLED = r"(?:(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?|[A-Z]\.)\s+[A-Z][a-z'-]+"


#: Words that end a job title or an organisation's name, not a person's ("A and Sales
#: Director", "A and Acme Corp"; "and Chief Bob Kowalski" is a person).
_NOT_A_PERSON = re.compile(
    r"\b(?:director|manager|lead|leader|head|chief|officer|president|vp|engineer|designer"
    r"|developer|analyst|assistant|associate|coordinator|specialist|consultant|intern"
    r"|executive|supervisor|administrator|accountant|representative|rep|owner|founder|partner"
    r"|team|department|dept|office|support|sales|marketing|finance|legal|hr|it|ops|operations"
    r"|inc|corp|corporation|llc|ltd|co|company|group|agency|studio|labs?|university|school"
    r"|hospital|clinic|bank|store|shop|hall|room|center|centre|building|tower|house|lounge"
    r"|theater|theatre|auditorium|lobby|plaza|square|street|avenue|road|lane)\b",
    re.IGNORECASE,
)


def _restates(aside: str, holds: Callable[[str], bool]) -> bool:
    """Whether the number of a bare aside is the answer again ("Seven (7)", "$58.20 (58.20)")."""
    number = re.search(r"[0-9][0-9,.]*[0-9]|[0-9]", aside)
    return number is not None and (holds(number[0]) or holds(f"${number[0]}"))


def _in_a_list(text: str, names: Iterable[str]) -> bool:
    """Whether the answer is given as one item of a list of several ("1. Blue Mug\n2. Green
    Mug"), not as a name with its details listed below it ("Blue Mug:\n- price $5")."""
    lines = text.split("\n")
    items = [line for line in lines if _LIST_ITEM.match(line) and not _LABELLED.match(line)]
    if len(items) < 2:
        return False
    wanted = [normalize_text(_skeleton(n)) for n in names][:1]
    return any(f" {w} " in f" {normalize_text(_skeleton(line))} " for line in items for w in wanted)


#: What other kinds' readers take, blanked before looking for a second number: an order id or
#: a date written beside an amount offers no second amount (a "#5" or a "5th" beside a count
#: does, so those stay for counts and dates).
_TIMES = (_TIME_12, _TIME_24)
#: An id of letters and digits ("NM-10822-3", "APT-40588650"), not an ordinal ("5th"), not a
#: time on the 24-hour clock as written in Europe ("15h45"), not a range's end ("4th-5th").
_ID_TOKEN = re.compile(
    r"\b(?![0-9]+(?:st|nd|rd|th)\b|[0-2][0-9]h[0-5][0-9]\b|-)" + _MIXED_TOKEN.pattern[2:],
    re.IGNORECASE,
)
#: A place by its number ("Room 2", "Gate B4", "Suite 300"): a name, not a value.
_PLACE = re.compile(
    r"\b(?:room|rm|suite|ste|floor|gate|building|bldg|office|desk|table|hall|unit|studio"
    r"|level|lab|platform|zone|booth|court|aisle|dock|bay|terminal)s?\.?\s+#?[0-9]+[A-Za-z]?"
    r"(?:\s*(?:or|and|/|&|-)\s*#?[0-9]+[A-Za-z]?)?\b",
    re.IGNORECASE,
)
_OTHER_KINDS: dict[str, tuple[re.Pattern[str], ...]] = {
    "money": (*_DATES, _YEAR_ALONE, *_TIMES, _PHONE, _HASH_ID, _ID_TOKEN, _ORDINAL, _PLACE),
    "number": (*_DATES, _YEAR_ALONE, *_TIMES, _PHONE, _ID_TOKEN, _PLACE),
    "date": (*_TIMES, _PHONE, _HASH_ID, _ID_TOKEN, _PLACE),
    "time": (*_DATES, _PHONE, _HASH_ID, _ID_TOKEN, _PLACE),
    "phone": (*_DATES, *_TIMES, _HASH_ID, _ID_TOKEN, _PLACE),
    "identifier": (*_DATES, *_TIMES, _PHONE, _PLACE),
}


#: "One" as a pronoun, after a determiner: "look up another one", "the one you bought", "which
#: one" (no number).
_PRONOUN_ONE = re.compile(
    r"(?<!\bor )(?<!\bor just )(?<!\bor only )(?<!\bor maybe )"
    r"\b(?:another|any|each|every|no|the|this|that|which|some|other|same|right|wrong|last"
    r"|next|latest|new|old|older|newer|only|a\s+new|a\s+different)\s+one\b"
    r"|\bone-(?:star|time|way|off|stop|click|day|size)\b",
    re.IGNORECASE,
)


def _offers_another_number(text: str, kind: str) -> bool:
    """Whether an "or", "either", a guess ("maybe", "possibly"…) or a spaced slash stands
    between two numbers of any form: "$58.20 or maybe 58.62", "2, maybe three", "4 (possibly
    #5)", "March 11 / 12th". A second candidate written in a form
    the kind's reader passes over is a hedge all the same."""
    text = _blank(_skeleton(text), _PRONOUN_ONE)
    if kind == "money":  # (not "$5.00 - 10:15 AM", "$58.20 - 2026-03-05")
        bare = _blank(text, *_DATES, *_TIMES, _PHONE)
        if any(_rises(match[1], match[2]) for match in _MONEY_RANGE.finditer(bare)):
            return True
    for pattern in _OTHER_KINDS.get(kind, ()):  # an order id or a date beside an amount
        text = _blank(text, pattern)
    if kind == "date" and _DAY_RANGE.search(text):
        return True
    # (a range of prices beside a count is none of the count's: "26, from $18.00 to $99.49")
    ranged = {"date": _DATES, "number": (_PRICE_RANGE,)}.get(kind, ())
    if _RANGE.search(_blank(text, *ranged)):
        return True
    parts = _OFFER.split(text)  # as written: a slash and a numeral's case matter here
    return sum(bool(_NUMBER_LIKE.search(part)) for part in parts) > 1


#: Words that make a value beside them one under a condition, offered beside the answer:
#: "22 with shipping", "283 if the tip counts", "XL counting hidden ones", "plus one if the lunch
#: slot opens", "the day after if it was placed late".
_CONDITION_WORDS = (
    r"if|with|counting|including|incl|plus|when|once|unless|otherwise|depending|excluding"
    r"|without|minus|assuming|provided|except|adding|in case"
)
_CONDITION = re.compile(rf"\b(?:{_CONDITION_WORDS})\b|\bw/", re.IGNORECASE)
#: What makes a rate another candidate all the same: a condition, another moment or source,
#: doubt, an offer ("$45.00 per item if shipping counts", "under the old limit, $1,200.00 a
#: night", "Other total I saw: $45.00 per person").
_RATE_OFFERED = re.compile(
    rf"{_OFFER.pattern}|{_CONDITION.pattern}|{_UNSURE.pattern}|\b(?:would|could|might|was|were"
    r"|used to|old|older|previous|previously|earlier|before|other|another|also|saw|seen|showed"
    r"|got|instead|otherwise|else)\b",
    re.IGNORECASE,
)
#: Words after a ruled-out value that bring it back under a condition or with doubt.
_RULED_OUT_UNLESS = re.compile(
    rf"{_OFFER.pattern}|{_CONDITION.pattern}|{_UNSURE.pattern}|\b(?:though|but|except|when)\b|\?",
    re.IGNORECASE,
)
#: A number as a reader counts them: one run of digits, a number word, a Roman numeral.
_NUMBER_TOKEN = re.compile(r"[0-9](?:[0-9,.]*[0-9])?|" + _NUMBER_LIKE.pattern.removeprefix("\\d|"))
#: Words that make a bracket or a tail offer, doubt, condition, rank, report or approximate
#: rather than break down (the report words are those of :data:`_REPORTED` a breakdown does
#: not use: "5 shipped, 2 delivered" breaks a count down).
_NOT_A_BREAKDOWN = re.compile(
    rf"{_GUESS.pattern}|{_UNSURE.pattern}|{_CONDITION.pattern}|{_EXCEPTION.pattern}|\bor\b"
    rf"|{_RANKED.pattern}|\b(?:another|more|all\s+told|in\s+all|altogether|total)\b"
    r"|\b(?:was|were|says?|said|shows?|showed|reads?|lists?|states?|after)\b"
    r"|\b(?:about|around|approximately|roughly|nearly|almost|over|under|~)\s*\$?[0-9]",
    re.IGNORECASE,
)
_SPELLED_ANY = f"(?:{SPELLED.pattern})"
#: A number in one or two words ("three", "twenty-one"): what a relative value is counted in;
#: bounded, so that a long run of number words is read once, not once from each of its words.
_FEW_WORDS = (
    r"\b(?:" + "|".join((*_WORDS, *_MORE_WORDS[:8])) + r")(?:-(?:one|two|three|four|five"
    r"|six|seven|eight|nine))?\b"
)
_UNIT = (
    r"(?:days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|bucks|dollars?|cents?"
    r"|nights?|business\s+days?)"
)
_DIRECTION = (
    r"(?:later|earlier|sooner|more|less|fewer|extra|additional|cheaper|higher|lower|on\s+top)"
)
#: A value offered relative to the answer: "one more", "a day later", "a couple bucks more",
#: "the day after", "the next day", "plus one", "another one", "a baker's dozen".
_RELATIVE = (
    rf"\b(?:a|an|a\s+few|a\s+couple(?:\s+of)?|half\s+an?)\s+{_UNIT}\s+{_DIRECTION}\b"
    rf"|\b(?:a\s+few|a\s+couple(?:\s+of)?|a\s+fiver|a\s+tenner|{_FEW_WORDS}"
    rf"|[0-9]+(?:\.[0-9]+)?)\s+(?:{_UNIT}\s+)?{_DIRECTION}\b"
    r"|\b(?:the\s+)?(?:day|week|month|night|morning|evening)\s+(?:after|before)\b"
    r"|\b(?:the\s+)?(?:next|following|previous|prior|preceding)\s+(?:day|week|month|morning"
    r"|evening|one|business\s+day)\b"
    rf"|\bplus\s+(?:{_FEW_WORDS}|[0-9]+)"
    rf"|\banother\s+(?:{_FEW_WORDS}|[0-9]+)"
)
#: What may be a second value of a number-like kind, read leniently: a value relative to the
#: answer, a dozen, digits (an ordinal too: "the 5th"), number words, a Roman numeral.
_LOOSE_VALUE = re.compile(
    rf"(?P<rel>{_RELATIVE})"
    r"|(?P<dozen>\b(?:a\s+)?(?P<baker>baker'?s\s+)?dozen(?:\s+and\s+(?P<odd>one|a\s+half))?\b"
    rf"|\b(?:(?P<scores>{_FEW_WORDS}|a)\s+)?score(?:\s+and\s+(?P<over>{_FEW_WORDS}))?\b)"
    r"|(?P<num>(?<![\w.,])\$?[0-9]+(?:[.,:][0-9]+)*(?:st|nd|rd|th)?(?![\w]|[.,:][0-9]))"
    rf"|(?P<word>{_SPELLED_ANY})"
    r"|(?P<roman>\b(?:[IVXLCDM]{2,}|[ivxlcdm]{2,})\b)",
    re.IGNORECASE,
)
_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
#: What an offered value is followed by: the end of its clause, a condition, a unit of money.
_ALT_FOLLOW = re.compile(
    rf"\s*(?:$|[.,;:!?)\]\"'*]|-(?![0-9])|(?:{_CONDITION_WORDS}|more|less|fewer|extra|later|earlier"
    r"|sooner|instead|total|in\s+total|altogether|overall|all\s+told|then|dollars?|bucks|usd"
    r"|cents|now|or|after|before|post|pre|all[\s-]+in|out\s+the\s+door)\b"
    r"|(?:shipped|delivered)\b(?!\s+(?:[a-z]+\s+)?(?:orders?|items?|packages?|parcels?|boxes"
    r"|products?|purchases?|ones)\b)"  # "$22 delivered", not "Two delivered orders"
    r"|w/)",
    re.IGNORECASE,
)
#: What names a number for what it is, right before it: an order's, a card's, a room's number.
_ALT_LABEL = re.compile(
    r"(?:\b(?:order|invoice|receipt|ticket|case|ref|reference|account|acct|confirmation|item"
    r"|page|line|row|seat|flight|code|version|step|part|chapter|no|number|nr|zip|box|ext"
    r"|extension|apt|unit|room|suite|ste|gate|platform|floor|id|sku|model|card|visa|mastercard"
    r"|amex|ending(?:\s+in)?|ends(?:\s+in|\s+with)?|size|sizes|qty|quantity|pack|of\s+the"
    r"|among\s+the|both|all|volume|vol|issue|edition|build|release|week|sprint|session"
    r"|section|form|policy|claim|request|incident|booking|transaction|po|store|track|stop"
    r"|door|pier|counter|lot|channel|bus|route|exit|locker|passcode|pin|isbn)|[#*x])"
    r"\s*[:#.]?\s*$",
    re.IGNORECASE,
)
_YEAR_BEFORE = re.compile(
    r"\b(?:in|since|from|until|till|of|year|during|by|before|after|through)\s+$", re.IGNORECASE
)
#: A count offered beside the answer relative to it: "one more in the archive", "plus 2",
#: "another one"; not "3 more than last week", "one more thing".
_MORE_COUNT = re.compile(
    rf"\b(?:{_FEW_WORDS}|[0-9]+|a\s+few|a\s+couple(?:\s+of)?)\s+(?:more|extra|additional"
    r"|fewer|less)\b(?!\s+(?:than|thing|things|question|questions|time|times|note|notes"
    r"|detail|details|step|steps|minute|minutes|seconds?|days?|moment)\b)"
    rf"|\bplus\s+(?:{_FEW_WORDS}|[0-9]+)\b|\banother\s+(?:one|{_FEW_WORDS}|[0-9]+)\b"
    r"|(?<![\w+])\+\s?[0-9]+\b",
    re.IGNORECASE,
)
#: Another phone number or id told by its last digits: "the same but ending in 10", "the one
#: ending 85", "last two digits 10".
_ENDING = re.compile(
    r"\b(?:end(?:s|ing)?|finish(?:es|ing)?)(?:\s+(?:in|with))?\s+(?:an?\s+)?(?P<tail>[0-9]{1,6})\b"
    r"|\blast\s+(?:digit|digits|two|three|four|number)\b[^.;]{0,24}?\b(?P<last>[0-9]{1,4})\b",
    re.IGNORECASE,
)
_CARD = re.compile(r"\b(?:card|visa|mastercard|amex|account|acct|debit|credit)\b[^.;]{0,16}$", re.I)


def _loose_number(match: re.Match[str]) -> Decimal | None:
    """The number a :data:`_LOOSE_VALUE` match names, if it names one on its own."""
    if match["num"]:
        digits = re.sub(r"(?:st|nd|rd|th)$", "", match["num"].lstrip("$"), flags=re.I)
        return _decimal(digits) if ":" not in digits else None
    if match["dozen"] and "dozen" in match["dozen"].lower():
        odd = (match["odd"] or "").lower()
        return None if "half" in odd else Decimal((13 if match["baker"] else 12) + (odd == "one"))
    if match["dozen"]:  # "three score and one"
        scores = 1 if match["scores"] in (None, "a", "A") else spelled_value(match["scores"])
        over = spelled_value(match["over"]) if match["over"] else 0
        return None if scores is None or over is None else Decimal(20 * scores + over)
    if match["word"]:
        number = spelled_value(match["word"])
        return None if number is None else Decimal(number)
    return None


#: Per kind, the values :func:`_alternative_value` passes over as the answer's own kind read
#: strictly (the other readers already count a second one of them), and percentages.
_OWN_VALUES: dict[str, tuple[re.Pattern[str], ...]] = {
    "money": (_MARKED_MONEY, _SPELLED_MONEY, _RATING, _TALLY),
    "number": (_MARKED_MONEY, _RATING),
    "date": _DATES,
    "time": _TIMES,
    "phone": (_PHONE,),
    "identifier": (_MIXED_TOKEN,),
}
_PERCENT = re.compile(r"[0-9.,]+\s?(?:%|percent\b)", re.IGNORECASE)
#: Beside an amount, a date or a time, what reports another value as the answer's kind like a
#: condition does: another source's or another moment's ("$19.23 (was 22)", "(the receipt says
#: 22)", "(22 after tax)", "(22 w/ shipping)", "2:30 PM (the invite shows 3)").
_REPORTED_KINDS = frozenset({"money", "date", "time"})
#: Where a value is read: "according to Ann", "on the receipt", "as per the e-mail", "in Ann's
#: original invite".
_SOURCE_NOUN = (
    r"(?:(?:the|my|your|their|his|her|[A-Z][\w-]*'s)\s+)?(?:[\w-]+\s+)?(?:receipt|invoice"
    r"|statement|bill|e-?mail|message|reply|attachment|confirmation|order\s+(?:page"
    r"|confirmation|history)|web\s?site|site|page|card|app|calendar|invite|invitation"
    r"|subject(?:\s+line)?|packing\s+slip|note|letter|listing|portal|account|ticket|form)"
)
_SOURCE = (
    r"according\s+to|(?:as\s+)?per\s+(?-i:[A-Z][a-z]+)"
    rf"|(?:(?:as\s+)?per|from|on|in)\s+{_SOURCE_NOUN}"
)
#: A source named as a label at the start of an aside or a clause, right before a value: "2:30
#: PM (Ann's invite: 3)", "$41.37 (receipt: 44)", "$41.37; the e-mail: 44".
_SOURCE_LABEL = re.compile(rf"{_SOURCE_NOUN}[*_]*\s*[:=]\s*$", re.IGNORECASE)
#: What may come between the start of a clause or a mark and a source's label: "(but Ann's
#: invite: 3)", ", per the e-mail: 44".
_LABEL_LEAD = re.compile(
    r"\s*(?:(?:but|though|yet|or|and)\s+)?(?:(?:(?:as\s+)?per|from|on|in|according\s+to)\s+)?$",
    re.IGNORECASE,
)
_MARK = re.compile(r"[(\[,;\u2014\u2013-]")


def _label_leads(text: str, begin: int, at: int) -> bool:
    """Whether a label at ``at`` begins its clause (from ``begin``) or follows a mark, with
    only :data:`_LABEL_LEAD`'s words between."""
    lead = _LABEL_LEAD.search(text, max(begin, at - 40), at)
    if lead is None:
        return False
    return (
        lead.start() == begin or _MARK.fullmatch(text, lead.start() - 1, lead.start()) is not None
    )


_CLAUSE_TAIL = re.compile(r"[*_\"'\u201d\u2019\s]*(?:[.!?,;)\]]|$)")


def _source_label(text: str, begin: int, match: re.Match[str]) -> bool:
    """Whether the value ``match`` is all a clause or an aside (from ``begin``) says after a
    source's name as its label (:data:`_SOURCE_LABEL`): "(invite: 3)", not "(invite: 3
    people)"."""
    start = match.start()
    label = _SOURCE_LABEL.search(text, max(begin, start - 60), start)
    return (
        label is not None
        and _label_leads(text, begin, label.start())
        and _CLAUSE_TAIL.match(text, match.end()) is not None
    )


#: What opens an aside right before a value: a mark ("$41.37 (44 on the receipt)", "$41.37,
#: 44 per the e-mail"), and a word that turns to it ("2:30 PM, but 3 in the invite"); not a
#: label's colon ("Attendees: 3 per the invite" counts attendees).
_ASIDE_MARK = re.compile(
    r"(?:[,(\[;\u2014\u2013-]|(?<![A-Za-z]):)\s*(?:(?:but|though|yet|or|and)\s+)?$"
)
_ASIDE_WORD = re.compile(r"\s*(?:(?:but|though|yet|or|and)\s+)?")


def _opens_aside(text: str, begin: int, start: int) -> bool:
    """Whether the value at ``start`` opens an aside (:data:`_ASIDE_MARK`), or the clause
    that begins at ``begin``; only the few characters before it are read (a long clause is
    read once, not once per value)."""
    if _ASIDE_MARK.search(text, max(begin, start - 24), start):
        return True
    return start - begin <= 24 and _ASIDE_WORD.fullmatch(text, begin, start) is not None


#: Another stage of an order or a message, said of it in the passive: "it was delivered a few
#: days later" tells the delivery's time, not a second one of the asked event's.
_OTHER_STAGE = r"(?:delivered|shipped|dispatched|returned|refunded)"
_REPORTED = re.compile(
    rf"\b(?:was|were)\b(?!\s+{_OTHER_STAGE}\b)"
    r"|\b(?:used to be|says?|said|shows?|showed|shown|reads?|lists?|listed|states?"
    r"|stated|after|all[\s-]+in|out\s+the\s+door)\b"
    r"|(?<!\bwas\s)(?<!\bwere\s)(?<!\bbeen\s)(?<!\bgot\s)\b(?:shipped|delivered)\b",
    re.IGNORECASE,
)
_SOURCES = re.compile(rf"\b(?:{_SOURCE})\b", re.IGNORECASE)
#: What follows a value reported as a source's: "(44 on the receipt)", "(3 in the e-mail)", "(44
#: says the receipt)". Only a value that opens an aside is read so (:func:`_opens_aside`): "2:30
#: PM on Thursday the 6th on the calendar" names a day, not another time.
_REPORTED_FOLLOW = re.compile(
    rf"\s*(?:{_SOURCE}|says?|said|shows?|showed|reads?|lists?|listed|states?|stated)\b",
    re.IGNORECASE,
)


#: A day of the month alone, right after a date or as a sentence of its own: "(the 11th)",
#: "The 11th." (not "your 2nd order", "it arrived on the 14th", "not the 13th").
_BARE_DAY = re.compile(
    r"(?:(?<=[0-9])\s*[,(\u2014\u2013-]\s*|(?:^|(?<=[.!?])\s+|\n)\s*)"  # after a date, or alone
    r"the\s+([0-9]{1,2})(?:st|nd|rd|th)\b(?=\s*(?:[.,;:!?)\]*_-]|$|of the month\b))",
    re.IGNORECASE,
)


_WEEKDAY_NAME = (
    r"(monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thur|thu|friday|fri|saturday"
    r"|sat|sunday|sun)\.?"
)
#: A weekday written beside a date, as its own: "(Monday)", "[Mon]", "Monday, February 10",
#: "Mon 10 Feb", "Monday the 10th", "February 10, 2026, a Monday".
_ATTACHED_WEEKDAY = re.compile(
    rf"[(\[]\s*(?:a\s+|on\s+)?\b{_WEEKDAY_NAME}\s*[)\]]"
    rf"|\b{_WEEKDAY_NAME},?\s+(?:the\s+)?"
    r"(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s|[0-9])"
    rf"|(?<=[0-9]),\s+(?:a\s+|on\s+a\s+)?\b{_WEEKDAY_NAME}(?!\w)",
    re.IGNORECASE,
)


def _wrong_weekday(text: str, day: date) -> str:
    """A weekday written beside the date given that is not that date's: "February 10, 2026
    (Monday)", where February 10, 2026 is a Tuesday, names two days."""
    for match in _ATTACHED_WEEKDAY.finditer(text):
        name = next(group for group in match.groups() if group)
        if name[:3].lower() != f"{day:%a}".lower():
            return f"{match[0].strip()!r} is another day ({day:%B %-d, %Y} is a {day:%A})"
    return ""


#: A bare number in brackets beside a date or a time: "October 9 (10)", "3:30 PM [4]": a
#: second day or hour offered ("(the 10th)" is read beside the date's own day: _BARE_DAY).
_BRACKETED_NUMBER = re.compile(r"[(\[]\s*[0-9]{1,2}\s*(?:[ap]\.?m\.?)?\s*[)\]]", re.IGNORECASE)


def _alternative_value(text: str, kind: str, value: Any) -> str:
    """What offers a second value of the answer's kind beside it under a condition or relative
    to it (empty if nothing does): "$19.23 (22 with shipping)", "5 (one more counting the
    archive)", "March 4 (the day after if it was placed late)", "7, plus one", "(928)
    555-3408 (the other line ends in 10)"; for an amount, a date or a time, one reported as
    another source's or moment's too ("$19.23 (was 22)", "2:30 PM (the invite says 3)"). An
    "if" or a "with" far from any such value ("Let me know if you need anything else"), and a
    number labelled as another kind's ("order 1042", "the Visa ending 4242", "3 items", "size
    10"), offer nothing."""
    if kind == "date" and isinstance(value, date):
        for day in _BARE_DAY.finditer(_skeleton(text)):  # "September 1, 2026 (the 11th)"
            if int(day[1]) != value.day:
                return f"{day[0].strip(' ,(-')!r} offers another day"
    # The answer's own kind first, whole ("2:30pm" is a time, not 2 and an identifier).
    text = _skeleton(text)
    if kind == "time":  # a whole hour on the European clock ("16h") is a number, not an id
        text = _HOUR_ONLY.sub(lambda m: m[1] + " ", text)
    anchors = _anchors(text, kind, value)
    text = _blank(text, *_OWN_VALUES.get(kind, ()), _PERCENT)
    for pattern in _OTHER_KINDS.get(kind, ()):
        text = _blank(text, pattern)
    if kind in ("phone", "identifier"):
        tail = str(value)
        for match in _ENDING.finditer(text):
            digits = match["tail"] or match["last"]
            card = _CARD.search(text[max(0, match.start() - 40) : match.start()])
            if not card and not tail.endswith(digits):  # not "the Visa ending 4242"
                return f"{match[0].strip()!r} offers another"
    if kind == "phone":  # another number, its digits written out: "242 five five five 4310"
        digits = re.sub(
            r"\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b",
            lambda m: _DIGIT_WORDS.get(m[0].lower(), "0"),
            text,
            flags=re.IGNORECASE,
        )
        run = re.search(r"[0-9](?:[\s.()-]{0,3}[0-9]){6,}", digits)
        if run:
            return f"{run[0].strip()!r} offers another number"
    if kind == "number":
        for sentence in _sentences(text):
            if sentence.rstrip().endswith("?"):
                continue
            found = _MORE_COUNT.search(sentence)
            if found:
                return f"{found[0].strip()!r} offers another count"
    cuts = [0, *(i for m in _ASIDE_END.finditer(text) for i in m.span()), len(text)]
    listed = _listed_value(text, anchors, kind, value)
    if listed:
        return listed
    for begin, stop in zip(cuts[::2], cuts[1::2], strict=True):
        said = list(_CONDITION.finditer(text, begin, stop))
        conditions = [m.span() for m in said]
        company = {m.span() for m in said if _with_a_person(m)}
        sources = []
        reported = kind in _REPORTED_KINDS
        if reported:
            conditions += [m.span() for m in _REPORTED.finditer(text, begin, stop)]
            sources = [m.span() for m in _SOURCES.finditer(text, begin, stop)]
        if not conditions and not sources and not (reported and ":" in text[begin:stop]):
            continue
        for match in _LOOSE_VALUE.finditer(text, begin, stop):
            if not _offered(text, match, kind, value, stop, begin):
                continue
            start, end = match.span()
            if reported and _source_label(text, begin, match):
                return f"{match[0].strip()!r} after a source's label offers another"
            # A source offers a value that opens an aside ("$41.37 (44 on the receipt)"), not
            # one a sentence runs on to ("2:30 PM on Tuesday the 4th, per the invite").
            aside = _opens_aside(text, begin, start)
            for c_start, c_end in conditions + (sources if aside else []):
                if (c_start, c_end) in company and _ONE_OF_A_SERIES.fullmatch(match[0].strip()):
                    continue  # "the next one with Megan Simon" (but "22 with Megan" is one)
                gap = text[min(end, c_end) : max(start, c_start)]
                if (c_start < end and start < c_end) or len(gap.split()) <= 3:
                    return f"{match[0].strip()!r} beside {text[c_start:c_end]!r} offers another"
    return ""


#: A meeting of a series named relative to another, no value of its own: "the next one".
_ONE_OF_A_SERIES = re.compile(
    r"(?:the\s+)?(?:next|last|following|previous|upcoming)\s+one", re.IGNORECASE
)


def _with_a_person(match: re.Match[str]) -> bool:
    """Whether a condition's word is a "with" before a person's name: company, not a condition,
    after "the next one" (:data:`_ONE_OF_A_SERIES`; "22 with Megan Simon" is a condition)."""
    if match[0].lower() != "with":
        return False
    words = re.sub(r"[^\w\s.'-]", " ", match.string[match.end() : match.end() + 60]).split()
    return any(_names_a_person(" ".join(words[:n])) for n in (2, 3))


#: Per kind, the writings of a value of the answer's own kind a list may be joined to.
_LISTED_BESIDE: dict[str, tuple[re.Pattern[str], ...]] = {
    "money": (_MARKED_MONEY, _SPELLED_MONEY),
    "date": _DATES,
    "time": _TIMES,
}
#: What joins two values of a list: "$58.20, LXI", "12 and XIII", "March 4 & 5", "$58.20 /
#: sixty-one", "3:30 PM, or 4".
_LIST_JOIN = re.compile(
    r"[*_`'\"\u201c\u201d\s]*(?:[,;&/+|]\s*)?"
    r"(?:\b(?:and|or|then|and\s+then|plus|as\s+well\s+as|alongside)\b\s*)?[*_`'\"\u201c\u201d$]*",
    re.IGNORECASE,
)
#: What a value listed beside the answer is not: the start of a range ("March 4, 2-4 PM"),
#: a clothing size ("$58.20, XL"), a year ("3:30 PM, 2026"), minutes ("3:30 PM, 45'").
_NOT_LISTED = re.compile(r"\s*[-~]")
_EMPHASIS = re.compile(r"[*_`]")
_HOUR_ONLY = re.compile(r"(?<![A-Za-z0-9:])([01][0-9]|2[0-3])h(?![A-Za-z0-9])")
_LIST_END = re.compile(r"(?<=[.!?])\s+|\n+")
_SIZE_OR_YEAR = re.compile(r"X{0,3}L|X{1,3}S|(?:19|20)[0-9]{2}", re.IGNORECASE)


def _anchors(text: str, kind: str, value: Any) -> list[tuple[int, int]]:
    """Where ``text`` writes a value of the answer's kind (for a number, the answer itself):
    what a second value may be listed beside."""
    if kind == "number":
        return [
            m.span() for m in _PLAIN_NUMBER.finditer(text) if _decimal(m[0].lstrip("-")) == value
        ]
    return sorted(m.span() for p in _LISTED_BESIDE.get(kind, ()) for m in p.finditer(text))


def _listed_value(text: str, anchors: Sequence[tuple[int, int]], kind: str, value: Any) -> str:
    """A value listed right beside a value of the answer's kind, written in a form its
    reader passes over (empty if none is): "$58.20 and sixty one", "$58.20, $LXI", "$58.20
    and 61,00", "12 and XIII", "March 4, 5", "$58.20; 61". ``text`` has the answer's kind
    blanked; ``anchors`` are where it was. A list runs to the end of its sentence or line."""
    if kind not in ("money", "number", "date", "time") or not anchors:
        return ""
    text = _EMPHASIS.sub(" ", text)  # "**12** and **XIII**": no "*" labels a value here
    cuts = [0, *(i for m in _LIST_END.finditer(text) for i in m.span()), len(text)]
    starts, ends = sorted(a for a, _ in anchors), sorted(b for _, b in anchors)
    for begin, stop in zip(cuts[::2], cuts[1::2], strict=True):
        for match in _LOOSE_VALUE.finditer(text, begin, stop):
            start, end = match.span()
            quoted = match["num"] and "'" in (text[start - 1 : start], text[end : end + 1])
            if (
                quoted  # a year written short ("March 4, '26"), minutes ("3:30 PM, 45'")
                or _NOT_LISTED.match(text, end)
                or _SIZE_OR_YEAR.fullmatch(match[0].strip().lstrip("$"))
                or (kind == "money" and _restated_in_cents(text, match, value))
            ):
                continue
            after = bisect.bisect_right(ends, start) - 1  # the last value ending before it
            listed = (
                after >= 0
                and ends[after] >= begin
                and _joins(text, ends[after], start)
                and _offered(text, match, kind, value, stop, begin)
            )
            # Or before one, in words, as a Roman numeral or with decimals ("sixty one and
            # $58.20"); a number in digits before a value tells another thing ("Day 2, 3:30 PM",
            # "Wednesday the 4th, 3:30 PM", a table's "| 2 | $58.20 |").
            nxt = bisect.bisect_left(starts, end)
            listed = listed or (
                _written_out(match)
                and nxt < len(starts)
                and starts[nxt] <= stop
                and _joins(text, end, starts[nxt])
                and _offered(text, match, kind, value, end, begin)  # its clause ends there
            )
            if listed:
                return f"{match[0].strip()!r} listed beside it offers another"
    return ""


def _written_out(match: re.Match[str]) -> bool:
    """Whether a :data:`_LOOSE_VALUE` match is a number in words (not an ordinal), a Roman
    numeral, or digits with a decimal mark ("61,00")."""
    if match["word"]:
        return not is_ordinal(match["word"])
    return bool(match["roman"]) or bool(match["num"] and re.search(r"[0-9][.,][0-9]", match["num"]))


def _joins(text: str, begin: int, end: int) -> bool:
    """Whether ``text[begin:end]`` is all a list's join (:data:`_LIST_JOIN`), not bare space."""
    join = _LIST_JOIN.fullmatch(text, begin, end)
    return join is not None and bool(join[0].strip())


def _restated_in_cents(text: str, match: re.Match[str], value: Any) -> bool:
    """Whether ``match`` is the amount ``value`` again, in cents: "$58.20 and 5820 cents"."""
    cents = re.match(r"\s*cents?\b", text[match.end() : match.end() + 8], re.IGNORECASE)
    return cents is not None and _loose_number(match) == value


#: What says a value is the thing's own, right before it: "(it was a day later on the receipt)".
_IT_WAS = re.compile(r"\b(?:it|that|this|which|they)\s*(?:was|were|is|are|'s|'re)\s+$", re.I)


def _offered(
    text: str, match: re.Match[str], kind: str, value: Any, stop: int, begin: int = 0
) -> bool:
    """Whether the :data:`_LOOSE_VALUE` ``match`` in ``text`` (in the clause from ``begin`` to
    ``stop``) stands as a value of its own: not the answer again, not labelled as another
    kind's ("ext. 12", "order 1042"), not counting a thing ("3 other people"), not another
    thing's (:func:`_of_another_thing`)."""
    before = text[max(0, match.start() - 30) : match.start()]
    if not match["rel"] and _ALT_LABEL.search(before):
        return False
    if (
        match["num"]
        and ":" in match["num"]
        and (kind != "time" or not re.fullmatch(r"[0-9]{1,2}:[0-9]{2}", match["num"]))
    ):
        return False  # a ratio ("your next 1:1 with Ann"), or a clock time beside no time
    if not _ALT_FOLLOW.match(text, match.end(), stop) and not (
        kind in _REPORTED_KINDS
        and (
            (
                _REPORTED_FOLLOW.match(text, match.end(), stop)
                and (_opens_aside(text, begin, match.start()) or _IT_WAS.search(before))
            )
            or _source_label(text, begin, match)
        )
    ):
        return False
    lead = text[max(begin, match.start() - 100) : match.start()]  # its patterns read the end
    if _of_another_thing(" ".join(lead.split()), match, kind, value):
        return False
    if match["roman"]:
        word = match["roman"]
        if not (word.isupper() or word.islower()) or not _ROMAN.fullmatch(word.upper()):
            return False
        lead = before.rstrip()
        if word.islower() and lead and lead[-1].isalnum():
            return False  # a lower-case "mix" or "ml" in a sentence is a word
        # Part of a name ("Harbor Tote XL"), a thing ("the XL", "a CD"): no numeral.
        thing = re.search(r"(?:[A-Z][\w'&-]*|\b(?i:the|a|an|my|your|this|that|per|of))\s*$", before)
        return not thing and bool(re.search(r"[IVXivx]", word))
    if match["word"]:
        word = match["word"].lower()
        if word in {"first", "second", "zeroth"} or (
            word == "one" and re.search(r"[\w'$]\s*$", before)
        ):
            return False  # "the latest one with a PDF", "the first one"
    number = _loose_number(match)
    if number is not None:
        year = match["num"] and re.fullmatch(r"(?:19|20)[0-9]{2}", match["num"])
        if year and _YEAR_BEFORE.search(before):
            return False  # "in 2025"
        if kind == "money" and number * 100 == value:
            return False
        if kind == "number" and number == value:
            return False
        if kind == "date" and isinstance(value, date) and number == value.day:
            return False
    return True


#: Before a number beside an amount or a count, what makes it a clock time: "when I checked
#: at 9"; not after another value ("40 at 9 if discounted").
_AT_HOUR = re.compile(r"\bat$", re.IGNORECASE)
_VALUE_AT = re.compile(rf"(?:[0-9]|\b{_SPELLED_ANY}|\bdozen|\bscore)\s*at$", re.IGNORECASE)
#: Before a small whole number beside an amount, what makes it a count of things bought:
#: "$41.37 for 1", "if you want to buy 2", "shipping is free with 2".
_QUANTITY_BEFORE = re.compile(
    r"\b(?:for|buy|buying|bought|order|ordering|get|getting|add|adding|take|taking|with)$",
    re.IGNORECASE,
)
#: Before a value beside a date or a time, another event it belongs to: "with a reminder 1
#: day before", "with a 15-minute break at 3"; not a delay of the answer's own ("with a delay
#: at 3", "with the later slot at 3").
_EVENT_BEFORE = re.compile(r"\bwith (?:a|an|the)((?: [\w'-]+){1,4})$", re.IGNORECASE)
_NOT_AN_EVENT = re.compile(
    r"\b(?:delay\w*|late\w*|earl\w*|soon\w*|resched\w*|mov\w*|push\w*|postpon\w*|shift\w*"
    r"|traffic|extra|additional|more|less|backup|fallback|alternat\w*|other|another|second"
    r"|option|options|choice|slot|slots|plan|start|time|date|day|deadline|cutoff|shipping"
    r"|delivery|rush|express)\b",
    re.IGNORECASE,
)


def _of_another_thing(lead: str, match: re.Match[str], kind: str, value: Any) -> bool:
    """Whether the :data:`_LOOSE_VALUE` ``match``, after ``lead`` (the words of its clause
    before it), is another thing's value than a second one of the answer's kind: a clock time
    beside an amount or a count ("$41.37 when I checked at 9"), a count of things bought beside
    an amount, much less than it ("$41.37 for 1", "free with 2"), the time or the day of
    another event beside a time or a date ("2:30 PM, with a 15-minute break at 3", "March 4
    (with a reminder 1 day before)"). A bare "3" beside a 2:30 PM answer is another time
    all the same ("2:30 PM (3 if delayed)", "2:30 PM (at 3 if delayed)")."""
    number = _loose_number(match)
    plain = bool(match["word"] or (match["num"] and match["num"].isdigit()))
    if number is not None and plain and number == number.to_integral_value():
        # an amount a second price could be: within half and twice the answer
        near = kind == "money" and value / 2 <= number * 100 <= value * 2
        at_hour = _AT_HOUR.search(lead) and not _VALUE_AT.search(lead)
        if kind in ("money", "number", "date") and at_hour and 1 <= number <= 12 and not near:
            return True
        if kind == "money" and _QUANTITY_BEFORE.search(lead) and number * 200 <= value:
            return True
    if kind in ("date", "time"):
        event = _EVENT_BEFORE.search(lead)
        if event and not _NOT_AN_EVENT.search(event[1]):
            return True
    return False


#: Words that name nothing by themselves, passed over in telling a name named in part.
_NAME_GLUE = frozenset(
    {"the", "a", "an", "of", "and", "for", "with", "in", "on", "to", "by", "or", "s", "is", "it"}
)


def _partly_named(text: str, named: Iterable[str], candidates: Iterable[str]) -> str:
    """A candidate named in part beside the answer's own ``named`` names ("the Unisex Classic
    Oxford Shirt" for "Harbor & Pine Unisex Classic Oxford Shirt", a list's extra "Motion
    Adventure Yoga Mat" with the brand dropped), or "": two of its words in a row outside the
    answer's names, at least one of them not a word of those names; or, for an id, its number
    of five digits or more alone ("86013-8" for NM-86013-8)."""
    words: list[str | None] = list(normalize_text(_skeleton(text)).split())
    own: set[str] = set()
    wanted = [normalize_text(_skeleton(name)).split() for name in named]
    for want in sorted(wanted, key=len, reverse=True):
        own.update(want)
        size = len(want)
        for i in range(len(words) - size + 1):
            if size and words[i : i + size] == want:
                words[i : i + size] = [None] * size
    pairs = set(pairwise(words))
    left = set(words)
    for candidate in candidates:
        name = normalize_text(_skeleton(candidate)).split()
        if name in wanted:
            continue
        for pair in pairwise(name):
            if any(w in _NAME_GLUE or len(w) < 2 for w in pair) or set(pair) <= own:
                continue
            if pair in pairs:
                return candidate
        if any(w.isdigit() and len(w) >= 5 and w not in own and w in left for w in name):
            return candidate
    return ""


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

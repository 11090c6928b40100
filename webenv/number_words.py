"""Numbers written in English words: "sixty-one", "one hundred and five", "the fifth".

The answer grader reads these to find a second candidate written out ("$58.20. Sixty-one
dollars if shipping counts"), so they are read as a careful reader would, not leniently: a run
of number words (joined by spaces, hyphens or "and") is one number.
"""

from __future__ import annotations

import re

_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
#: Ordinal words and the number each names ("fifth" → 5, "twenty-first" → 21 by composition).
ORDINALS = {
    **{
        word: index
        for index, word in enumerate(
            [
                "zeroth",
                "first",
                "second",
                "third",
                "fourth",
                "fifth",
                "sixth",
                "seventh",
                "eighth",
                "ninth",
                "tenth",
                "eleventh",
                "twelfth",
                "thirteenth",
                "fourteenth",
                "fifteenth",
                "sixteenth",
                "seventeenth",
                "eighteenth",
                "nineteenth",
            ]
        )
    },
    **{word: 20 + 10 * i for i, word in enumerate(["twentieth", "thirtieth"])},
}
_VALUES = {
    **{word: i for i, word in enumerate(_UNITS)},
    **{word: 20 + 10 * i for i, word in enumerate(_TENS)},
}
_WORD = "|".join(sorted([*_VALUES, *_SCALES], key=len, reverse=True))
_ORDINAL_WORD = "|".join(sorted(ORDINALS, key=len, reverse=True))
#: A run of number words, ending in a number word or (for an ordinal) an ordinal word.
SPELLED = re.compile(
    # At most 16 words (a number as long as "nine hundred ninety-nine thousand nine hundred
    # ninety-nine" has 10): a run of number words is read in pieces, not once from each of its
    # words to its end (quadratic in a message of "one one one …").
    rf"\b(?:(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?=(?:{_WORD}|{_ORDINAL_WORD})\b))?){{1,16}}"
    rf"(?:{_ORDINAL_WORD})?\b|\b(?:{_ORDINAL_WORD})\b",
    re.IGNORECASE,
)


def value(words: str) -> int | None:
    """The number that ``words`` (a match of :data:`SPELLED`) names, or None if it names none
    (a scale word alone, "hundred")."""
    total = current = 0
    seen = False
    for word in re.split(r"[\s-]+", words.lower()):
        if word == "and" or not word:
            continue
        if word in _VALUES or word in ORDINALS:
            current += _VALUES.get(word, ORDINALS.get(word, 0))
            seen = True
        elif word in _SCALES:
            scale = _SCALES[word]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
            seen = seen or word != "hundred"
        else:
            return None
    return total + current if seen else None


def is_ordinal(words: str) -> bool:
    """Whether ``words`` ends in an ordinal word ("the twenty-first")."""
    last = re.split(r"[\s-]+", words.strip().lower())[-1]
    return last in ORDINALS

"""Grading a long, repetitive answer against a short one: how the grader's cost grows with the
message (the longest a message may be against a one-line answer).

Both are graded in one process, interleaved, so that the shared machine's noise falls on both;
the ratio of medians per kind is what counts (a grader that looks at each value and each "or"
once, near where it stands, stays within a few hundred times the short answer's cost for a
message a hundred times longer).

    python bench/answer_grading.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date
from datetime import time as clock

from webenv.answers import MAX_LENGTH, grade

CASES = [
    ("money", "about $41.37 or ", "It came to $41.37.", 4137, {}),
    ("money", "Barnes or Noble $41.37 ", "It came to $41.37.", 4137, {}),
    ("date", "(sent April 2) April 9 ", "April 9, 2026.", date(2026, 4, 9), {"year": 2026}),
    ("time", "Ann or Bob 3:45 PM ", "At 3:45 PM.", clock(15, 45), {}),
    (
        "name",
        "one-Z-V-J-",
        "The Harbor Tote.",
        "Harbor Tote",
        {"candidates": [f"Tote {i}" for i in range(400)]},
    ),
    # A value, then a run of blanks: what a pattern with blanks on both sides of an optional
    # mark tries at every blank (head, filler, tail).
    ("total", ("$41.37 plus", " ", "x"), "It came to $41.37 in total.", 4137, {"whole": True}),
    ("total", ("before tax", " ", "x $41.37"), "It came to $41.37.", 4137, {"whole": True}),
    ("number", ("7", " ", "x"), "There are 7.", 7, {}),
    ("number", ("7", "\n", "x"), "There are 7.", 7, {}),
    # A run of number words: each word once the start of a number read to the run's end.
    ("number", "one ", "There are 7.", 7, {}),
    ("money", "one-one ", "It came to $41.37.", 4137, {}),
    # Amounts for each of something: each sentence read once for what offers them.
    ("money", "$1 each, ", "It came to $41.37.", 4137, {}),
    ("money", "$1 per night and ", "It came to $41.37.", 4137, {}),
    # Names joined to the known ones.
    (
        "set",
        "Amy Nelson and Bob Kowalski and ",
        "Amy Nelson.",
        ["Amy Nelson"],
        {"candidates": ["Amy Nelson", "Bob Park", "Carol King"]},
    ),
    # Names before the known ones, and after "nor has"; ids cut short.
    (
        "set",
        "Bob Kowalski, Amy Nelson. Amy Nelson, nor has Bob Kowalski. ",
        "Amy Nelson.",
        ["Amy Nelson"],
        {"candidates": ["Amy Nelson", "Bob Park", "Carol King"]},
    ),
    (
        "set",
        "Two of them are Bob Park. Amy Nelson are two of them. ",
        "Amy Nelson.",
        ["Amy Nelson"],
        {"candidates": ["Amy Nelson", "Bob Park", "Carol King"]},
    ),
    (
        "list",
        "NM-10999, 109991, ",
        "NM-25790-3.",
        ["NM-25790-3"],
        {"candidates": ["NM-25790-3", "NM-17871-4"]},
    ),
]


def long_text(unit: str | tuple[str, str, str]) -> str:
    """The longest message a unit makes: repeated, or a head, a filler repeated and a tail."""
    if isinstance(unit, str):
        return (unit * (MAX_LENGTH // len(unit) + 1))[:MAX_LENGTH]
    head, filler, tail = unit
    return head + filler * ((MAX_LENGTH - len(head) - len(tail)) // len(filler)) + tail


def timed(kind: str, text: str, expected: object, options: dict[str, object]) -> float:
    started = time.perf_counter()
    grade("money" if kind == "total" else kind, text, expected, **options)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    print(f"{'kind':<6} {'repeated':<24} {'long ms':>8} {'short ms':>9} {'ratio':>7}")
    for kind, unit, short, expected, options in CASES:
        text = long_text(unit)
        longs, shorts = [], []
        for _ in range(rounds):
            longs.append(timed(kind, text, expected, options))
            shorts.append(timed(kind, short, expected, options))
        slow, fast = statistics.median(longs), statistics.median(shorts)
        print(
            f"{kind:<6} {repr(unit)[:24]:<24} {slow * 1000:8.1f} {fast * 1000:9.2f} "
            f"{slow / fast:7.0f}"
        )


if __name__ == "__main__":
    main()

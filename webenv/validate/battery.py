"""The answer battery of info-seeking templates: the right answer in careful sentences passes,
hedged beside another value of its kind fails; and answers are not free (0, $0.00, empty)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import date, datetime, timedelta
from decimal import Decimal

from ..answers import AnswerError, parse_answer
from ..tasks import Answer, TaskTemplate
from ..world import World
from .instances import DEGENERATE_ONE_IN, MODE_SHARE, fresh_instance
from .report import Case, CheckReport

#: A careful person's sentences around the right answer ``{}``; each must earn the reward.
SENTENCES = ("{}", "It's {}.", "The answer is {}", "{}, as far as I can see", "I found {}.")
#: Hedges: the right answer ``{0}`` with another candidate ``{1}``; each must earn nothing.
HEDGES = ("{0} or {1}", "Either {1} or {0}.", "It's {0}, or maybe {1}.")
#: What another identifier looks like: a short run of letters, digits, dashes and spaces,
#: with at least one digit.
_ID_LIKE = re.compile(r"(?=.*[0-9])[A-Za-z0-9][A-Za-z0-9 -]{0,40}")


def alternatives(kind: str, answer: str) -> list[str]:
    """Other values of ``kind`` near ``answer`` (a cent more, the next day, one digit off):
    candidates a hedge may offer beside the right answer. Empty when ``answer`` holds no one
    value of ``kind`` or the kind has no neighbours (names)."""
    try:
        value = parse_answer(kind, answer)
    except AnswerError:
        return []
    if kind == "money":
        return [f"${cents / 100:,.2f}" for cents in (value + 100, value - 1) if cents > 0]
    if kind == "number" and isinstance(value, Decimal):
        return [str(value + 1)]
    if kind == "date" and isinstance(value, date):
        return [(value + timedelta(days=1)).isoformat()]
    if kind == "time":
        later = datetime.combine(date(2000, 1, 1), value) + timedelta(hours=1)
        return [later.strftime("%I:%M %p").lstrip("0")]
    if kind == "phone":
        digits = str(value)
        last = str((int(digits[-1]) + 1) % 10)
        return [f"({digits[:3]}) {digits[3:6]}-{digits[6:9]}{last}"]
    if kind == "identifier":
        positions = [i for i, ch in enumerate(answer) if ch.isdigit()]
        if positions:
            i = positions[-1]
            return [answer[:i] + str((int(answer[i]) + 1) % 10) + answer[i + 1 :]]
    return []


def same_kind_candidates(kind: str, answer: str, texts: Iterable[str]) -> list[str]:
    """Those of ``texts`` (other answers: near-misses') holding one value of ``kind`` that is
    not ``answer``'s (for names, any other text: a name cannot be told from a sentence)."""
    try:
        right = parse_answer(kind, answer)
    except AnswerError:
        return []
    chosen = []
    for text in texts:
        if not text.strip() or len(text) > 200:
            continue
        try:
            value = parse_answer(kind, text)
        except AnswerError:
            continue
        if kind == "identifier" and not _ID_LIKE.fullmatch(text.strip()):
            continue  # a sentence, not another id
        if value != right and value not in ("", frozenset(), []) and text not in chosen:
            chosen.append(text)
    return chosen


def answer_battery(answer: str, candidates: Iterable[str]) -> tuple[list[str], list[str]]:
    """``(sentences, hedges)``: ``answer`` in careful sentences (:data:`SENTENCES`), and with
    each of ``candidates`` beside it (:data:`HEDGES`)."""
    sentences = [form.format(answer) for form in SENTENCES]
    hedges = [form.format(answer, other) for other in candidates for form in HEDGES]
    return sentences, hedges


def check_answers(
    template: TaskTemplate,
    answers: Mapping[int, str],
    others: Mapping[int, Iterable[str]] | None = None,
) -> CheckReport:
    """The answer battery of an info-seeking template, with no browser.

    Args:
        template: a template with ``answer_type`` set.
        answers: the right answer of each seed (the oracle's final message).
        others: other answers of each seed (the near-misses'), a source of hedges' candidates
            beside :func:`alternatives`.

    Each careful sentence around the right answer must pass the check on the seed's untouched
    world, and each hedge must fail it.
    """
    kind = template.answer_type
    if kind is None:
        return CheckReport("answers", skipped="not info-seeking")
    if not answers:
        return CheckReport("answers", (Case(False, "no answer of the oracle to grade"),))
    cases = []
    world = World(template.sites)
    try:
        for seed, answer in sorted(answers.items()):
            near = [*(others or {}).get(seed, ()), *alternatives(kind, answer)]
            candidates = same_kind_candidates(kind, answer, near)
            sentences, hedges = answer_battery(answer, candidates)
            task = fresh_instance(template, world, seed)
            for sentence in sentences:
                if not task.check(world, Answer("message", sentence)).success:
                    cases.append(Case(False, f"{sentence!r} fails", seed, "sentence"))
            for hedge in hedges:
                if task.check(world, Answer("message", hedge)).success:
                    cases.append(Case(False, f"the hedge {hedge!r} passes", seed, "hedge"))
            if not hedges:
                cases.append(Case(False, f"no other {kind} to hedge {answer!r} with", seed))
            count = f"{len(sentences)} sentences pass, {len(hedges)} hedges fail"
            cases.append(Case(True, count, seed))
    finally:
        world.close()
    return CheckReport("answers", tuple(cases))


def is_degenerate(kind: str, answer: str) -> bool:
    """Whether ``answer`` is a free answer: 0, $0.00, or empty."""
    if not answer.strip():
        return True
    try:
        value = parse_answer(kind, answer)
    except AnswerError:
        return False
    return value in (0, "", frozenset(), []) or (isinstance(value, Decimal) and value == 0)


def check_nonzero(template: TaskTemplate, answers: Mapping[int, str], count: int) -> CheckReport:
    """At most one of ``answers`` (the oracle's, of each seed) in :data:`DEGENERATE_ONE_IN` of
    ``count`` seeds is degenerate, and none is given on more than :data:`MODE_SHARE` of them
    (the oracle writes an answer the same way each time): for templates whose check grades
    answers its own way, so that :func:`~webenv.validate.instances.expected_answers` cannot
    read them."""
    kind = template.answer_type
    if kind is None:
        return CheckReport("nonzero", skipped="not info-seeking")
    free = [seed for seed, answer in sorted(answers.items()) if is_degenerate(kind, answer)]
    allowed = count // DEGENERATE_ONE_IN
    reason = f"{len(free)} degenerate answers of {count} seeds (at most {allowed})"
    if free:
        reason += f": seeds {', '.join(map(str, free[:5]))}"
    times, most = 0, max(2, math.floor(count * MODE_SHARE))
    if answers:
        mode, times = Counter(answers.values()).most_common(1)[0]
        reason += f"; the most frequent answer, {mode[:60]!r}, is right on {times} (at most {most})"
    return CheckReport("nonzero", (Case(len(free) <= allowed and times <= most, reason),))

"""The checks of a template's instances that need no browser: the untouched world, the goal's
wording, determinism, diversity and free answers."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..tasks import Answer, Task, TaskTemplate
from ..world import World
from .report import Case, CheckReport

#: Ways to end an episode without doing anything (checked on the untouched world).
IDLE_ENDINGS = (None, Answer("message", ""), Answer("message", "Done."))
#: The share of seeds that must give distinct instances (20 of 30).
DISTINCT_SHARE = 2 / 3
#: At most one answer in this many may be degenerate (0, $0.00, empty).
DEGENERATE_ONE_IN = 30
#: The share of seeds one answer may be right on (6 of 30; at least 2): always giving the most
#: frequent answer, without looking, earns no more than that.
MODE_SHARE = 1 / 5


def check_instances(template: TaskTemplate, seeds: Sequence[int]) -> list[CheckReport]:
    """The checks of a template's instances that need no browser, over ``seeds``.

    ``untouched``: the check fails on the freshly restored world, ended in every idle way (no
    answer, an empty message, "Done."). ``goal``: every phrasing of the goal
    (``template.goals``) states every value of ``template.stated_values``. ``same-seed``: a
    seed gives the same parameters and goal twice. ``diverse``: at least two thirds of the
    seeds give distinct goals, and distinct parameters. ``nonzero``: at most one expected
    answer in :data:`DEGENERATE_ONE_IN` is degenerate (0, $0.00, empty), and no one answer is
    right on more than :data:`MODE_SHARE` of the seeds, read with :func:`expected_answers`.
    """
    untouched, goal, same, tasks, expected = [], [], [], [], {}
    world = World(template.sites)
    try:
        for seed in seeds:
            try:
                task = fresh_instance(template, world, seed)
                untouched.append(_untouched(task, world, seed))
                expected[seed] = expected_answers(task, world)
                goal.append(_goal_states_values(template, task.params, seed))
                again = fresh_instance(template, world, seed)
                same.append(_same_instance(task, again, seed))
                tasks.append(task)
            except Exception as error:  # a template's bug, reported as such
                case = Case(False, f"instantiating raised {error!r}"[:300], seed)
                untouched.append(case)
                goal.append(case)
                same.append(case)
    finally:
        world.close()
    return [
        CheckReport("untouched", tuple(untouched)),
        CheckReport("goal", tuple(goal)),
        CheckReport("same-seed", tuple(same)),
        CheckReport("diverse", (_diverse(tasks, len(seeds)),)),
        _nonzero(template, expected, len(seeds)),
    ]


def expected_answers(task: Task, world: World) -> list[Any]:
    """The values ``task``'s check compares an answer with, read by running the check on
    ``world`` with a ``check_answer`` that notes what it is handed (templates that grade their
    answers another way give none). Not thread-safe: the template is shared."""
    template, noted = task.template, []

    def noting(checks: Any, answer: Any, expected: Any, **options: Any) -> None:
        noted.append(expected)

    template.check_answer = noting  # type: ignore[method-assign]  # for this call only
    try:
        task.check(world, Answer("message", ""))
    finally:
        delattr(template, "check_answer")
    return noted


def is_free(value: Any) -> bool:
    """Whether an expected answer is one an agent could give without looking: nothing, zero,
    an empty list."""
    if isinstance(value, str):
        return value.strip() in ("", "0", "$0.00", "$0")
    return value is None or value == 0 or value in ([], (), {}, frozenset())


def _nonzero(template: TaskTemplate, expected: Mapping[int, list[Any]], count: int) -> CheckReport:
    if not any(expected.values()):
        if template.answer_type is None:
            return CheckReport("nonzero", skipped="no answer to check")
        # Its check grades answers its own way: the oracle's answers are checked instead.
        return CheckReport("nonzero", skipped="the check does not use check_answer")
    free = [seed for seed, values in sorted(expected.items()) if any(map(is_free, values))]
    allowed = count // DEGENERATE_ONE_IN
    reason = f"{len(free)} degenerate answers of {count} seeds (at most {allowed})"
    if free:
        reason += f": seeds {', '.join(map(str, free[:5]))}"
    answers = Counter(_json(v[0] if len(v) == 1 else v) for v in expected.values() if v)
    mode, times = answers.most_common(1)[0]
    most = max(2, math.floor(count * MODE_SHARE))
    reason += f"; the most frequent answer, {mode[:60]}, is right on {times} (at most {most})"
    return CheckReport("nonzero", (Case(len(free) <= allowed and times <= most, reason),))


def fresh_instance(template: TaskTemplate, world: World, seed: int) -> Task:
    """``template``'s instance of ``seed`` in its freshly restored world, marked as started."""
    world.restore(seed)
    task = template.instantiate(seed, world)
    world.mark_start()
    return task


def _untouched(task: Task, world: World, seed: int) -> Case:
    for ending in IDLE_ENDINGS:
        if task.check(world, ending).success:
            said = "no answer" if ending is None else f"the message {ending.text!r}"
            return Case(False, f"the check passes on the untouched world, ended with {said}", seed)
    return Case(True, "", seed)


def _goal_states_values(template: TaskTemplate, params: Mapping[str, Any], seed: int) -> Case:
    try:
        values = [str(value) for value in template.stated_values(params)]
    except NotImplementedError:
        return Case(False, "stated_values() is not implemented: it lists the checked values", seed)
    phrasings = template.goals(params)
    if not phrasings:
        return Case(False, "goals() gives no phrasing", seed)
    for phrasing in phrasings:
        missing = [value for value in values if value not in phrasing]
        if missing:
            return Case(False, f"the goal {phrasing[:120]!r} omits {missing[0]!r}", seed)
    return Case(True, f"{len(phrasings)} phrasings state {len(values)} values", seed)


def _same_instance(first: Task, again: Task, seed: int) -> Case:
    for what, one, other in (
        ("params", first.params, again.params),
        ("goal", first.goal, again.goal),
    ):
        if _json(one) != _json(other):
            return Case(False, f"the {what} differ from one instantiation to the next", seed)
    return Case(True, "", seed)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _diverse(tasks: Sequence[Task], count: int) -> Case:
    needed = math.ceil(count * DISTINCT_SHARE)
    goals = len({task.goal for task in tasks})
    params = len({_json(task.params) for task in tasks})
    reason = f"{goals} distinct goals and {params} distinct parameters of {count} seeds"
    return Case(min(goals, params) >= needed, f"{reason} (at least {needed} needed)")

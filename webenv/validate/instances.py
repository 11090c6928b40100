"""The checks of a template's instances that need no browser: the untouched world, the goal's
wording, determinism and diversity."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..tasks import Answer, Task, TaskTemplate
from ..world import World
from .report import Case, CheckReport

#: Ways to end an episode without doing anything (checked on the untouched world).
IDLE_ENDINGS = (None, Answer("message", ""), Answer("message", "Done."))
#: The share of seeds that must give distinct instances (20 of 30).
DISTINCT_SHARE = 2 / 3


def check_instances(template: TaskTemplate, seeds: Sequence[int]) -> list[CheckReport]:
    """The checks of a template's instances that need no browser, over ``seeds``.

    ``untouched``: the check fails on the freshly restored world, ended in every idle way (no
    answer, an empty message, "Done."). ``goal``: every phrasing of the goal
    (``template.goals``) states every value of ``template.stated_values``. ``same-seed``: a
    seed gives the same parameters and goal twice. ``diverse``: at least two thirds of the
    seeds give distinct instances.
    """
    untouched, goal, same, keys = [], [], [], {}
    world = World(template.sites)
    try:
        for seed in seeds:
            try:
                task = fresh_instance(template, world, seed)
                untouched.append(_untouched(task, world, seed))
                goal.append(_goal_states_values(template, task.params, seed))
                again = fresh_instance(template, world, seed)
                same.append(_same_instance(task, again, seed))
                keys[seed] = _instance_key(task)
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
        CheckReport("diverse", (_diverse(keys, len(seeds)),)),
    ]


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


def _instance_key(task: Task) -> str:
    return _json({"params": task.params, "goal": task.goal})


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _diverse(keys: Mapping[int, str], count: int) -> Case:
    needed = math.ceil(count * DISTINCT_SHARE)
    distinct = len(set(keys.values()))
    reason = f"{distinct} distinct instances of {count} seeds (at least {needed} needed)"
    return Case(distinct >= needed, reason)

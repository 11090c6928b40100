"""Every template's instances differ from seed to seed, and none is degenerate.

No browser: a template is instantiated on the seeds' worlds only. Over 30 seeds a template
gives at least 20 distinct instances (goal texts with their parameters), and its expected
answer is degenerate ($0, 0, empty) in at most 1 of them, so that an agent that answers
without looking, or always picks the same thing, does not win by chance.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from webenv.tasks import Answer, Task, TaskTemplate, templates
from webenv.world import World

ALL = sorted(templates())
SEEDS = range(30)
MIN_DISTINCT = 20
MAX_DEGENERATE = 1


def instances(template: TaskTemplate) -> list[tuple[Task, list[Any]]]:
    """Each seed's task, with the values its check expects as the answer (read by running
    the check on the untouched world and noting what it hands to ``check_answer``)."""
    world = World(template.sites)
    expected: list[Any] = []

    def noting(checks: Any, answer: Any, value: Any, **options: Any) -> None:
        expected.append(value)

    try:
        found = []
        for seed in SEEDS:
            world.restore(seed)
            task = template.instantiate(seed, world)
            world.mark_start()
            expected = []
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(template, "check_answer", noting)
                task.check(world, Answer("message", ""))
            found.append((task, expected))
        return found
    finally:
        world.close()


def degenerate(value: Any) -> bool:
    """An answer an agent could give without looking: nothing, zero, an empty list."""
    return value in (None, 0, "", [], {}, "0", "$0.00")


@pytest.mark.parametrize("name", ALL)
def test_instances_are_diverse_and_answers_not_degenerate(name):
    template = templates()[name]
    found = instances(template)
    goals = {task.goal for task, _ in found}
    params = {json.dumps(task.params, sort_keys=True, default=str) for task, _ in found}
    assert len(goals) >= MIN_DISTINCT, f"{len(goals)} distinct goals in {len(found)} seeds"
    assert len(params) >= MIN_DISTINCT, f"{len(params)} distinct parameters"
    answers = [value for _, values in found for value in values]
    if template.answer_type is not None:
        assert len(answers) == len(found), "the check must compare every answer with a value"
    bad = [value for value in answers if degenerate(value)]
    assert len(bad) <= MAX_DEGENERATE, f"degenerate answers {bad} in {len(found)} seeds"

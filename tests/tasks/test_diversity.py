"""Every template's instances differ from seed to seed, and none is degenerate.

No browser: a template is instantiated on the seeds' worlds only. Over 30 seeds a template
gives at least 20 distinct instances (goal texts with their parameters), its expected
answer is degenerate ($0, 0, empty) in at most 1 of them, and no one answer is right on more
than 6 of them, so that an agent that answers without looking, or always picks the same
thing, does not win by chance. And on those seeds and
this run's rotating ones, none of the template's near-misses that answer without looking earns
the reward (a "wrong" sum that happens to equal the right one, say).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from tests import rotation
from webenv.tasks import Answer, Answering, Task, TaskTemplate, templates
from webenv.world import World

ALL = sorted(templates())
SEEDS = range(30)
MIN_DISTINCT = 20
MAX_DEGENERATE = 1
#: Seeds of 30 on which the most frequent right answer may be right: an agent that always
#: gives it, without looking, earns at most a fifth of the reward.
MAX_MODE = 6


#: A seed's task, the values its check expects, and which answering near-misses would pass.
Instance = tuple[Task, list[Any], dict[str, bool]]


def instances(template: TaskTemplate, seeds: Iterable[int]) -> list[Instance]:
    """Each seed's task, with the values its check expects as the answer (read by running
    the check on the untouched world and noting what it hands to ``check_answer``), and which
    of the template's answering near-misses would earn the reward there."""
    world = World(template.sites)
    expected: list[Any] = []
    answering = {
        label: policy
        for label, policy in template.near_misses().items()
        if isinstance(policy, Answering)
    }

    def noting(checks: Any, answer: Any, value: Any, **options: Any) -> None:
        expected.append(value)

    try:
        found = []
        for seed in seeds:
            world.restore(seed)
            task = template.instantiate(seed, world)
            world.mark_start()
            expected = []
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(template, "check_answer", noting)
                task.check(world, Answer("message", ""))
            passing = {
                label: task.check(world, Answer("message", policy.text(task))).success
                for label, policy in answering.items()
            }
            found.append((task, expected, passing))
        return found
    finally:
        world.close()


def degenerate(value: Any) -> bool:
    """An answer an agent could give without looking: nothing, zero, an empty list."""
    return value in (None, 0, "", [], {}, "0", "$0.00")


#: This run's quarter of the templates (all of them in the full matrix): their worlds on 30
#: seeds cost most of a second a template.
SHARE = rotation.share(ALL, "diversity", 4)


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=() if n in SHARE else pytest.mark.suite) for n in ALL]
)
def test_instances_are_diverse_and_answers_not_degenerate(name):
    template = templates()[name]
    graded = instances(template, [*SEEDS, *rotation.pool()])
    passed = [(task.seed, label) for task, _, won in graded for label, p in won.items() if p]
    assert not passed, f"wrong answers that earn the reward (seed, near-miss): {passed}"
    found = [(task, expected) for task, expected, _ in graded[: len(SEEDS)]]
    goals = {task.goal for task, _ in found}
    params = {json.dumps(task.params, sort_keys=True, default=str) for task, _ in found}
    assert len(goals) >= MIN_DISTINCT, f"{len(goals)} distinct goals in {len(found)} seeds"
    assert len(params) >= MIN_DISTINCT, f"{len(params)} distinct parameters"
    answers = [value for _, values in found for value in values]
    if template.answer_type is not None:
        assert len(answers) == len(found), "the check must compare every answer with a value"
    bad = [value for value in answers if degenerate(value)]
    assert len(bad) <= MAX_DEGENERATE, f"degenerate answers {bad} in {len(found)} seeds"
    if answers:
        spelled = Counter(json.dumps(value, sort_keys=True, default=str) for value in answers)
        mode, times = spelled.most_common(1)[0]
        assert times <= MAX_MODE, f"the answer {mode} is right on {times} of {len(found)} seeds"

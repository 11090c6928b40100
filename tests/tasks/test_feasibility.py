"""A template some of whose instances cannot be done mixes them with instances that can, and
its goal reads the same for both: neither the task's id nor its goal says which it is, so
``report_infeasible`` without a look earns the reward on the if_found share only, and
costs it on the rest.

No browser: the templates are instantiated on the seeds' worlds, and the checks run on the
untouched world.
"""

from __future__ import annotations

import re

import pytest

from webenv.tasks import INFEASIBLE_SHARE, Answer, templates
from webenv.world import World

SEEDS = range(30)
#: Of 30 seeds, the fewest of each kind (about 12 cannot be done, 18 can).
MIN_EACH = 6
MAYBE_IMPOSSIBLE = sorted(name for name, template in templates().items() if not template.feasible)

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
)


def skeleton(goal: str) -> str:
    """``goal`` with what differs between instances masked: quoted text, ids, dates, numbers
    and times, capitalised words (names, products, months)."""
    goal = re.sub(r"[\"“][^\"”]*[\"”]", "Q", goal)
    goal = re.sub(r"\b[A-Z]{2,}-[\dA-Z][\dA-Z-]*\b", "ID", goal)
    goal = re.sub(rf"{_MONTH}[^,.;]*?\d{{4}}", "DATE", goal)
    goal = re.sub(rf"{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?", "DATE", goal)
    goal = re.sub(r"\$?\d[\d,.:]*(?:\s?[AaPp]\.?[Mm]\.?)?", "N", goal)
    return re.sub(r"\b[A-Z][\w'’.&-]*(?:\s+[A-Z][\w'’.&-]*)*", "C", goal)


def test_infeasible_share_leaves_most_instances_feasible():
    assert 0 < INFEASIBLE_SHARE < 0.5


def test_some_templates_may_be_impossible():
    assert len(MAYBE_IMPOSSIBLE) >= 10


@pytest.mark.parametrize("name", MAYBE_IMPOSSIBLE)
def test_impossible_instances_are_mixed_with_possible_ones_that_read_the_same(name):
    template = templates()[name]
    world = World(template.sites)
    goals: dict[bool, set[str]] = {True: set(), False: set()}
    count = {True: 0, False: 0}
    try:
        for seed in SEEDS:
            world.restore(seed)
            task = template.instantiate(seed, world)
            world.mark_start()
            feasible = template.is_feasible(task.params)
            count[feasible] += 1
            goals[feasible] |= {skeleton(goal) for goal in template.goals(task.params)}
            # Saying it cannot be done, without a look, earns the reward on exactly the
            # instances that cannot be done.
            claimed = task.check(world, Answer("infeasible", "This cannot be done."))
            assert claimed.success is not feasible, (seed, feasible, claimed.to_dict())
    finally:
        world.close()
    assert min(count.values()) >= MIN_EACH, count
    assert goals[False] <= goals[True], sorted(goals[False] - goals[True])

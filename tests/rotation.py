"""Seeds that rotate from run to run, so that the whole range is covered over runs.

Every run of the suite has a *run seed*: ``WEBENV_TEST_SEED`` when it is set, else a new one,
printed in pytest's header (and again under a failure) so that any run can be repeated exactly::

    WEBENV_TEST_SEED=81723 make test

From it come the episode seeds a test takes this run (:func:`pool`, :func:`seeds`). They are
drawn from a small pool per run (:data:`POOL_SIZE` seeds out of :data:`SEED_RANGE`), so the
world cache holds a handful of new worlds per run, not one per template.

The conftest sets the variable in the process that starts the run, so pytest-xdist's workers,
and any process the tests start, inherit the same run seed and collect the same tests.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

VARIABLE = "WEBENV_TEST_SEED"
#: Episode seeds are drawn from range(SEED_RANGE).
SEED_RANGE = 1000
#: How many distinct episode seeds one run uses across all rotating tests.
POOL_SIZE = 3


def run_seed() -> int:
    """This run's seed (set once, then inherited by every worker)."""
    value = os.environ.get(VARIABLE)
    if value is None:
        value = str(random.SystemRandom().randrange(10**6))
        os.environ[VARIABLE] = value
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{VARIABLE} must be an integer, not {value!r}") from None


def _rng(*key: object) -> random.Random:
    return random.Random(":".join(map(str, (run_seed(), *key))))


def pool() -> list[int]:
    """This run's episode seeds."""
    return sorted(_rng("pool").sample(range(SEED_RANGE), POOL_SIZE))


def seeds(*key: object, count: int = 1) -> list[int]:
    """``count`` of this run's episode seeds for the test named by ``key``."""
    return sorted(_rng(*key).sample(pool(), min(count, POOL_SIZE)))


def choice(options: Sequence[str], *key: object) -> str:
    """One of ``options`` for the test named by ``key``, this run."""
    return _rng(*key).choice(list(options))


def share(names: Sequence[str], key: str, parts: int) -> set[str]:
    """This run's ``1/parts`` of ``names`` for the test named by ``key``: every name is in
    exactly one of ``parts`` consecutive run seeds' shares, so a class of check that costs a
    browser episode per template runs every time, on a rotating slice of them. (A run seed
    drawn at random takes a slice at random: a name waits ``parts`` runs on average.)"""
    order = sorted(names)
    random.Random(f"{key}:share").shuffle(order)  # one order for every run: the slices rotate
    return set(order[run_seed() % parts :: parts])

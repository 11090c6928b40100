"""Agents for tests/test_ray.py, in a module of their own: the Ray actors import them by name."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

import ray

CRASH_SEED, HANG_SEED = 1, 2


class Saboteur:
    """Does nothing, except in a Ray actor: kills its process on one seed, hangs on another."""

    def reset(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        self.seed = info["seed"]

    def act(self, observation: Mapping[str, Any]) -> str:
        if ray.get_runtime_context().get_actor_id() is not None:
            if self.seed == CRASH_SEED:
                os._exit(17)
            if self.seed == HANG_SEED:
                time.sleep(600)
        return "noop()"

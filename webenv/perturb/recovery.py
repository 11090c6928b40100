"""The oracle's way past perturbations: a wrapper around any scripted policy.

Before the policy sees an observation, every pending perturbation that the page shows is dealt
with the way a competent agent would (dismiss the pop-up, sign in again, load the page again…),
so the policy meets the page it would have met on a clean run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym

from ..tasks import Moves, Oracle, Task

Policy = Callable[[Task, Mapping[str, Any]], Oracle]

#: Recovery actions allowed in a row before giving up: a perturbation that takes more is a bug.
MAX_RECOVERY = 16


def recovering(policy: Policy, env: gym.Env[Any, Any]) -> Policy:
    """``policy``, made to get past the perturbations of ``env``'s episodes."""
    perturber = env.unwrapped.perturber  # type: ignore[attr-defined]

    def clear(observation: Mapping[str, Any], last_action: str) -> Moves:
        for _ in range(MAX_RECOVERY):
            action = perturber.recovery(observation, last_action)
            if action is None:
                return observation
            observation = yield action
            last_action = action
        # The oracle's own failure in this episode (recorded as its error by an evaluation,
        # which goes on), not a misconfigured run (a WebEnvError, which stops it).
        raise RuntimeError(f"Could not get past a perturbation: {perturber.log.events}")

    def wrapped(task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from clear(observation, "")
        inner = policy(task, observation)
        action = next(inner)
        while True:
            observation = yield action
            observation = yield from clear(observation, action)
            try:
                action = inner.send(observation)
            except StopIteration:
                return

    return wrapped

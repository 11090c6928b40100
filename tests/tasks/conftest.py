"""Envs for task tests: one per template for the whole session, reset for every seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import gymnasium as gym
import pytest

import webenv  # noqa: F401  (registers the ids)
from webenv.tasks import Task, env_id, templates


@pytest.fixture(scope="session")
def task_env(browser) -> Iterator[Callable[[str], gym.Env[Any, Any]]]:
    envs: dict[str, gym.Env[Any, Any]] = {}

    def get(name: str) -> gym.Env[Any, Any]:
        if name not in envs:
            envs[name] = gym.make(env_id(templates()[name]))
        return envs[name]

    yield get
    for env in envs.values():
        env.close()


Policy = Callable[[Task, Mapping[str, Any]], Any]


@pytest.fixture(scope="session")
def run_policy() -> Callable[..., tuple[float, dict[str, Any]]]:
    return _run_policy


def _run_policy(
    env: gym.Env[Any, Any], seed: int, policy: Policy, strict: bool = True
) -> tuple[float, dict[str, Any]]:
    """Run a generator policy ``policy(task, first_observation)``; return (reward, last info),
    the info carrying ``policy_steps``, the number of steps taken.

    ``strict``: every action must succeed (oracles); near-misses may stumble.
    """
    observation, info = env.reset(seed=seed)
    task = env.unwrapped.task
    steps = policy(task, observation)
    action = next(steps)
    taken = 0
    while True:
        observation, reward, terminated, truncated, info = env.step(action)
        taken += 1
        if strict:
            assert not observation["last_action_error"], observation["last_action_error"]
        if terminated or truncated:
            return reward, {**info, "policy_steps": taken}
        try:
            action = steps.send(observation)
        except (StopIteration, LookupError):
            # The policy is done, or (a near-miss) cannot go on in a page it did not expect.
            return reward, {**info, "policy_steps": taken}

"""Envs for task tests: one per template for the whole session, reset for every seed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import gymnasium as gym
import pytest

import webenv  # noqa: F401  (registers the ids)
from webenv.perturb import recovering
from webenv.tasks import DONE, Task, env_id, templates


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
    env: gym.Env[Any, Any],
    seed: int,
    policy: Policy,
    strict: bool = True,
    perturb: str | None = None,
) -> tuple[float, dict[str, Any]]:
    """Run a generator policy ``policy(task, first_observation)``; return (reward, last info),
    the info carrying ``policy_steps``, the number of steps taken, ``events``, every
    perturbation event, and ``trail``: each step's action, error and URL, and why the policy
    stopped (for failure messages).

    ``strict``: every action must succeed (oracles); near-misses may stumble. ``perturb``: a
    profile for the episode; the policy then gets past what it meets as the oracle does.

    A policy that stops without ending the episode is followed by the agent's final action
    (:data:`webenv.tasks.DONE`), so that what it left is graded as an agent's would be.
    """
    observation, info = env.reset(seed=seed, options={"perturb": perturb or "none"})
    task = env.unwrapped.task
    events = list(info["events"])
    if perturb:
        policy = recovering(policy, env)
    steps = policy(task, observation)
    action = next(steps)
    taken, trail = 0, []
    while True:
        observation, reward, terminated, truncated, info = env.step(action)
        events += info["events"]
        taken += 1
        trail.append([action[:200], observation["last_action_error"][:300], observation["url"]])
        if strict:
            assert not observation["last_action_error"], observation["last_action_error"]
        if terminated or truncated:
            return reward, {**info, "policy_steps": taken, "events": events, "trail": trail}
        if action == DONE:
            trail.append(["the final action did not end the episode"])
            return reward, {**info, "policy_steps": taken, "events": events, "trail": trail}
        try:
            action = steps.send(observation)
        except (StopIteration, LookupError) as stop:
            # The policy is done, or (a near-miss) cannot go on in a page it did not expect:
            # it says so, and what it did is graded.
            trail.append([f"policy stopped: {stop!r}"[:300]])
            action = DONE

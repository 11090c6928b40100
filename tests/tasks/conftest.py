"""Envs for task tests: one per template, kept while its tests run, reset for every seed (tasks on
worlds without a browser, ``fresh_task``, are in the tests' own conftest)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import gymnasium as gym
import pytest

import webenv
from tests.test_leaks import leaked, secrets
from webenv.tasks import Task, env_id, templates
from webenv.validate import run_policy as run_episode

#: How many templates' envs a worker keeps open at once (each holds a browser context, a site
#: server and its worlds' databases); tests of one template run one after another (see
#: ``pytest_collection_modifyitems`` below), so more would only hold memory.
OPEN_ENVS = 2


@pytest.fixture(scope="session")
def task_env(browser) -> Iterator[Callable[[str], gym.Env[Any, Any]]]:
    """The env of a template, made on first use and kept while its template's tests run."""
    envs: OrderedDict[str, gym.Env[Any, Any]] = OrderedDict()

    def get(name: str) -> gym.Env[Any, Any]:
        if name in envs:
            envs.move_to_end(name)
        else:
            while len(envs) >= OPEN_ENVS:
                envs.popitem(last=False)[1].close()
            envs[name] = gym.make(env_id(templates()[name]))
        return envs[name]

    yield get
    for env in envs.values():
        env.close()


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that take a template's env run one template after another, all of a template's
    on one pytest-xdist worker (``--dist loadgroup``), so each env is made once a run."""
    grouped = [item for item in items if "task_env" in getattr(item, "fixturenames", ())]
    for item in grouped:
        item.add_marker(pytest.mark.xdist_group(_template_of(item)))
    order = {id(item): index for index, item in enumerate(items)}
    first = {}
    for item in grouped:
        first.setdefault(_template_of(item), order[id(item)])
    items.sort(
        key=lambda item: (
            (first[_template_of(item)], order[id(item)])
            if "task_env" in getattr(item, "fixturenames", ())
            else (order[id(item)], 0)
        )
    )


def _template_of(item: pytest.Item) -> str:
    params = getattr(item, "callspec", None)
    name = params.params.get("name") if params is not None else None
    return str(name) if name is not None else item.nodeid


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
    """Run a generator policy ``policy(task, first_observation)`` through the episode loop
    ``webenv validate`` runs (:func:`webenv.validate.run_policy`); return (reward, last info),
    the info carrying ``policy_steps``, ``events`` (every perturbation event in full),
    ``check`` (the last check's breakdown, from :func:`webenv.grader_view`) and ``trail``
    (each step's action, error and URL, and why the policy stopped: for failure messages).

    ``strict``: every action must succeed (oracles); near-misses may stumble. ``perturb``: a
    profile for the episode; the policy then gets past what it meets as the oracle does. A
    policy that stops without ending the episode is followed by the agent's final action
    (:data:`webenv.tasks.DONE`), so that what it left is graded as an agent's would be. And in
    every episode, nothing handed to the agent gives the task away.
    """
    hidden: dict[str, str] = {}

    def no_leak(observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        hidden.update(secrets(webenv.grader_view(env), observation["goal"]))
        assert not leaked(info, hidden), leaked(info, hidden)

    run = run_episode(env, seed, policy, strict=strict, perturb=perturb, on_step=no_leak)
    assert run.error is None, (run.error, run.trail)
    return run.reward, run.as_info()

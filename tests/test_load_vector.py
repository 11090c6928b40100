"""Many envs and Gymnasium's checker on a machine whose cores are saturated.

Eight envs on two cores reset and step without a timeout, in webenv's own vector env (and,
in the full matrix, in Gymnasium's async one, a Chromium per env); a browser killed under
them ends their episodes with one clear error each and a quiet teardown (no traceback from a
site server still serving a world already removed). Gymnasium's ``check_env``, whose
determinism check compares two resets' observations, passes for a template of every site.
"""

from __future__ import annotations

import os
import signal
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import webenv
from tests.processes import chromium_pids, in_thread
from tests.test_env import CHECKED
from tests.test_load import BUSY_LIMIT_S, FULL_BUSY_PER_CORE, busy_cpu
from webenv.errors import BrowserNotFoundError

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

ALL_IDS = webenv.register_envs()
TASK = "webenv/shop.fill_cart-v0"
ENVS = 8


def _reset_and_step(envs: Any) -> tuple[Any, Any]:
    observations, _ = envs.reset(seed=0)
    assert list(observations["url"]) and all(observations["url"])
    stepped, _, terminated, truncated, infos = envs.step(["noop()"] * ENVS)
    assert not truncated.any() and not terminated.any(), infos.get("error")
    return observations, stepped


def test_eight_envs_reset_and_step_on_a_saturated_machine_and_a_killed_browser_ends_quietly(
    capfd,
):
    def body() -> tuple[Any, Any]:
        others = chromium_pids()  # the worker's other browsers (the session's) live on
        envs = gym.make_vec(TASK, num_envs=ENVS)
        try:
            _, stepped = _reset_and_step(envs)
            assert list(stepped["last_action_error"]) == [""] * ENVS
            # The browser dies under all eight: each episode ends with the reason.
            for pid in chromium_pids() - others:
                os.kill(pid, signal.SIGKILL)
            _, _, _, truncated, infos = envs.step(["noop()"] * ENVS)
            return truncated, infos
        finally:
            envs.close()

    with busy_cpu():
        truncated, infos = in_thread(body, limit=240)
    assert truncated.all()
    assert all("browser error" in error for error in infos["error"])
    logged = capfd.readouterr().err
    assert "OperationalError" not in logged and "Traceback" not in logged, logged[-3000:]


@pytest.mark.suite  # eight Chromiums on a saturated machine: a minute
def test_eight_async_envs_reset_and_step_on_a_saturated_machine(capfd):
    with busy_cpu(FULL_BUSY_PER_CORE):
        envs = gym.make_vec(
            TASK,
            num_envs=ENVS,
            vectorization_mode="async",
            vector_kwargs={"shared_memory": False, "context": "spawn"},
        )
        try:
            _reset_and_step(envs)
        finally:
            envs.close()
    logged = capfd.readouterr().err
    assert "OperationalError" not in logged and "Traceback" not in logged, logged[-3000:]


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param({}, id="webenv"),
        pytest.param(
            {
                "vectorization_mode": "async",
                "vector_kwargs": {"shared_memory": False, "context": "spawn"},
            },
            id="async",
            marks=[
                pytest.mark.suite,  # eight processes
                # Gymnasium's own word from each worker that failed, before it raises.
                pytest.mark.filterwarnings("ignore::UserWarning"),
            ],
        ),
    ],
)
def test_eight_envs_without_a_chromium_fail_with_one_clear_error(monkeypatch, capfd, mode):
    monkeypatch.setenv("WEBENV_CHROMIUM", "/nonexistent/chromium")

    def body() -> None:  # a thread of its own: no Chromium of the worker's is running there
        envs = gym.make_vec(TASK, num_envs=ENVS, **mode)
        try:
            with pytest.raises(BrowserNotFoundError, match="WEBENV_CHROMIUM"):
                envs.reset(seed=0)
        finally:
            envs.close()

    in_thread(body, limit=240)
    logged = capfd.readouterr().err
    assert "OperationalError" not in logged and "Error on request" not in logged, logged[-3000:]


def _checked(env_id: str) -> None:
    env = gym.make(env_id)
    try:
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()


#: Gymnasium's checker resets an env eight times: about a minute a site on a saturated
#: machine, so the full matrix checks them.
CHECKED_BUSY = [
    pytest.param(env_id, id=site, marks=pytest.mark.suite) for site, env_id in CHECKED.items()
]


@pytest.mark.parametrize("env_id", CHECKED_BUSY)
def test_gymnasiums_checker_passes_on_a_saturated_machine(env_id):
    with busy_cpu(FULL_BUSY_PER_CORE):
        in_thread(lambda: _checked(env_id), limit=BUSY_LIMIT_S)


#: Gymnasium's checker on every registered env, on a saturated machine: half a minute each.
EVERY_ID_LIMIT_S = 30 * len(ALL_IDS)


@pytest.mark.suite  # every registered env, on a saturated machine
@pytest.mark.timeout(EVERY_ID_LIMIT_S + 60)  # the project's 300 s per test would cut it short
def test_gymnasiums_checker_passes_for_every_env_on_a_saturated_machine():
    with busy_cpu(FULL_BUSY_PER_CORE, limit=EVERY_ID_LIMIT_S):
        in_thread(lambda: [_checked(env_id) for env_id in ALL_IDS], limit=EVERY_ID_LIMIT_S)

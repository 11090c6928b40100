"""Batched envs: Gymnasium's async vector env runs webenv in worker processes; webenv's own
vector env runs them in one process, on one Chromium, at the same time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.vector import AutoresetMode

import webenv  # noqa: F401
from tests.processes import chromium_pids, in_thread
from tests.test_server import fetch, make_app
from webenv.ahead import Ahead
from webenv.browser import acquire_browser, release_browser
from webenv.errors import WebEnvError
from webenv.server import SiteServer
from webenv.session import Session
from webenv.trusted import public_task
from webenv.vector import WebVectorEnv

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

VECTOR_KWARGS = {"shared_memory": False, "context": "spawn"}


def test_async_vector_env_steps_envs_in_parallel_processes():
    envs = gym.make_vec(
        "webenv/shop.cheapest_by_brand-v0",
        num_envs=2,
        vectorization_mode="async",
        vector_kwargs=VECTOR_KWARGS,
    )
    try:
        observations, infos = envs.reset(seed=[3, 4])
        assert observations["goal"][0] != observations["goal"][1]
        assert list(infos["task"]["seed"]) == [3, 4] and "params" not in infos["task"]
        cheapest = envs.call("grader_view")[1].params["price_cents"]  # the trusted side
        prices = [f"${cents / 100:.2f}" for cents in (1, cheapest)]
        actions = [f'send_msg_to_user("{price}")' for price in prices]
        _, rewards, terminated, _, _ = envs.step(actions)
        assert list(rewards) == [0.0, 1.0]
        assert list(terminated) == [True, True]
    finally:
        envs.close()


def test_shared_memory_is_refused_with_advice():
    with pytest.raises(ValueError, match="shared_memory=False"):
        gym.make_vec(
            "webenv/shop.fill_cart-v0",
            num_envs=2,
            vectorization_mode="async",
            vector_kwargs={"context": "spawn"},
        )


# -- webenv's own vector env: N envs of one process and one Chromium, stepped at once ----


def recorded(step: Callable[..., Any], spans: list[tuple[float, float]]) -> Callable[..., Any]:
    """``step``, noting when each call started and ended."""

    def call(*args: Any) -> Any:
        started = time.monotonic()
        try:
            return step(*args)
        finally:
            spans.append((started, time.monotonic()))

    return call


def test_make_vec_gives_envs_that_share_one_chromium_and_step_at_once():
    def body() -> tuple[Any, ...]:
        before = chromium_pids()
        envs = gym.make_vec("webenv/shop.cheapest_by_brand-v0", num_envs=3)
        try:
            observations, infos = envs.reset(seed=[3, 4, 5])
            browsers = chromium_pids() - before
            spans: list[tuple[float, float]] = []
            for env in envs.unwrapped.envs:
                env.step = recorded(env.step, spans)
            stepped = envs.step(["noop(300)"] * 3)
            return type(envs.unwrapped), observations, infos, browsers, spans, stepped
        finally:
            envs.close()

    kind, observations, infos, browsers, spans, stepped = in_thread(body)
    assert kind is WebVectorEnv
    assert len(set(observations["goal"])) == 3  # three worlds, one per seed
    assert list(infos["seed"]) == [3, 4, 5]
    assert len(browsers) == 1
    # Each step waits 300 ms in its page: had they run one after another, none would overlap.
    assert len(spans) == 3
    assert max(start for start, _ in spans) < min(end for _, end in spans)
    observations, rewards, terminated, truncated, _ = stepped
    assert list(observations["last_action"]) == ["noop(300)"] * 3
    assert list(observations["last_action_error"]) == [""] * 3
    assert not rewards.any() and not terminated.any() and not truncated.any()


def test_an_env_whose_episode_ended_is_reset_at_its_next_step():
    def body() -> list[Any]:
        envs = gym.make_vec("webenv/shop.cheapest_by_brand-v0", num_envs=2)
        try:
            envs.reset(seed=[3, 4])
            cheapest = envs.unwrapped.grader_views()[0].params["price_cents"]
            answer = f'send_msg_to_user("${cheapest / 100:.2f}")'
            return [envs.step([answer, "noop()"]), envs.step(["noop()", "noop()"])]
        finally:
            envs.close()

    answered, after = in_thread(body)
    _, rewards, terminated, truncated, _ = answered
    assert list(rewards) == [1.0, 0.0]
    assert list(terminated) == [True, False] and not truncated.any()
    observations, rewards, terminated, truncated, infos = after
    # The first env starts a new episode (its action ignored); the second one goes on.
    assert list(observations["last_action"]) == ["", "noop()"]
    assert list(rewards) == [0.0, 0.0] and not terminated.any() and not truncated.any()
    assert list(infos["_task"]) == [True, False]  # a reset's info, for the first env only


def test_infos_keep_each_task_whole():
    # The two tasks' parameters differ (one has a decoy colour, one has none): each task's
    # public description comes whole, not split key by key into arrays and masks, and
    # without the parameters, which the trusted views hold.
    def body() -> tuple[Any, Any]:
        envs = gym.make_vec("webenv/shop.buy_by_name-v1", num_envs=2)
        try:
            _, infos = envs.reset(seed=[201, 202])
            return infos, envs.unwrapped.grader_views()
        finally:
            envs.close()

    infos, views = in_thread(body)
    assert list(infos["_task"]) == [True, True]
    assert views[0].params["real"]["decoy"] == {} and views[1].params["real"]["decoy"]
    for task, view in zip(infos["task"], views, strict=True):
        assert task == public_task(view.task) and "params" not in task
    assert list(infos["seed"]) == [201, 202]


def test_a_killed_browser_truncates_the_envs_and_their_next_step_relaunches_it():
    def body() -> tuple[Any, Any, Any]:
        before = chromium_pids()
        envs = gym.make_vec("webenv/shop.fill_cart-v0", num_envs=2)
        try:
            envs.reset(seed=[0, 1])
            for pid in chromium_pids() - before:
                os.kill(pid, signal.SIGKILL)
            crashed = envs.step(["scroll(0, 200)"] * 2)
            restarted = envs.step(["noop()"] * 2)  # both reset, on a new Chromium
            return crashed, restarted, envs.step(["scroll(0, 200)"] * 2)
        finally:
            envs.close()

    crashed, restarted, stepped = in_thread(body)
    _, rewards, _, truncated, infos = crashed
    assert truncated.all() and not rewards.any()
    assert all("browser" in error for error in infos["error"])
    observations, *_ = restarted
    assert list(observations["last_action"]) == ["", ""]
    assert all(url.startswith("http://shop.localhost:") for url in observations["url"])
    observations, _, _, truncated, _ = stepped
    assert list(observations["last_action_error"]) == ["", ""] and not truncated.any()


def test_bad_calls_are_refused_clearly():
    def body() -> list[str]:
        envs = gym.make_vec("webenv/shop.fill_cart-v0", num_envs=2)
        errors = []
        try:
            for call in (
                lambda: envs.step(["noop()", "noop()"]),  # before any reset
                lambda: envs.reset(seed=[1, 2, 3]),
                lambda: envs.reset(options={"reset_mask": [True]}),
            ):
                with pytest.raises((WebEnvError, ValueError)) as raised:
                    call()
                errors.append(str(raised.value))
        finally:
            envs.close()
        return errors

    before_reset, seeds, mask = in_thread(body)
    assert "reset()" in before_reset
    assert "3 seeds given for 2 envs" in seeds
    assert "reset_mask" in mask
    with pytest.raises(ValueError, match="at least 1"):
        WebVectorEnv(0, task="shop.fill_cart")


def test_waiting_for_the_site_server_lets_other_browser_calls_go_on():
    """A session waiting for its server's request in flight does so in Playwright's event
    loop, so another env's browser calls in the same thread are not held up meanwhile."""

    def body() -> tuple[bool, bool, int]:
        gate = threading.Event()
        server = SiteServer({"shop": make_app("shop", gate)})
        browser = acquire_browser()
        session = Session(
            browser, [server.url("shop")], now=datetime(2026, 1, 1), server_idle=server.wait_idle
        )
        other = browser.new_page()
        request = threading.Thread(
            target=fetch, args=(f"http://127.0.0.1:{server.port}/", f"shop.localhost:{server.port}")
        )
        try:
            request.start()
            while server.in_flight == 0:
                time.sleep(0.01)
            waiting = Ahead(browser, lambda: session._wait_for_server(10))
            other.evaluate("1 + 1")  # done while the session still waits
            still_waiting, in_flight = not waiting.ready, server.in_flight
            gate.set()
            waiting.result()
            return still_waiting, waiting.ready, in_flight
        finally:
            gate.set()
            request.join()
            other.close()
            session.close()
            server.close()
            release_browser(browser)

    still_waiting, done, in_flight = in_thread(body)
    assert still_waiting and in_flight == 1
    assert done


def test_same_step_autoreset_resets_an_ended_env_in_the_step_that_ended_it():
    def body() -> tuple[Any, ...]:
        envs = gym.make_vec(
            "webenv/shop.cheapest_by_brand-v0", num_envs=2, autoreset_mode="SameStep"
        )
        try:
            envs.reset(seed=[3, 4])
            cheapest = envs.unwrapped.grader_views()[0].params["price_cents"]
            answer = f'send_msg_to_user("${cheapest / 100:.2f}")'
            answered = envs.step([answer, "noop()"])
            after = envs.step(["noop()", "noop()"])
            return envs.metadata["autoreset_mode"], answer, answered, after
        finally:
            envs.close()

    mode, answer, answered, after = in_thread(body)
    assert mode is AutoresetMode.SAME_STEP
    observations, rewards, terminated, truncated, infos = answered
    assert list(rewards) == [1.0, 0.0]
    assert list(terminated) == [True, False] and not truncated.any()
    # The first env's new episode starts now: its first observation, the last one aside.
    assert list(observations["last_action"]) == ["", "noop()"]
    assert list(infos["_final_obs"]) == [True, False]
    assert infos["final_obs"][0]["last_action"] == answer
    assert infos["final_info"]["success"][0]
    assert list(infos["_task"]) == [True, False]  # the new episode's reset info
    observations, rewards, terminated, _, _ = after
    assert list(observations["last_action"]) == ["noop()", "noop()"]  # both acted
    assert not rewards.any() and not terminated.any()


def test_an_unknown_autoreset_mode_names_the_modes():
    with pytest.raises(ValueError, match="'NextStep', 'SameStep', 'Disabled'"):
        WebVectorEnv(2, task="shop.fill_cart", autoreset_mode="whenever")


_FAILING_RESET = """
import gymnasium as gym
import webenv
from webenv.session import Timeouts

quick = Timeouts(action=1, navigation=1, settle=1)  # no page can load in time
envs = gym.make_vec("webenv/shop.fill_cart-v0", num_envs=4, timeouts=quick)
envs.reset(seed=0)
"""


@pytest.mark.suite  # with 1 ms bounds a site may still log an error for a request cut short
def test_a_vector_reset_that_fails_ends_with_one_clear_error():
    # Start pages that cannot load in time: the script ends with the reset's error, and no
    # storm of tracebacks from site servers whose worlds were removed at exit.
    result = subprocess.run(
        [sys.executable, "-c", _FAILING_RESET],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.count("Traceback") == 1, result.stderr
    assert "webenv.errors.InfrastructureError: Could not open the start page" in result.stderr
    assert "OperationalError" not in result.stderr

"""Faults: a killed browser, and what close() leaves behind.

Each test drives its env in a thread of its own: Playwright's sync API gives every thread its
own Chromium, so killing this one leaves the session's shared browser alone.
"""

from __future__ import annotations

import os
import signal
import socket
from typing import Any

import gymnasium as gym
import pytest

import webenv  # noqa: F401
from tests.processes import chromium_pids, in_thread

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser


def test_a_killed_browser_ends_the_step_and_the_next_reset_recovers():
    def body() -> tuple[Any, ...]:
        before = chromium_pids()
        env = gym.make("webenv/shop.fill_cart-v0")
        try:
            env.reset(seed=0)
            for pid in chromium_pids() - before:
                os.kill(pid, signal.SIGKILL)
            observation, reward, _, truncated, info = env.step("scroll(0, 200)")
            crashed = (reward, truncated, info.get("error", ""), observation["last_action_error"])
            observation, _ = env.reset(seed=1)
            observation, *_ = env.step("noop()")
            return crashed, observation
        finally:
            env.close()

    (reward, truncated, error, last_error), observation = in_thread(body)
    assert reward == 0.0 and truncated is True
    assert "browser" in error and error == last_error
    assert observation["url"].startswith("http://shop.localhost:")
    assert observation["last_action_error"] == ""


def test_close_leaves_no_browser_or_server_behind():
    def body() -> tuple[set[int], int, set[int]]:
        before = chromium_pids()
        with gym.make("webenv/shop.fill_cart-v0") as env:
            env.reset(seed=0)
            port = env.unwrapped._server.port
            during = chromium_pids() - before
        env.close()  # twice is safe
        return during, port, chromium_pids() - before

    during, port, after = in_thread(body)
    assert len(during) == 1
    assert after == set()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0

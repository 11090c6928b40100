"""A step's actions share one time budget: up to ten calls in a step cannot hold the shared
Chromium (and a vector env's whole batch) ten times as long as one call may."""

from __future__ import annotations

import time

import gymnasium as gym
import pytest

import webenv.env
import webenv.execute
from webenv.axtree import AxTree
from webenv.session import Timeouts, timeout_scale

#: Short bounds, stretched by the machine's load as an episode's own are (given ones are not):
#: a click under 500 ms bounds timed out on a loaded CI machine.
QUICK = Timeouts(action=500, navigation=1000, settle=1000)
#: The longest noop wait, shortened for the test (10 s in use).
WAIT_MS = 1000


@pytest.fixture
def env(browser, monkeypatch):
    monkeypatch.setattr(webenv.env, "MAX_WAIT_MS", WAIT_MS)
    monkeypatch.setattr(webenv.execute, "MAX_WAIT_MS", WAIT_MS)
    with gym.make("webenv/shop.buy_product-v0", timeouts=QUICK.scaled(timeout_scale())) as env:
        env.reset(seed=0)
        yield env


def test_ten_long_waits_in_one_step_take_one_steps_budget(env):
    bounds = env.unwrapped.timeouts
    budget = (bounds.action + bounds.navigation + WAIT_MS) / 1000
    started = time.monotonic()
    observation, reward, terminated, truncated, _ = env.step(
        "\n".join([f"noop(wait_ms={WAIT_MS})"] * 10)
    )
    took = time.monotonic() - started
    # The budget, then settling and observing the page (bounded by the settle and action bounds).
    assert took < budget + (bounds.settle + bounds.action) / 1000 + 1.0, took
    assert took >= budget * 0.9, took  # the waits that fit were waited
    assert "of them were not done, from noop(" in observation["last_action_error"]
    assert reward == 0.0 and not terminated and not truncated
    # The next step has a budget of its own.
    observation, *_ = env.step("noop()")
    assert observation["last_action_error"] == ""


def test_keyboard_typing_is_bounded_per_step_not_per_call(env):
    observation, *_ = env.step("noop()")
    search = AxTree(observation["axtree"]).id("searchbox", "Search products")
    text = "x" * 600
    observation, *_ = env.step(
        f'click("{search}")\nkeyboard_type("{text}")\nkeyboard_type("{text}")'
    )
    error = observation["last_action_error"]
    assert "keyboard_type of 1200 characters in one step; at most 1000" in error
    # Refused before any of the step's actions: nothing was typed.
    assert 'value="x' not in _searchbox(observation)
    # (Under these short bounds one call may type about 300 characters.)
    observation, *_ = env.step(f'click("{search}")\nkeyboard_type("{text[:100]}")')
    assert observation["last_action_error"] == ""
    assert f'value="{text[:100]}"' in _searchbox(observation)


def _searchbox(observation) -> str:
    return next(line for line in observation["axtree"].splitlines() if "searchbox" in line)


def test_a_run_of_keys_pressed_as_one_combination_is_refused(env):
    # Each key of "a+a+…" is a press of its own: a way to type past keyboard_type's bound.
    observation, *_ = env.step("noop()")
    search = AxTree(observation["axtree"]).id("searchbox", "Search products")
    for action in (f'press("{search}", "{"+".join("a" * 500)}")', 'keyboard_press("b+b+b")'):
        observation, *_ = env.step(f'click("{search}")\n{action}')
        assert "is not a key combination" in observation["last_action_error"], action
        assert 'value="a' not in _searchbox(observation)
    observation, *_ = env.step(f'click("{search}")\nkeyboard_press("Shift+A")')
    assert observation["last_action_error"] == ""
    assert 'value="A"' in _searchbox(observation)

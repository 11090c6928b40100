"""Browser work started ahead of time: it goes on while the thread makes other calls."""

from __future__ import annotations

import gymnasium as gym
import pytest
from playwright.sync_api import Error as PlaywrightError

from webenv.ahead import Ahead

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser


def test_work_ahead_finishes_during_the_callers_own_browser_calls(browser):
    mine = browser.new_context()
    page = mine.new_page()
    ahead = Ahead(browser, lambda: (context := browser.new_context(), context.new_page()))
    try:
        assert not ahead.ready  # back before Chromium answered
        for _ in range(200):
            page.evaluate("1")
            if ahead.ready:
                break
        assert ahead.ready  # done meanwhile, without waiting on it
        context, tab = ahead.result()
        assert tab.evaluate("location.href") == "about:blank" and tab.context is context
    finally:
        ahead.result()[0].close()
        mine.close()


def test_work_ahead_is_waited_for_when_needed_and_its_error_raised(browser):
    ahead = Ahead(browser, lambda: browser.new_context())
    context = ahead.result()  # nothing else ran meanwhile: result() waits
    assert context.pages == []
    context.close()

    def fails():
        browser.new_context().close()
        raise ValueError("made ahead, failed ahead")

    failing = Ahead(browser, fails)
    with pytest.raises(ValueError, match="failed ahead"):
        failing.result()
    closed = browser.new_context()
    closed.close()
    with pytest.raises(PlaywrightError):
        Ahead(browser, closed.new_page).result()


def test_the_next_episodes_context_is_opened_while_this_one_runs():
    with gym.make("webenv/shop.buy_product-v0") as env:
        inner = env.unwrapped
        env.reset(seed=2)
        # Not for a first episode: an env may never run a second.
        assert inner._next is None
        env.reset(seed=0)
        for _ in range(200):  # a few on a quiet machine; more when Chromium is slow to answer
            env.step("noop()")
            if inner._next.ready:
                break
        assert inner._next.ready
        prepared, _ = inner._next.result()
        first = inner._session.context
        env.step('goto("/cart")')
        env.reset(seed=1)
        assert inner._session.context is prepared and first not in inner._browser.contexts
        # Made during the last episode, set up for this one: its clock, its history.
        assert inner._session.page.evaluate("new Date().toISOString()").startswith(
            inner.world.now.strftime("%Y-%m-%dT%H:%M")
        )
        assert inner._session.page.evaluate("history.length") == 1

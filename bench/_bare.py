"""Bare Playwright, in the same Chromium as webenv, as the benchmarks' baseline."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

from webenv.browser import acquire_browser, release_browser


def bare_reset(url: str, episodes: int, cookies: Sequence[Any] = ()) -> float:
    """Median ms of bare Playwright's reset of ``url``: the last context closed, a new
    context (with ``cookies``) and tab, the page loaded and its accessibility snapshot
    read."""
    browser = acquire_browser()
    times, context = [], None
    try:
        for _ in range(episodes + 1):
            started = time.perf_counter()
            if context is not None:
                context.close()
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            if cookies:
                context.add_cookies(list(cookies))
            page = context.new_page()
            page.goto(url, wait_until="load")
            page.locator("body").aria_snapshot()
            times.append(time.perf_counter() - started)
    finally:
        if context is not None:
            context.close()
        release_browser(browser)
    return 1000 * statistics.median(times[1:])  # the first closes nothing

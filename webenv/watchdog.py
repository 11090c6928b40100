"""A bound on browser calls that a page's own script could otherwise hold forever.

Playwright bounds what it waits for (a load, a selector, a navigation) but not a script
evaluation: a page whose script never yields (``for (;;) {}``) holds ``page.evaluate`` — and
so the env — forever, since nothing reaches into a busy renderer. The watchdog keeps time in
a page of its own browser context (so its own renderer process), whose ticks reach Python as
console events even while another call blocks. When a guarded block overruns its bound, the
watchdog calls the guard's ``on_overrun`` (the session closes its tabs, as a browser kills an
unresponsive page), which fails the blocked call; then it calls it again every second until
the block ends.
"""

from __future__ import annotations

import contextlib
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page
from playwright.sync_api import Error as PlaywrightError

from .browser import open_page

#: How often the clock ticks while armed, in milliseconds: a block that overruns its bound is
#: stopped up to this much later. Each tick costs a console event through Chromium, Playwright's
#: driver and Python (measured: ticking every 100 ms took 3% of a core per browser, all the
#: while the clock was armed; every 500 ms, 0.3%).
TICK_MS = 500
#: How long one arming keeps the clock ticking, in seconds: a guarded block re-arms it only
#: when it would run out, so that most blocks cost no round trip, and an idle env stops ticks.
ARM_SECONDS = 60.0
#: Seconds between two overrun calls of a block that stays stuck.
RETRY_SECONDS = 1.0
#: Seconds the clock page may take to open.
OPEN_SECONDS = 30.0

_ARM_JS = """([tick, span]) => {
  window.__until = Date.now() + span;
  if (!window.__ticking) {
    window.__ticking = setInterval(() => {
      if (Date.now() <= window.__until) { console.debug("tick"); return; }
      clearInterval(window.__ticking);
      window.__ticking = 0;
    }, tick);
  }
}"""


@dataclass
class _Guard:
    deadline: float
    on_overrun: Callable[[], None]


class Watchdog:
    """One per browser: a clock page, and the guarded blocks now running."""

    def __init__(self, browser: Browser):
        self._browser = browser
        self._context: BrowserContext | None = None
        self._page: Page | None = None
        self._armed_until = 0.0
        self._guards: list[_Guard] = []
        self._open_clock()

    def _open_clock(self) -> Page:
        """Open the clock page: at the start, and again when its renderer crashed (killed for
        memory, say), since without ticks no guarded block would ever overrun."""
        old, self._page, self._armed_until = self._page, None, 0.0
        if self._context is not None:
            with contextlib.suppress(PlaywrightError):
                self._page = open_page(self._context, OPEN_SECONDS)
        if self._page is None:
            self._context = self._browser.new_context()
            self._page = open_page(self._context, OPEN_SECONDS)
        page = self._page
        page.on("console", self._tick)
        page.on("crash", self._crashed)
        if old is not None:
            with contextlib.suppress(PlaywrightError):
                old.close()
        return page

    def _crashed(self, page: Page) -> None:
        # The block under way, if any, is timed again by a new clock.
        if page is not self._page:
            return
        with contextlib.suppress(PlaywrightError):
            self._open_clock()
            if self._guards:
                self._arm(max(guard.deadline for guard in self._guards) - time.monotonic())

    @contextlib.contextmanager
    def guard(self, seconds: float, on_overrun: Callable[[], None]) -> Iterator[None]:
        """Run the block; if it is still running after ``seconds``, call ``on_overrun``."""
        guard = _Guard(time.monotonic() + seconds, on_overrun)
        self._arm(seconds)
        self._guards.append(guard)
        try:
            yield
        finally:
            self._guards.remove(guard)

    def _arm(self, seconds: float) -> None:
        now = time.monotonic()
        if now + seconds + RETRY_SECONDS * 5 < self._armed_until:
            return
        span = max(ARM_SECONDS, seconds + RETRY_SECONDS * 10)
        for attempt in range(2):
            try:
                page = self._page
                if attempt or page is None:  # the clock page crashed between two blocks
                    page = self._open_clock()
                page.evaluate(_ARM_JS, [TICK_MS, span * 1000])
            except PlaywrightError:
                continue
            self._armed_until = now + span
            return
        # The browser is gone: the guarded calls fail on their own.

    def _tick(self, _: ConsoleMessage) -> None:
        now = time.monotonic()
        for guard in list(self._guards):
            if now >= guard.deadline:
                guard.deadline = now + RETRY_SECONDS
                with contextlib.suppress(PlaywrightError):
                    guard.on_overrun()


_watchdogs: weakref.WeakKeyDictionary[Browser, Watchdog] = weakref.WeakKeyDictionary()


def watchdog_for(browser: Browser) -> Watchdog:
    """The browser's watchdog, started on first use (it closes with the browser)."""
    watchdog = _watchdogs.get(browser)
    if watchdog is None:
        watchdog = _watchdogs[browser] = Watchdog(browser)
    return watchdog

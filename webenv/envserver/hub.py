"""One thread that owns the server's Playwright and Chromium, and runs every session's work.

Playwright's sync API belongs to the thread that started it, and gives each thread a
Chromium of its own (:mod:`webenv.browser`). So that every session shares one Chromium, all
browser work of the server runs in one thread, the hub's: request handlers hand it a
function with :meth:`BrowserHub.submit` and await the returned future. The hub runs each
function in a greenlet of its own (:class:`webenv.ahead.Ahead`), as the vector env does, so
that while one session waits for Chromium, the others' calls go on.

The hub launches Chromium in its own main greenlet, before any session's greenlet starts,
and launches it again there when it died (a crash, a kill), once the jobs that were running
have ended, so that the sessions share one launch rather than each making its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from ..ahead import Ahead
from ..browser import acquire_browser, quiet_unawaited_closes, release_browser
from ..errors import WebEnvError
from ..watchdog import watchdog_for

T = TypeVar("T")

_STOP = object()


def _quiet_once_the_driver_is_gone(
    loop: asyncio.AbstractEventLoop, context: dict[str, Any]
) -> None:
    """The loop's handler of errors nobody awaited, once the driver has gone: Playwright's own
    record of the lost connection is one of them, and says nothing :class:`BrowserHub` has not
    already handled."""
    if "Connection closed" in str(context.get("exception")):
        return
    quiet_unawaited_closes(loop, context)


class BrowserHub:
    """The thread of the server's browser work; see the module docstring."""

    def __init__(self, headless: bool = True):
        self.headless = headless
        #: How many times Chromium was launched (1 at start; more after crashes).
        self.launches = 0
        #: Chromium's version, once launched.
        self.browser_version = ""
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._browser: Browser | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Future[None] | None = None
        self._running: set[Ahead[None]] = set()
        self._started = threading.Event()
        self._start_error: BaseException | None = None
        self._stopped = False
        #: Set by the thread as it ends, under ``_exit_lock``: no job is taken after it.
        self._exited = False
        self._exit_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="webenv-envserver", daemon=True)

    # -- any thread ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the thread and launch Chromium; raise if it cannot be launched."""
        self._thread.start()
        self._started.wait()
        if self._start_error is not None:
            raise self._start_error

    def submit(self, work: Callable[[], T], cleanup: bool = False) -> Future[T]:
        """Run ``work`` (browser calls allowed) in the hub's thread; its result, later.

        Once :meth:`stop` was called, only ``cleanup`` work (closing a session) is taken, until
        the thread ends: a session whose request outlived its bound is closed when the request
        ends, even if that is after the server began to shut down.
        """
        future: Future[T] = Future()
        with self._exit_lock:
            if self._exited or (self._stopped and not cleanup):
                future.set_exception(WebEnvError("The env server is shutting down."))
                return future
            self._jobs.put((work, future))
        self._poke()
        return future

    @property
    def connected(self) -> bool:
        """Whether Chromium is up (False before start, after a crash until the next job)."""
        browser = self._browser
        return browser is not None and browser.is_connected()

    @property
    def inflight(self) -> int:
        """Jobs now running in the hub (started, not finished)."""
        return len(self._running)

    def stop(self, timeout: float = 30.0) -> None:
        """Run what is queued, then close Chromium and end the thread."""
        if self._stopped or not self._thread.is_alive():
            self._stopped = True
            return
        self._stopped = True
        self._jobs.put(_STOP)
        self._poke()
        self._thread.join(timeout)

    def _poke(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop just closed
                loop.call_soon_threadsafe(self._wake_up)

    # -- the hub's thread ---------------------------------------------------------------

    def _wake_up(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    def _browser_up(self) -> Browser:
        """The hub's Chromium, launched again if it died (in this, the main greenlet)."""
        if self._browser is None or not self._browser.is_connected():
            browser = acquire_browser(self.headless)
            if self._browser is not None:
                release_browser(self._browser)
            self._browser = browser
            self._loop = browser._loop  # type: ignore[attr-defined]
            watchdog_for(browser)
            self.launches += 1
            self.browser_version = browser.version
        return self._browser

    def _run(self) -> None:
        try:
            browser = self._browser_up()
        except BaseException as error:
            self._start_error = error
            self._started.set()
            return
        self._started.set()
        stopping = False
        held: list[Any] = []
        try:
            while True:
                self._wake = browser._loop.create_future()  # type: ignore[attr-defined]
                jobs = held + self._take_jobs()
                if _STOP in jobs:
                    stopping = True
                    jobs = [job for job in jobs if job is not _STOP]
                # A Chromium that died is launched again only once no job is running: a job
                # still unwinding from the crash lets go of the old one first.
                held = jobs if jobs and self._running and not browser.is_connected() else []
                if jobs and not held:
                    browser = self._browser_up()
                    for work, future in jobs:
                        self._start_job(browser, work, future)
                if stopping and not self._running and not held and self._exit():
                    break
                if not jobs or held or stopping:
                    try:
                        browser._sync(self._wake)  # type: ignore[attr-defined]
                    except PlaywrightError:
                        # Only Playwright's connection failing ends a wait on the hub's own
                        # future: its driver is gone (a Ctrl-C at a terminal reaches every
                        # process of the command, the driver too), and nothing runs without it.
                        self._driver_gone()
                        break
        finally:
            self._running.clear()
            if self._browser is not None:
                release_browser(self._browser)
                self._browser = None
            self._loop = None

    def _driver_gone(self) -> None:
        """End the hub for good: what is queued, and anything submitted later, fails."""
        with self._exit_lock:
            self._exited = True
            gone = [job for job in self._take_jobs() if job is not _STOP]
        for _, future in gone:
            if future.set_running_or_notify_cancel():
                future.set_exception(WebEnvError("The env server's browser driver has gone."))
        if self._loop is not None:
            self._loop.set_exception_handler(_quiet_once_the_driver_is_gone)

    def _exit(self) -> bool:
        """End the thread's loop, unless a job came in since it last looked."""
        with self._exit_lock:
            if not self._jobs.empty():
                return False
            self._exited = True
            return True

    def _take_jobs(self) -> list[Any]:
        jobs = []
        while True:
            try:
                jobs.append(self._jobs.get_nowait())
            except queue.Empty:
                return jobs

    def _start_job(self, browser: Browser, work: Callable[[], Any], future: Future[Any]) -> None:
        if not future.set_running_or_notify_cancel():
            return
        holder: list[Ahead[None]] = []

        def run() -> None:
            try:
                future.set_result(work())
            except BaseException as error:
                future.set_exception(error)
            finally:
                if holder:
                    self._running.discard(holder[0])
                self._wake_up()

        ahead = Ahead(browser, run)
        if not ahead.ready:
            holder.append(ahead)
            self._running.add(ahead)


def cores() -> int:
    """The machine's cores, for the load per core that ``/health`` shows."""
    return os.cpu_count() or 1

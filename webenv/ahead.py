"""Browser work started now and finished in the background of the thread's later browser calls.

Playwright's sync API blocks each call by switching to its dispatcher greenlet, which runs the
event loop until the call's result arrives (see :mod:`webenv.dialog_guard`). :class:`Ahead`
runs a function of browser calls in a greenlet of its own and returns to the caller once
the first call is on its way; the dispatcher resumes the greenlet whenever one of its
calls has answered, while it serves the caller's own calls. So Chromium does the work (a
new context and tab, say) while the caller goes on with an episode, and :meth:`result`
is there at once when it is needed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

import greenlet
from playwright.sync_api import Browser

T = TypeVar("T")


class Ahead(Generic[T]):
    """``make()`` (calls into ``browser``), started now; :meth:`result` waits for it."""

    def __init__(self, browser: Browser, make: Callable[[], T]):
        self.browser = browser
        self._loop: asyncio.AbstractEventLoop = browser._loop  # type: ignore[attr-defined]
        self._done: asyncio.Future[None] = self._loop.create_future()
        self._value: T | None = None
        self._error: BaseException | None = None
        caller = greenlet.getcurrent()

        def run() -> None:
            try:
                self._value = make()
            except BaseException as error:  # kept for result(); nobody else is waiting
                self._error = error
            finally:
                if not self._done.done():
                    self._done.set_result(None)

        worker = greenlet.greenlet(run)

        def release() -> None:
            # A loop callback, so in the dispatcher greenlet: from now on the worker resumes
            # there, and its end returns there too; the caller goes on.
            if not worker.dead:
                worker.parent = greenlet.getcurrent()
                caller.switch()

        # Released one loop turn later: the first call's message is sent by then.
        self._loop.call_soon(self._loop.call_soon, release)
        worker.switch()

    @property
    def ready(self) -> bool:
        return self._done.done()

    def result(self) -> T:
        """What ``make()`` returned (waiting for it if need be), or its error raised."""
        if not self._done.done():
            self.browser._sync(self._done)  # type: ignore[attr-defined]
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

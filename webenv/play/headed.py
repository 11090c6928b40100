"""The headed mode: a person uses the env's own Chromium window; what they do becomes actions.

An init script (``capture.js``) stops each click on an element and reports it, with typed
text (on ``change``), Enter in a text field and ``<select>`` choices, through a binding. The
Python side lets the browser run in short slices (``wait_for_timeout``) and, between them,
runs each report through ``env.step`` as the action an agent would send (``click("12")``,
``fill("7", "text")``…), so the record is a demonstration in the agents' own format and the
action's effect happens once, by the env. Playwright is never called from inside the
binding's callback: reports only queue up.
"""

from __future__ import annotations

import contextlib
import queue
from collections import deque
from collections.abc import Callable
from importlib import resources
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from ..env import unwrap
from ..session import Session
from .session import PlayError, PlaySession, format_action

CAPTURE_JS = resources.files("webenv.play").joinpath("js/capture.js").read_text(encoding="utf-8")
#: The binding the capture script reports through.
BINDING = "__webenvPlayEmit"
_PAUSE_JS = "paused => { if (window.__webenvPlay) window.__webenvPlay.paused = paused; }"
#: Longest text a report may carry (a field's value), as the action parser allows.
MAX_VALUE = 4000


def action_of(report: Any) -> str | None:
    """The action string of one report of the capture script (None for a malformed one)."""
    if not isinstance(report, dict):
        return None
    kind, bid = report.get("kind"), report.get("id")
    if kind == "mouse_click":
        x, y = report.get("x"), report.get("y")
        if all(isinstance(v, int | float) and abs(v) < 1e6 for v in (x, y)):
            return format_action("mouse_click", round(float(x), 1), round(float(y), 1))  # type: ignore[arg-type]
        return None
    if not (isinstance(bid, str) and bid.isdigit()):
        return None
    if kind == "click":
        return format_action("click", bid)
    if kind == "fill" and isinstance(report.get("value"), str):
        return format_action("fill", bid, report["value"][:MAX_VALUE])
    if kind == "press" and report.get("key") == "Enter":
        return format_action("press", bid, "Enter")
    values = report.get("values")
    if kind == "select" and isinstance(values, list) and all(isinstance(v, str) for v in values):
        chosen: str | list[str] = values if report.get("multiple") else (values or [""])[0]
        return format_action("select_option", bid, chosen)
    return None


class HeadedPlay:
    """Captures a person's actions in the env's browser window and runs them through the env.

    ``commands`` takes action strings from other threads (a terminal prompt's answer, say);
    ``on_step`` is called with the new state after every step.
    """

    def __init__(
        self,
        session: PlaySession,
        on_step: Callable[[dict[str, Any]], None] | None = None,
    ):
        self.session = session
        self.on_step = on_step
        self.commands: queue.Queue[str] = queue.Queue()
        self._reports: deque[Any] = deque()
        self._install()

    @property
    def browser(self) -> Session | None:
        """The env's browser session (None once the browser has gone)."""
        return unwrap(self.session.env).browser_session

    def _install(self) -> None:
        browser = self.browser
        if browser is None:
            raise PlayError("The episode has no browser; reset it before capturing.")
        browser.context.expose_binding(BINDING, self._received)
        browser.context.add_init_script(CAPTURE_JS)
        for page in browser.pages:  # already loaded: init scripts reach only new documents
            for frame in page.frames:
                with contextlib.suppress(PlaywrightError):
                    frame.evaluate(CAPTURE_JS)

    def _received(self, source: Any, report: Any) -> None:
        self._reports.append(report)  # only queued: Playwright may not be called from here

    def closed(self) -> bool:
        """Whether the person closed every tab (or the browser went away)."""
        browser = self.browser
        if browser is None:
            return True
        try:
            pages = [page for page in browser.pages if not page.is_closed()]
        except PlaywrightError:
            return True
        if pages and browser.page.is_closed():
            browser.page = pages[-1]  # the active tab was closed: carry on in another
        return not pages

    def pump(self, milliseconds: float = 50) -> bool:
        """Let the browser run for ``milliseconds``, then run what the person did.

        False once the episode is over or the window closed.
        """
        if self.session.done or self.closed():
            return False
        assert self.browser is not None
        with contextlib.suppress(PlaywrightError):  # the tab closed meanwhile: seen next time
            self.browser.page.wait_for_timeout(milliseconds)
        while not self.session.done:
            action = self._next_action()
            if action is None:
                break
            self.run(action)
        return not (self.session.done or self.closed())

    def run(self, action: str) -> dict[str, Any] | None:
        """Run ``action`` through the env with the capture paused (the env's own clicks and
        keys must reach the page); the new state, or None if the action was refused."""
        url = self.session.observation.get("url")
        self._pause(True)
        try:
            state = self.session.act(action)
        except PlayError as error:
            state = {**self.session.state(), "error": str(error), "refused": action}
        finally:
            self._pause(False)
        if state.get("url") != url:
            self._reports.clear()  # made on the page before: their ids name other elements
        if self.on_step is not None:
            self.on_step(state)
        return state if "refused" not in state else None

    def _next_action(self) -> str | None:
        while self._reports:
            action = action_of(self._reports.popleft())
            if action is not None:
                return action
        try:
            return self.commands.get_nowait()
        except queue.Empty:
            return None

    def _pause(self, paused: bool) -> None:
        browser = self.browser
        if browser is None or browser.dialog is not None:
            return  # a page holding a dialog takes no script, and no click either
        for page in browser.pages:
            for frame in page.frames:
                with contextlib.suppress(PlaywrightError):
                    frame.evaluate(_PAUSE_JS, paused)

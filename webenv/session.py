"""One episode's browser context: tabs, JS dialogs, origin guard, settling and observing.

A fresh, isolated Playwright context per episode (cookies, storage, cache all new) in the
process's shared Chromium. Only the world's origins are reachable: the context aborts every
other request, and ``goto`` refuses other URLs before the browser sees them.
"""

from __future__ import annotations

import contextlib
import io
import re
import time
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any

import numpy as np
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Dialog, Page
from playwright.sync_api import Error as PlaywrightError

from .errors import ActionError

OBSERVE_JS = resources.files("webenv").joinpath("js/observe.js").read_text(encoding="utf-8")

#: How long the DOM must stay unchanged before a page counts as settled.
QUIET_MS = 25
_MAX_SETTLE_ROUNDS = 8
_SETTLE_JS = """async ([quiet, most, options]) => {
  if (!window.__webenv) return null;
  await window.__webenv.settle(quiet, most);
  return options ? window.__webenv.observe(options) : null;
}"""


@dataclass(frozen=True)
class Timeouts:
    """Bounds, in milliseconds, on every wait of an episode."""

    action: float = 5000
    navigation: float = 10000
    settle: float = 5000


DEFAULT_TIMEOUTS = Timeouts()


class Session:
    """A browser context for one episode, reaching only ``origins``."""

    def __init__(
        self,
        browser: Browser,
        origins: list[str],
        *,
        now: datetime,
        viewport: tuple[int, int] = (1280, 720),
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        cookies: list[dict[str, Any]] = (),  # type: ignore[assignment]
        server_idle: Any = None,
    ):
        self.origins = [origin.rstrip("/") for origin in origins]
        self.timeouts = timeouts
        self.dialog: Dialog | None = None
        self._server_idle = server_idle
        self.context: BrowserContext = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            accept_downloads=False,
            service_workers="block",
            locale="en-US",
            timezone_id="UTC",
            reduced_motion="reduce",
        )
        try:
            self.context.set_default_timeout(timeouts.action)
            self.context.set_default_navigation_timeout(timeouts.navigation)
            self.context.clock.set_fixed_time(now)
            self.context.add_init_script(OBSERVE_JS)
            outside = "|".join(re.escape(origin) for origin in self.origins)
            self.context.route(re.compile(rf"^(?!(?:{outside})(?:/|$))"), _refuse)
            if cookies:
                self.context.add_cookies(cookies)
            self.context.on("page", self._adopt)
            self.page = self.context.new_page()
        except BaseException:
            self.context.close()
            raise

    # -- tabs and dialogs ---------------------------------------------------------------

    @property
    def pages(self) -> list[Page]:
        return self.context.pages

    def _adopt(self, page: Page) -> None:
        """Every new tab or pop-up window becomes the active one, as in a browser."""
        page.on("dialog", self._hold_dialog)
        self.page = page

    def _hold_dialog(self, dialog: Dialog) -> None:
        # Held open until the agent accepts or dismisses it; the page waits meanwhile.
        self.dialog = dialog

    def answer_dialog(self, accept: bool, prompt_text: str = "") -> None:
        if self.dialog is None:
            raise ActionError("No dialog is open.")
        dialog, self.dialog = self.dialog, None
        if accept:
            dialog.accept(prompt_text) if dialog.type == "prompt" else dialog.accept()
        else:
            dialog.dismiss()

    def focus_tab(self, index: int) -> None:
        if not 0 <= index < len(self.pages):
            raise ActionError(f"No tab {index}; tabs are 0 to {len(self.pages) - 1}.")
        self.page = self.pages[index]
        self.page.bring_to_front()

    def close_tab(self) -> None:
        index = self.pages.index(self.page)
        self.page.close()
        if not self.pages:
            self.page = self.context.new_page()
        self.page = self.pages[min(index, len(self.pages) - 1)]

    # -- navigation ---------------------------------------------------------------------

    def check_url(self, url: str) -> str:
        """``url`` if it belongs to the world, else an :class:`ActionError` saying why."""
        if any(url == origin or url.startswith(origin + "/") for origin in self.origins):
            return url
        if url.startswith("/"):
            return self.page_origin() + url
        raise ActionError(
            f"Cannot open {url[:200]!r}: only the world's sites are reachable "
            f"({', '.join(origin + '/' for origin in self.origins)})."
        )

    def page_origin(self) -> str:
        url = self.page.url
        for origin in self.origins:
            if url == origin or url.startswith(origin + "/"):
                return origin
        return self.origins[0]

    def goto(self, url: str) -> None:
        self.page.goto(self.check_url(url), wait_until="load")

    # -- settling and observing ---------------------------------------------------------

    def settle(self, observe: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """Wait until the page has loaded, its DOM is quiet and our server is idle; then, with
        ``observe`` options, observe the page in the same round trip.

        Event-driven, with no fixed sleep; bounded by ``timeouts.settle``. Returns the
        observation, or None when none was asked for or the page could not give one.
        """
        deadline = time.monotonic() + self.timeouts.settle / 1000
        result = None
        for _ in range(_MAX_SETTLE_ROUNDS):
            if self.dialog is not None:
                return None
            page = self.page
            remaining_ms = max(1.0, (deadline - time.monotonic()) * 1000)
            try:
                page.wait_for_load_state("load", timeout=remaining_ms)
                result = page.evaluate(_SETTLE_JS, [QUIET_MS, remaining_ms, observe])
            except PlaywrightError as error:
                if time.monotonic() < deadline and not page.is_closed() and _is_navigation(error):
                    continue  # the page navigated away while we waited: wait for the new one
                return None
            if self._server_idle is not None and not self._server_idle(0):
                # A request is still being served (a fetch, a late navigation): wait for it,
                # then settle and look again.
                self._server_idle(max(0.0, deadline - time.monotonic()))
                continue
            if page is self.page:
                return result
        return result

    def observe(self, **options: Any) -> dict[str, Any]:
        """The page's axtree text (and pruned DOM, element boxes) with element ids."""
        script = "options => window.__webenv.observe(options)"
        try:
            return self.page.evaluate(script, options)  # type: ignore[no-any-return]
        except PlaywrightError:
            # A page the init script could not reach (an error page): install it now.
            self.page.evaluate(OBSERVE_JS)
            return self.page.evaluate(script, options)  # type: ignore[no-any-return]

    def screenshot(self) -> np.ndarray:
        """The viewport as an H×W×3 uint8 array."""
        png = self.page.screenshot(type="png", animations="disabled", caret="hide")
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    def close(self) -> None:
        with contextlib.suppress(PlaywrightError):  # the browser is gone, and the context too
            self.context.close()


def _refuse(route: Any) -> None:
    route.abort("blockedbyclient")


def _is_navigation(error: PlaywrightError) -> bool:
    message = str(error)
    return "Execution context was destroyed" in message or "navigation" in message.lower()

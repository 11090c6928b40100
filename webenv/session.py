"""One episode's browser context: tabs, JS dialogs, origin guard, settling and observing.

A fresh, isolated Playwright context per episode (cookies, storage, cache all new) in the
process's shared Chromium. Only the world's origins are reachable: every request of the context
(each redirect hop, subresource, fetch, WebSocket, pop-up) goes through the world's own server
as its proxy, which answers nothing but the world's origins (see :mod:`webenv.server`); and
``goto`` refuses other URLs (``file:``, ``chrome:`` …) before the browser sees them.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, CDPSession, Dialog, Page, Request
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .browser import open_page
from .dialog_guard import until_dialog
from .errors import ActionError, WebEnvError
from .limits import DEFAULT_LIMITS, Limits
from .watchdog import watchdog_for

OBSERVE_JS = resources.files("webenv").joinpath("js/observe.js").read_text(encoding="utf-8")

#: How long the DOM must stay unchanged before a page counts as settled.
QUIET_MS = 25
_MAX_SETTLE_ROUNDS = 8
#: Settles the page (see ``settle`` in js/observe.js), then observes it in the same round
#: trip: ``[settled, observation]``, ``settled`` false when the wait ended at its bound
#: rather than on a loaded, quiet page.
_SETTLE_JS = """async ([quiet, most, options, since, untouched]) => {
  if (!window.__webenv) return null;
  const started = performance.now();
  await window.__webenv.settle(quiet, most, since, untouched);
  const settled = performance.now() - started < most && document.readyState === "complete";
  return [settled, options ? window.__webenv.observe(options) : null];
}"""

#: Whether a screenshot taken now could show a blinking caret or a moment of an animation:
#: focus in a text control (or in a frame or shadow root, which may hold one), or a running
#: animation.
_UNSTEADY_JS = """() => {
  const el = document.activeElement;
  const caret = !!el && (el.isContentEditable || !!el.shadowRoot
    || ["INPUT", "TEXTAREA", "IFRAME", "SELECT"].includes(el.tagName));
  return caret || document.getAnimations().some((a) => a.playState === "running");
}"""
_CAPTURE = {"format": "png", "optimizeForSpeed": True}
#: Each document may open at most so many windows (then ``window.open`` returns null, as a
#: pop-up blocker's does): a script opening tabs in a loop makes Chromium build every one of
#: them before the session can close those past the bound.
_WINDOW_BUDGET_JS = """(() => {
  const open = window.open;
  let left = %d;
  window.open = function (...args) {
    if (left <= 0) return null;
    left -= 1;
    return open.apply(this, args);
  };
})();"""
#: What an episode types into: a text field holds at most ``Limits.field_chars`` characters
#: where its page sets no bound of its own (``maxlength``, which typing, ``fill`` and pasting
#: all respect), set as it takes the focus, before any text goes in (without it a paste
#: doubling a field's text, step after step, grew a renderer past 5 GB); a field that ignores
#: ``maxlength`` (a number field) is cut back to the bound as text goes in, and takes no
#: insertion longer than any number (past its bound it holds text its value does not show).
#:
#: And the browser's own clipboard is never read or written: Chromium keeps one for the whole
#: browser, across contexts, so an episode could paste what another env's episode (or its own
#: previous one) had copied. Every copy, cut and paste the browser itself would do (whatever
#: key does it: "Control+C", "Control+KeyV", "Shift+Numpad0", a middle click pasting the
#: selection) is cancelled in the page; the key chords of copy, cut and paste use the
#: episode's own clipboard instead (see ``press`` in :mod:`webenv.execute`). A middle click on
#: a link still opens it in a new tab.
_EDITING_JS = """(() => {
  const most = %d;
  const isField = (el) => el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement;
  document.addEventListener("focusin", (event) => {
    const el = event.target;
    if (isField(el) && el.maxLength < 0) el.maxLength = most;
  }, true);
  document.addEventListener("beforeinput", (event) => {
    const el = event.target;
    const number = el instanceof HTMLInputElement && el.type === "number";
    if (number && event.data && event.data.length > 64) event.preventDefault();
  }, true);
  document.addEventListener("input", (event) => {
    const el = event.target;
    if (isField(el) && el.value.length > most) el.value = el.value.slice(0, most);
  }, true);
  for (const type of ["copy", "cut", "paste"]) {
    window.addEventListener(type, (event) => {
      if (!event.isTrusted) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    }, true);
  }
  window.addEventListener("mouseup", (event) => {
    if (event.button === 1) event.preventDefault();
  }, true);
})();"""
#: A document opens no JavaScript dialog any more (past :class:`Limits`' bound).
_NO_DIALOGS_JS = """() => {
  window.alert = () => undefined;
  window.confirm = () => false;
  window.prompt = () => null;
}"""


#: The environment variable that multiplies every timeout (e.g. ``3`` on a slow machine);
#: unset, each episode multiplies the default ones by the machine's measured load
#: (:func:`timeout_scale`).
TIMEOUT_SCALE_VAR = "WEBENV_TIMEOUT_SCALE"
#: The most the measured load stretches the default timeouts.
MAX_LOAD_SCALE = 4.0
#: Where Linux says how long processes waited for a core (pressure stall information).
_CPU_PRESSURE = "/proc/pressure/cpu"


@dataclass(frozen=True)
class Timeouts:
    """Bounds, in milliseconds, on every wait of an episode: an action's own waits, a page
    load, and the settling of the page after an action. Each episode stretches them by
    ``WEBENV_TIMEOUT_SCALE``, or, for the default ones, by the machine's load (see
    :meth:`scaled`), so that a busy machine does not turn a slow page into a fault."""

    action: float = 5000
    navigation: float = 10000
    settle: float = 5000

    def scaled(self, factor: float | None = None) -> Timeouts:
        """These timeouts times ``factor`` (default: :func:`timeout_scale` now, measuring the
        load only for the default timeouts: ones given are kept as given)."""
        if factor is None:
            factor = timeout_scale(measure=self == DEFAULT_TIMEOUTS)
        return Timeouts(self.action * factor, self.navigation * factor, self.settle * factor)


DEFAULT_TIMEOUTS = Timeouts()


def timeout_scale(measure: bool = True) -> float:
    """How much to stretch the timeouts: ``WEBENV_TIMEOUT_SCALE`` if set, else (with
    ``measure``) the machine's load: processes wanting a core (the last minute's load
    average) per core, or the slowdown the last ten seconds' CPU pressure implies
    (:func:`cpu_pressure`), whichever is more, at least 1 and at most 4; else 1."""
    raw = os.environ.get(TIMEOUT_SCALE_VAR, "").strip()
    if raw:
        try:
            factor = float(raw)
        except ValueError:
            factor = 0.0
        if not 0 < factor < float("inf"):
            raise WebEnvError(
                f"{TIMEOUT_SCALE_VAR}={raw!r} is not a positive number; give the factor to "
                f"multiply every timeout by, e.g. {TIMEOUT_SCALE_VAR}=3."
            )
        return factor
    if not measure:
        return 1.0
    try:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:  # no load average on this platform
        load = 1.0
    # The load average follows a burst (eight envs launching at once) only over a minute;
    # the kernel's CPU pressure, over ten seconds: the share of time some process waited
    # for a core, which slows a page by about 1 / (1 - share).
    share = cpu_pressure()
    if share is not None:
        load = max(load, 1.0 / max(1.0 - share, 1.0 / MAX_LOAD_SCALE))
    return min(max(load, 1.0), MAX_LOAD_SCALE)


def cpu_pressure() -> float | None:
    """The share of the last ten seconds in which some runnable process waited for a core
    (Linux's ``/proc/pressure/cpu``, 0 to 1), or None where the kernel does not say."""
    try:
        with open(_CPU_PRESSURE, encoding="ascii") as pressure:
            first = pressure.readline().split()
    except OSError:
        return None
    fields = dict(item.split("=", 1) for item in first[1:] if "=" in item)
    try:
        return min(max(float(fields["avg10"]) / 100, 0.0), 1.0)
    except (KeyError, ValueError):
        return None


#: The address of a tab that shows no page yet.
_BLANK = ("", "about:blank")
#: The time a blank context's clock shows until its session sets the episode's.
_UNSET_TIME = datetime(2000, 1, 1)
#: A fresh browser context and its one blank tab.
Blank = tuple[BrowserContext, Page]


def world_proxy(origins: list[str]) -> str:
    """The proxy that answers the world of ``origins`` (``http://<site>.localhost:<port>``,
    all served by one :class:`~webenv.server.SiteServer`): that server, on loopback."""
    ports = {urlsplit(origin).port for origin in origins}
    hosts = [urlsplit(origin).hostname or "" for origin in origins]
    if len(ports) != 1 or None in ports or not all(h.endswith(".localhost") for h in hosts):
        raise WebEnvError(
            f"The world's origins {origins} must be http://<site>.localhost:<port> of one "
            "SiteServer (its port is the browser's proxy); pass proxy= to say which server."
        )
    return f"http://127.0.0.1:{ports.pop()}"


def blank_context(
    browser: Browser, viewport: tuple[int, int] = (1280, 720), *, proxy: str
) -> Blank:
    """A new isolated context (cookies, storage and cache all new) with one blank tab, its
    clock installed (:class:`Session` sets the time) and the observation script in place;
    what depends on the episode comes later, so it can be made ahead of time.

    Every request of the context goes through ``proxy`` (the world's
    :attr:`~webenv.server.SiteServer.proxy`), loopback ones too: Chromium sends those
    direct unless the bypass list says ``<-loopback>``, which is given here rather than left
    to Playwright (which adds it only unless an environment variable says otherwise).
    """
    context = browser.new_context(
        proxy={"server": proxy, "bypass": "<-loopback>"},
        viewport={"width": viewport[0], "height": viewport[1]},
        accept_downloads=False,
        service_workers="block",
        locale="en-US",
        timezone_id="UTC",
        reduced_motion="reduce",
    )
    try:
        # Installing the clock before the first tab costs nothing; setting it later, little.
        context.clock.set_fixed_time(_UNSET_TIME)
        context.add_init_script(OBSERVE_JS)
        return context, open_page(context, DEFAULT_TIMEOUTS.scaled().navigation / 1000)
    except BaseException:
        context.close()
        raise


class Session:
    """A browser context for one episode, reaching only ``origins``.

    Its requests go through ``proxy`` (by default the server of ``origins``, see
    :func:`world_proxy`); a ``blank`` context made ahead must have been made with that proxy.
    """

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
        trace_path: str | Path | None = None,
        blank: Blank | None = None,
        limits: Limits = DEFAULT_LIMITS,
        proxy: str | None = None,
    ):
        self.origins = [origin.rstrip("/") for origin in origins]
        proxy = proxy if proxy is not None else world_proxy(self.origins)
        #: Where :meth:`close` saves a Playwright trace of the context (None: no tracing).
        self.trace_path = Path(trace_path) if trace_path is not None else None
        self.timeouts = timeouts
        self.dialog: Dialog | None = None
        #: Why the watchdog closed the tabs during the current step ("" if it did not).
        self.interrupted = ""
        #: The version of the document the last observation saw (see ``settle``).
        self.version: str | None = None
        self.limits = limits
        #: The episode's clipboard (see ``press`` in :mod:`webenv.execute`).
        self.clipboard = ""
        #: What a bound cut short during the current step ("" if nothing): a bound of
        #: ``limits`` refused something, or the page did not settle within ``timeouts``.
        self.limited = ""
        #: Why the last :meth:`settle` ended at its bound with the page not settled ("" if
        #: it settled): its observation may show the page half-done.
        self.unsettled = ""
        #: When the current step's :meth:`settle` reaches its bound (None before it runs):
        #: observing and the screenshot after it share the ``action`` bound past it, so that
        #: a step's look stays within what :meth:`bounded` gives it.
        self._settle_until: float | None = None
        #: Set by :meth:`start_at` until the start page has settled: a start page that does
        #: not settle in time stops the reset (``interrupted``) rather than being observed.
        self._starting = False
        self._dialogs_in_step: Counter[Page] = Counter()
        self._dialogs_in_document: Counter[Page] = Counter()
        #: Tabs whose document's dialogs are dismissed as they open, past a bound.
        self._muted: set[Page] = set()
        #: Set while the session itself opens a tab (never closed for the tabs' bound).
        self._opening = False
        #: Tabs a page opened past the bound, being closed.
        self._closing: set[Page] = set()
        #: The blank tab that replaced stuck ones in the current bounded block, if any.
        self._fresh: Page | None = None
        self._cdp_sessions: dict[Page, CDPSession] = {}
        #: Each tab's DevTools target id, once asked; and the windows waited for to the settle
        #: bound that never came, not waited for again.
        self._target_ids: dict[Page, str] = {}
        self._waited_out: set[str] = set()
        self._server_idle = server_idle
        #: Each tab's navigation requests the browser has begun and not yet had answered:
        #: a navigation a page's script began may wait in the browser (a busy machine, a slow
        #: network) before it reaches our server, while the old document looks settled.
        self._navigating: dict[Page, set[Request]] = {}
        #: Futures resolved when a tab's last navigation request in flight ends.
        self._navigation_waiters: dict[Page, list[asyncio.Future[None]]] = {}
        #: Navigations that failed in a tab showing no page yet, or before the browser had made
        #: their tab (a link to a file opened in a new tab: the file became a download,
        #: refused), counted.
        self._blank_failures = 0
        self._watchdog = watchdog_for(browser)
        #: A context of its own (``blank``, made ahead of time by :func:`blank_context`, or a
        #: new one), with its first tab.
        self.context, self.page = (
            blank if blank is not None else blank_context(browser, viewport, proxy=proxy)
        )
        try:
            self.context.set_default_timeout(timeouts.action)
            self.context.set_default_navigation_timeout(timeouts.navigation)
            self.context.clock.set_fixed_time(now)
            # One script, one round trip to the browser at each reset.
            self.context.add_init_script(
                _WINDOW_BUDGET_JS % limits.tabs + "\n" + _EDITING_JS % limits.field_chars
            )
            if cookies:
                self.context.add_cookies(cookies)  # type: ignore[arg-type]
            self.context.on("page", self._adopt)
            self.context.on("request", self._request_began)
            self.context.on("requestfinished", self._request_ended)
            self.context.on("requestfailed", self._request_ended)
            self._adopt(self.page)
            if self.trace_path is not None:
                self.context.tracing.start(screenshots=True, snapshots=True)
        except BaseException:
            self.context.close()
            raise

    # -- tabs and dialogs ---------------------------------------------------------------

    @property
    def pages(self) -> list[Page]:
        """The open tabs (not those being closed for the tabs' bound)."""
        return [page for page in self.context.pages if page not in self._closing]

    def begin_step(self) -> None:
        """A new step: its dialogs are counted from zero, and nothing was refused yet."""
        self.interrupted = self.limited = ""
        self.looked()
        self._dialogs_in_step.clear()

    def _adopt(self, page: Page) -> None:
        """Every new tab or pop-up window becomes the active one, as in a browser; past
        ``limits.tabs``, a tab a page opens is closed at once."""
        page.on("dialog", self._hold_dialog)
        page.on("framenavigated", lambda frame: self._navigated(page, frame))
        page.on("close", self._closed)
        if len(self.pages) > self.limits.tabs and not self._opening:
            self.limited = (
                f"The page tried to open more than {self.limits.tabs} tabs, the most an episode "
                "may have open; the extra tabs were closed. Close tabs you no longer need with "
                "tab_close()."
            )
            self._closing.add(page)
            with contextlib.suppress(PlaywrightError):
                page.close()
            return
        self.page = page

    def _closed(self, page: Page) -> None:
        """A tab closed (a pop-up's script closed its window, say): if it was the active one,
        the tab that opened it is active again, as in a browser, or else the last tab."""
        if page is not self.page:
            return
        left = [tab for tab in self.pages if not tab.is_closed()]
        if left:
            opener = page.opener()
            self.page = opener if opener in left else left[-1]

    def _request_began(self, request: Request) -> None:
        if request.is_navigation_request():
            with contextlib.suppress(PlaywrightError):
                self._navigating.setdefault(request.frame.page, set()).add(request)

    def _request_ended(self, request: Request) -> None:
        if not request.is_navigation_request():
            return
        if request.failure is not None:
            try:
                frame = request.frame  # (it raises for a tab not made yet)
                blank = frame.parent_frame is None and frame.url in _BLANK
            except PlaywrightError:
                blank = True
            self._blank_failures += blank
        for page, requests in list(self._navigating.items()):
            requests.discard(request)
            if not requests or page.is_closed():
                del self._navigating[page]
                for waiter in self._navigation_waiters.pop(page, []):
                    if not waiter.done():
                        waiter.set_result(None)

    def _wait_for_navigation(self, page: Page, seconds: float) -> None:
        """Wait until ``page`` has no navigation request in flight, for at most ``seconds``
        (event-driven: the request's end, answered or failed, ends the wait)."""
        loop = page._loop  # type: ignore[attr-defined]
        waiter: asyncio.Future[None] = loop.create_future()
        self._navigation_waiters.setdefault(page, []).append(waiter)
        try:
            with contextlib.suppress(asyncio.TimeoutError):
                page._sync(asyncio.wait_for(waiter, max(0.001, seconds)))  # type: ignore[attr-defined]
        finally:
            waiters = self._navigation_waiters.get(page, [])
            if waiter in waiters:
                waiters.remove(waiter)

    def _navigated(self, page: Page, frame: Any) -> None:
        if frame == page.main_frame:
            self._new_document(page)

    def new_tab(self) -> None:
        if len(self.pages) >= self.limits.tabs:
            raise ActionError(
                f"{len(self.pages)} tabs are open, the most an episode may have; close one "
                "with tab_close() first."
            )
        self.page = self._open_tab()

    def _open_tab(self) -> Page:
        """A new tab the session opens itself (not a page's pop-up)."""
        self._opening = True
        try:
            return open_page(self.context, self.timeouts.navigation / 1000)
        finally:
            self._opening = False

    def open_tab_by(self, act: Callable[[], None], background: bool) -> None:
        """Do ``act``, which opens a tab as a browser does for a middle-click on a link. In
        the ``background`` the tab is listed and the active tab stays where it was (Chromium
        does not render a background tab, so the step must not wait for it to settle);
        else the new tab becomes the active one. A click that opens nothing (the page
        cancelled it) is no error, and neither is one on a link to a file: the browser
        downloads it (and the download is refused) instead of opening a tab, so the wait
        ends there, not at the action bound; a tab opened for it is closed once the download
        begins, as a browser does (Chromium's headless shell leaves it blank)."""
        active = self.page
        before = set(self.context.pages)
        failures = self._blank_failures
        downloads: list[object] = []

        def began(download: object) -> None:
            downloads.append(download)

        active.on("download", began)
        deadline = time.monotonic() + self.timeouts.action / 1000
        try:
            act()
            while not downloads and set(self.context.pages) <= before:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                with contextlib.suppress(PlaywrightTimeoutError):
                    self.context.wait_for_event("page", timeout=min(left, 0.1) * 1000)
            # A new tab's first answer says whether it shows a page or became a download (not
            # waited for past two seconds: a tab for a file is told at once).
            opened = set(self.context.pages) - before
            until = min(deadline, time.monotonic() + 2)
            while self._blank_failures == failures and any(
                tab.url in _BLANK and not tab.is_closed() for tab in opened
            ):
                left = until - time.monotonic()
                if left <= 0:
                    break
                with contextlib.suppress(PlaywrightError):
                    self.context.wait_for_event("requestfailed", timeout=min(left, 0.05) * 1000)
        finally:
            active.remove_listener("download", began)
        if self._blank_failures > failures:  # the tab's one navigation became a download
            for tab in set(self.context.pages) - before:
                if tab.url in _BLANK and len(self.pages) > 1:
                    with contextlib.suppress(PlaywrightError):
                        tab.close()
        if background and not active.is_closed():
            self.page = active

    def _hold_dialog(self, dialog: Dialog) -> None:
        # Held open until the agent accepts or dismisses it; the page waits meanwhile. Past a
        # bound, dismissed at once, and so are the document's later dialogs.
        page = dialog.page
        if page is not None:
            self._dialogs_in_step[page] += 1
            self._dialogs_in_document[page] += 1
            over = (
                self._dialogs_in_step[page] > self.limits.dialogs_per_step
                or self._dialogs_in_document[page] > self.limits.dialogs_per_page
            )
            if over or page in self._muted:
                with contextlib.suppress(PlaywrightError):
                    dialog.dismiss()
                self._mute(page)
                return
        self.dialog = dialog

    def _mute(self, page: Page) -> None:
        """No more dialogs from ``page``'s document: they are dismissed as they open until the
        next settle takes its dialog functions away (not here: its script may be looping)."""
        self.limited = (
            f"The page opened more JavaScript dialogs than an episode allows "
            f"({self.limits.dialogs_per_step} a step, {self.limits.dialogs_per_page} a page); "
            "they were dismissed and its further dialogs are blocked."
        )
        self._muted.add(page)

    def _new_document(self, page: Page) -> None:
        """A tab's new document starts with no dialog counted against it."""
        self._dialogs_in_step.pop(page, None)
        self._dialogs_in_document.pop(page, None)
        self._muted.discard(page)

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
            self.page = self._open_tab()
        self.page = self.pages[min(index, len(self.pages) - 1)]

    # -- bounds -------------------------------------------------------------------------

    @contextlib.contextmanager
    def bounded(self, milliseconds: float) -> Iterator[None]:
        """Run the block's browser calls within ``milliseconds`` plus a second's grace (and the
        watchdog's tick, :data:`webenv.watchdog.TICK_MS`).

        Past that, a page script must be holding the browser (Playwright's own timeouts end
        every other wait): the tabs are closed, which fails the blocked call, and a blank tab
        takes their place (see :mod:`webenv.watchdog`).
        """
        self._fresh = None
        with self._watchdog.guard(milliseconds / 1000 + 1.0, self._unfreeze):
            yield

    def _unfreeze(self) -> None:
        # Called again every second while the block stays stuck (its tabs may take that long
        # to close): the blank tab opened the first time is kept, and so is what it said.
        stuck = [page for page in self.pages if not page.is_closed() and page is not self._fresh]
        if self._fresh is None:
            where = ", ".join(page.url[:200] for page in stuck) or "the page"
            self.interrupted = (
                f"{where} stopped responding in time (a script that never yields, or a page "
                "that never arrives), so its tabs were closed; open a page of the world again "
                "with goto(url)."
            )
            self.dialog = None
            self.page = self._fresh = self._open_tab()
        for page in stuck:
            with contextlib.suppress(PlaywrightError):
                page.close()

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

    def start_at(self, url: str) -> None:
        """Open the episode's first page, as a browser opened at ``url`` would: with no blank
        page to go back to."""
        self._starting = True
        self.goto(url)
        self._cdp(self.page).send("Page.resetNavigationHistory")

    # -- settling and observing ---------------------------------------------------------

    def settle(
        self, observe: dict[str, Any] | None = None, *, untouched: bool = False
    ) -> dict[str, Any] | None:
        """Wait until the page has loaded, its DOM is quiet and our server is idle; then, with
        ``observe`` options, observe the page in the same round trip.

        Event-driven, with no fixed sleep; bounded by ``timeouts.settle``. The DOM must have been
        quiet for ``QUIET_MS`` since the later of its last change and, for the document the last
        observation saw, now (an action was just done to it), or, for a new document, its load.
        ``untouched``: nothing was done to the page since the last observation (a ``noop``), so
        a document unchanged since then needs no quiet window at all. Returns the observation,
        or None when none was asked for or the page could not give one.

        A page that has not settled by the bound is flagged, never passed off as settled:
        ``unsettled`` says so, and so does ``limited`` (the step's ``last_action_error``); for
        the start page (:meth:`start_at`), which is given the bound twice, ``interrupted``, so
        that the reset tries again on a fresh context.
        """
        rounds = 2 if self._starting and self.dialog is None else 1
        self._settle_until = time.monotonic() + rounds * self.timeouts.settle / 1000
        settled, result = self._settle_rounds(observe, untouched)
        starting, self._starting = self._starting, False
        if starting and not settled and self.dialog is None:
            # The start page gets a second bound (the reset's own bound leaves room for it)
            # before the reset's attempt fails.
            settled, result = self._settle_rounds(observe, untouched)
        self.unsettled = ""
        if not settled:
            self.unsettled = (
                f"The page did not settle within {self.timeouts.settle / 1000:.1f} s (still "
                "loading, or still changing), so this observation may show it half-done: wait "
                "with noop() and look again."
            )
            if starting:
                # A first observation is of the settled start page or of none: the reset
                # tries again on a fresh context, then reports a fault.
                self.interrupted = f"The start page {self.page.url[:200]} did not settle in time."
            else:
                self._limit(self.unsettled)
        return result

    def _settle_rounds(
        self, observe: dict[str, Any] | None, untouched: bool
    ) -> tuple[bool, dict[str, Any] | None]:
        """:meth:`settle`'s waits: whether the page settled before the bound (a dialog that
        opened counts as settled: it holds the page), and the observation."""
        deadline = time.monotonic() + self.timeouts.settle / 1000
        result = None
        for _ in range(_MAX_SETTLE_ROUNDS):
            if self.dialog is not None:
                return True, None
            page = self.page
            remaining_ms = max(1.0, (deadline - time.monotonic()) * 1000)
            args = [QUIET_MS, remaining_ms, observe, self.version, untouched]
            try:
                page.wait_for_load_state("load", timeout=remaining_ms)
                if page in self._muted:
                    self._evaluate(page, _NO_DIALOGS_JS, None)
                found = self._evaluate(page, _SETTLE_JS, args)
                if not found:
                    continue  # a dialog is open: the loop's first check returns
                settled, result = found[0] if found[0] is not None else (True, None)
                self._saw(result)
            except PlaywrightTimeoutError:
                return False, None  # the page never finished loading
            except PlaywrightError as error:
                if not (not page.is_closed() and _is_navigation(error)):
                    return True, None  # closed or crashed: no page to wait for
                if time.monotonic() < deadline:
                    continue  # the page navigated away while we waited: wait for the new one
                return False, None
            if self._server_idle is not None and not self._server_idle(0):
                # A request is still being served (a fetch, a late navigation): wait for it,
                # then settle and look again.
                self._wait_for_server(max(0.0, deadline - time.monotonic()))
                continue
            if self._navigating.get(page) and not page.is_closed():
                # A navigation the browser began has not been answered (its request may not
                # even have reached our server): the document it replaces is not the page.
                if time.monotonic() >= deadline:
                    return False, result
                self._wait_for_navigation(page, deadline - time.monotonic())
                continue
            came = self._window_on_its_way(deadline)
            if came:
                continue  # a window the page opened: the page to settle now
            if came is None:
                return False, result  # one is still on its way at the bound
            if page is self.page:
                return settled, result
        return False, result

    def _window_on_its_way(self, deadline: float) -> bool | None:
        """Wait, until ``deadline`` at most, for a window a page opened that the browser has
        made but Playwright has not handed over yet: True if one came, False if none was on
        its way, None if one still is at ``deadline`` (it is not waited for again).

        Playwright hands over a pop-up only once its first response starts to arrive, which
        on a busy machine can be after its opener looks quiet (and before its request has
        reached our server). The browser lists the window's target, with its opener, from
        the moment it is opened.
        """
        while unclaimed := self._windows_unclaimed():
            left = deadline - time.monotonic()
            if left <= 0:
                self._waited_out.update(unclaimed)
                return None
            with contextlib.suppress(PlaywrightTimeoutError):
                # In slices: a window closed before it was handed over never comes.
                self.context.wait_for_event("page", timeout=min(left, 0.25) * 1000)
                return True
        return False

    def _windows_unclaimed(self) -> set[str]:
        """The targets of the windows the tabs opened (a script's ``window.open``, a link's or a
        form's target, ``noopener`` or not) that Playwright has not handed over yet."""
        known = set()
        for page in self.context.pages:
            with contextlib.suppress(PlaywrightError):  # closing, or crashed
                known.add(self._target_id(page))
        try:
            targets = self._cdp(self.page).send("Target.getTargets")["targetInfos"]
        except PlaywrightError:
            return set()  # the tab is gone or crashed: there is nothing to wait on
        return {
            target["targetId"]
            for target in targets
            if target["type"] == "page"
            and "subtype" not in target  # a prerendered page is not a window
            and target.get("openerId") in known
            and target["targetId"] not in known
            and target["targetId"] not in self._waited_out
        }

    def _target_id(self, page: Page) -> str:
        target = self._target_ids.get(page)
        if target is None:
            info = self._cdp(page).send("Target.getTargetInfo")["targetInfo"]
            target = self._target_ids[page] = info["targetId"]
        return target

    def _wait_for_server(self, seconds: float) -> None:
        """Wait until our server has no request in flight, for at most ``seconds``: in a
        thread of Playwright's event loop, so that the browser calls of other envs of this
        thread (a :class:`~webenv.vector.WebVectorEnv`'s, each in a greenlet) go on
        meanwhile."""
        loop = self.page._loop  # type: ignore[attr-defined]
        self.page._sync(loop.run_in_executor(None, self._server_idle, seconds))  # type: ignore[attr-defined]

    def _evaluate(self, page: Page, script: str, arg: Any) -> list[Any]:
        """``[page.evaluate(script, arg)]``, or ``[]`` when a dialog opened first: a dialog (a
        timer's alert) pauses the page's script, and is held for the agent rather than
        waited out."""
        found: list[Any] = []
        until_dialog(self.context, lambda: found.append(page.evaluate(script, arg)))
        return found

    def observe(self, *, patient: bool = True, **options: Any) -> dict[str, Any]:
        """The page's axtree text (and pruned DOM, element boxes) with element ids.

        A page that navigates while it is observed (a script or a meta refresh that keeps
        reloading it) is observed again once its next document has loaded, within the settle
        bound; one that never holds still for long enough gives an empty observation, flagged
        in ``limited``. Only a closed page (or a browser that died) raises, and, unless
        ``patient``, a page that navigates.
        """
        script = "options => window.__webenv.observe(options)"
        deadline = self._look_deadline(1 / 3)
        while True:
            page = self.page
            try:
                try:
                    result = page.evaluate(script, options)
                except PlaywrightError as error:
                    if page.is_closed() or _is_navigation(error):
                        raise
                    # A page the init script could not reach (an error page): install it now.
                    page.evaluate(OBSERVE_JS)
                    result = page.evaluate(script, options)
            except PlaywrightError as error:
                replaced = self.page is not page and not self.page.is_closed()  # a stuck tab closed
                if not replaced and (not patient or page.is_closed() or not _is_navigation(error)):
                    raise
                remaining_ms = (deadline - time.monotonic()) * 1000
                if remaining_ms <= 0:
                    self._limit(_KEPT_NAVIGATING)
                    self._saw(None)
                    return {}
                if not replaced:
                    with contextlib.suppress(PlaywrightError):
                        page.wait_for_load_state("load", timeout=remaining_ms)
                continue
            self._saw(result)
            return result  # type: ignore[no-any-return]

    def _limit(self, why: str) -> None:
        """Add ``why`` to what a bound cut short in this step (``limited``)."""
        self.limited = f"{self.limited} {why}".strip()

    def looked(self) -> None:
        """The step's look at the page is over: a later :meth:`observe` or
        :meth:`screenshot` (a ``render()`` between steps) has bounds of its own."""
        self._settle_until = None

    def _look_deadline(self, share: float) -> float:
        """When a look at the page must end: ``share`` of the ``action`` bound past the
        step's settle bound, or, with no settle this step, a settle bound from now."""
        if self._settle_until is None:
            return time.monotonic() + self.timeouts.settle / 1000
        return self._settle_until + share * self.timeouts.action / 1000

    def _saw(self, observation: Any) -> None:
        self.version = observation.get("version") if isinstance(observation, dict) else None

    def screenshot(self) -> np.ndarray:
        """The viewport as an H×W×3 uint8 array.

        Straight from Chromium's compositor (PNG encoded for speed) unless a text caret or an
        animation could make the picture depend on the moment it is taken; then through
        Playwright, which hides the caret and stops animations first, within the step's bound.
        A page that navigates all the while (it reloads itself) gives a black viewport,
        flagged in ``limited`` (the compositor, asked directly, may never answer for it). Only
        a browser that died raises.
        """
        page = self.page
        png = None
        with contextlib.suppress(PlaywrightError):
            if self._evaluate(page, _UNSTEADY_JS, None) == [False]:
                png = self._capture(page, self._look_deadline(1 / 2) - time.monotonic())
        if png is None:
            remaining_ms = (self._look_deadline(5 / 6) - time.monotonic()) * 1000
            try:
                png = page.screenshot(
                    type="png",
                    animations="disabled",
                    caret="hide",
                    timeout=min(self.timeouts.action, max(remaining_ms, 1.0)),
                )
            except PlaywrightError:
                browser = self.context.browser
                if browser is None or not browser.is_connected():
                    raise
        if png is None:
            self._limit(_NO_SCREENSHOT)
            size = page.viewport_size or {"width": 1280, "height": 720}
            return np.zeros((size["height"], size["width"], 3), dtype=np.uint8)
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    def _capture(self, page: Page, seconds: float) -> bytes:
        """The compositor's picture of ``page``, as PNG, or a Playwright error after
        ``seconds`` (at least a quarter of one, at most the ``action`` bound): a page that
        navigates all the while may never give its picture."""
        seconds = min(max(seconds, 0.25), self.timeouts.action / 1000)
        capture = self._cdp(page).send("Page.captureScreenshot", _CAPTURE, timeout=seconds * 1000)
        return base64.b64decode(capture["data"])

    def _forget_cdp(self, page: Page) -> None:
        self._cdp_sessions.pop(page, None)
        self._target_ids.pop(page, None)

    def _cdp(self, page: Page) -> CDPSession:
        """The page's DevTools session, opened once."""
        session = self._cdp_sessions.get(page)
        if session is None:
            session = self._cdp_sessions[page] = self.context.new_cdp_session(page)
            page.once("close", self._forget_cdp)
        return session

    def close(self) -> None:
        with contextlib.suppress(PlaywrightError):  # the browser is gone, and the context too
            if self.trace_path is not None:
                self.trace_path.parent.mkdir(parents=True, exist_ok=True)
                self.context.tracing.stop(path=self.trace_path)
        with contextlib.suppress(PlaywrightError):
            self.context.close()


_KEPT_NAVIGATING = (
    "The page kept navigating (it reloads or redirects itself), so no observation could be "
    "taken of it: wait with noop(), go back, or go elsewhere."
)


_NO_SCREENSHOT = (
    "No screenshot could be taken of the page (it kept navigating), so the screenshot is "
    "black: wait with noop(), go back, or go elsewhere."
)


def _is_navigation(error: PlaywrightError) -> bool:
    message = str(error)
    return "Execution context was destroyed" in message or "navigation" in message.lower()

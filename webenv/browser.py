"""Finding and launching Chromium, one per thread, shared by every env in that thread."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import greenlet
from playwright._impl._sync_base import mapping
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from .errors import BrowserNotFoundError

#: Executables tried on PATH, in order, when WEBENV_CHROMIUM is not set.
SYSTEM_CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Headless-only builds of Chromium, preferred for headless runs: the same engine without the
#: browser's UI stack, which halves the browser process's CPU per step (``bench/`` measures it).
HEADLESS_SHELLS = ("chromium-headless-shell", "chrome-headless-shell")

#: Flags for a quiet, headless, reproducible Chromium that talks to nothing but the world.
LAUNCH_ARGS = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-quic",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--metrics-recording-only",
    "--mute-audio",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    "--force-color-profile=srgb",
)

INSTALL_HINT = (
    "Install one: `sudo apt-get install chromium` on Debian/Ubuntu, or "
    "`python -m playwright install chromium` where downloads are allowed; "
    "or point WEBENV_CHROMIUM at a Chromium or Chrome executable."
)


def find_chromium(playwright: Playwright | None = None, headless: bool = False) -> str:
    """The Chromium to launch: ``WEBENV_CHROMIUM``, else one on PATH (a headless shell first
    when ``headless``), else Playwright's own."""
    configured = os.environ.get("WEBENV_CHROMIUM")
    if configured:
        if not os.access(configured, os.X_OK):
            raise BrowserNotFoundError(
                f"WEBENV_CHROMIUM={configured!r} is not an executable file. {INSTALL_HINT}"
            )
        return configured
    for name in (HEADLESS_SHELLS if headless else ()) + SYSTEM_CHROMIUMS:
        found = shutil.which(name)
        if found:
            return found
    if playwright is not None:
        managed = playwright.chromium.executable_path
        if managed and Path(managed).exists():
            return managed
    raise BrowserNotFoundError(f"No Chromium found. {INSTALL_HINT}")


def launch_args() -> list[str]:
    """Chromium's sandbox needs a non-root user; as root it must be switched off."""
    args = list(LAUNCH_ARGS)
    if getattr(os, "geteuid", lambda: -1)() == 0:
        args.append("--no-sandbox")
    return args


@dataclass
class _Runtime:
    """A thread's Playwright and the browsers it launched (headless and headed), with users."""

    playwright: Playwright
    browsers: dict[bool, Browser] = field(default_factory=dict)
    users: dict[bool, int] = field(default_factory=dict)
    #: Launches under way in this thread's greenlets (a vector env's resets).
    launching: int = 0


#: Each thread's runtime, touched by that thread alone: no lock is shared between threads, so
#: a launch that hangs on a saturated machine (in a thread a caller has given up on) holds up
#: nothing but its own thread. A thread's runtime ends with it, and a new thread never inherits
#: a dead one's (as it could with a dict keyed by thread ids, which are reused).
_local = threading.local()


def _runtime() -> _Runtime:
    runtime: _Runtime | None = getattr(_local, "runtime", None)
    if runtime is None:
        runtime = _local.runtime = _Runtime(_start_playwright())
        loop = runtime.playwright._loop  # type: ignore[attr-defined]
        loop.set_exception_handler(quiet_unawaited_closes)
    return runtime


def _start_playwright() -> Playwright:
    """Playwright's start, a Ctrl-C during it held back until it is done, then raised. One
    that lands while asyncio makes Playwright's event loop leaves a half-made loop, whose
    ``__del__`` prints a traceback at exit ("no attribute '_ssock'"): a command that starts
    Playwright again for each task (``webenv demos``) met it on Ctrl-C. Only the main thread
    gets Ctrl-C, and only Python's own handler is held back."""
    in_main = threading.current_thread() is threading.main_thread()
    if not in_main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return sync_playwright().start()
    held: list[int] = []
    signal.signal(signal.SIGINT, lambda number, frame: held.append(number))
    try:
        playwright = sync_playwright().start()
    except BaseException:
        if held:
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if held:
        with contextlib.suppress(Exception):
            playwright.stop()
        raise KeyboardInterrupt
    return playwright


def quiet_unawaited_closes(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The handler of errors nobody awaited on a thread's Playwright loop. A close of a page, a
    context or a browser that failed because Chromium had already gone says nothing: Ctrl-C
    reaches Chromium as well as Python, and a close it interrupts is left to fail on its own
    ("Task exception was never retrieved", with a traceback, at exit). Anything else is
    reported as asyncio reports it."""
    future = context.get("future")
    coro = future.get_coro() if isinstance(future, asyncio.Task) else None
    closing = getattr(coro, "__qualname__", "").endswith(".close")
    if closing and isinstance(context.get("exception"), PlaywrightError):
        return
    loop.default_exception_handler(context)


def acquire_browser(headless: bool = True) -> Browser:
    """The process's Chromium for this thread, launched on first use and shared afterwards.

    Every call must be paired with :func:`release_browser`, in the same thread; the last
    release closes it. Playwright's sync API is bound to the thread that started it, and runs
    once per thread: a thread's headless and headed browsers share one Playwright.

    Playwright switches to the thread's other greenlets while it waits (see
    :mod:`webenv.ahead`), so the bookkeeping is done between its calls, never across one.
    """
    runtime = _runtime()
    browser = runtime.browsers.get(headless)
    if browser is not None and browser.is_connected():
        runtime.users[headless] += 1
        return browser
    runtime.launching += 1
    try:
        if browser is not None and runtime.browsers.get(headless) is browser:
            # Crashed: its users' releases no longer count.
            del runtime.browsers[headless], runtime.users[headless]
            _close(browser)
        launched = _launch(runtime.playwright, headless)
    except BaseException:
        runtime.launching -= 1
        _stop_if_idle(runtime)
        raise
    runtime.launching -= 1
    current = runtime.browsers.get(headless)
    if current is not None and current.is_connected():
        # Another greenlet of this thread launched one meanwhile: share it.
        runtime.users[headless] += 1
        _close(launched)
        return current
    runtime.browsers[headless] = launched
    runtime.users[headless] = 1
    return launched


def _launch(playwright: Playwright, headless: bool) -> Browser:
    path = find_chromium(playwright, headless)
    # Playwright's own download: let it pick its headless shell where it has one.
    own = path == playwright.chromium.executable_path
    return playwright.chromium.launch(
        executable_path=None if own else path,
        headless=headless,
        args=launch_args(),
        # This process's environment now (its DISPLAY, say), not the one Playwright's driver
        # started with.
        env=dict(os.environ),
    )


def release_browser(browser: Browser) -> None:
    """Give back a browser from :func:`acquire_browser`; close it when nobody uses it, and
    the thread's Playwright with the last one. A crashed browser another launch replaced is
    already forgotten: giving it back changes nothing."""
    runtime: _Runtime | None = getattr(_local, "runtime", None)
    if runtime is None:
        return
    for headless, known in list(runtime.browsers.items()):
        if known is not browser:
            continue
        runtime.users[headless] -= 1
        if runtime.users[headless] <= 0:
            del runtime.browsers[headless], runtime.users[headless]
            _close(browser)
        break
    _stop_if_idle(runtime)


def _stop_if_idle(runtime: _Runtime) -> None:
    """Stop the thread's Playwright once it has no browser and no launch under way, from the
    thread's main greenlet only: a vector env's reset greenlet that failed leaves it to the
    caller's own release (the other greenlets may still be waiting on Playwright)."""
    if runtime.browsers or runtime.launching or greenlet.getcurrent().parent is not None:
        return
    if getattr(_local, "runtime", None) is runtime:
        del _local.runtime
    runtime.playwright.stop()


def _close(browser: Browser) -> None:
    with contextlib.suppress(Exception):  # already dead: nothing left to close
        browser.close()


def open_page(context: BrowserContext, seconds: float) -> Page:
    """A new tab of ``context``, or a Playwright error after ``seconds``.

    Playwright bounds no tab's opening, and a renderer that dies while a tab opens (killed
    for memory, say) leaves ``new_page()`` pending for ever: even the context's close does not
    end it. The call is given up here instead, as the other browser calls of an episode are.
    """
    call = asyncio.wait_for(context._impl_obj.new_page(), seconds)  # type: ignore[attr-defined]
    try:
        page = context._sync(call)  # type: ignore[attr-defined]
    except TimeoutError as error:
        raise PlaywrightError(
            f"BrowserContext.new_page: no tab opened within {seconds:.0f} s (its renderer may "
            "have crashed)"
        ) from error
    return mapping.from_impl(page)  # type: ignore[no-any-return]

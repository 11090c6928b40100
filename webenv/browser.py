"""Finding and launching Chromium, one per process, shared by every env in it."""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Playwright, sync_playwright

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
    playwright: Playwright
    browser: Browser
    users: int = 0


_lock = threading.Lock()
_runtimes: dict[tuple[int, bool], _Runtime] = {}


def acquire_browser(headless: bool = True) -> Browser:
    """The process's Chromium for this thread, launched on first use and shared afterwards.

    Every call must be paired with :func:`release_browser`; the last release closes it.
    Playwright's sync API is bound to the thread that started it, hence one per thread.
    """
    key = (threading.get_ident(), headless)
    with _lock:
        runtime = _runtimes.get(key)
        if runtime is None or not runtime.browser.is_connected():
            if runtime is not None:
                _stop(runtime)
            playwright = sync_playwright().start()
            try:
                path = find_chromium(playwright, headless)
                # Playwright's own download: let it pick its headless shell where it has one.
                own = path == playwright.chromium.executable_path
                browser = playwright.chromium.launch(
                    executable_path=None if own else path,
                    headless=headless,
                    args=launch_args(),
                )
            except BaseException:
                playwright.stop()
                raise
            runtime = _runtimes[key] = _Runtime(playwright, browser)
        runtime.users += 1
        return runtime.browser


def release_browser(browser: Browser) -> None:
    """Give back a browser from :func:`acquire_browser`; close it when nobody uses it."""
    with _lock:
        for key, runtime in list(_runtimes.items()):
            if runtime.browser is browser:
                runtime.users -= 1
                if runtime.users <= 0:
                    del _runtimes[key]
                    _stop(runtime)
                return


def _stop(runtime: _Runtime) -> None:
    with contextlib.suppress(Exception):  # already dead: nothing left to close
        runtime.browser.close()
    runtime.playwright.stop()

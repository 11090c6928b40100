"""Finding Chromium: WEBENV_CHROMIUM, then PATH, then Playwright's own, else a clear error."""

import contextlib
import gc
import logging
import os
import shutil
import signal
import subprocess
import sys
import threading

import pytest

from tests.processes import descendants, in_thread
from webenv.browser import acquire_browser, find_chromium, launch_args, release_browser
from webenv.errors import BrowserNotFoundError

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser


def test_webenv_chromium_wins(monkeypatch, tmp_path):
    fake = tmp_path / "my-chrome"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("WEBENV_CHROMIUM", str(fake))
    assert find_chromium() == str(fake)


def test_webenv_chromium_that_is_not_executable_names_the_fix(monkeypatch, tmp_path):
    monkeypatch.setenv("WEBENV_CHROMIUM", str(tmp_path / "missing"))
    with pytest.raises(BrowserNotFoundError, match="apt-get install chromium"):
        find_chromium()


def test_system_chromium_is_found_on_path(monkeypatch):
    monkeypatch.delenv("WEBENV_CHROMIUM", raising=False)
    found = find_chromium()
    assert os.access(found, os.X_OK)
    assert found == shutil.which(os.path.basename(found))


def test_no_chromium_anywhere_names_the_fix(monkeypatch, tmp_path):
    monkeypatch.delenv("WEBENV_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(BrowserNotFoundError, match="playwright install chromium"):
        find_chromium()


def test_root_disables_the_sandbox_only_as_root():
    assert ("--no-sandbox" in launch_args()) == (os.geteuid() == 0)
    assert "--disable-background-networking" in launch_args()


def test_one_chromium_is_shared_and_closed_by_the_last_user():
    # Playwright's sync API is per thread, and so is the shared browser: a thread of our own
    # keeps this test independent of the session's browser fixture.
    seen = {}

    def use_twice():
        first, second = acquire_browser(), acquire_browser()
        seen["same"] = first is second
        release_browser(second)
        seen["alive after one release"] = first.is_connected()
        release_browser(first)
        seen["alive after last release"] = first.is_connected()

    worker = threading.Thread(target=use_twice)
    worker.start()
    worker.join(60)
    assert seen == {
        "same": True,
        "alive after one release": True,
        "alive after last release": False,
    }


def test_headless_runs_prefer_a_headless_shell_on_path(monkeypatch, tmp_path):
    monkeypatch.delenv("WEBENV_CHROMIUM", raising=False)
    for name in ("chromium", "chromium-headless-shell"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_chromium(headless=True) == str(tmp_path / "chromium-headless-shell")
    assert find_chromium(headless=False) == str(tmp_path / "chromium")


def test_a_thread_runs_a_headless_and_a_headed_browser_side_by_side(display):
    headless = acquire_browser()
    try:
        headed = acquire_browser(headless=False)  # Playwright runs once per thread: shared
        try:
            assert headed is not headless and headed.is_connected()
            for browser, shown in ((headed, True), (headless, False)):
                page = browser.new_page()
                assert ("Headless" not in page.evaluate("navigator.userAgent")) is shown
                page.close()
            assert acquire_browser(headless=False) is headed
            release_browser(headed)
        finally:
            release_browser(headed)
        assert not headed.is_connected() and headless.is_connected()
    finally:
        release_browser(headless)


def test_a_launch_hung_in_one_thread_holds_up_no_other_thread(monkeypatch, tmp_path):
    # A "Chromium" that starts and never answers: the launch in its thread waits on it (until
    # Playwright's 30 s timeout), while another thread launches the real one and goes on.
    started = tmp_path / "started"
    hung = tmp_path / "hung-chromium"
    hung.write_text(f"#!/bin/sh\necho $$ > {started}\nexec sleep 120\n")
    hung.chmod(0o755)
    real = find_chromium(headless=True)
    outcome: dict[str, object] = {}

    def launch_the_hung_one() -> None:
        try:
            outcome["hung"] = acquire_browser()
        except Exception as error:  # Playwright's launch timeout, or the kill below
            outcome["hung error"] = error

    monkeypatch.setenv("WEBENV_CHROMIUM", str(hung))
    waiting = threading.Thread(target=launch_the_hung_one, daemon=True)
    waiting.start()
    for _ in range(200):
        if started.exists() and started.read_text().strip():
            break
        waiting.join(0.05)
    assert started.exists(), "the hung Chromium never started"
    monkeypatch.setenv("WEBENV_CHROMIUM", real)

    def launch_the_real_one() -> bool:
        browser = acquire_browser()
        try:
            page = browser.new_page()
            page.set_content("<p>up</p>")
            return page.inner_text("p") == "up" and waiting.is_alive()
        finally:
            release_browser(browser)

    try:
        assert in_thread(launch_the_real_one, limit=25)
    finally:
        os.kill(int(started.read_text()), signal.SIGKILL)
        waiting.join(30)
    assert "hung error" in outcome and "hung" not in outcome


def test_a_thread_never_inherits_a_dead_threads_browser():
    # A thread that ended without giving its browser back (a caller gave up on it), and a new
    # thread that gets the same id: the new one launches its own, usable in its own thread.
    before = set(descendants())
    idents: list[int] = []

    def acquire_and_leave() -> None:
        acquire_browser()  # never released: the thread ends holding it
        idents.append(threading.get_ident())

    leaver = threading.Thread(target=acquire_and_leave)
    leaver.start()
    leaver.join(60)
    assert idents, "the first thread's launch hung"

    def use_a_page() -> tuple[int, str]:
        browser = acquire_browser()
        try:
            page = browser.new_page()
            page.set_content("<p>mine</p>")
            return threading.get_ident(), page.inner_text("p")
        finally:
            release_browser(browser)

    try:
        for _ in range(50):  # thread ids are reused once a thread has ended
            ident, text = in_thread(use_a_page, limit=60)
            assert text == "mine"
            if ident == idents[0]:
                break
        else:
            pytest.skip("no thread reused the first one's id on this machine")
    finally:
        for pid in set(descendants()) - before:  # the first thread's Playwright and Chromium
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_close_left_to_fail_after_chromium_went_says_nothing_and_other_errors_still_do(caplog):
    # Ctrl-C reaches Chromium too: a close it interrupted is left to fail on its own, and asyncio
    # reported it at exit ("Task exception was never retrieved", a traceback) after a clean
    # Ctrl-C of `webenv validate`. Here the context is gone from Chromium before its close runs.
    unawaited = []

    def close_a_context_chromium_forgot():
        browser = acquire_browser()
        try:
            loop = browser._loop
            handler = loop.get_exception_handler()

            def spy(loop, context):
                unawaited.append(str(context.get("exception")))
                if handler is None:  # asyncio's own
                    loop.default_exception_handler(context)
                else:
                    handler(loop, context)

            loop.set_exception_handler(spy)
            context = browser.new_context()
            cdp = browser.new_browser_cdp_session()
            for known in cdp.send("Target.getBrowserContexts")["browserContextIds"]:
                cdp.send("Target.disposeBrowserContext", {"browserContextId": known})

            async def fails():
                raise ValueError("an error of ours")

            # Neither task is kept: each is reported when it ends and is collected.
            loop.create_task(context._impl_obj.close(reason=None))
            loop.create_task(fails())
            browser.new_context().close()  # runs the loop: both tasks end, neither awaited
            gc.collect()
            loop.set_exception_handler(handler)
        finally:
            release_browser(browser)

    caplog.set_level(logging.ERROR, logger="asyncio")
    in_thread(close_a_context_chromium_forgot, 60)
    close, ours = sorted(unawaited)
    assert close.startswith("Protocol error (Target.disposeBrowserContext): Failed to find")
    assert ours == "an error of ours"
    reported = [record.getMessage() for record in caplog.records if record.name == "asyncio"]
    assert len(reported) == 1 and "fails()" in reported[0], reported


#: Ctrl-C lands while asyncio makes Playwright's event loop (patched in: a real Ctrl-C lands
#: there now and then when a command starts Playwright again for each task).
INTERRUPTED_START = """
import os, signal, sys
from asyncio import selector_events
from webenv import browser
# As in a command run from a terminal (a shell's background job starts with Ctrl-C ignored).
signal.signal(signal.SIGINT, signal.default_int_handler)
made = selector_events.BaseSelectorEventLoop._make_self_pipe
def interrupted(self):
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):
        pass  # bytecodes, where Python runs its handler
    return made(self)
selector_events.BaseSelectorEventLoop._make_self_pipe = interrupted
try:
    browser.acquire_browser()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(0)
sys.exit(1)
"""


def test_a_ctrl_c_while_playwright_starts_is_raised_once_it_has_started():
    # Before, the half-made loop's __del__ printed "Exception ignored … no attribute '_ssock'"
    # and a traceback at exit.
    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_START], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout == "interrupted\n", (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr

"""Every wait is bounded: pages that never finish loading, answer or yield still let the env go.

Fixture pages are served from loopback by a real Flask app: an image that never arrives (the
load event never fires), a document that never arrives, and scripts that loop forever, after
the load or while the page parses. Each scenario runs in a thread of its own, with a
Chromium of its own (Playwright's sync API is per thread), so that a regression fails the
test instead of hanging the run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import gymnasium as gym
import pytest
from flask import Flask

import webenv  # noqa: F401  (registers the ids)
from tests.processes import in_thread
from webenv.browser import acquire_browser, release_browser
from webenv.server import SiteServer
from webenv.session import Session, Timeouts

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

#: Short bounds for a session on its own; the env's steps also load real shop pages.
SHORT = Timeouts(action=500, navigation=1000, settle=500)
TIMEOUTS = Timeouts(action=1000, navigation=2000, settle=1000)
#: The watchdog's grace on top of each bound, and what closing a stuck tab may take.
GRACE = 1.0 + 1.5


def act_bound(timeouts: Timeouts) -> float:
    """Seconds one action may hold the browser: its wait, and a navigation."""
    return (timeouts.action + timeouts.navigation) / 1000 + GRACE


def look_bound(timeouts: Timeouts) -> float:
    """Seconds settling and observing may take (a screenshot is an action)."""
    return (timeouts.settle + timeouts.action) / 1000 + GRACE


release = threading.Event()  # lets the handlers that never answer go at the end


def fixture_app() -> Flask:
    app = Flask("bounds")

    @app.get("/")
    def home() -> str:
        return "<title>Fine</title><main><h1>A page that behaves</h1></main>"

    @app.get("/never-loads")
    def never_loads() -> str:
        # The image never arrives, so the load event never fires.
        return '<title>Loading</title><main><h1>Still loading</h1><img src="hang" alt=""></main>'

    @app.get("/never-answers")
    def never_answers() -> str:
        release.wait(60)
        return "too late"

    @app.get("/hang")
    def hang() -> str:
        release.wait(60)
        return ""

    @app.get("/endless-script")
    def endless_script() -> str:
        return (
            "<title>Busy</title><main><h1>Busy</h1></main>"
            "<script>addEventListener('load', () => setTimeout(() => { for (;;) {} }))</script>"
        )

    @app.get("/endless-inline")
    def endless_inline() -> str:
        return "<title>Busy</title><main><h1>Busy</h1><script>for (;;) {}</script></main>"

    return app


@pytest.fixture(scope="module", autouse=True)
def _release_handlers() -> Iterator[None]:
    release.clear()
    yield
    release.set()


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    started = time.monotonic()
    value = call()
    return value, time.monotonic() - started


# -- a session on its own ----------------------------------------------------------------


def drive_session(session: Session, origin: str, path: str) -> dict[str, Any]:
    """Open ``path``, settle and observe it, each phase guarded as the env does; then open a
    page that behaves."""
    report: dict[str, Any] = {}

    def go() -> str:
        try:
            with session.bounded(SHORT.action + SHORT.navigation):
                session.goto(origin + path)
        except Exception as error:  # a timeout is the expected way out
            return type(error).__name__
        return ""

    def look() -> dict[str, Any]:
        with session.bounded(SHORT.settle + SHORT.action):
            return session.settle({"axtree": True}) or session.observe(axtree=True)

    session.interrupted = ""
    report["goto error"], report["goto seconds"] = timed(go)
    report["page"], report["look seconds"] = timed(look)
    report["interrupted"] = session.interrupted
    session.interrupted = ""
    with session.bounded(SHORT.action + SHORT.navigation):
        session.goto(origin + "/")
    with session.bounded(SHORT.settle + SHORT.action):
        report["after"] = session.settle({"axtree": True}) or {}
    report["tabs after"] = len(session.pages)
    return report


PATHS = ("/never-loads", "/never-answers", "/endless-script", "/endless-inline")


def drive_sessions() -> dict[str, dict[str, Any]]:
    """Every fixture page in one session of a Chromium of this thread."""
    server = SiteServer({"fx": fixture_app()})
    browser = acquire_browser()
    try:
        session = Session(
            browser,
            [server.url("fx")],
            now=datetime(2026, 3, 2, 9, 30),
            timeouts=SHORT,
            server_idle=server.wait_idle,
        )
        try:
            return {path: drive_session(session, server.url("fx"), path) for path in PATHS}
        finally:
            session.close()
    finally:
        release_browser(browser)
        server.close()


@pytest.fixture(scope="module")
def session_report() -> dict[str, dict[str, Any]]:
    return in_thread(drive_sessions)


def test_a_page_that_never_finishes_loading_is_observed_within_the_bounds(session_report):
    report = session_report["/never-loads"]
    assert report["goto error"] == "TimeoutError"
    assert report["goto seconds"] < SHORT.navigation / 1000 + GRACE
    assert report["look seconds"] < SHORT.settle / 1000 + GRACE
    assert "Still loading" in report["page"]["axtree"]
    assert report["interrupted"] == ""  # Playwright's own timeouts sufficed
    assert "A page that behaves" in report["after"]["axtree"]


def test_a_document_that_never_arrives_times_out_within_the_bound(session_report):
    report = session_report["/never-answers"]
    assert report["goto error"] == "TimeoutError"
    assert report["goto seconds"] < SHORT.navigation / 1000 + GRACE
    assert report["look seconds"] < look_bound(SHORT)
    assert "stopped responding" in report["interrupted"]  # the evaluation waited for it
    assert "A page that behaves" in report["after"]["axtree"]


@pytest.mark.parametrize("path", ["/endless-script", "/endless-inline"])
def test_a_script_that_never_yields_loses_its_tab_within_the_bound(session_report, path):
    report = session_report[path]
    assert report["goto seconds"] < act_bound(SHORT)
    assert report["look seconds"] < look_bound(SHORT)
    assert f"{path} stopped responding" in report["interrupted"]
    assert "A page that behaves" in report["after"]["axtree"]
    assert report["tabs after"] == 1


# -- through the env -----------------------------------------------------------------------


def drive_env() -> dict[str, Any]:
    """Steps of a shop episode into the fixture pages, mounted under the shop's own origin."""
    fixtures = fixture_app()
    report: dict[str, Any] = {}
    with gym.make("webenv/shop.fill_cart-v0", timeouts=TIMEOUTS) as env:
        env.reset(seed=0)
        server = env.unwrapped._server
        shop = server.apps["shop"]

        def mounted(environ: dict[str, Any], start_response: Any) -> Any:
            if environ["PATH_INFO"].startswith("/__bounds__/"):
                environ["PATH_INFO"] = environ["PATH_INFO"].removeprefix("/__bounds__")
                return fixtures(environ, start_response)
            return shop(environ, start_response)

        server.apps["shop"] = mounted
        for name in ("endless-script", "endless-inline", "never-loads"):
            result, seconds = timed(lambda name=name: env.step(f'goto("/__bounds__/{name}")'))
            observation, reward, terminated, truncated, _ = result
            report[name] = {
                "seconds": seconds,
                "error": observation["last_action_error"],
                "url": observation["url"],
                "ended": terminated or truncated,
                "reward": reward,
            }
            observation, *_ = env.step('goto("/")')
            report[name]["afterwards"] = (observation["url"], observation["axtree"])
        observation, _ = env.reset(seed=1)
        report["reset"] = observation["axtree"]
    return report


@pytest.fixture(scope="module")
def env_report() -> dict[str, Any]:
    return in_thread(drive_env, limit=180)


@pytest.mark.parametrize("name", ["endless-script", "endless-inline", "never-loads"])
def test_a_step_into_a_stuck_page_returns_within_the_bound(env_report, name):
    report = env_report[name]
    assert report["seconds"] < act_bound(TIMEOUTS) + look_bound(TIMEOUTS)
    assert report["reward"] == 0.0 and not report["ended"]


@pytest.mark.parametrize("name", ["endless-script", "endless-inline"])
def test_the_step_says_the_page_stopped_responding(env_report, name):
    assert f"/__bounds__/{name} stopped responding" in env_report[name]["error"]
    assert "goto(url)" in env_report[name]["error"]
    assert env_report[name]["url"] == "about:blank"


def test_the_step_says_the_page_did_not_load_in_time(env_report):
    assert "goto failed" in env_report["never-loads"]["error"]
    assert "Timeout" in env_report["never-loads"]["error"]


@pytest.mark.parametrize("name", ["endless-script", "endless-inline", "never-loads"])
def test_the_env_works_after_a_stuck_page(env_report, name):
    url, axtree = env_report[name]["afterwards"]
    assert url.startswith("http://shop.localhost:") and url.endswith("/")
    assert 'searchbox "Search products"' in axtree
    assert 'searchbox "Search products"' in env_report["reset"]

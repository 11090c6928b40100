"""Every wait is bounded: pages that never finish loading, answer or yield still let the env go.

Fixture pages are served from loopback by a real Flask app: an image that never arrives (the
load event never fires), a document that never arrives, and scripts that loop forever, after
the load or while the page parses. Each scenario runs in a thread of its own, with a
Chromium of its own (Playwright's sync API is per thread), so that a regression fails the
test instead of hanging the run.
"""

from __future__ import annotations

import contextlib
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
from webenv.axtree import AxTree
from webenv.browser import acquire_browser, release_browser
from webenv.limits import Limits
from webenv.server import SiteServer
from webenv.session import Session, Timeouts

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

#: Short bounds for a session on its own; the env's steps also load real shop pages.
SHORT = Timeouts(action=500, navigation=1000, settle=500)
TIMEOUTS = Timeouts(action=1000, navigation=2000, settle=1000)
#: The watchdog's grace on top of each bound, and what closing a stuck tab may take (its
#: renderer is busy in a script: 1.5 s was once exceeded by a quarter second on a loaded
#: machine; a stuck step without the watchdog never returns at all).
GRACE = 1.0 + 3.0


def act_bound(timeouts: Timeouts) -> float:
    """Seconds one action may hold the browser: its wait, and a navigation."""
    return (timeouts.action + timeouts.navigation) / 1000 + GRACE


def look_bound(timeouts: Timeouts) -> float:
    """Seconds settling and observing may take (a screenshot is an action)."""
    return (timeouts.settle + timeouts.action) / 1000 + GRACE


def fixture_app(release: threading.Event) -> Flask:
    """The fixture pages; those that never answer wait for ``release``, which the test sets
    once it has measured what it measures (a server waits a while for its handlers)."""
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

    @app.get("/keeps-reloading")
    def keeps_reloading() -> str:
        return "<title>Again</title><main><h1>Again</h1></main><script>location.reload()</script>"

    @app.get("/keeps-refreshing/<int:hop>")
    def keeps_refreshing(hop: int) -> str:
        return (
            f"<meta http-equiv='refresh' content='0;url={hop + 1}'>"
            f"<title>Hop</title><main><h1>Hop {hop}</h1></main>"
        )

    return app


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


def drive_sessions() -> dict[str, Any]:
    """Every fixture page in one session of a Chromium of this thread."""
    release = threading.Event()
    server = SiteServer({"fx": fixture_app(release)})
    browser = acquire_browser()
    reports: dict[str, Any] = {}
    try:
        session = Session(
            browser,
            [server.url("fx")],
            now=datetime(2026, 3, 2, 9, 30),
            timeouts=SHORT,
            server_idle=server.wait_idle,
        )
        try:
            for path in PATHS:
                reports[path] = drive_session(session, server.url("fx"), path)
        finally:
            session.close()
    finally:
        release_browser(browser)
        # Handlers that still hang (their clients gone) hold a closing server for its bound.
        _, reports["server close seconds"] = timed(lambda: server.close(wait=SERVER_CLOSE_S))
        release.set()
    return reports


@contextlib.contextmanager
def _setting(event: threading.Event) -> Iterator[None]:
    """Set ``event`` on the way out of the block (before what the block is inside closes)."""
    try:
        yield
    finally:
        event.set()


#: How long the session's server may wait for its hung handlers when it closes.
SERVER_CLOSE_S = 1.0


@pytest.fixture(scope="module")
def session_report() -> dict[str, Any]:
    return in_thread(drive_sessions)


def test_a_server_closes_within_its_bound_while_handlers_still_hang(session_report):
    assert session_report["server close seconds"] < SERVER_CLOSE_S + GRACE


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


def mount(env: Any, pages: Any) -> None:
    """Serve ``pages`` (a WSGI app) under ``/__bounds__/`` of the env's shop origin."""
    server = env.unwrapped._server
    shop = server.apps["shop"]

    def mounted(environ: dict[str, Any], start_response: Any) -> Any:
        if environ["PATH_INFO"].startswith("/__bounds__/"):
            environ["PATH_INFO"] = environ["PATH_INFO"].removeprefix("/__bounds__")
            return pages(environ, start_response)
        return shop(environ, start_response)

    server.apps["shop"] = mounted


def drive_env() -> dict[str, Any]:
    """Steps of a shop episode into the fixture pages, mounted under the shop's own origin."""
    release = threading.Event()
    fixtures = fixture_app(release)
    report: dict[str, Any] = {}
    with gym.make("webenv/shop.fill_cart-v0", timeouts=TIMEOUTS) as env, _setting(release):
        env.reset(seed=0)
        mount(env, fixtures)
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


def drive_navigating_pages(observe: tuple[str, ...]) -> dict[str, Any]:
    """Steps into pages that reload or refresh themselves without end, and out again."""
    report: dict[str, Any] = {}
    with gym.make("webenv/shop.fill_cart-v0", timeouts=TIMEOUTS, observe=observe) as env:
        env.reset(seed=0)
        mount(env, fixture_app(threading.Event()))
        for name in ("keeps-reloading", "keeps-refreshing/0"):
            for action in (f'goto("/__bounds__/{name}")', "noop()", "noop()"):
                result, seconds = timed(lambda action=action: env.step(action))
                observation, _, terminated, truncated, info = result
                report.setdefault(name, []).append(
                    {
                        "seconds": seconds,
                        "fault": info.get("error", ""),
                        "ended": terminated or truncated,
                        "axtree": observation["axtree"],
                        "error": observation["last_action_error"],
                        "screenshot": observation.get("screenshot"),
                    }
                )
        observation, _ = env.reset(seed=1)
        report["reset"] = observation["axtree"]
    return report


@pytest.fixture(scope="module")
def navigating_report() -> dict[str, Any]:
    """With the axtree and the screenshot, each of which used to end the episode as a fault."""
    return in_thread(lambda: drive_navigating_pages(("axtree", "screenshot")), limit=180)


@pytest.mark.parametrize("name", ["keeps-reloading", "keeps-refreshing/0"])
def test_a_page_that_keeps_navigating_is_no_fault(navigating_report, name):
    """A page that reloads or refreshes itself without end is a page, not a browser crash:
    each step returns within its bound, observes what it can (or says it could not), and the
    episode goes on."""
    for step in navigating_report[name]:
        assert step["fault"] == "" and not step["ended"]
        assert step["seconds"] < act_bound(TIMEOUTS) + look_bound(TIMEOUTS)
        assert ("Again" in step["axtree"] or "Hop" in step["axtree"]) or (
            "kept navigating" in step["error"] or "stopped responding" in step["error"]
        )
        assert step["screenshot"].shape == (720, 1280, 3)
        assert step["screenshot"].any() or "No screenshot" in step["error"]
    assert 'searchbox "Search products"' in navigating_report["reset"]


def _crash_the_watchdogs_clock(env: Any) -> None:
    """Crash the renderer of the watchdog's own clock page, as an out-of-memory kill or a
    renderer crash would."""
    watchdog = env.unwrapped._session._watchdog
    cdp = watchdog._context.new_cdp_session(watchdog._page)
    with contextlib.suppress(Exception):  # the page crashes before it answers
        cdp.send("Page.crash")
    deadline = time.monotonic() + 10
    while not watchdog._page.is_closed() and time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            watchdog._page.title()  # raises once the crash has reached Python
        time.sleep(0.1)


def drive_env_after_the_clock_crashed() -> dict[str, Any]:
    """A step into a page stuck in a script, after the watchdog's clock page crashed: once
    while a step is under way (the clock dies mid-block), once between steps."""
    release = threading.Event()
    report: dict[str, Any] = {}
    with gym.make("webenv/shop.fill_cart-v0", timeouts=TIMEOUTS) as env, _setting(release):
        env.reset(seed=0)
        mount(env, fixture_app(release))
        _crash_the_watchdogs_clock(env)
        _, report["between steps"] = timed(lambda: env.step('goto("/__bounds__/endless-inline")'))
        observation, *_ = env.step('goto("/")')
        report["afterwards"] = observation["axtree"]
    return report


def test_a_stuck_page_is_bounded_after_the_watchdogs_own_page_crashed():
    report = in_thread(drive_env_after_the_clock_crashed, limit=90)
    assert report["between steps"] < act_bound(TIMEOUTS) + look_bound(TIMEOUTS) + GRACE
    assert 'searchbox "Search products"' in report["afterwards"]


# -- resource bounds of an episode ----------------------------------------------------------

#: Small bounds, so that hostile pages reach them in a few steps.
LIMITS = Limits(tabs=4, dialogs_per_step=3, dialogs_per_page=6, observation_chars=20_000)


def hostile_app() -> Flask:
    """Pages that ask too much of the browser: tabs, dialogs, size, a download."""
    app = Flask("hostile")

    @app.get("/")
    def home() -> str:
        return "<title>Fine</title><main><h1>A page that behaves</h1></main>"

    @app.get("/tabs")
    def tabs() -> str:
        return (
            '<title>Tabs</title><main><button onclick="for (let i = 0; i < 60; i++) '
            "window.open('/__bounds__/', '_blank')\">Open tabs</button></main>"
        )

    @app.get("/alerts-forever")
    def alerts_forever() -> str:
        return "<title>Alerts</title><main><h1>Again</h1></main><script>" + (
            "setInterval(() => alert('again'), 50)</script>"
        )

    @app.get("/alerts-in-a-row")
    def alerts_in_a_row() -> str:
        return (
            '<title>Alerts</title><main><button onclick="for (let i = 0; i < 30; i++) '
            "alert('number ' + i)\">Alert</button></main>"
        )

    @app.get("/enormous")
    def enormous() -> str:
        items = "".join(f"<li><a href='/p/{i}'>Item number {i}</a></li>" for i in range(3000))
        return f"<title>Enormous</title><main><ul>{items}</ul></main>"

    @app.get("/download")
    def download() -> str:
        return "<title>Download</title><main><a href='/__bounds__/file'>Get the file</a></main>"

    @app.get("/file")
    def file() -> Any:
        headers = {"Content-Disposition": "attachment; filename=data.bin"}
        return b"\0" * 4096, 200, {**headers, "Content-Type": "application/octet-stream"}

    return app


def step(env: gym.Env[Any, Any], action: str, report: list[dict[str, Any]]) -> dict[str, Any]:
    """Step; keep what the test reads (and any exception, which must never come)."""
    try:
        observation, *_ = env.step(action)
    except Exception as error:  # what a bound must never do
        report.append({"action": action, "raised": repr(error)})
        raise
    seen = {key: observation[key] for key in ("url", "tabs", "dialog", "last_action_error")}
    seen |= {"action": action, "axtree": observation["axtree"], "dom": observation["dom"]}
    report.append(seen)
    return observation


def drive_hostile() -> dict[str, list[dict[str, Any]]]:
    """Each hostile page in a shop episode under ``LIMITS``, then a page that behaves."""
    hostile = hostile_app()
    reports: dict[str, list[dict[str, Any]]] = {}
    make = gym.make(
        "webenv/shop.fill_cart-v0", timeouts=TIMEOUTS, limits=LIMITS, observe=("axtree", "dom")
    )
    with make as env:
        env.reset(seed=0)
        mount(env, hostile)
        downloads: list[Any] = []

        def run(name: str, actions: list[str]) -> None:
            env.reset(seed=0)
            env.unwrapped._session.page.on("download", lambda d: downloads.append(d))
            report = reports[name] = []
            for action in actions:
                observation = step(env, action, report)
                if action.startswith("click:"):  # click the one button or link of the page
                    report.pop()
                    tree = AxTree(observation["axtree"])
                    node = next(n for n in tree if n.role in ("button", "link"))
                    step(env, f"click({node.id!r})", report)

        run("new tabs", ["new_tab()"] * (LIMITS.tabs + 1) + ['goto("/")'])
        run("tabs", ['goto("/__bounds__/tabs")', "click:", 'goto("/")'])
        # A step waits for the next alert (it returns once one opens: the page then waits for
        # its answer), the next answers it; past the bound, two answers find no dialog.
        wait_and_answer = ["noop(500)", "dialog_accept()"] * (LIMITS.dialogs_per_page + 2)
        forever = ['goto("/__bounds__/alerts-forever")', *wait_and_answer, "dialog_accept()"]
        run("alerts forever", [*forever, 'goto("/")'])
        many = "\n".join(["dialog_accept()", "noop(100)"] * 4)
        run("alerts in a row", ['goto("/__bounds__/alerts-in-a-row")', "click:", many, 'goto("/")'])
        run("enormous", ['goto("/__bounds__/enormous")'])
        run("download", ['goto("/__bounds__/download")', "click:", 'goto("/")'])
        reports["downloads"] = [{"failure": d.failure()} for d in downloads]
    return reports


@pytest.fixture(scope="module")
def hostile_report() -> dict[str, list[dict[str, Any]]]:
    return in_thread(drive_hostile, limit=240)


def tab_count(seen: dict[str, Any]) -> int:
    return len(seen["tabs"].splitlines())


def test_new_tab_past_the_bound_is_an_error(hostile_report):
    report = hostile_report["new tabs"]
    assert [tab_count(seen) for seen in report[:-1]] == [2, 3, 4, 4, 4]
    assert all(not seen["last_action_error"] for seen in report[: LIMITS.tabs - 1])
    assert "4 tabs are open" in report[LIMITS.tabs - 1]["last_action_error"]
    assert "tab_close()" in report[LIMITS.tabs - 1]["last_action_error"]
    assert "A page that behaves" not in report[-1]["axtree"]  # the shop, in the active tab
    assert report[-1]["url"].endswith("/") and not report[-1]["last_action_error"]


def test_tabs_a_page_opens_past_the_bound_are_closed_at_once(hostile_report):
    report = hostile_report["tabs"]
    opened = report[1]
    assert tab_count(opened) == LIMITS.tabs
    assert "more than 4 tabs" in opened["last_action_error"]
    assert not report[2]["last_action_error"] and tab_count(report[2]) == LIMITS.tabs


def test_a_page_that_alerts_forever_is_silenced(hostile_report):
    report = hostile_report["alerts forever"]
    blocked = [i for i, seen in enumerate(report) if "blocked" in seen["last_action_error"]]
    steps = [(seen["dialog"], seen["last_action_error"][:80]) for seen in report]
    assert blocked and blocked[0] <= 2 * LIMITS.dialogs_per_page + 1, steps
    # Until then, each held for the agent as any dialog, and answered by one step.
    waits = report[1 : blocked[0] : 2]
    assert waits and all(seen["dialog"] == "alert: again" for seen in waits), steps
    answers = report[2 : blocked[0] + 1 : 2]
    assert sum("No dialog" not in seen["last_action_error"] for seen in answers) == (
        LIMITS.dialogs_per_page
    ), steps
    assert "dialogs are blocked" in report[blocked[0]]["last_action_error"]
    assert all(not seen["dialog"] for seen in report[blocked[0] :])  # for good
    assert all("No dialog is open" in seen["last_action_error"] for seen in report[-3:-1])
    assert not report[-1]["last_action_error"] and "A page that behaves" not in report[-1]["axtree"]


def test_dialogs_past_the_bound_of_a_step_are_dismissed(hostile_report):
    report = hostile_report["alerts in a row"]
    assert report[1]["dialog"] == "alert: number 0"
    many = report[2]
    assert "dialogs are blocked" in many["last_action_error"]
    assert many["dialog"] == ""
    assert not report[3]["last_action_error"]


def test_an_enormous_page_is_cut_with_a_marker(hostile_report):
    (seen,) = hostile_report["enormous"]
    for key in ("axtree", "dom"):
        text = seen[key]
        assert len(text) <= LIMITS.observation_chars + 200, key
        assert text.splitlines()[-1].startswith(f"[cut: this page's {key} has ")
    assert 'link "Item number 0"' in seen["axtree"]


def test_downloads_stay_refused(hostile_report):
    report = hostile_report["download"]
    assert report[1]["url"].endswith("/__bounds__/download")  # still on the page
    assert hostile_report["downloads"] and all(
        d["failure"] for d in hostile_report["downloads"]
    )  # every download was cancelled
    assert not report[2]["last_action_error"]

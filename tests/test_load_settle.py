"""A page that does not settle in time is flagged, never observed as if it had.

The settle waits on conditions (the load event, a quiet DOM, no request in flight) up to the
settling bound. A page that is still changing at the bound (a slow script rendering it, a
machine too busy to finish in time) used to be observed all the same, as a normal
observation: an agent then acted on half a page. Now the step says so in its
``last_action_error``, and a start page that does not settle fails the reset's attempt (which
is tried again, then reported as an :class:`~webenv.errors.InfrastructureError`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest
from flask import Flask
from playwright.sync_api import Browser

from webenv.axtree import AxTree
from webenv.server import SiteServer
from webenv.session import Session, Timeouts

QUICK = Timeouts(action=1000, navigation=2000, settle=600)

#: A page whose script redraws it at every turn of its event loop, for ever: never quiet
#: (a redraw is always queued ahead of the settle's next look, however late timers fire).
_RESTLESS = """<title>Restless</title><h1>Restless</h1><p id="n">0</p>
<script>let n = 0;
const redraw = () => { document.getElementById("n").textContent = ++n; setTimeout(redraw, 0); };
redraw();
</script>"""
_LINKS = """<title>Start</title><h1>Start</h1><a href="/restless">Restless</a>
<a href="/calm">Calm</a>"""


def _app() -> Flask:
    app = Flask("settle")
    app.add_url_rule("/", "start", lambda: _LINKS)
    app.add_url_rule("/restless", "restless", lambda: _RESTLESS)
    app.add_url_rule("/calm", "calm", lambda: "<title>Calm</title><h1>Calm</h1>")
    return app


@pytest.fixture
def served() -> Iterator[SiteServer]:
    server = SiteServer({"shop": _app()})
    yield server
    server.close()


def _session(browser: Browser, server: SiteServer) -> Session:
    return Session(
        browser,
        [server.url("shop")],
        now=datetime(2026, 1, 1),
        timeouts=QUICK,
        server_idle=server.wait_idle,
    )


def test_a_page_still_changing_at_the_bound_is_flagged(browser, served):
    session = _session(browser, served)
    try:
        session.goto(served.url("shop") + "/")
        assert session.settle({"axtree": True}) is not None
        assert session.unsettled == "" and session.limited == ""
        session.begin_step()
        session.goto(served.url("shop") + "/restless")
        page = session.settle({"axtree": True})
        assert page is not None and AxTree(page["axtree"]).find("heading", "Restless")
        assert "did not settle within 0.6 s" in session.unsettled
        assert session.unsettled in session.limited  # the step's last_action_error
        # A calm page afterwards settles, and the flag goes.
        session.begin_step()
        session.goto(served.url("shop") + "/calm")
        assert session.settle({"axtree": True}) is not None
        assert session.unsettled == "" and session.limited == ""
    finally:
        session.close()


def test_a_start_page_that_does_not_settle_stops_the_reset(browser, served):
    session = _session(browser, served)
    try:
        session.start_at(served.url("shop") + "/restless")
        session.settle({"axtree": True})
        assert "/restless did not settle in time" in session.interrupted
    finally:
        session.close()


def test_a_start_page_that_settles_starts_the_episode(browser, served):
    session = _session(browser, served)
    try:
        session.start_at(served.url("shop") + "/")
        assert session.settle({"axtree": True}) is not None
        assert session.interrupted == "" and session.unsettled == ""
        # Only the start page's settle can stop a reset: a later one is flagged instead.
        session.goto(served.url("shop") + "/restless")
        session.settle({"axtree": True})
        assert session.interrupted == "" and session.unsettled in session.limited
    finally:
        session.close()

"""A window a page opens is the page the step's observation shows, however late it comes.

Playwright hands a pop-up over only once its first response starts to arrive. On a busy
machine the opener can look quiet before that, and before the pop-up's request has even
reached our server, so the step would have observed the opener. Here the session is given no
view of the server's requests and the pop-up's page answers slowly: as when the request is
still on its way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime

import pytest
from flask import Flask

from tests.observation.conftest import Driver
from webenv.axtree import AxTree
from webenv.server import SiteServer
from webenv.session import DEFAULT_TIMEOUTS, Session, Timeouts

#: How long the pop-up's page takes to start its answer: well within the settle bound (5 s).
LATE_SECONDS = 1.0
#: The settle bound of the test of a pop-up that answers past it, and how long that one takes.
SHORT_SETTLE_MS = 2000
HUNG_SECONDS = 6.0
PAGES = {
    "opener": """<h1>Opener</h1>
<button onclick="window.open('/late', 'extra', 'width=500,height=400')">Open pop-up</button>
<a href="/late" target="_blank">Open in a new tab</a>
<button onclick="const w = window.open('/late'); setTimeout(() => w.close(), 100)">
Open and close</button>
<button onclick="window.open('/hung')">Open a hung pop-up</button>
<iframe name="pane" title="Pane" src="/pane"></iframe>
<a href="/pane-next" target="pane">Show in the pane</a>
<a href="/late" target="_blank" onclick="event.preventDefault()">Cancelled</a>
<form action="/late" target="_blank"><label for="query">Query</label><input id="query"></form>""",
    "pane": "<p>Pane</p>",
    "pane-next": "<p>Pane, next</p>",
}


def popup_app() -> Flask:
    app = Flask("popups")

    @app.route("/<name>")
    def page(name: str) -> tuple[str, int] | str:
        if name in ("late", "hung"):
            time.sleep(LATE_SECONDS if name == "late" else HUNG_SECONDS)
            return f"<!doctype html><title>{name}</title><h1>{name.title()} page</h1>"
        body = PAGES.get(name)
        if body is None:
            return "missing", 404
        return f"<!doctype html><html><head><title>{name}</title></head><body>{body}</body></html>"

    return app


@pytest.fixture
def popups(browser, request) -> Iterator[Driver]:
    server = SiteServer({"popups": popup_app()})
    # No server_idle: the session cannot see a request before it is answered.
    timeouts = getattr(request, "param", DEFAULT_TIMEOUTS)
    session = Session(
        browser, [server.url("popups")], now=datetime(2026, 3, 2, 9, 30), timeouts=timeouts
    )
    try:
        yield Driver(session, server.url("popups"), None)
    finally:
        session.close()
        server.close()


@pytest.mark.parametrize(
    ("role", "name"), [("button", "Open pop-up"), ("link", "Open in a new tab")]
)
def test_a_window_that_answers_late_is_the_page_observed(popups, role, name):
    popups.open("opener")
    assert popups.act(f'click("{popups.id_of(role, name)}")') == ""
    tree = AxTree(popups.observe()["axtree"])
    assert tree.has("heading", "Late page")
    assert popups.session.unsettled == ""
    assert len(popups.session.pages) == 2
    assert popups.session.page.url == f"{popups.base}/late"


def test_a_window_closed_before_it_answers_is_not_waited_for(popups):
    popups.open("opener")
    assert popups.act(f'click("{popups.id_of("button", "Open and close")}")') == ""
    tree = AxTree(popups.observe()["axtree"])
    assert tree.has("heading", "Opener")
    assert popups.session.unsettled == ""  # the step did not wait out its bound
    assert len(popups.session.pages) == 1


@pytest.mark.parametrize(("role", "name"), [("link", "Cancelled"), ("textbox", "Query")])
def test_a_click_on_a_target_that_opens_nothing_works_and_opens_nothing(popups, role, name):
    # A link whose click the page cancels; a field of a form whose submissions open a window.
    popups.open("opener")
    assert popups.act(f'click("{popups.id_of(role, name)}")') == ""
    assert AxTree(popups.observe()["axtree"]).has("heading", "Opener")
    assert popups.session.unsettled == ""
    assert len(popups.session.pages) == 1


def test_a_link_into_a_frame_opens_no_window(popups):
    popups.open("opener")
    assert popups.act(f'click("{popups.id_of("link", "Show in the pane")}")') == ""
    popups.observe()
    assert popups.session.unsettled == ""
    assert len(popups.session.pages) == 1
    assert popups.session.page.frames[1].url == f"{popups.base}/pane-next"


@pytest.mark.parametrize(
    "popups", [Timeouts(action=5000, navigation=10000, settle=SHORT_SETTLE_MS)], indirect=True
)
def test_a_window_still_on_its_way_at_the_bound_is_said_and_not_waited_for_again(popups):
    popups.open("opener")
    assert popups.act(f'click("{popups.id_of("button", "Open a hung pop-up")}")') == ""
    tree = AxTree(popups.observe()["axtree"])
    assert tree.has("heading", "Opener")  # the opener, as it is, while the pop-up loads
    assert "did not settle" in popups.session.unsettled
    popups.observe()  # the next look (within the pop-up's wait) does not wait for it again
    assert popups.session.unsettled == ""

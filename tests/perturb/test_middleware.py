"""The perturber in front of a WSGI app, without a browser."""

from __future__ import annotations

import threading
import time

from flask import Flask
from werkzeug.test import Client

from webenv.perturb import Perturber, Plan, Planned
from webenv.perturb.base import TIME_SCALE_VARIABLE


def counting_app(calls: list[str]) -> Flask:
    app = Flask(__name__)

    @app.get("/<path:path>")
    def page(path: str) -> str:
        calls.append(path)
        return "<html><body><a href='/next'>next</a></body></html>"

    return app


def test_a_request_held_up_past_its_episode_never_reaches_the_site(monkeypatch):
    monkeypatch.setenv(TIME_SCALE_VARIABLE, "1")  # the stall must outlast the reset below
    calls: list[str] = []
    perturber = Perturber({"shop": "session"}, settle_seconds=0.3)
    client = Client(perturber.wrap("shop", counting_app(calls)))
    perturber.start(Plan("test", (Planned("links.timeout", "shop", 1),)))
    answers = []
    held = threading.Thread(target=lambda: answers.append(client.get("/thread/7")))
    held.start()
    time.sleep(0.2)
    perturber.stop()  # the env resets while the request sleeps
    held.join(5)
    assert answers and answers[0].status_code == 503
    assert calls == []
    assert client.get("/thread/7").status_code == 200 and calls == ["thread/7"]


def test_an_empty_plan_passes_requests_through_untouched():
    calls: list[str] = []
    app = counting_app(calls)
    perturber = Perturber({"shop": "session"}, settle_seconds=1)
    perturber.start(Plan("none", ()))
    direct = Client(app).get("/a").get_data()
    assert Client(perturber.wrap("shop", app)).get("/a").get_data() == direct


def test_pages_count_only_top_level_loads():
    calls: list[str] = []
    perturber = Perturber({"shop": "session"}, settle_seconds=1)
    client = Client(perturber.wrap("shop", counting_app(calls)))
    perturber.start(Plan("test", (Planned("links.server_error", "shop", 2),)))
    assert client.get("/a", headers={"Sec-Fetch-Dest": "image"}).status_code == 200
    assert client.get("/b").status_code == 200  # page load 1
    assert client.get("/c", headers={"Sec-Fetch-Dest": "empty"}).status_code == 200  # a fetch
    assert client.get("/d").status_code == 500  # page load 2: struck
    assert client.get("/d").status_code == 200  # once
    assert [e["what"] for e in perturber.drain()] == ["shown", "recovered"]

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


def test_one_perturbation_per_page_load():
    # A dead link's 404 that also failed with a 500 would leave the 500 waiting for a load of
    # the dead address, which no link leads to again: the 500 strikes the next load instead.
    app = Flask(__name__)

    @app.get("/")
    def links() -> str:
        return "".join(f'<a href="/p/{n}">{n}</a>' for n in range(24))

    @app.get("/p/<int:number>")
    def item(number: int) -> str:
        return f"item {number}"

    perturber = Perturber({"shop": "session"}, settle_seconds=1)
    client = Client(perturber.wrap("shop", app))
    perturber.start(
        Plan(
            "test",
            (
                Planned("links.dead_link", "shop", 1, {"salt": "000000"}),
                Planned("links.server_error", "shop", 2),
            ),
        )
    )
    page = client.get("/").get_data(as_text=True)  # page load 1: some links are dead
    dead = page.split('href="/moved')[1].split('"')[0]
    assert client.get(f"/moved{dead}").status_code == 404  # load 2: the dead link, and only it
    assert client.get(dead).status_code == 500  # load 3: the page itself, struck by the 500
    assert client.get(dead).status_code == 200
    events = [(e["kind"], e["what"]) for e in perturber.drain()]
    assert events == [
        ("links.dead_link", "shown"),
        ("links.dead_link", "recovered"),
        ("links.server_error", "shown"),
        ("links.server_error", "recovered"),
    ], events


def test_a_dead_link_to_an_address_with_escaped_characters_is_recognised_and_recovered():
    # A mail label's page: "/label/Keep%20for%20taxes" in the link, "/label/Keep for taxes" as
    # the server reads it. The dead link must be known by either spelling.
    app = Flask(__name__)
    names = [f"Label {n}" for n in range(24)]

    @app.get("/")
    def links() -> str:
        return "".join(f'<a href="/label/{name.replace(" ", "%20")}">{name}</a>' for name in names)

    @app.get("/label/<name>")
    def label(name: str) -> str:
        return f"label {name}"

    perturber = Perturber({"mail": "session"}, settle_seconds=1)
    client = Client(perturber.wrap("mail", app))
    perturber.start(Plan("test", (Planned("links.dead_link", "mail", 1, {"salt": "000000"}),)))
    page = client.get("/").get_data(as_text=True)
    dead = page.split('href="/moved')[1].split('"')[0]
    assert "%20" in dead
    assert client.get(f"/moved{dead}").status_code == 404
    assert client.get(dead).status_code == 200
    assert [e["what"] for e in perturber.drain()] == ["shown", "recovered"]


def test_dead_links_that_differ_only_in_their_query_each_lead_back_to_their_own_page():
    # The contacts' "Write" links: /compose?to=N&amp;from=contacts, one per contact. Getting
    # past the dead one followed must go to that contact's page, not to the last one broken.
    app = Flask(__name__)

    @app.get("/")
    def links() -> str:
        return "".join(f'<a href="/compose?to={n}&amp;from=contacts">{n}</a>' for n in range(24))

    @app.get("/compose")
    def compose() -> str:
        return "compose"

    perturber = Perturber({"mail": "session"}, settle_seconds=1)
    client = Client(perturber.wrap("mail", app))
    perturber.start(Plan("test", (Planned("links.dead_link", "mail", 1, {"salt": "000000"}),)))
    page = client.get("/").get_data(as_text=True)
    dead = [link.split('"')[0] for link in page.split('href="/moved')[1:]]
    assert len(dead) >= 2, page  # several broken: the first is not the last
    followed = dead[0].replace("&amp;", "&")
    assert client.get(f"/moved{followed}").status_code == 404
    fix = perturber.recovery({"url": f"http://mail.localhost/moved{followed}"}, "")
    assert fix == f"goto({followed!r})"
    assert client.get(followed).status_code == 200
    assert [e["what"] for e in perturber.drain()] == ["shown", "recovered"]

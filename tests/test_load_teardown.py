"""Tearing a world down while its pages still ask for things: no request outlives the server.

A site server's requests are served in threads of their own. Closing the server used to stop
only the accepting loop, so a request still being served went on reading the world's
databases after :meth:`World.close` had removed them: ``sqlite3.OperationalError: unable to
open database file``, a traceback per request, at the end of a run that had failed for
another reason.
"""

from __future__ import annotations

import shutil
import socket
import sqlite3
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

from flask import Flask

from webenv.server import SiteServer


def _reading_app(database: Path, entered: threading.Event, gate: threading.Event) -> Flask:
    """A site whose page reads its database once ``gate`` opens, as a slow page would."""
    app = Flask("reading")
    finished: list[str] = []
    app.config["finished"] = finished

    @app.route("/")
    def index() -> str:
        entered.set()
        gate.wait(10)
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
            (count,) = conn.execute("SELECT count(*) FROM items").fetchone()
        finished.append(f"{count} items")
        return finished[-1]

    return app


def _fetch(url: str, host: str, into: list[object]) -> None:
    request = urllib.request.Request(url, headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            into.append(response.status)
    except (urllib.error.URLError, OSError) as error:
        into.append(error)


def test_close_waits_for_the_requests_being_served():
    folder = Path(tempfile.mkdtemp(prefix="webenv-test-world-"))
    database = folder / "shop.sqlite"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE items (id INTEGER)")
        conn.executemany("INSERT INTO items VALUES (?)", [(1,), (2,)])
    entered, gate = threading.Event(), threading.Event()
    app = _reading_app(database, entered, gate)
    server = SiteServer({"shop": app})
    answers: list[object] = []
    client = threading.Thread(
        target=_fetch,
        args=(f"http://127.0.0.1:{server.port}/", f"shop.localhost:{server.port}", answers),
    )
    client.start()
    try:
        assert entered.wait(10)
        # The page is being served when the env closes; it goes on a moment later.
        threading.Timer(0.3, gate.set).start()
        server.close()
        # As World.close does next: the request must be over by now.
        assert app.config["finished"] == ["2 items"]
        assert server.in_flight == 0
        shutil.rmtree(folder)
        client.join(15)
        assert answers == [200]
    finally:
        gate.set()
        server.close()
        client.join(15)
        shutil.rmtree(folder, ignore_errors=True)


def test_a_request_whose_client_has_gone_keeps_the_server_busy_no_more():
    # A tab closed while its page was loading (a stuck page left behind, an episode's
    # context closed at reset) must not hold every later page of the world unsettled.
    entered, gate = threading.Event(), threading.Event()
    app = Flask("hanging")

    @app.route("/")
    def index() -> str:
        entered.set()
        gate.wait(10)
        return "late"

    server = SiteServer({"shop": app})
    try:
        client = socket.create_connection(("127.0.0.1", server.port))
        client.sendall(f"GET / HTTP/1.1\r\nHost: shop.localhost:{server.port}\r\n\r\n".encode())
        assert entered.wait(10)
        assert server.wait_idle(0.1) is False  # its client waits for it
        client.close()
        assert server.wait_idle(5) is True
        assert server.in_flight == 1  # its handler still runs: close() waits for it
    finally:
        gate.set()
        server.close()
    assert server.in_flight == 0

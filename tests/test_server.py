"""The site server: host-routed, loopback only, counting requests in flight."""

import threading
import time
import urllib.request

import pytest
from flask import Flask

from webenv.server import SiteServer


def make_app(name: str, gate: threading.Event | None = None) -> Flask:
    app = Flask(name)

    @app.route("/")
    def index():
        if gate is not None:
            gate.wait(5)
        return f"this is {name}"

    return app


def fetch(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.fixture
def server():
    server = SiteServer({"shop": make_app("shop"), "mail": make_app("mail")})
    yield server
    server.close()


def test_each_site_answers_on_its_own_host(server):
    base = f"http://127.0.0.1:{server.port}/"
    assert fetch(base, f"shop.localhost:{server.port}") == (200, "this is shop")
    assert fetch(base, f"mail.localhost:{server.port}") == (200, "this is mail")


@pytest.mark.parametrize(
    "host",
    [
        "forms.localhost:{port}",
        "shop.localhost:1",
        "shop.example.com:{port}",
        "127.0.0.1:{port}",
        "localhost:{port}",
        "",
    ],
)
def test_hosts_outside_the_world_get_404(server, host):
    status, body = fetch(f"http://127.0.0.1:{server.port}/", host.format(port=server.port))
    assert status == 404
    assert "No such site" in body


def test_server_listens_on_loopback_only(server):
    assert server._server.server_address[0] == "127.0.0.1"


def test_wait_idle_waits_for_requests_in_flight():
    gate = threading.Event()
    server = SiteServer({"shop": make_app("shop", gate)})
    try:
        url = f"http://127.0.0.1:{server.port}/"
        worker = threading.Thread(target=fetch, args=(url, f"shop.localhost:{server.port}"))
        worker.start()
        deadline = time.monotonic() + 5
        while server.in_flight == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert server.in_flight == 1
        assert server.wait_idle(0.2) is False
        gate.set()
        worker.join()
        assert server.wait_idle(5) is True
        assert server.in_flight == 0
    finally:
        gate.set()
        server.close()


def test_close_twice_is_safe():
    server = SiteServer({"shop": make_app("shop")})
    server.close()
    server.close()

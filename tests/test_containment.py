"""Containment where traffic flows: no request of an episode's browser leaves its own world.

An agent that finds a way to make its own site send the browser elsewhere (a redirect, a meta
refresh, a script changing ``location``), or a page that fetches, embeds, connects to or opens
another address, must still reach nothing but its own world: not a loopback service holding a
secret (a replay viewer showing an oracle's answer, say), and not another env's site server in
the same process (whose perturbation plan it would use up, and whose walls would clear its
own cookies, since cookies do not tell ports apart).

Each attempt goes through the real env and Chromium, as an agent would: ``goto`` a page of its
own site. The page comes from a test-only route put in front of the env's shop (``/__exits/``),
standing in for whatever hole a site might have.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.client
import http.server
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import gymnasium as gym
import pytest
from flask import Flask, redirect, request

import webenv  # noqa: F401  (registers the ids)
from webenv.vector import WebVectorEnv

TASK = "shop.order_total"
SECRET = "SECRET-oracle-answer-4711"
EXITS = "/__exits/"

# -- the places outside the world ---------------------------------------------------------


class SecretServer:
    """A plain loopback HTTP server holding a secret, answering pages, scripts, images and
    WebSocket handshakes, and counting every request that reaches it."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        hits = self.hits

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                if self.headers.get("Upgrade", "").lower() == "websocket":
                    key = self.headers.get("Sec-WebSocket-Key", "")
                    digest = hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode())
                    self.send_response(101)
                    self.send_header("Upgrade", "websocket")
                    self.send_header("Connection", "Upgrade")
                    self.send_header(
                        "Sec-WebSocket-Accept", base64.b64encode(digest.digest()).decode()
                    )
                    self.end_headers()
                    time.sleep(0.5)
                    self.close_connection = True
                    return
                if self.path.startswith("/script"):
                    body, kind = f"document.title = {SECRET!r};".encode(), "text/javascript"
                elif self.path.startswith("/img"):
                    body, kind = _PNG, "image/png"
                else:
                    body, kind = f"<title>{SECRET}</title><p>{SECRET}</p>".encode(), "text/html"
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def send_error(self, code: int, *args: Any, **kwargs: Any) -> None:
                hits.append(f"{code} {self.requestline[:40]!r}")  # not HTTP GET: a POST, TURN…
                super().send_error(code, *args, **kwargs)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        #: The same port for UDP (STUN and TURN, as WebRTC would send them).
        self._udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._udp.bind(("127.0.0.1", self.port))
        threading.Thread(target=self._receive, daemon=True).start()

    def _receive(self) -> None:
        with contextlib.suppress(OSError):  # closed
            while True:
                datagram, _ = self._udp.recvfrom(4096)
                self.hits.append(f"udp {datagram[:8].hex()}")

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._udp.close()


_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)

#: What a probe page does with ``TO``; each ends by calling ``done(result)``.
PROBES = {
    "fetch": "fetch(TO).then(r => r.text()).then(t => done('fetched ' + t), e => done('no ' + e))",
    "img": "const i = new Image(); i.onload = () => done('loaded'); i.onerror = () => done('no');"
    " i.src = TO;",
    "script": "const s = document.createElement('script'); s.onload = () => done('ran ' +"
    " document.title); s.onerror = () => done('no'); s.src = TO; document.head.append(s);",
    "websocket": "const w = new WebSocket(TO.replace(/^http/, 'ws'));"
    " w.onopen = () => done('open'); w.onerror = () => done('no');",
    "window.open": "window.open(TO); done('opened');",
    "iframe": "const f = document.createElement('iframe'); f.onload = () => done('framed');"
    " f.src = TO; document.body.append(f);",
    "prefetch": "const l = document.createElement('link'); l.rel = 'prefetch'; l.href = TO;"
    " l.onload = () => done('loaded'); l.onerror = () => done('no'); document.head.append(l);",
    "beacon": "done(navigator.sendBeacon(TO, 'x') ? 'sent' : 'no');",
    "eventsource": "const e = new EventSource(TO); e.onopen = () => done('open');"
    " e.onerror = () => { e.close(); done('no'); };",
}
#: WebRTC to the host and port of ``TO``: TURN over TCP and UDP, and STUN.
WEBRTC = """const u = new URL(TO), at = `${u.hostname}:${u.port}`;
Promise.all([`turn:${at}?transport=tcp`, `turn:${at}?transport=udp`, `stun:${at}`].map(
  async (urls) => {
    const pc = new RTCPeerConnection({iceServers: [{urls, username: "u", credential: "p"}]});
    pc.createDataChannel("x");
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((r) => setTimeout(r, 1500));
    pc.close();
  })).then(() => done("tried"), (e) => done("no " + e));"""


def exits_app() -> Flask:
    """Test-only routes that send the browser, or make the page reach, wherever ``to`` says."""
    app = Flask("exits")

    @app.route(f"{EXITS}302")
    def found() -> Any:
        return redirect(request.args["to"])

    @app.route(f"{EXITS}chain")
    def chain() -> Any:  # a hop on the site itself, then out
        return redirect(f"{EXITS}302?to={quote(request.args['to'], safe='')}", code=307)

    @app.route(f"{EXITS}meta")
    def meta() -> Any:
        to = json.dumps(request.args["to"])
        return f"<meta http-equiv='refresh' content='0;url={to[1:-1]}'><p>leaving</p>"

    @app.route(f"{EXITS}js")
    def script() -> Any:
        return f"<p>leaving</p><script>location.href = {json.dumps(request.args['to'])}</script>"

    @app.route(f"{EXITS}probe/<kind>")
    def probe(kind: str) -> Any:
        code = WEBRTC if kind == "webrtc" else PROBES[kind]
        return (
            "<main><p id='result'>waiting</p></main><script>"
            f"const TO = {json.dumps(request.args['to'])};"
            "function done(t) { document.getElementById('result').textContent = t; }"
            f"{code}</script>"
        )

    return app


def with_exits(app: Callable[..., Any]) -> Callable[..., Any]:
    """``app`` with the test-only routes in front."""
    exits = exits_app()

    def dispatch(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        target = exits if environ.get("PATH_INFO", "").startswith(EXITS) else app
        return target(environ, start_response)

    return dispatch


def counting(app: Callable[..., Any], hits: list[str]) -> Callable[..., Any]:
    """``app``, noting the path of every request that reaches it."""

    def dispatch(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        hits.append(environ.get("PATH_INFO", ""))
        return app(environ, start_response)

    return dispatch


# -- fixtures -----------------------------------------------------------------------------


def make(**kwargs: Any) -> Any:
    return gym.make(f"webenv/{TASK}-v0", max_episode_steps=10**6, **kwargs)


def server(env: Any) -> Any:
    return env.unwrapped._server


@pytest.fixture(scope="module")
def secret() -> Iterator[SecretServer]:
    place = SecretServer()
    yield place
    place.close()


@pytest.fixture(scope="module")
def envs(browser) -> Iterator[tuple[Any, Any, list[str]]]:
    """Env A, whose shop has the exits, and env B, in the same process, with a session
    expiry planned in its shop; and the paths of the requests that reached B's shop."""
    a, b = make(), make(perturb={"walls.session_expiry": 1.0})
    b_hits: list[str] = []
    try:
        for env in (a, b):
            env.reset(seed=0)
        server(a).apps["shop"] = with_exits(server(a).apps["shop"])
        server(b).apps["shop"] = counting(server(b).apps["shop"], b_hits)
        yield a, b, b_hits
    finally:
        a.close()
        b.close()


def targets(secret: SecretServer, b: Any) -> dict[str, str]:
    """Addresses outside env A's world: a loopback service by three names, and env B's shop."""
    return {
        "loopback": f"http://127.0.0.1:{secret.port}/",
        "localhost": f"http://localhost:{secret.port}/",
        "site name, other port": f"http://shop.localhost:{secret.port}/",
        "another env": f"{server(b).url('shop')}/account",
    }


def reached(secret: SecretServer, b_hits: list[str]) -> list[str]:
    return secret.hits + [f"env B {path}" for path in b_hits]


def act(env: Any, action: str) -> dict[str, Any]:
    observation, _, _, _, info = env.step(action)
    assert "error" not in info, f"{action}: {info['error']}"
    return observation


def exit_url(a: Any, route: str, to: str) -> str:
    return f"{server(a).url('shop')}{EXITS}{route}?to={quote(to, safe='')}"


def wait_for_result(env: Any, observation: dict[str, Any]) -> dict[str, Any]:
    """Step ``noop`` until the probe page has written its result (a few seconds at most)."""
    for _ in range(10):
        if "waiting" not in observation["axtree"]:
            break
        observation = act(env, "noop(wait_ms=300)")
    return observation


def leaves_no_trace(
    observation: dict[str, Any], secret: SecretServer, b_hits: list[str], before: int
) -> None:
    time.sleep(0.3)  # a request on its way would have arrived by now
    assert reached(secret, b_hits)[before:] == []
    assert SECRET not in observation["axtree"]
    assert SECRET not in observation["tabs"]


# -- redirects ----------------------------------------------------------------------------


@pytest.mark.parametrize("route", ["302", "chain", "meta", "js"])
@pytest.mark.parametrize("where", ["loopback", "localhost", "site name, other port", "another env"])
def test_a_redirect_out_of_the_world_reaches_nothing(envs, secret, route, where):
    a, b, b_hits = envs
    to = targets(secret, b)[where]
    before = len(reached(secret, b_hits))
    observation = act(a, f"goto({exit_url(a, route, to)!r})")
    if route in ("meta", "js"):
        observation = act(a, "noop(wait_ms=500)")
    leaves_no_trace(observation, secret, b_hits, before)
    assert "Outside the world" in observation["axtree"]


# -- subresources, fetch, WebSockets, pop-ups ----------------------------------------------


@pytest.mark.parametrize("kind", sorted(PROBES))
@pytest.mark.parametrize("where", ["loopback", "another env"])
def test_a_page_reaches_nothing_outside_the_world(envs, secret, kind, where):
    a, b, b_hits = envs
    to = targets(secret, b)[where]
    if kind == "script":
        to = to.rstrip("/") + "/script"
    before = len(reached(secret, b_hits))
    observation = wait_for_result(a, act(a, f"goto({exit_url(a, f'probe/{kind}', to)!r})"))
    if kind == "window.open":
        observation = act(a, "noop(wait_ms=500)")  # the pop-up is the active tab now
        assert "Outside the world" in observation["axtree"]
        act(a, "tab_close()")
    else:
        assert "waiting" not in observation["axtree"]
        assert not any(word in observation["axtree"] for word in ("loaded", "open", "ran"))
    leaves_no_trace(observation, secret, b_hits, before)


def test_webrtc_reaches_no_loopback_port(envs, secret):
    """STUN and TURN to a loopback port, by UDP and TCP: neither proxied nor sent."""
    a, b, b_hits = envs
    before = len(reached(secret, b_hits))
    to = targets(secret, b)["loopback"]
    observation = wait_for_result(a, act(a, f"goto({exit_url(a, 'probe/webrtc', to)!r})"))
    assert "tried" in observation["axtree"]
    leaves_no_trace(observation, secret, b_hits, before)


# -- another env of the process -----------------------------------------------------------


def session_cookie(env: Any) -> str:
    cookies = env.unwrapped._session.context.cookies(server(env).url("shop"))
    return next(cookie["value"] for cookie in cookies if cookie["name"] == "session")


def test_another_envs_plan_and_this_envs_cookies_stay_untouched(envs, secret):
    """Env A's browser sent to env B's shop, again and again: B's planned session expiry
    would strike (using B's plan up) and clear the shop's session cookie, which A shares by
    host name; neither happens."""
    a, b, b_hits = envs
    a.reset(seed=0)
    b.reset(seed=0)
    (expiry,) = b.unwrapped.perturber.actives
    assert not expiry.happened("shown"), "the wall struck at B's start: pick another seed"
    cookie = session_cookie(a)
    before = len(b_hits)
    for path in ("/account", "/", "/account/orders", "/cart"):
        act(a, f"goto({exit_url(a, '302', server(b).url('shop') + path)!r})")
    time.sleep(0.3)
    assert b_hits[before:] == []
    assert not expiry.happened("shown") and not expiry.state.get("struck")
    _, _, _, _, info = b.step("noop()")
    assert info["events"] == []
    assert session_cookie(a) == cookie
    observation = act(a, f'goto("{server(a).url("shop")}/account")')
    assert "/login" not in observation["url"]


# -- contexts made ahead, and the vector env -------------------------------------------------


def test_a_context_made_ahead_of_time_is_contained_too(envs, secret):
    """The second episode's context was opened during the first (``Ahead``)."""
    a, b, b_hits = envs
    a.reset(seed=1)
    before = len(reached(secret, b_hits))
    observation = act(a, f"goto({exit_url(a, '302', targets(secret, b)['loopback'])!r})")
    leaves_no_trace(observation, secret, b_hits, before)
    assert "Outside the world" in observation["axtree"]


def test_an_env_of_a_vector_env_cannot_reach_its_neighbour(browser, secret):
    vector = WebVectorEnv(2, task=TASK)
    try:
        vector.reset(seed=0)
        first, second = (env.unwrapped for env in vector.envs)
        first._server.apps["shop"] = with_exits(first._server.apps["shop"])
        hits: list[str] = []
        second._server.apps["shop"] = counting(second._server.apps["shop"], hits)
        for _ in range(2):  # the second episode runs in a context made ahead
            to = f"{second._server.url('shop')}/account"
            actions = [f"goto({exit_url(first, '302', to)!r})", "noop()"]
            observations, *_ = vector.step(actions)
            assert "Outside the world" in observations["axtree"][0]
            vector.reset(seed=1)
        time.sleep(0.3)
        assert [path for path in hits if path.startswith("/account")] == []
    finally:
        vector.close()


def test_the_refusal_is_a_page_and_connect_is_refused(envs):
    """Through the world's server as a proxy: a plain page for other hosts, no tunnel."""
    a, _, _ = envs
    port = server(a).port
    for method, target in (
        ("GET", "http://example.com/"),
        ("GET", f"http://127.0.0.1:{port}/"),
        ("CONNECT", f"shop.localhost:{port}"),
        ("CONNECT", "example.com:443"),
    ):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.putrequest(method, target, skip_host=True)
            connection.putheader("Host", target.split("/")[2] if "//" in target else target)
            connection.endheaders()
            response = connection.getresponse()
            assert response.status == 403, (method, target)
            assert b"outside this world" in response.read()
        finally:
            connection.close()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", f"{server(a).url('shop')}/", headers={"Host": "x"})
        response = connection.getresponse()
        assert response.status == 200 and b"Northwind" in response.read()
    finally:
        connection.close()

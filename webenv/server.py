"""The world's web server: every site in-process on 127.0.0.1, routed by host name.

``http://shop.localhost:PORT/`` reaches the shop, ``http://mail.localhost:PORT/`` the mail
client, and so on; Chromium resolves ``*.localhost`` to loopback by itself. The server counts
requests in flight so that the env can wait for the page to settle without sleeping, and
so that :meth:`SiteServer.close` returns only once no request is being served: the world's
files can then be removed without a request still reading them.

It is also the episode's browser context's HTTP proxy (:attr:`SiteServer.proxy`): every
request of that context comes here, whatever its URL, and only the world's own origins are
answered. Any other host or port (another env's world, a loopback service), and ``CONNECT``
to anything (HTTPS, WebSockets), gets a plain page saying it is outside the world.
"""

from __future__ import annotations

import html
import itertools
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: How often :meth:`SiteServer.wait_idle` looks whether the clients of the requests in flight
#: are still there, in seconds (a request ending wakes it at once).
_GONE_CHECK_S = 0.05
#: How long :meth:`SiteServer.close` waits for the requests being served to end, in seconds.
CLOSE_WAIT_S = 10.0

_OUTSIDE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outside the world</title></head>
<body><h1>Outside the world</h1>
<p>{target} is outside this world; only its own sites are reachable: {origins}.</p>
</body></html>
"""


class _QuietHandler(WSGIRequestHandler):
    """Werkzeug's handler without a log line per request."""

    def log_request(self, *args: Any, **kwargs: Any) -> None:
        pass

    def log(self, type: str, message: str, *args: Any) -> None:
        if type == "error":
            super().log(type, message, *args)


class SiteServer:
    """Serves ``{site name: WSGI app}`` on one ephemeral loopback port, routed by host."""

    def __init__(self, apps: Mapping[str, WSGIApp], host: str = "127.0.0.1", port: int = 0):
        self.apps = dict(apps)
        self._in_flight = 0
        self._idle = threading.Condition()
        #: Set by :meth:`close`: requests still arriving (a keep-alive connection's next one)
        #: get a 503 without reaching the sites, whose databases may be gone.
        self._closing = False
        #: The connection of each request in flight (None where unknown), by request.
        self._connections: dict[int, socket.socket | None] = {}
        self._tokens = itertools.count()
        self._server: BaseWSGIServer = make_server(
            host, port, self._dispatch, threaded=True, request_handler=_QuietHandler
        )
        self.port = self._server.server_port
        self._wake, self._waker = socket.socketpair()
        self._thread = threading.Thread(
            target=self._serve, name=f"webenv-server-{self.port}", daemon=True
        )
        self._thread.start()

    def url(self, site: str) -> str:
        """Base URL of ``site``, without a trailing slash."""
        return f"http://{site}.localhost:{self.port}"

    @property
    def proxy(self) -> str:
        """This server as an HTTP proxy (``proxy={"server": ...}`` of a browser context)."""
        return f"http://{self._server.host}:{self.port}"

    def site_of(self, host: str) -> str | None:
        """The site a ``Host`` header names, or None when it names none of ours."""
        name, _, port = host.partition(":")
        site, _, rest = name.partition(".")
        if rest != "localhost" or port != str(self.port) or site not in self.apps:
            return None
        return site

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def wait_idle(self, timeout: float) -> bool:
        """Block until no request is in flight; False when ``timeout`` (seconds) ran out.

        A request whose client has gone (its tab or context closed, the connection shut)
        counts no more: nobody waits for its answer, whatever its handler still does.
        """
        deadline = time.monotonic() + timeout
        with self._idle:
            while True:
                waiting = self._awaited()
                if waiting == 0:
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                # Woken when a request ends; a client going away wakes nothing, so the
                # connections are looked at again every so often.
                self._idle.wait(min(left, _GONE_CHECK_S))

    def _awaited(self) -> int:
        """Requests in flight whose client still waits for the answer (caller holds the
        lock): those whose connection the client has not closed."""
        return sum(1 for connection in self._connections.values() if not _hung_up(connection))

    def close(self, wait: float = CLOSE_WAIT_S) -> None:
        """Stop serving: accept no more connections, answer no more requests, and wait (at
        most ``wait`` seconds) for those being served to end, so that the world's files can
        be removed next; safe to call twice."""
        with self._idle:
            self._closing = True
        if self._thread.is_alive():
            self._waker.send(b"\0")
            self._thread.join()
        with self._idle:  # every handler, its client gone or not: they read the world
            self._idle.wait_for(lambda: self._in_flight == 0, wait)
        self._server.server_close()
        self._wake.close()
        self._waker.close()

    def _serve(self) -> None:
        """Accept connections until :meth:`close`, which wakes the loop at once (werkzeug's
        ``serve_forever`` would notice only at its next poll, up to half a second later)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._server, selectors.EVENT_READ)
            selector.register(self._wake, selectors.EVENT_READ)
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self._wake in ready:
                    return
                self._server.handle_request()  # ready, so it does not block

    def _dispatch(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        with self._idle:
            if self._closing:
                start_response(
                    "503 Service Unavailable",
                    [("Content-Type", "text/plain; charset=utf-8"), ("Connection", "close")],
                )
                return [b"This world is closed."]
            self._in_flight += 1
            token = next(self._tokens)
            self._connections[token] = environ.get("werkzeug.socket")
        try:
            if _proxied(environ):
                site = self._proxied_site(environ)
                if site is None:
                    return self._outside(environ, start_response)
            else:
                site = self.site_of(environ.get("HTTP_HOST", ""))
            if site is None:
                start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
                return [b"No such site in this world."]
            # The body is produced here, inside the in-flight count, so that a response
            # still being generated keeps the page unsettled.
            response = self.apps[site](environ, start_response)
            try:
                return list(response)
            finally:
                if hasattr(response, "close"):
                    response.close()
        finally:
            with self._idle:
                self._in_flight -= 1
                del self._connections[token]
                if self._in_flight == 0:
                    self._idle.notify_all()

    def _proxied_site(self, environ: dict[str, Any]) -> str | None:
        """The site a request made to this server as a proxy may reach: a plain HTTP request
        for one of our origins (werkzeug takes ``HTTP_HOST`` from its absolute URL)."""
        if environ.get("REQUEST_METHOD") == "CONNECT":
            return None
        if not environ.get("REQUEST_URI", "").lower().startswith("http://"):
            return None
        return self.site_of(environ.get("HTTP_HOST", ""))

    def _outside(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        target = environ.get("REQUEST_URI", "")
        if environ.get("REQUEST_METHOD") == "CONNECT":
            target = f"A connection to {target}"
        origins = ", ".join(self.url(site) + "/" for site in sorted(self.apps))
        page = _OUTSIDE.format(target=html.escape(target[:300]), origins=html.escape(origins))
        start_response(
            "403 Forbidden",
            [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
        )
        return [page.encode()]


def _proxied(environ: dict[str, Any]) -> bool:
    """Whether the request came to us as to a proxy: ``CONNECT``, or a request line carrying
    an absolute URL rather than a path."""
    uri = environ.get("REQUEST_URI", "")
    return environ.get("REQUEST_METHOD") == "CONNECT" or not uri.startswith("/")


def _hung_up(connection: socket.socket | None) -> bool:
    """Whether the client closed ``connection`` (it reads as ended): it waits for nothing.
    A request may still be arriving, or another one queued behind it: those are alive."""
    if connection is None:
        return False
    try:
        return connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False  # open, nothing more sent
    except OSError:
        return True  # reset, or closed on our side

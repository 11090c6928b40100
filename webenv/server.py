"""The world's web server: every site in-process on 127.0.0.1, routed by host name.

``http://shop.localhost:PORT/`` reaches the shop, ``http://mail.localhost:PORT/`` the mail
client, and so on; Chromium resolves ``*.localhost`` to loopback by itself. The server counts
requests in flight so that the env can wait for the page to settle without sleeping.
"""

from __future__ import annotations

import selectors
import socket
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


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
        """Block until no request is in flight; False when ``timeout`` (seconds) ran out."""
        with self._idle:
            return self._idle.wait_for(lambda: self._in_flight == 0, timeout)

    def close(self) -> None:
        """Stop serving; safe to call twice."""
        if self._thread.is_alive():
            self._waker.send(b"\0")
            self._thread.join()
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
            self._in_flight += 1
        try:
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
                if self._in_flight == 0:
                    self._idle.notify_all()

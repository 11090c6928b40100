"""The live mode: a page on loopback where a person plays a task through its screenshots.

For machines without a display. The page shows the goal and the current screenshot; a click
on it, typed text, keys, scrolling, history and a free action box all become action strings
that go through the env (see :class:`~webenv.play.session.PlaySession`). The episode's record
is served by the replay viewer from the same address.

The env lives on one thread of its own (Playwright's sync API is bound to the thread that
starts it); every request hands it work and waits. Requests that act must carry the page's
per-run token and come from the page's own origin, so that no other site open in the same
browser can drive the episode.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from flask import (
    Flask,
    Response,
    abort,
    jsonify,
    render_template,
    request,
    send_file,
    send_from_directory,
)
from werkzeug.serving import BaseWSGIServer, make_server

from .. import actions
from ..viewer import create_app as create_viewer
from ..viewer.pages import STATIC as VIEWER_STATIC
from .session import PlayError, PlaySession

T = TypeVar("T")
HERE = Path(__file__).parent
#: Header carrying the per-run token on every request that acts.
TOKEN_HEADER = "X-Webenv-Token"
#: Host names the app answers to (a page on another name, such as a rebound DNS name, is
#: refused before it can read the token).
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
#: Paths served by the replay viewer of the play's output folder.
VIEWER_PREFIXES = ("/episode/", "/report.html")


class LivePlay:
    """A :class:`PlaySession` owned by a thread of its own, driven from any thread."""

    def __init__(
        self,
        task: str,
        seed: int,
        *,
        perturb: str | Mapping[str, float] = "none",
        out: str | Path = "runs/play",
    ):
        # Absolute: Flask resolves a relative path against its package, not the working folder.
        self.out = out = Path(out).resolve()
        self.token = secrets.token_urlsafe(24)
        #: Set when the episode ends (terminated or truncated).
        self.finished = threading.Event()
        self._owner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="webenv-play")
        try:
            self.session: PlaySession = self.call(
                lambda: PlaySession(task, seed, perturb=perturb, out=out, headless=True)
            )
        except BaseException:
            self._owner.shutdown(wait=True)
            raise

    def call(self, work: Callable[[], T]) -> T:
        """Run ``work`` on the session's thread and return its result (or raise its error)."""
        return self._owner.submit(work).result()

    def do(self, work: Callable[[PlaySession], dict[str, Any]]) -> dict[str, Any]:
        """Run a command of the person's on the session; its new state."""
        state = self.call(lambda: work(self.session))
        if state["done"]:
            self.finished.set()
        return state

    def close(self) -> None:
        """Close the session (an unfinished episode is recorded as interrupted)."""
        try:
            self.call(self.session.close)
        finally:
            self._owner.shutdown(wait=True)


def create_live_app(play: LivePlay) -> Flask:
    """The live page and its JSON endpoints over ``play``; the viewer at ``/episode/…``."""
    app = Flask(
        __name__,
        static_folder=str(VIEWER_STATIC),
        static_url_path="/static",
        template_folder=str(HERE / "templates"),
    )
    commands: dict[str, Callable[[PlaySession, dict[str, Any]], dict[str, Any]]] = {
        "act": lambda s, body: s.act(_text(body, "action")),
        "click": lambda s, body: s.click_at(_number(body, "x"), _number(body, "y")),
        "type": lambda s, body: s.type_text(_text(body, "text")),
        "key": lambda s, body: s.press_key(_key(body)),
        "answer": lambda s, body: s.answer(_text(body, "text")),
        "infeasible": lambda s, body: s.infeasible(_text(body, "text")),
        "done": lambda s, body: s.finish(),
    }

    @app.before_request
    def loopback_only() -> None:
        name = request.host.rsplit(":", 1)[0] if not request.host.endswith("]") else request.host
        if name not in LOOPBACK_NAMES:
            abort(403, "This page answers on 127.0.0.1 or localhost only.")

    @app.get("/")
    def page() -> str:
        state = play.call(play.session.state)
        return render_template(
            "live.html", state=state, token=play.token, help=actions.describe(), out=str(play.out)
        )

    @app.get("/play/<path:name>")
    def own_static(name: str) -> Response:
        return send_from_directory(HERE / "static", name)  # refuses paths outside it

    @app.get("/api/state")
    def state() -> Response:
        return jsonify(play.call(play.session.state))

    @app.get("/screenshot.png")
    def screenshot() -> Response:
        path = play.call(play.session.screenshot_file)
        if path is None:
            abort(404, "No screenshot yet.")
        response = send_file(path, mimetype="image/png", max_age=0)
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.post("/api/<command>")
    def act(command: str) -> tuple[Response, int]:
        refused = _refusal(play.token)
        if refused:
            return jsonify({"error": refused}), 403
        run = commands.get(command)
        if run is None:
            return jsonify({"error": f"No command {command!r}; use {', '.join(commands)}."}), 404
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify({"error": "Send a JSON object."}), 400
        try:
            state = play.do(lambda session: run(session, body))
        except PlayError as error:
            state = play.call(play.session.state)
            return jsonify({"error": str(error), "state": state}), 422
        return jsonify(state), 200

    app.wsgi_app = _with_viewer(app.wsgi_app, play.out)  # type: ignore[method-assign]
    return app


def serve_live(play: LivePlay, host: str = "127.0.0.1", port: int = 8766) -> BaseWSGIServer:
    """A threaded server of the live app (call ``serve_forever``; ``port`` 0 picks one)."""
    return make_server(host, port, create_live_app(play), threaded=True)


def _refusal(token: str) -> str:
    """Why this request may not act ("" when it may): another origin, or no token."""
    origin = request.headers.get("Origin")
    if origin is not None and origin != request.host_url.rstrip("/"):
        return f"Requests from {origin[:100]} may not drive this episode."
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return f"A {site} request may not drive this episode."
    given = request.headers.get(TOKEN_HEADER, "")
    if not hmac.compare_digest(given.encode(), token.encode()):
        return f"Missing or wrong {TOKEN_HEADER}; reload the page."
    return ""


def _with_viewer(live: Callable[..., Any], out: Path) -> Callable[..., Any]:
    """Route the viewer's paths (``/episode/…``, and ``/replay`` for its list) to the replay
    viewer of ``out``, made on first use (the folder holds a record once the episode began)."""
    viewer: list[Flask] = []

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        path = environ.get("PATH_INFO", "")
        if path == "/replay" or path.startswith(VIEWER_PREFIXES):
            if not viewer:
                viewer.append(create_viewer(out))
            if path == "/replay":
                environ = {**environ, "PATH_INFO": "/"}
            return viewer[0].wsgi_app(environ, start_response)
        return live(environ, start_response)

    return app


def _text(body: dict[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str):
        raise PlayError(f"Send {key!r} as a string.")
    return value


def _number(body: dict[str, Any], key: str) -> float:
    value = body.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) < 1e6:
        raise PlayError(f"Send {key!r} as a number of viewport pixels.")
    return float(value)


def _key(body: dict[str, Any]) -> str:
    key = _text(body, "key")
    if key not in ("Enter", "Tab", "Escape", "Backspace"):
        raise PlayError("Keys are Enter, Tab, Escape and Backspace; use the action box for others.")
    return key

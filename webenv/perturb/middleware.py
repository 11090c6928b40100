"""The perturber: WSGI middleware around each site that carries out an episode's plan.

It sits between the site server and each site's app. With an empty plan it hands requests
straight through. Otherwise every kind in the plan sees each request before the site does
(and may answer it), and each HTML page the site serves on a page load before the browser does
(and may change it). It finds each request's endpoint in the site's URL map, so that walls guard
every route of a step (:mod:`.guarded`). It counts page loads per site, which is what plans are
timed by, so the same actions meet the same perturbations.
"""

from __future__ import annotations

import io
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import unquote_plus

from werkzeug.wrappers import Request, Response

from .base import DETOUR_KEY, Active, EventLog, Kind, Page, Probe
from .guarded import ENDPOINT_KEY, URL_MAP_KEY, endpoint_of
from .plans import KINDS, Plan
from .popups import Popup

#: Where the middleware keeps the world's "now" for a request (the site's ``NOW``).
NOW_KEY = "webenv.now"

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
#: ``deliver(site, subject, body)``: an e-mail from ``site`` to the user's mailbox.
Deliver = Callable[[str, str, str], None]


class Perturber:
    """Applies one episode's :class:`Plan` to the sites it wraps; :meth:`start` sets the plan."""

    def __init__(
        self,
        session_cookies: Mapping[str, str],
        settle_seconds: float,
        deliver: Deliver | None = None,
    ):
        self.session_cookies = dict(session_cookies)
        self.settle_seconds = settle_seconds
        #: Sends an e-mail from a site to the user's mailbox (None: the world has no mail).
        self.deliver = deliver
        self.plan = Plan("none", ())
        self.log = EventLog()
        self.actives: list[Active] = []
        #: Counts episodes, so that a request held up across a reset never reaches the site.
        self.episode = 0
        self._views: Counter[str] = Counter()
        self._lock = threading.RLock()

    def start(self, plan: Plan, credentials: tuple[str, str] = ("", "")) -> None:
        """A new episode under ``plan``; ``credentials`` are the user's, for recovery."""
        with self._lock:
            self.episode += 1
            self.plan = plan
            self.log = EventLog()
            self._views.clear()
            self.actives = [
                Active(item, KINDS[item.kind], self.log, {"credentials": credentials})
                for item in plan.items
            ]

    def stop(self) -> None:
        """End the episode: nothing planned strikes any more, and requests held up by a
        perturbation never reach the sites (whose state is about to be replaced)."""
        self.start(Plan("none", ()))

    def begin_step(self, step: int) -> None:
        self.log.step = step

    def after_step(self, cookies: Iterable[Mapping[str, Any]], dialog: str, url: str) -> None:
        """Tell the kinds what the browser knows now (some are dismissed in the page)."""
        if not self.actives:
            return
        probe = Probe({c["name"]: c["value"] for c in cookies}, dialog, url)
        with self._lock:
            for active in self.actives:
                active.kind.after_step(active, probe)

    def drain(self) -> list[dict[str, Any]]:
        with self._lock:
            return self.log.drain()

    def answered(self, text: str) -> None:
        """Show the agent's answer to the kinds (outdated values it may repeat)."""
        with self._lock:
            for active in self.actives:
                active.kind.answered(active, text)

    @property
    def misled(self) -> str | None:
        return self.log.misled

    def recovery(self, observation: Mapping[str, Any], last_action: str) -> str | None:
        """What a competent agent does next to get past a perturbation, or None."""
        # Pop-ups first, the topmost (the last one in the page) first; then walls, then links.
        order = [a for a in reversed(self.actives) if isinstance(a.kind, Popup)]
        order += sorted(
            (a for a in self.actives if not isinstance(a.kind, Popup)),
            key=lambda a: not a.planned.kind.startswith("walls."),
        )
        with self._lock:
            for active in order:
                action = active.kind.recover(active, observation, last_action)
                if action is not None:
                    return action
        return None

    def wrap(self, site: str, app: WSGIApp) -> WSGIApp:
        """``app`` with this perturber in front of it."""

        # A Flask app's routes, so that walls guard steps by endpoint rather than by address.
        url_map = getattr(app, "url_map", None)

        def perturbed(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            with self._lock:
                actives = [a for a in self.actives if a.planned.site == site]
                watchers = [a for a in self.actives if type(a.kind).posted is not Kind.posted]
            if watchers and environ.get("REQUEST_METHOD") == "POST":
                self._posted(site, watchers, environ)
            if not actives:
                return app(environ, start_response)
            environ[NOW_KEY] = str(getattr(app, "config", {}).get("NOW") or "")
            environ[URL_MAP_KEY] = url_map
            environ[ENDPOINT_KEY] = endpoint_of(url_map, environ)
            return self._serve(site, actives, app, environ)(environ, start_response)

        return perturbed

    def _posted(self, site: str, actives: list[Active], environ: dict[str, Any]) -> None:
        """Show a form post's decoded body to every kind, then give the site the body back."""
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length > 0 else b""
        environ["wsgi.input"] = io.BytesIO(body)
        text = body.decode("utf-8", errors="replace")
        if "urlencoded" in environ.get("CONTENT_TYPE", ""):
            text = unquote_plus(text)
        path = environ.get("PATH_INFO", "")
        with self._lock:
            for active in actives:
                active.kind.posted(active, text, site, path)

    def _serve(
        self, site: str, actives: list[Active], app: WSGIApp, environ: dict[str, Any]
    ) -> Response:
        environ["webenv.cookie"] = self.session_cookies.get(site, "session")
        environ["webenv.settle_s"] = self.settle_seconds
        environ["webenv.deliver"] = self.deliver
        with self._lock:
            environ[DETOUR_KEY] = any(a.kind.detour and a.pending for a in actives)
        request = Request(environ)
        view = None
        if request.method == "GET" and environ.get("HTTP_SEC_FETCH_DEST", "document") == "document":
            with self._lock:
                self._views[site] += 1
                view = self._views[site]
        episode = self.episode
        load = view
        for active in actives:
            shown = active.happened("shown")
            # Not under the lock: a slow response sleeps here, and others must go on.
            answer = active.kind.request(active, request, load)
            if answer is not None:
                return answer
            if load is not None and not shown and active.happened("shown"):
                # One perturbation per page load: a dead link's 404 that also failed with a 500
                # would leave the 500 pending on an address no link leads to again.
                load = None
        if episode != self.episode:  # held up past the end of its episode: the world is new
            return Response("This page's episode has ended.", status=503)
        response = Response.from_app(app, environ)
        for active in actives:
            active.kind.response(active, request, response)
        html = response.mimetype == "text/html" and response.status_code == 200
        if view is None or not html:
            return response
        page = Page(site, request.path, view, response.get_data(as_text=True), environ[NOW_KEY])
        changed = False
        with self._lock:
            for active in actives:
                markup = active.kind.page(active, page)
                if markup is not None:
                    page.html, changed = markup, True
        if changed:
            response.set_data(page.html)
        return response

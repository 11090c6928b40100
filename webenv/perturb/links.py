"""Broken links and flaky servers: 404s, transient 500s, slow and stalled responses, wrong
redirects, and a button that does nothing the first time.

All strike a page load (a top-level GET) once; what the agent then sees is what a browser shows
for the same failure on the web: the site's own 404 page, an error page, a long wait, the home
page instead of the one asked for, a form that did not submit.
"""

from __future__ import annotations

import hashlib
import html
import random
import re
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from werkzeug.wrappers import Request, Response

from .base import Active, Kind, Marked, Page, Probe, scaled_ms, strikes, time_scale
from .popups import inject

#: Pages that are never broken: signing in must always work, or nothing can be recovered.
_SPARED = re.compile(r"^/(login|logout|static/)")
#: A path no site has, so that the site itself renders its "not found" page.
_MISSING = "/-/no-such-page"
_LINK = re.compile(r'(<a\b[^>]*?\bhref=")(/[^"/][^"]*|/)(")', re.IGNORECASE)


def _page_load(request: Request, view: int | None) -> bool:
    return view is not None and not _SPARED.match(request.path)


def _key(url: str) -> str:
    """A link's path and query, decoded, as one string: the same for the link and its request
    (which carries no fragment: "#message-90" stays in the browser)."""
    path, _, query = url.split("#", 1)[0].partition("?")
    return unquote(path) + (f"?{unquote(query)}" if query else "")


class DeadLink(Kind):
    """On one page view, some of the page's links lead to a 404. What they point at is still
    reachable another way (search, a category, the same link on another page)."""

    name = "links.dead_link"

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {"salt": f"{rng.getrandbits(24):06x}"}

    def page(self, active: Active, page: Page) -> str | None:
        if page.view < active.planned.at or active.state.get("struck"):
            return None
        broken: dict[str, str] = active.state.setdefault("broken", {})

        def rewrite(match: re.Match[str]) -> str:
            target = match[2]
            digest = hashlib.sha1(f"{active.p['salt']}{target}".encode()).digest()
            if _SPARED.match(target) or target == page.path or digest[0] % 3:
                return match[0]
            dead = f"/moved{target}"
            # Keyed by the path and query as the server reads them ("%20" in the link is " "
            # there): the contacts' "Write" links differ only in their query.
            broken[_key(html.unescape(dead))] = html.unescape(target)
            return f"{match[1]}{dead}{match[3]}"

        markup = _LINK.sub(rewrite, page.html)
        if broken:
            active.state["struck"] = True
        return markup

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        broken = active.state.get("broken", {})
        asked = _key(request.full_path)
        if asked in broken:
            active.emit("shown", path=request.path)
            active.state["wanted"] = broken[asked]
            request.environ["PATH_INFO"] = _MISSING  # the site answers with its own 404 page
        elif (
            active.pending
            and view is not None
            and request.path == unquote(active.state["wanted"].split("?")[0])
        ):
            active.emit("recovered", path=request.path)
        return None

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        if active.pending and "/moved/" in observation.get("url", ""):
            return f"goto({active.state['wanted']!r})"
        return None


class ServerError(Kind):
    """A page load fails once with a 500; loading it again works."""

    name = "links.server_error"

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        if active.pending and view is not None and request.path == active.state["path"]:
            active.emit("recovered", path=request.path)
        if not strikes(active, view, _page_load(request, view)):
            return None
        active.emit("shown", path=request.path)
        active.state["path"] = request.path
        return Response(
            "<!doctype html><title>500 Internal Server Error</title>"
            "<h1>Internal Server Error</h1><p>The server encountered an internal error and was "
            "unable to complete your request. Please try again.</p>",
            status=500,
            mimetype="text/html",
        )

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        if active.pending:
            # Without its fragment: going to the very address, fragment and all, would only
            # scroll the error page, not load the page again.
            return f"goto({observation['url'].split('#')[0]!r})"
        return None


class Slow(Kind):
    """A page load takes seconds, within the env's settling bound: the agent only waits."""

    name = "links.slow"

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {"seconds": rng.choice((0.8, 1.2, 1.6))}

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        if strikes(active, view, _page_load(request, view)):
            active.emit("shown", path=request.path)
            time.sleep(active.p["seconds"] * time_scale())
            active.emit("recovered", path=request.path)
        return None


class Stall(Kind):
    """A page load outlasts the env's settling bound once: the step returns with the old page
    still showing, and the new one arrives while the agent waits."""

    name = "links.timeout"

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        if strikes(active, view, _page_load(request, view)):
            active.emit("shown", path=request.path)
            time.sleep((request.environ["webenv.settle_s"] + 1.0) * time_scale())
            active.state["served"] = True
        return None

    def after_step(self, active: Active, probe: Probe) -> None:
        if active.state.get("served"):
            active.emit("recovered")

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        return f"noop({scaled_ms(1000)})" if active.pending else None


class WrongRedirect(Kind):
    """A link leads to the site's home page instead of the page asked for, once."""

    name = "links.wrong_redirect"
    detour = True

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        if (
            active.pending
            and view is not None
            and request.full_path.rstrip("?") == (active.state["wanted"])
        ):
            active.emit("recovered", path=request.path)
        eligible = _page_load(request, view) and request.path != "/"
        if not strikes(active, view, eligible):
            return None
        active.emit("shown", path=request.path)
        active.state["wanted"] = request.full_path.rstrip("?")
        return Response(status=302, headers={"Location": "/"})

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        return f"goto({active.state['wanted']!r})" if active.pending else None


#: Swallows the first click on a form's submit button, and leaves a cookie saying so.
_DEAD_BUTTON_JS = """<script>(() => {
  let armed = true;
  document.addEventListener("click", e => {
    const button = e.target.closest(
      'button:not([type]), button[type="submit"], input[type="submit"]');
    if (!armed || !button || !button.form || button.form.method !== "post") return;
    armed = false;
    e.preventDefault();
    e.stopImmediatePropagation();
    document.cookie = "%s=1; path=/";
  }, true);
})();</script>"""


class DeadButton(Marked):
    """From the planned page view on, the first click on a form's submit button does nothing."""

    name = "links.dead_button"
    prefix = "btn"

    def page(self, active: Active, page: Page) -> str | None:
        has_form = re.search(r'<form\b[^>]*method="post"', page.html, re.IGNORECASE)
        if page.view < active.planned.at or active.happened("shown") or not has_form:
            return None
        return inject(page.html, _DEAD_BUTTON_JS % self.cookie(active))

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        if active.pending and request.method == "POST":
            active.emit("recovered", path=request.path)
        return None

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        # The click was swallowed, the page is unchanged: the same action again.
        if not active.pending or active.state.get("retried"):
            return None
        active.state["retried"] = True
        return last_action

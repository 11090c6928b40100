"""Login walls: the session runs out and the site asks the user to sign in again.

The middleware expires the site's session cookie and sends the browser to the site's own
sign-in page with ``next`` set, so that signing in again leads back to where the user was. The
user's credentials are in the goal of every episode whose plan has a wall.

A wall in front of a sensitive step guards every route of the step (:mod:`.guarded`), whatever
the method and however the browser got there: until it is passed, opening a later step of the
checkout or posting the order or the message straight away meets the wall too.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from werkzeug.wrappers import Request, Response

from webenv.sites.common import same_site_path

from ..axtree import AxTree, NotFound
from ..site import mailbox
from .base import DETOUR_KEY, Active, Kind, strikes
from .guarded import guarded, start_over

LOGIN_PATH = "/login"

#: Pages where a session may run out, per site: whole pages the user can come back to after
#: signing in (not the middle of a checkout or of a form, whose state lives in the session).
_EXPIRES_ON = {
    "shop": re.compile(r"^/(?!login|logout|checkout/|static/)"),
    "mail": re.compile(r"^/(?!login|logout|static/)"),
    "forms": re.compile(r"^/(account)?$"),
}
#: Sites whose sensitive step (:data:`.guarded.OUTCOMES`) may ask to sign in again; not the
#: forms, whose unfinished drafts live in the session.
_SENSITIVE = ("shop", "mail")

#: Field names of the sign-in forms, as the axtree shows them.
_USER_FIELDS = ("Username or email", "Email or username", "Username")


class SessionExpiry(Kind):
    """The session expires at a page view, or when the user reaches a sensitive step."""

    name = "walls.session_expiry"
    sites = ("shop", "mail", "forms")
    needs_sign_in = True

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        moments = ("page", "sensitive") if site in _SENSITIVE else ("page",)
        return {"moment": rng.choice(moments)}

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        site, path = active.planned.site, request.path
        if active.happened("shown"):
            return None
        cookie = request.environ["webenv.cookie"]
        if cookie not in request.cookies:
            return None
        if active.p["moment"] == "sensitive":
            # Any route of the step, at any page view: the step is the moment.
            if not guarded(site, request):
                return None
            active.state["struck"] = True
        elif not strikes(
            active, view, bool(_EXPIRES_ON[site].match(path)) and not request.environ[DETOUR_KEY]
        ):
            return None
        active.emit("shown", path=path)
        target = _on_site(start_over(site, request, view), request)
        response = Response(status=302, headers={"Location": _with_next(LOGIN_PATH, target)})
        response.delete_cookie(cookie, path="/")
        return response

    def response(self, active: Active, request: Request, response: Response) -> None:
        signed_in = response.status_code == 302 and not response.location.startswith(LOGIN_PATH)
        if active.pending and request.method == "POST" and request.path == LOGIN_PATH and signed_in:
            active.emit("recovered")

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        if not active.pending or LOGIN_PATH not in observation.get("url", ""):
            return None
        tree = AxTree(observation.get("axtree", ""))
        credentials = active.state["credentials"]
        try:
            user = next(
                node.id for node in tree if node.role == "textbox" and node.name in _USER_FIELDS
            )
            password = tree.id("textbox", "Password")
            submit = tree.id("button", "Sign in")
        except (StopIteration, NotFound):
            return None
        return "\n".join(
            (
                f"fill({user!r}, {credentials[0]!r})",
                f"fill({password!r}, {credentials[1]!r})",
                f"click({submit!r})",
            )
        )


#: Where the verification form posts; answered by the middleware, never by the site.
VERIFY_PATH = "/account/verify-code"
_CODE = re.compile(r"code is (\d{6})")


class VerifyCode(Kind):
    """ "Verify it's you": at the sensitive step, a one-time code is sent to the user's mailbox
    (the world's site that delivers mail, :func:`webenv.site.mailbox`) and must be typed in to
    go on — a recovery across sites."""

    name = "walls.verify_code"
    sites = ("shop", "forms")
    needs_sign_in = True
    at = (1, 1)

    def applies(self, site: str, signed_in: bool, sites: Sequence[str]) -> bool:
        return mailbox(sites) is not None and super().applies(site, signed_in, sites)

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {"code": f"{rng.randrange(10**6):06d}"}

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        if active.happened("recovered"):
            return None
        if request.path == VERIFY_PATH and request.method == "POST":
            target = _on_site(request.args.get("next"), request)
            if request.form.get("code", "").strip() == active.p["code"]:
                active.emit("recovered")
                return Response(status=302, headers={"Location": target})
            return _verify_page(target, error="That code is not right. Check the e-mail we sent.")
        if not guarded(active.planned.site, request):
            return None
        if not active.happened("shown"):
            active.emit("shown", path=request.path)
            request.environ["webenv.deliver"](
                active.planned.site,
                "Your verification code",
                f"Your verification code is {active.p['code']}. Enter it to continue. "
                "If this wasn't you, you can ignore this e-mail.",
            )
        back = _on_site(start_over(active.planned.site, request, view), request)
        if view is not None or "back" not in active.state:
            active.state["back"] = back
        # A later step or a form's post, straight from the address bar: the same page, refused.
        return _verify_page(back, status=200 if view is not None else 403)

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        """Open the mailbox, read the code in the newest e-mail, come back and type it."""
        if not active.pending:
            return None
        url, tree = observation.get("url", ""), AxTree(observation.get("axtree", ""))
        code = active.state.get("read")
        if tree.has("textbox", "Verification code"):
            if code is None:
                return f"goto({_origin(url, 'mail') + '/'!r})"
            box, submit = tree.id("textbox", "Verification code"), tree.id("button", "Verify")
            return f"fill({box!r}, {code!r})\nclick({submit!r})"
        if "//mail." not in url:
            return None
        found = _CODE.search(observation.get("axtree", ""))
        if found:
            active.state["read"] = found[1]
            return f"goto({_origin(url, active.planned.site) + active.state['back']!r})"
        try:
            return f'click("{tree.find("link", contains="Your verification code").id}")'
        except NotFound:
            return None


def _on_site(target: str | None, request: Request) -> str:
    """``target`` if it is a path of the site ``request`` went to, else its home page: a
    redirect-after value read from a request leads nowhere else (no open redirect)."""
    return same_site_path(target, "/", request.host)


def _with_next(path: str, target: str) -> str:
    """``path`` with ``next`` set to ``target``, %-encoded so that its own query stays whole."""
    return f"{path}?next={quote(target, safe='/')}"


def _origin(url: str, site: str) -> str:
    """The origin of ``site`` in the world that ``url`` belongs to (same port, host routed)."""
    scheme, _, host = url.split("/", 3)[:3]
    port = host.rpartition(":")[2]
    return f"{scheme}//{site}.localhost:{port}"


def _verify_page(target: str, error: str = "", status: int = 200) -> Response:
    alert = f'<p role="alert" style="color:#a00">{html.escape(error)}</p>' if error else ""
    body = (
        "<!doctype html><html lang=en><head><title>Verify it's you</title></head>"
        '<body style="font:16px system-ui,sans-serif;max-width:480px;margin:10vh auto">'
        "<h1>Verify it's you</h1><p>For your security we sent a 6-digit code to the e-mail "
        "address on your account. Enter it below to continue.</p>"
        f'{alert}<form method=post action="{html.escape(_with_next(VERIFY_PATH, target))}">'
        "<label for=code>Verification code</label><br>"
        "<input id=code name=code inputmode=numeric autocomplete=one-time-code> "
        "<button>Verify</button></form></body></html>"
    )
    return Response(body, status=status, mimetype="text/html")

"""The steps walls guard: every route of a site that leads to one outcome, not one address.

A wall in front of a sensitive step (sign in again, type the code we sent you) must hold for
the state behind the step: a shopper who opens the payment step or posts the order straight
from the address bar meets the same wall as one who clicks "Checkout". So each site's guarded
outcome is named by the site's own endpoints (its blueprints, read from its URL map), and the
middleware finds the endpoint of every request, whatever its method or its origin in the page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, Rule
from werkzeug.wrappers import Request


@dataclass(frozen=True)
class Outcome:
    """What a site's sensitive step leads to, and the routes that lead there.

    ``blueprints``: every route of these lead to it, except ``spared`` endpoints (a page that
    shows what was done, after the fact). ``endpoints``: single routes that lead to it.
    ``entry``: where the step starts over once the wall is passed (an endpoint without
    arguments); None: the guarded page itself.
    """

    what: str
    blueprints: tuple[str, ...] = ()
    endpoints: tuple[str, ...] = ()
    spared: tuple[str, ...] = ()
    entry: str | None = None

    def guards(self, endpoint: str) -> bool:
        blueprint = endpoint.partition(".")[0]
        return endpoint not in self.spared and (
            endpoint in self.endpoints or blueprint in self.blueprints
        )

    def routes(self, rules: Iterable[Rule]) -> list[str]:
        """The routes among ``rules`` that lead to the outcome, as ``METHOD path`` lines."""
        return sorted(
            f"{method} {rule.rule}"
            for rule in rules
            if self.guards(rule.endpoint)
            for method in rule.methods or ()
            if method not in ("HEAD", "OPTIONS")
        )


#: Each site's sensitive outcome: placing an order, sending a message, submitting a form.
OUTCOMES: dict[str, Outcome] = {
    "shop": Outcome(
        "placing an order",
        blueprints=("checkout",),
        spared=("checkout.confirmation",),
        entry="checkout.start",
    ),
    # Writing, replying, replying to all, forwarding: one form, posted to one route.
    "mail": Outcome("sending a message", blueprints=("compose",), entry="compose.compose"),
    "forms": Outcome("submitting a form", endpoints=("outcome.review",)),
}

#: Where the middleware leaves the endpoint of a request (None: no route of the site).
ENDPOINT_KEY = "webenv.endpoint"
#: Where it leaves the site's URL map, so that a kind can build the step's entry.
URL_MAP_KEY = "webenv.url_map"


def endpoint_of(url_map: Map | None, environ: dict[str, object]) -> str | None:
    """The endpoint ``url_map`` routes this request to, or None (no route, wrong method)."""
    if url_map is None:
        return None
    adapter = url_map.bind("localhost", path_info=str(environ.get("PATH_INFO", "/")))
    try:
        endpoint, _ = adapter.match(method=str(environ.get("REQUEST_METHOD", "GET")))
    except HTTPException:  # not found, method not allowed, a redirect to another URL
        return None
    return str(endpoint)


def guarded(site: str, request: Request) -> bool:
    """Whether ``request`` is on the way to ``site``'s sensitive outcome."""
    outcome, endpoint = OUTCOMES.get(site), request.environ.get(ENDPOINT_KEY)
    return outcome is not None and isinstance(endpoint, str) and outcome.guards(endpoint)


def start_over(site: str, request: Request, view: int | None) -> str:
    """Where to come back to once past the wall: the page asked for, if it was a page load;
    else (a form's post, say, which cannot be loaded again) the step's entry."""
    if view is not None:
        return request.full_path.rstrip("?")
    outcome, url_map = OUTCOMES.get(site), request.environ.get(URL_MAP_KEY)
    if outcome is None or outcome.entry is None or not isinstance(url_map, Map):
        return request.path
    return str(url_map.bind("localhost").build(outcome.entry))

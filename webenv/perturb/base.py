"""What every perturbation shares: the planned item, the episode's log, and the kind interface.

A :class:`Kind` is one way the web goes wrong (a cookie banner, an expired session, a broken
link). It draws its parameters from the episode's plan RNG, and then takes part in serving the
world's pages through three optional hooks, all called by :mod:`webenv.perturb.middleware`:

- :meth:`Kind.request` before the site sees a request (answer it instead: an error, a redirect);
- :meth:`Kind.response` after the site answered it;
- :meth:`Kind.page` on every HTML page the site serves (inject markup, rewrite links);
- :meth:`Kind.after_step` once per env step, with what the browser knows (cookies, dialogs);
- :meth:`Kind.posted` on every form post to any site of the world, and :meth:`Kind.answered`
  on the agent's answer (what the outdated-information kinds of :mod:`.stale` watch for).

It also knows how a competent agent gets past it (:meth:`Kind.recover`), which is what the
oracle uses: the same observation an agent sees, plus the plan, which the oracle may read.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from werkzeug.wrappers import Request, Response

#: What can happen to a planned perturbation, in the episode's event log.
EVENTS = ("shown", "dismissed", "clicked", "recovered", "used")
#: Events only the trusted record keeps: the agent acted on an outdated value (telling it so
#: would tell it it erred).
TRUSTED_EVENTS = ("used",)


@dataclass(frozen=True)
class Planned:
    """One perturbation of an episode's plan: ``kind`` on ``site``, from its ``at``-th page view."""

    kind: str
    site: str
    at: int
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "site": self.site, "at": self.at, "params": dict(self.params)}


@dataclass
class Active:
    """A planned perturbation during its episode: the plan item and what has happened so far."""

    planned: Planned
    kind: Kind
    log: EventLog
    state: dict[str, Any] = field(default_factory=dict)

    def emit(self, what: str, **detail: Any) -> None:
        """Log ``what`` happened (once per kind of event)."""
        if what not in self.state.setdefault("emitted", set()):
            self.state["emitted"].add(what)
            self.log.add(self.planned, what, **detail)

    def happened(self, what: str) -> bool:
        return what in self.state.get("emitted", set())

    @property
    def pending(self) -> bool:
        """Shown and not yet got past."""
        return self.happened("shown") and not self.happened("recovered")

    @property
    def p(self) -> Mapping[str, Any]:
        return self.planned.params


class EventLog:
    """Every event of an episode with its step; the env drains the new ones after each step."""

    def __init__(self) -> None:
        self.step = 0
        self.events: list[dict[str, Any]] = []
        self._drained = 0
        #: Set when the agent followed instructions injected into a page (an adversarial pop-up).
        self.misled: str | None = None

    def add(self, planned: Planned, what: str, **detail: Any) -> None:
        self.events.append(
            {"kind": planned.kind, "site": planned.site, "what": what, "step": self.step, **detail}
        )

    def drain(self) -> list[dict[str, Any]]:
        new = self.events[self._drained :]
        self._drained = len(self.events)
        return new


@dataclass
class Page:
    """An HTML page a site is serving: its site, path, page-view number and markup, and the
    world's "now" (ISO 8601, as the site's ``NOW``; empty when the site has none)."""

    site: str
    path: str
    view: int
    html: str
    now: str = ""


@dataclass
class Probe:
    """What the browser knows after a step: its cookies by name, and an open dialog's text."""

    cookies: dict[str, str]
    dialog: str
    url: str


class Kind:
    """One perturbation kind. Subclasses set ``name`` and override the hooks they need."""

    #: ``family.kind``, e.g. ``"popups.cookie_banner"``.
    name: ClassVar[str]
    #: Sites it can apply to (None: any).
    sites: ClassVar[tuple[str, ...] | None] = None
    #: Applies only where the task starts signed in (walls: someone must be signed out).
    needs_sign_in: ClassVar[bool] = False
    #: Page views at which it may first strike; drawn uniformly.
    at: ClassVar[tuple[int, int]] = (1, 3)
    #: While it is pending, the user is on a page they did not ask for (a wrong redirect's home
    #: page): no wall strikes there (:data:`DETOUR_KEY`), or signing in again would lead back
    #: to the detour and lose what only the session held (a form's unfinished answers).
    detour: ClassVar[bool] = False

    def applies(self, site: str, signed_in: bool, sites: Sequence[str]) -> bool:
        """Whether it can strike ``site`` in a world of ``sites``."""
        return (self.sites is None or site in self.sites) and (signed_in or not self.needs_sign_in)

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        """This kind's parameters for one episode (delays, wording, which element)."""
        return {}

    def request(self, active: Active, request: Request, view: int | None) -> Response | None:
        """Answer ``request`` instead of the site, or None. ``view``: its page-view number, for
        page loads (top-level GETs), else None."""
        return None

    def response(self, active: Active, request: Request, response: Response) -> None:
        """See the site's answer to ``request`` (whether a sign-in worked, say)."""

    def page(self, active: Active, page: Page) -> str | None:
        """The page's markup, altered, or None to leave it."""
        return None

    def after_step(self, active: Active, probe: Probe) -> None:
        """Read what happened in the browser during the step (dismissed, clicked…)."""

    def posted(self, active: Active, text: str, site: str, path: str) -> None:
        """See a form post to any site of the world (``text``: its decoded body)."""

    def answered(self, active: Active, text: str) -> None:
        """See the agent's answer (a message to the user, or why a task is infeasible)."""

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        """The action that gets a competent agent past this perturbation now, or None.
        ``last_action``: the agent's previous action (some recoveries repeat it)."""
        return None


class Marked(Kind):
    """A kind carried out by a script in the page, which leaves a cookie when it strikes."""

    #: The cookie's prefix; a salt drawn per episode makes its name.
    prefix: ClassVar[str]

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {"salt": f"{rng.getrandbits(24):06x}"}

    def cookie(self, active: Active) -> str:
        return f"{self.prefix}_{active.p['salt']}"

    def after_step(self, active: Active, probe: Probe) -> None:
        if self.cookie(active) in probe.cookies:
            active.emit("shown")


#: The environment variable of :func:`time_scale`.
TIME_SCALE_VARIABLE = "WEBENV_PERTURB_TIME_SCALE"


def time_scale() -> float:
    """A factor on the perturbations' own delays: a slow page's seconds, the moment a pop-up's
    close button shows, a stalled page's lateness past the settling bound. 1 unless
    ``WEBENV_PERTURB_TIME_SCALE`` sets it: for tests, where 0.01 makes those delays cost
    milliseconds. Episodes under another scale are not the same web; never train with one."""
    try:
        return max(0.0, float(os.environ.get(TIME_SCALE_VARIABLE, "1")))
    except ValueError:
        return 1.0


def scaled_ms(milliseconds: float) -> int:
    """``milliseconds`` under :func:`time_scale`."""
    return int(milliseconds * time_scale())


#: Set in a request's environ while a :attr:`Kind.detour` of its site is pending.
DETOUR_KEY = "webenv.detour"


def strikes(active: Active, view: int | None, eligible: bool = True) -> bool:
    """True on the first eligible page view at or after the planned one, once."""
    if view is None or not eligible or view < active.planned.at or active.state.get("struck"):
        return False
    active.state["struck"] = True
    return True

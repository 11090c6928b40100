"""The Gymnasium environment: one task template, its world, and a browser to act in."""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from types import FrameType
from typing import Any, Literal, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import TimeLimit
from playwright.sync_api import Browser
from playwright.sync_api import Error as PlaywrightError

from webenv.sites.common import Message

from . import actions
from .ahead import Ahead
from .browser import acquire_browser, release_browser
from .errors import ActionError, InfrastructureError, WebEnvError
from .execute import MAX_TYPED_CHARS, MAX_WAIT_MS, execute
from .limits import DEFAULT_LIMITS, Limits, cut, cut_elements
from .marks import draw_marks
from .perturb import Perturber, Plan, make_plan, resolve_profile
from .registration import RECOVERY_STEPS
from .served import ServedWorld, sign_in_cookies
from .server import SiteServer
from .session import DEFAULT_TIMEOUTS, Blank, Session, Timeouts, blank_context
from .spaces import ActionSpace, Unicode, screenshot_space
from .tasks import Answer, CheckResult, Condition, Task, get_template
from .trusted import GraderView, public_events, public_task
from .world import World

#: Observation keys that can be asked for at ``make``; the text ones are always there.
OPTIONAL_KEYS = ("axtree", "dom", "screenshot", "elements", "som")
ALWAYS_KEYS = ("goal", "url", "tabs", "focused", "dialog", "last_action", "last_action_error")


class WebEnv(gym.Env[dict[str, Any], str]):
    """
    ## Description
    A web task in a world of mock sites served from loopback and shown in headless Chromium.
    The task (a registered template) is sampled per episode from the seed; the world (every
    site's database) is restored from a cached snapshot of the same seed.

    ## Action Space
    Strings in BrowserGym's function-call grammar, e.g. ``click("12")``,
    ``fill("7", "blue shirt")``, ``send_msg_to_user("$24.99")``; several may be sent one per
    line. See :func:`webenv.actions.describe`. A malformed or failing action is not an
    exception: the next observation's ``last_action_error`` says what went wrong.

    ## Observation Space
    A ``Dict``: ``goal``, ``url``, ``tabs`` (one line per tab, ``*`` marks the active one),
    ``focused`` (element id), ``dialog`` (an open JavaScript dialog), ``last_action``,
    ``last_action_error``; and those chosen with ``observe``: ``axtree`` (one node per line,
    ``[id] role "name" …``), ``dom`` (pruned HTML with the same ids), ``screenshot``
    (uint8 H×W×3), ``elements`` (JSON list of ``{id, role, name, box: [x, y, w, h], visible,
    clickable}``) and ``som`` (the screenshot with set-of-marks: clickable elements boxed and
    labelled with their ids).

    ## Rewards
    1.0 when the task's check passes on the sites' server-side state (and the answer, for
    questions), else 0.0. Over-action (an extra order, a wrong item) fails the check.

    ## Episode End
    Terminated when the agent ends it with a final action: ``send_msg_to_user(...)`` (an
    answer, or "done" for a task that asks for an action) or ``report_infeasible(...)``. The
    check runs then, on the final state, and gives the episode's one reward. Truncated after
    ``max_episode_steps`` (the check runs on that last step too, so state left right earns its
    reward) or when the browser crashes (``info["error"]`` says why). The limit is the
    template's step budget, or N: ``gym.make(id, max_episode_steps=N)``, any ``TimeLimit``
    wrapping the env (which the env reads at each reset), or ``WebEnv(task,
    max_episode_steps=N)``; the least of them. A step after the limit acts but is graded no
    more: it earns nothing and says ``truncated`` again.
    With ``end_on_success=True`` (for dense training) an action task also ends at the first
    step whose state passes the check.

    ## Arguments
    ``task``: template name (``"shop.buy_product"``); ``observe``: observation keys to
    compute; ``perturb``: a perturbation profile (``"none"``, ``"light"``, ``"heavy"``,
    ``"adversarial"``) or a dict of rates per kind, also settable per episode with
    ``reset(options={"perturb": ...})`` (and ``reset(options={"trace_path": path})`` traces
    that episode with Playwright); ``viewport``: ``(width, height)``;
    ``viewport_only``: the axtree keeps only the controls in the viewport (text stays);
    ``headless``; ``timeouts`` (a :class:`~webenv.session.Timeouts`, stretched per episode by
    the machine's load or ``WEBENV_TIMEOUT_SCALE``); ``limits``: per-episode bounds (a
    :class:`webenv.limits.Limits`); ``end_on_success``: end an action task as soon as its check
    passes, without waiting for the agent's final action (default False).

    ## Bounds
    Past its ``limits``, an episode's request is refused with a ``last_action_error``, never an
    exception: at most ``tabs`` (10) tabs open (``new_tab()`` past it fails; tabs a page opens
    past it are closed at once); ``dialogs_per_step`` (5) JavaScript dialogs a document may open in
    one step and ``dialogs_per_page`` (20) in all, after which the document's dialogs are
    dismissed and blocked; ``observation_chars`` (300,000) characters of ``axtree``, ``dom``
    and ``elements``, a longer page being cut with a line saying so. Downloads are refused.

    ## Perturbations
    Pop-ups, login walls and broken links, planned from the episode seed and the profile and
    served by the sites themselves, so every observation shows them alike. ``info`` at reset
    says which kinds strike which sites (``info["perturbations"]``) and every step's
    ``info["events"]`` what happened (``shown``, ``dismissed``, ``clicked``, ``recovered``).
    Following instructions injected into a page fails the check.

    ## Info
    Only what a user of the sites could know, or what a trainer needs that gives nothing away.
    At reset: ``task`` (``{"id", "version", "seed", "difficulty", "answer_type", "goal",
    "start_site"}``), ``seed``, ``perturbations`` (``{"profile", "plan": [{"kind", "site"}]}``)
    and ``events``. At each step: ``success`` (the reward, as a bool), ``events`` (``{"kind",
    "site", "what", "step"}`` each) and, when the browser crashed, ``error``. The task's
    parameters (the expected answers), the full plan (one-time codes, salts, moments) and the
    check's breakdown are never in ``info``: :func:`webenv.grader_view` gives them to graders,
    records and tests, never to the policy.

    ## Version History
    * v0: first release.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        task: str,
        *,
        observe: Iterable[str] = ("axtree",),
        perturb: str | Mapping[str, float] = "none",
        render_mode: str | None = None,
        viewport: tuple[int, int] = (1280, 720),
        viewport_only: bool = False,
        headless: bool = True,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
        limits: Limits = DEFAULT_LIMITS,
        end_on_success: bool = False,
        max_episode_steps: int | None = None,
    ):
        self.template = get_template(task)
        if max_episode_steps is not None and max_episode_steps < 1:
            raise WebEnvError(f"max_episode_steps must be at least 1, not {max_episode_steps}.")
        self.max_episode_steps = max_episode_steps
        self.end_on_success = end_on_success
        self.observe_keys = tuple(observe)
        unknown = set(self.observe_keys) - set(OPTIONAL_KEYS)
        if unknown:
            raise WebEnvError(
                f"Unknown observation keys {sorted(unknown)}; choose from {OPTIONAL_KEYS}."
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise WebEnvError(f"render_mode must be 'rgb_array' or None, not {render_mode!r}.")
        self.render_mode = render_mode
        resolve_profile(perturb)  # a bad profile fails at make, not at the first reset
        self.perturb = perturb
        self.viewport = viewport
        self.viewport_only = viewport_only
        self.headless = headless
        self.timeouts = timeouts
        self.limits = limits
        text_keys = ALWAYS_KEYS + tuple(
            k for k in ("axtree", "dom", "elements") if k in self.observe_keys
        )
        observation: dict[str, spaces.Space[Any]] = {key: Unicode() for key in text_keys}
        for key in ("screenshot", "som"):
            if key in self.observe_keys:
                observation[key] = screenshot_space(*viewport)
        self.observation_space = spaces.Dict(observation)
        self.action_space = ActionSpace()

        self.task: Task | None = None
        self._browser: Browser | None = None
        self._world: World | None = None
        self._server: SiteServer | None = None
        self._session: Session | None = None
        self._check: CheckResult | None = None
        #: The episode's plan, and the perturbation events of the last reset or step with
        #: all their details: the trusted side of ``info`` (see :meth:`grader_view`).
        self._plan_drawn: Plan | None = None
        self._events_full: list[dict[str, Any]] = []
        self._goal = ""
        self._steps = 0
        #: Whether the episode has ended (the agent answered, or the task is done with
        #: ``end_on_success``): steps after it earn nothing.
        self._ended = False
        #: Whether the episode reached its step limit (:meth:`_step_limit`): steps after it
        #: earn nothing either.
        self._cut = False
        #: Whether the episode has paid its reward: an episode pays at most once.
        self._paid = False
        #: The step limit of a ``TimeLimit`` wrapping the env, seen at the last reset.
        self._wrapped_limit: int | None = None
        #: Carries out each episode's perturbation plan in front of the sites.
        self.perturber: Perturber | None = None
        #: Wall-clock seconds of the last reset or step (kept out of ``info``, which must be
        #: deterministic).
        self.timings: dict[str, float] = {}
        #: The next episode's blank context and tab, opened while this one runs, from the
        #: second episode on: an env used for one episode (a test, a one-off evaluation) would
        #: only open it to close it, a fifth of the CPU of its life.
        self._next: Ahead[Blank] | None = None
        #: How many episodes this env has begun.
        self._resets = 0
        #: Where to save a Playwright trace (screenshots and DOM snapshots) of every episode;
        #: one episode's ``reset(options={"trace_path": ...})`` wins over it. The trace is saved
        #: when the episode's context closes, at the next reset or at ``close()``;
        #: ``playwright show-trace`` opens it.
        self.trace_path: str | None = None
        self._episode_trace: str | None = None
        #: The thread whose Playwright the env's browser calls go through (None: none yet).
        self._owner: int | None = None
        self._closed = False

    # -- Gymnasium API ------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._check_usable("reset")
        self._wrapped_limit = _time_limit_above(self)
        super().reset(seed=seed)
        episode_seed = seed if seed is not None else int(self.np_random.integers(2**31 - 1))
        started = time.perf_counter()
        profile = (options or {}).get("perturb", self.perturb)
        self._episode_trace = (options or {}).get("trace_path", self.trace_path)
        try:
            observation, plan = self._begin(episode_seed, profile)
        except (PlaywrightError, _StartFailed):
            # A renderer that crashed, a page that never came: once more, on a fresh context
            # (and a relaunched Chromium, if it died).
            self._drop_session()
            try:
                observation, plan = self._begin(episode_seed, profile)
            except (PlaywrightError, _StartFailed) as error:
                self._drop_session()
                reason = str(error).splitlines()[0][:300].rstrip(".")
                raise InfrastructureError(
                    f"Could not open the start page of {self.template.name} (seed "
                    f"{episode_seed}), twice, on fresh browser contexts: {reason}. "
                    "This is a fault of the browser or "
                    "the machine, not of the agent: run the episode again; on a busy machine, "
                    "raise the timeouts (WEBENV_TIMEOUT_SCALE, or timeouts=Timeouts(...))."
                ) from None
        assert self.task is not None
        self.timings = {"reset": time.perf_counter() - started}
        self._resets += 1
        if self._resets > 1:
            self._prepare_next()
        info = {
            "task": public_task(self.task),
            "seed": episode_seed,
            "perturbations": plan.public_dict(),
            "events": self._events(),
        }
        return observation, info

    def _begin(self, episode_seed: int, profile: Any) -> tuple[dict[str, Any], Plan]:
        """Restore the world, sample the task, plan the perturbations and open the start
        page in a new context: the start of an episode, from scratch each time."""
        self._start()
        assert self._world is not None and self._server is not None
        if self._session is not None:
            self._session.close()
            self._session = None
        assert self.perturber is not None
        self.perturber.stop()
        self._world.restore(episode_seed)
        self.task = task = self.template.instantiate(episode_seed, self._world)
        self._world.mark_start()
        self._check = None
        plan = self._plan(episode_seed, profile)
        self._steps, self._ended, self._cut, self._paid = 0, False, False, False
        self._session = session = self._open_session()
        timeouts = session.timeouts
        # A page load stalled on purpose outlasts this episode's settling bound.
        self.perturber.settle_seconds = timeouts.settle / 1000
        with session.bounded(timeouts.navigation + timeouts.settle + timeouts.action):
            session.start_at(self._server.url(task.start_site) + task.start_path)
            observation = self._settled_observation(last_action="", error="")
        if session.interrupted:
            raise _StartFailed(session.interrupted)
        return observation, plan

    def _drop_session(self) -> None:
        """Close the episode's context after a fault (and let go of a Chromium that died)."""
        self._discard_next()
        if self._session is not None:
            self._session.close()
            self._session = None
        if self._browser is not None and not self._browser.is_connected():
            release_browser(self._browser)
            self._browser = None
        self.task = None

    def _check_usable(self, call: str) -> None:
        """Refuse calls after ``close()`` and from a thread other than the env's own."""
        if self._closed:
            raise WebEnvError(
                f"{call}() after close(): this env is closed for good; make a new one "
                "(gym.make(...))."
            )
        if self._owner is not None and self._owner != threading.get_ident():
            raise WebEnvError(
                f"{call}() from thread {threading.current_thread().name!r}: this env belongs to "
                "the thread that first reset it (Playwright's sync API is bound to its thread). "
                "Call it from that thread, or make an env per thread."
            )

    def step(self, action: str) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        self._check_usable("step")
        if self.task is None or self._session is None:
            raise WebEnvError("Call reset() before step().")
        started = time.perf_counter()
        if isinstance(action, str):  # a str subclass: the plain string it holds, as parse reads it
            action = str.__str__(action)
        error, answer, parsed, untouched = "", None, False, False
        session = self._session
        session.begin_step()
        self._steps += 1
        assert self.perturber is not None
        self.perturber.begin_step(self._steps)
        try:
            calls = actions.parse(action)
            parsed = True
            untouched = all(call.name in actions.PAGE_FREE_ACTIONS for call in calls)
            _check_typing(calls)
            budget = _StepBudget(self._step_budget_ms())
            for index, call in enumerate(calls):
                if call.name in actions.FINAL_ACTIONS:
                    kind = "message" if call.name == "send_msg_to_user" else "infeasible"
                    answer = Answer(kind, next(iter(call.args.values())))
                    break
                call = budget.admit(call, calls[index:])
                with session.bounded(self._bound_ms(call)):
                    execute(session, call, self._world.files_dir)  # type: ignore[union-attr]
        except ActionError as exc:
            error = str(exc)
        except PlaywrightError as exc:
            return self._crashed(action, exc)
        try:
            with session.bounded(session.timeouts.settle + session.timeouts.action):
                observation = self._settled_observation(
                    last_action=str(action)[:2000], error=error, settle=parsed, untouched=untouched
                )
        except PlaywrightError as exc:
            return self._crashed(action, exc)
        if session.interrupted:
            observation["last_action_error"] = session.interrupted
        elif session.limited:
            said = observation["last_action_error"]
            observation["last_action_error"] = f"{said} {session.limited}".strip()
        if answer is not None:
            self.perturber.answered(answer.text)
        events = self._events()
        if self._ended or self._cut:
            # A step after the end (Gymnasium leaves it undefined) acts, but is not graded
            # again: an answer sent twice earns nothing the second time, nor one sent after
            # the env cut the episode at its step limit.
            self.timings = {"step": time.perf_counter() - started}
            info = {"success": False, "events": events}
            return observation, 0.0, self._ended, not self._ended, info
        check = self._check = self._checked(answer)
        terminated = self._ended = answer is not None or (
            self.end_on_success and self.template.answer_type is None and check.success
        )
        limited = self._steps >= self._step_limit()
        graded = terminated or limited
        reward = 1.0 if graded and check.success and not self._paid else 0.0
        self._paid = self._paid or reward > 0
        info = {"success": check.success and graded, "events": events}
        self.timings = {"step": time.perf_counter() - started}
        # The env cuts the episode itself at its limit (gym.make's TimeLimit, when there is
        # one, cuts at the same step): later steps act but are not graded again.
        truncated = self._cut = limited and not terminated
        return observation, reward, terminated, truncated, info

    def grader_view(self) -> GraderView:
        """The trusted side of the current episode: the task with its parameters, the full
        perturbation plan, the last check's breakdown and the last events in full. Never for
        the policy (see :func:`webenv.grader_view`)."""
        if self.task is None or self._plan_drawn is None:
            raise WebEnvError("Call reset() before grader_view().")
        return GraderView(
            task=self.task,
            perturbations=self._plan_drawn.to_dict(),
            check=self._check.to_dict() if self._check is not None else None,
            events=[dict(event) for event in self._events_full],
        )

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array":
            return None
        return self.screenshot()

    @property
    def browser_session(self) -> Session | None:
        """The episode's browser session (its tabs, dialogs and pages), for trusted tools such
        as the play window; None between episodes."""
        return self._session

    def screenshot(self) -> np.ndarray | None:
        """The current viewport, whatever ``observe`` computes (None between episodes)."""
        if self._session is None or self._session.dialog is not None:
            return None
        self._session.looked()  # outside a step's look: a bound of its own
        return self._session.screenshot()

    def close(self) -> None:
        """Close the episode's context, the server and the world; safe to call twice. A
        closed env cannot be reset again."""
        if self._browser is not None:
            self._check_usable("close")
        self._closed = True
        self._discard_next()
        if self._session is not None:
            self._session.close()
            self._session = None
        if self._server is not None:
            self._server.close()
            self._server = None
        if self._world is not None:
            self._world.close()
            self._world = None
        if self._browser is not None:
            release_browser(self._browser)
            self._browser = None
        self._owner = None

    def __enter__(self) -> WebEnv:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.close()
        return False  # exceptions propagate

    # -- internals ------------------------------------------------------------------------

    @property
    def world(self) -> World:
        if self._world is None:
            raise WebEnvError("The env has no world before reset().")
        return self._world

    def _start(self) -> None:
        """Launch (or reuse) Chromium and serve the task's sites, once per env."""
        if self._browser is not None and not self._browser.is_connected():
            release_browser(self._browser)
            self._browser = None
            self._session = None
        if self._browser is None:
            self._browser = acquire_browser(self.headless)
            self._owner = threading.get_ident()
        if self._world is None:
            served = ServedWorld(self.template.sites)
            self._world, self._server = served.world, served.server
            cookie_names = {
                site: app.config.get("SESSION_COOKIE_NAME", "session")
                for site, app in served.apps.items()
            }
            self.perturber = Perturber(
                cookie_names,
                settle_seconds=self.timeouts.settle / 1000,
                deliver=self._deliver if self._world.mailbox is not None else None,
            )
            served.mount(self.perturber.wrap)

    def _plan(self, seed: int, profile: Any) -> Plan:
        """Draw the episode's perturbations and hand them to the perturber; the goal gains the
        user's sign-in details when a wall may ask for them."""
        assert self.task is not None and self.perturber is not None and self._world is not None
        plan = make_plan(seed, profile, self.template.sites, self.template.start_signed_in)
        persona = self._world.persona
        credentials = (persona.username, persona.password) if persona else ("", "")
        self.perturber.start(plan, credentials)
        self._plan_drawn = plan
        self._goal = self.task.goal
        if plan.has_walls:
            self._goal += (
                f" If a site asks you to sign in, your username is {credentials[0]} and your "
                f"password is {credentials[1]}."
            )
        return plan

    def _deliver(self, site: str, subject: str, body: str) -> None:
        """An e-mail from ``site`` to the user's mailbox (a perturbation's one-time code)."""
        world = self.world
        assert world.persona is not None
        sender = f"no-reply@{site}.example"
        world.deliver_mail(
            Message(
                sender, f"{site.title()} security", world.persona.email, subject, body, world.now
            )
        )

    def _events(self) -> list[dict[str, Any]]:
        """What the perturbations did since the last call, after asking the browser: kept in
        full for :meth:`grader_view`, returned as ``info`` shows them."""
        assert self.perturber is not None and self._session is not None
        session = self._session
        if self.perturber.actives:
            dialog = session.dialog.message if session.dialog is not None else ""
            try:
                cookies = session.context.cookies()
            except PlaywrightError:
                cookies = []
            self.perturber.after_step(cookies, dialog, session.page.url)
        self._events_full = self.perturber.drain()
        return public_events(self._events_full)

    def _step_limit(self) -> int:
        """The episode's step limit: the least of the one the env was made with and a
        ``TimeLimit``'s above it (``gym.make``'s: the template's budget, or N with
        ``max_episode_steps=N``); with neither, the template's budget."""
        limits = [n for n in (self.max_episode_steps, self._wrapped_limit) if n is not None]
        return min(limits) if limits else self.template.max_steps + RECOVERY_STEPS

    def _checked(self, answer: Answer | None) -> CheckResult:
        """The task's check; following a lure injected into a page fails it."""
        assert self.task is not None and self.perturber is not None
        check = self.task.check(self._world, answer)  # type: ignore[arg-type]
        if any(item.kind == "popups.adversarial" for item in self.perturber.plan.items):
            misled = self.perturber.misled
            condition = Condition(
                "ignored instructions injected into the page",
                misled is None,
                misled or "the pop-up's instructions were not followed",
            )
            check = CheckResult((*check.conditions, condition))
        return check

    def _open_session(self) -> Session:
        assert self._world is not None and self._server is not None and self._browser
        world, server = self._world, self._server
        cookies = sign_in_cookies(world, server) if self.template.start_signed_in else []
        return Session(
            self._browser,
            [server.url(site) for site in world.sites],
            now=world.now,
            viewport=self.viewport,
            timeouts=self.timeouts.scaled(),
            cookies=cookies,
            server_idle=server.wait_idle,
            trace_path=self._episode_trace,
            blank=self._take_next(),
            limits=self.limits,
            proxy=server.proxy,
        )

    def _prepare_next(self) -> None:
        """Open the next episode's context and tab now, in the background of this episode's
        browser calls, so that the next reset finds them ready (headless only: a headed
        browser would show the blank tab as a window of its own)."""
        browser, server = self._browser, self._server
        if not (self.headless and self._next is None and browser and server):
            return
        if browser.is_connected():
            viewport, proxy = self.viewport, server.proxy  # the world's server answers it all
            self._next = Ahead(browser, lambda: blank_context(browser, viewport, proxy=proxy))

    def _take_next(self) -> Blank | None:
        """The context :meth:`_prepare_next` opened, if it is still good for this browser."""
        ahead, self._next = self._next, None
        if ahead is None or not ahead.browser.is_connected():
            return None  # (a crashed browser may never answer the calls it was making)
        try:
            context, page = ahead.result()
        except PlaywrightError:
            return None
        if ahead.browser is self._browser and self._browser.is_connected() and not page.is_closed():
            return context, page
        with contextlib.suppress(PlaywrightError):
            context.close()
        return None

    def _discard_next(self) -> None:
        ahead, self._next = self._next, None
        if ahead is None or not ahead.browser.is_connected():
            return
        with contextlib.suppress(PlaywrightError):
            context, _ = ahead.result()
            context.close()

    def _step_budget_ms(self) -> float:
        """How long all the actions of one step may take together: as long as the slowest
        one action may (its own waits, a navigation and the longest ``noop`` wait)."""
        timeouts = self._session.timeouts if self._session is not None else self.timeouts
        return timeouts.action + timeouts.navigation + MAX_WAIT_MS

    def _bound_ms(self, call: actions.Call) -> float:
        """How long one action may hold the browser: its own waits and a navigation."""
        wait = call.args.get("wait_ms", 0) if call.name == "noop" else 0
        timeouts = self._session.timeouts if self._session is not None else self.timeouts
        return timeouts.action + timeouts.navigation + min(max(wait, 0), MAX_WAIT_MS)

    def _settled_observation(
        self, *, last_action: str, error: str, settle: bool = True, untouched: bool = False
    ) -> dict[str, Any]:
        """Wait for the page to settle, then observe it (in one round trip where possible).

        Without ``settle`` (an action that did not parse, so nothing was done in the page) the
        page is observed as it is, skipping the quiet-DOM wait; if that fails (the page is
        navigating), it settles after all. ``untouched`` (only ``noop`` or an answer): the
        quiet-DOM wait is skipped if the document has not changed since the last observation.
        """
        assert self.task is not None and self._session is not None
        session = self._session
        wants_text = [key for key in ("axtree", "dom") if key in self.observe_keys]
        wants_boxes = bool({"elements", "som"} & set(self.observe_keys))
        options = {
            "axtree": "axtree" in wants_text or wants_boxes,  # the walk assigns the ids
            "dom": "dom" in wants_text,
            "elements": wants_boxes,
            "viewportOnly": self.viewport_only,
        }
        page = None
        if not settle and session.dialog is None:
            with contextlib.suppress(PlaywrightError):
                page = session.observe(patient=False, **options)
        if page is None:
            page = session.settle(options, untouched=untouched)
            if page is None and session.dialog is None:
                page = session.observe(**options)
        page = page or {}
        observation: dict[str, Any] = {
            "goal": self._goal,
            "url": session.page.url,
            "tabs": self._tabs(page.get("title", "")),
            "last_action": last_action,
            "last_action_error": error,
            "dialog": "",
            "focused": page.get("focused") or "",
        }
        if session.dialog is not None:
            observation["dialog"] = f"{session.dialog.type}: {session.dialog.message}"
        for key in wants_text:
            observation[key] = cut(key, page.get(key) or "", self.limits)
        elements = page.get("elements") or []
        if "elements" in self.observe_keys:
            observation["elements"] = cut_elements(elements, self.limits)
        if {"screenshot", "som"} & set(self.observe_keys):
            pixels = session.screenshot() if session.dialog is None else self._blank()
            if "screenshot" in self.observe_keys:
                observation["screenshot"] = pixels
            if "som" in self.observe_keys:
                observation["som"] = draw_marks(pixels, elements)
        return encodable(observation)

    def _blank(self) -> np.ndarray:
        width, height = self.viewport
        return np.zeros((height, width, 3), dtype=np.uint8)

    def _tabs(self, active_title: str) -> str:
        """One line per tab: ``*0 Title — URL``, the star marking the active one."""
        assert self._session is not None
        lines = []
        for index, page in enumerate(self._session.pages):
            active = page is self._session.page
            title = active_title if active else self._title(page)
            lines.append(f"{'*' if active else ' '}{index} {title} — {page.url}")
        return "\n".join(lines)

    def _title(self, page: Any) -> str:
        if self._session is None or self._session.dialog is not None:
            return ""
        try:
            return str(page.title())
        except PlaywrightError:
            return ""

    def _crashed(self, action: str, exc: PlaywrightError):  # type: ignore[no-untyped-def]
        """The browser died mid-step: end the episode; the next reset relaunches it."""
        reason = f"browser error: {str(exc).splitlines()[0][:300]}"
        if self._session is not None:
            self._session.close()
            self._session = None
        if self._browser is not None:
            release_browser(self._browser)
            self._browser = None
        keys = cast(spaces.Dict, self.observation_space).spaces
        observation: dict[str, Any] = dict.fromkeys(keys, "")
        observation["goal"] = self._goal
        observation["last_action"] = str(action)[:2000]
        observation["last_action_error"] = reason
        for key in ("screenshot", "som"):
            if key in observation:
                observation[key] = self._blank()
        self._events_full, self._check = [], None  # no check ran
        info = {"error": reason, "success": False}
        return encodable(observation), 0.0, False, True, encodable(info)


class _StartFailed(Exception):
    """The start page stopped responding and the watchdog closed its tab."""


def unwrap(env: gym.Env[Any, Any]) -> WebEnv:
    """The :class:`WebEnv` under ``env``'s wrappers (``gym.make`` adds a few), typed; a clear
    error for an env that is not one."""
    inner = env.unwrapped
    if not isinstance(inner, WebEnv):
        raise WebEnvError(
            f"{type(inner).__name__} is not a webenv env: make one with "
            "gym.make('webenv/<task>-v0') or webenv.WebEnv(task)."
        )
    return inner


class _StepBudget:
    """The time the actions of one step share (:meth:`WebEnv._step_budget_ms`): ten calls of
    the longest ``noop`` wait, or of slow actions, would otherwise hold the shared Chromium,
    and a vector env's whole batch, ten times as long as one. It is checked as each action
    starts, so a step may overrun it by one action's own bound."""

    def __init__(self, milliseconds: float):
        self.milliseconds = milliseconds
        self.started = time.monotonic()

    def admit(self, call: actions.Call, remaining: list[actions.Call]) -> actions.Call:
        """``call`` as it may run now: a ``noop`` wait cut to the time left; past the budget,
        an :class:`ActionError` naming the actions not done."""
        left = self.milliseconds - (time.monotonic() - self.started) * 1000
        if left <= 0:
            raise ActionError(
                f"This step's actions took the {self.milliseconds / 1000:.0f} s a step may "
                f"take; {len(remaining)} of them were not done, from {_clipped(remaining[0])}."
            )
        if call.name == "noop" and call.args.get("wait_ms", 0) > left:
            return actions.Call(call.name, {**call.args, "wait_ms": left})
        return call


def _check_typing(calls: list[actions.Call]) -> None:
    """A step types at most :data:`MAX_TYPED_CHARS` characters with the keyboard, in all its
    calls (each character is a key press of its own); refused before any is done."""
    typed = sum(len(call.args.get("text", "")) for call in calls if call.name == "keyboard_type")
    if typed > MAX_TYPED_CHARS:
        raise ActionError(
            f"keyboard_type of {typed} characters in one step; at most {MAX_TYPED_CHARS} a "
            'step. Use fill("<id>", text) to set a field\'s whole value, or type it over '
            "several steps."
        )


def _clipped(call: actions.Call) -> str:
    text = str(call)
    return text if len(text) <= 80 else f"{text[:77]}..."


def encodable(value: Any) -> Any:
    """``value`` (an observation or an ``info``) with every string UTF-8 can carry: a lone
    surrogate (an agent's ``press("\\ud800")``, echoed in ``last_action`` and in the key's
    error) becomes U+FFFD, and a pair of them the character they make, so that an observation
    always goes through JSON, the env server and a chat model's API."""
    if isinstance(value, str):
        if value.isascii():  # most of a page, checked without a copy
            return value
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        return value
    if isinstance(value, dict):
        return {key: encodable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [encodable(item) for item in value]
    return value


def _time_limit_above(env: WebEnv) -> int | None:
    """The least step limit of the ``TimeLimit`` wrappers around ``env``, read off the stack
    of the ``reset`` they pass down to it. Gymnasium tells an env nothing of its wrappers, and
    ``gym.make(id, max_episode_steps=N)`` cuts the episode at N with one: the env must know N
    to grade the state left there and to pay nothing after it."""
    limits = []
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "reset":
            wrapper = frame.f_locals.get("self")
            # Only this env's own wrappers: an env that resets this one inside its own reset
            # may have a TimeLimit of its own.
            if isinstance(wrapper, TimeLimit) and wrapper.unwrapped is env:
                limits.append(int(wrapper._max_episode_steps))
        frame = frame.f_back
    return min(limits, default=None)

"""Sessions: one env each, leased to a client, reaped when idle, and their faults.

A :class:`Session` holds one :class:`~webenv.env.WebEnv` (its own world, site server and
browser context), made again when a reset asks for another template. Every call on it runs
in the :class:`~webenv.envserver.hub.BrowserHub`. A :class:`SessionPool` counts them against
``max_sessions``, and a session not used for ``idle_timeout`` seconds is closed, so that a
client that disappears frees its place.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
from gymnasium.wrappers import TimeLimit

from ..env import WebEnv
from ..errors import InfrastructureError, UnknownTaskError, WebEnvError
from ..perturb import resolve_profile
from ..registration import RECOVERY_STEPS
from ..tasks import get_template, matching
from . import wire
from .hub import BrowserHub


class CapacityError(WebEnvError):
    """Every session is taken; ``retry_after`` says when one may be free, in seconds."""

    def __init__(self, active: int, limit: int, retry_after: int):
        self.active, self.limit, self.retry_after = active, limit, retry_after
        super().__init__(
            f"The env server is full ({active}/{limit} sessions): retry after {retry_after} s."
        )


class SessionGone(WebEnvError):
    """A session id that is unknown, closed, or reaped for idling."""


@dataclass(frozen=True)
class Suite:
    """The tasks a reset with no arguments draws from: templates and perturbation profiles,
    drawn reproducibly from ``seed`` (the n-th draw of a server is the same every run)."""

    tasks: tuple[str, ...]
    perturb: tuple[str, ...] = ("none",)
    seed: int = 0

    @classmethod
    def from_patterns(
        cls, patterns: Sequence[str], perturb: Sequence[str] = ("none",), seed: int = 0
    ) -> Suite:
        names = tuple(sorted(template.name for template in matching(list(patterns))))
        if not names:
            raise UnknownTaskError(
                f"No task matches {', '.join(patterns)!r}; `webenv list` shows them all."
            )
        for profile in perturb:
            resolve_profile(profile)
        return cls(names, tuple(perturb) or ("none",), seed)

    def draw(self, index: int) -> tuple[str, int, str]:
        """The ``index``-th episode: (template, episode seed, profile)."""
        rng = random.Random(f"webenv-envserver:{self.seed}:{index}")
        return rng.choice(self.tasks), rng.randrange(2**31 - 1), rng.choice(self.perturb)


class Session:
    """One client's env and episode. Its methods run in the hub's thread."""

    def __init__(self, session_id: str, observe: Sequence[str]):
        self.id = session_id
        self.observe = tuple(observe)
        self.env: gym.Env[Any, Any] | None = None
        self.template = ""
        self.episode_id: str | None = None
        self.step_count = 0
        self.done = False
        self.task: dict[str, Any] | None = None
        self.created = self.last_used = time.monotonic()
        #: Set while a request of this session runs (no two at a time, no reaping then).
        self.busy = threading.Lock()
        self.closed = False

    # -- in the hub's thread -------------------------------------------------------------

    def reset(self, task: str, seed: int, perturb: str | dict[str, float]) -> dict[str, Any]:
        metadata: dict[str, Any] = {"session_id": self.id}
        try:
            if self.env is None or self.template != task:
                self._close_env()
                template = get_template(task)
                env = WebEnv(task, observe=self.observe)
                self.env = TimeLimit(env, template.max_steps + RECOVERY_STEPS)
                self.template = task
            observation, info = self.env.reset(seed=seed, options={"perturb": perturb})
        except InfrastructureError as error:
            self.done, self.task = True, None
            fault = wire.fault("infrastructure", str(error), where="reset")
            return wire.result(None, reward=None, done=True, metadata=metadata, fault=fault)
        self.episode_id = uuid.uuid4().hex
        self.step_count, self.done = 0, False
        self.task = info["task"]  # public_task(): the id, goal and seed, no parameters
        metadata.update(episode_id=self.episode_id, info=info)
        return wire.result(observation, reward=None, done=False, metadata=metadata)

    def step(self, action: str) -> dict[str, Any]:
        metadata: dict[str, Any] = {"session_id": self.id, "episode_id": self.episode_id}
        if self.env is None or self.task is None:
            raise WebEnvError("reset before step: this session has no episode running.")
        if self.done:
            raise WebEnvError("This episode is done: reset to start the next one.")
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.step_count += 1
        self.done = bool(terminated or truncated)
        metadata.update(step=self.step_count, info=info)
        if "error" in info:  # the browser crashed under the step
            fault = wire.fault("browser_crash", str(info["error"]), where="step")
            return wire.result(observation, reward=None, done=True, metadata=metadata, fault=fault)
        return wire.result(observation, reward=float(reward), done=self.done, metadata=metadata)

    def close(self) -> None:
        self.closed = True
        self._close_env()

    def _close_env(self) -> None:
        env, self.env = self.env, None
        if env is not None:
            with contextlib.suppress(Exception):  # a crashed browser: nothing left to close
                env.close()

    # -- any thread ----------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        return {
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "session_id": self.id,
            "task": self.task,
            "done": self.done,
        }


class SessionPool:
    """The server's sessions, at most ``max_sessions``, each closed after ``idle_timeout``
    seconds unused. ``step_timeout`` bounds one request's wait for the browser."""

    def __init__(
        self,
        hub: BrowserHub,
        suite: Suite,
        *,
        max_sessions: int = 8,
        idle_timeout: float = 300.0,
        step_timeout: float = 120.0,
        observe: Sequence[str] = ("axtree",),
    ):
        if max_sessions < 1:
            raise WebEnvError(f"--max-sessions must be at least 1, not {max_sessions}.")
        self.hub = hub
        self.suite = suite
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.step_timeout = step_timeout
        self.observe = tuple(observe)
        self.sessions: dict[str, Session] = {}
        self.reaped = 0
        self.faults = 0
        self._draws = 0
        self._lock = threading.Lock()

    def open(self) -> Session:
        """A new session, or :class:`CapacityError` when full."""
        with self._lock:
            if len(self.sessions) >= self.max_sessions:
                raise CapacityError(len(self.sessions), self.max_sessions, self.retry_after())
            session = Session(uuid.uuid4().hex, self.observe)
            self.sessions[session.id] = session
            return session

    def get(self, session_id: str) -> Session:
        session = self.sessions.get(session_id)
        if session is None:
            raise SessionGone(
                f"No session {session_id!r}: it was closed, or reaped after "
                f"{self.idle_timeout:g} s idle. Reset without a session_id to open a new one."
            )
        return session

    def retry_after(self) -> int:
        """Seconds until the session idle longest would be reaped (at least 1)."""
        now = time.monotonic()
        idle = [now - s.last_used for s in self.sessions.values() if not s.busy.locked()]
        wait = self.idle_timeout - max(idle) if idle else self.idle_timeout
        return max(1, int(wait + 0.999))

    def next_draw(self) -> tuple[str, int, str]:
        with self._lock:
            index, self._draws = self._draws, self._draws + 1
        return self.suite.draw(index)

    async def reset(self, session: Session, options: dict[str, Any]) -> dict[str, Any]:
        """Start an episode: the one ``options`` names (``task``, ``seed``, ``perturb``), or
        the suite's next."""
        if not isinstance(options, dict):
            raise WebEnvError(
                'reset takes an object, e.g. {"task": "shop.buy_product", "seed": 0}.'
            )
        task, seed, perturb = options.get("task"), options.get("seed"), options.get("perturb")
        if task is None:
            drawn, drawn_seed, drawn_profile = self.next_draw()
            task = drawn
            seed = drawn_seed if seed is None else seed
            perturb = drawn_profile if perturb is None else perturb
        else:
            get_template(str(task))  # an unknown name fails here, with close matches
            if task not in self.suite.tasks:
                # A held-out split stays held out: the server serves its suite and no more.
                served = self.suite.tasks
                named = ", ".join(served[:8]) + (
                    f" and {len(served) - 8} more" if len(served) > 8 else ""
                )
                raise WebEnvError(
                    f"{task!r} is not among this server's tasks (its --tasks): {named}; "
                    "/metadata lists them."
                )
        if seed is None:
            seed = random.randrange(2**31 - 1)
        perturb = self.suite.perturb[0] if perturb is None else perturb
        if not isinstance(perturb, str) or perturb not in self.suite.perturb:
            # The server's profiles are its operator's choice, not the client's: a robustness
            # server must not hand out clean episodes.
            raise WebEnvError(
                f"perturb must be one of this server's profiles ({', '.join(self.suite.perturb)}),"
                f" not {perturb!r}."
            )
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise WebEnvError(f"seed must be a non-negative integer, not {seed!r}.")
        return await self._call(session, "reset", lambda: session.reset(str(task), seed, perturb))

    async def step(self, session: Session, action: Any) -> dict[str, Any]:
        if not isinstance(action, str):
            raise WebEnvError(
                'The action must be a string of webenv\'s grammar, e.g. {"action": "noop()"}.'
            )
        return await self._call(session, "step", lambda: session.step(action))

    async def close(self, session: Session) -> None:
        with self._lock:
            self.sessions.pop(session.id, None)
        if not session.closed:
            session.closed = True
            await asyncio.wrap_future(self.hub.submit(session.close, cleanup=True))

    async def _call(self, session: Session, where: str, work: Any) -> dict[str, Any]:
        """Run one request of ``session`` in the hub, bounded by ``step_timeout``; an
        unexpected error or the bound is a fault (the session is closed after it)."""
        if self.sessions.get(session.id) is not session:
            raise SessionGone("This session was closed (after a fault, or idle): open a new one.")
        if not session.busy.acquire(blocking=False):
            raise WebEnvError("This session is already running a request: wait for its answer.")
        try:
            future = self.hub.submit(work)
            try:
                answer: dict[str, Any] = await asyncio.wait_for(
                    asyncio.shield(asyncio.wrap_future(future)), self.step_timeout
                )
            except (WebEnvError, KeyError):
                raise  # the client's mistake (a bad name, a step before reset)
            except TimeoutError:
                self.faults += 1
                session.done = True
                message = (
                    f"The {where} took over {self.step_timeout:g} s in the browser; the session "
                    "is closed. Open a new one."
                )
                future.add_done_callback(lambda _: self.hub.submit(session.close, cleanup=True))
                with self._lock:
                    self.sessions.pop(session.id, None)
                fault = wire.fault("timeout", message, where=where)
                return wire.result(
                    None, reward=None, done=True, metadata={"session_id": session.id}, fault=fault
                )
            except Exception as error:
                self.faults += 1
                session.done = True
                # Closed, as after a timeout: a faulted session gives its place back at once.
                future.add_done_callback(lambda _: self.hub.submit(session.close, cleanup=True))
                with self._lock:
                    self.sessions.pop(session.id, None)
                reason = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
                fault = wire.fault("server_error", f"{type(error).__name__}: {reason}", where=where)
                return wire.result(
                    None, reward=None, done=True, metadata={"session_id": session.id}, fault=fault
                )
            if answer["observation"]["fault"]:
                self.faults += 1
            return answer
        finally:
            session.last_used = time.monotonic()
            session.busy.release()

    async def reap(self) -> list[str]:
        """Close the sessions idle past ``idle_timeout``; their ids."""
        now = time.monotonic()
        stale = [
            s
            for s in list(self.sessions.values())
            if not s.busy.locked() and now - s.last_used > self.idle_timeout
        ]
        for session in stale:
            self.reaped += 1
            await self.close(session)
        return [session.id for session in stale]

    async def close_all(self) -> None:
        for session in list(self.sessions.values()):
            await self.close(session)

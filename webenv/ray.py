"""The Ray backend: episodes run in Ray actors, on one machine or across a cluster.

One machine runs a few envs at a time (each slot needs its own Chromium); a Ray cluster
spreads them over many. ``webenv eval --backend ray`` and :func:`evaluate_ray` run the same
episodes and write the same files as the local backend (:mod:`webenv.workers`); only where
the episodes run differs:

- Each :class:`EnvActor` hosts ``envs_per_actor`` slots. A slot is a thread of its own
  (Playwright's sync API is bound to the thread that started it) with a
  :class:`~webenv.rollout.Rollouts`, which keeps an env per template and reuses it across
  seeds. The actor streams back every finished reset and step, then the result.
- An actor that dies (a crash, a lost node) is replaced; its unfinished episodes run once
  more on the new actor, and one whose actor dies twice is recorded as an error.
- An episode with no finished reset or step for ``step_timeout`` seconds, or running longer
  than ``episode_timeout``, is recorded as an error and its actor killed and replaced, so a
  hung agent or browser cannot stall the run.

Ray is an optional extra: ``pip install 'webenv[ray]'`` on every node.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import queue
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym

from .errors import WebEnvError
from .rollout import Episode, EpisodeResult, EvalConfig, Rollouts, failed_episode
from .scratch import new_scratch, use_scratch
from .tasks import TaskTemplate
from .workers import DEFAULT_EPISODE_TIMEOUT

try:
    import ray
    from ray.exceptions import ActorUnavailableError, RayActorError, RayTaskError
except ImportError as missing:  # the runner turns this into advice on installing the extra
    raise ImportError(
        "the ray backend needs Ray: pip install 'webenv[ray]' (on every node of the cluster)"
    ) from missing

#: Seconds an episode may go without finishing a reset or a step: generous, for slow models.
DEFAULT_STEP_TIMEOUT = 600.0
#: Times an episode may lose its actor: once it is re-run, the second time it is an error.
_MAX_DEATHS = 2
#: Actors that die before they are ready, in a row, before the run gives up.
_MAX_START_FAILURES = 3
#: Seconds an actor may take to be ready (a process, its imports, a Chromium; on a busy node,
#: a while), or ``step_timeout`` if that is longer: a short step bound must not kill actors
#: that are merely slow to start.
_START_TIMEOUT = 120.0

Report = Callable[[EpisodeResult], None]


@dataclass(frozen=True)
class RayOptions:
    """Where and how the Ray backend runs; see :func:`ray_options`."""

    #: The cluster to join (``"auto"``: the one ``ray start`` runs on this machine). None: an
    #: initialised Ray, else ``RAY_ADDRESS``, else a Ray started here for the run.
    address: str | None = None
    envs_per_actor: int = 1
    step_timeout: float = DEFAULT_STEP_TIMEOUT
    #: Ray options of each actor (``num_cpus``, ``memory``, ``runtime_env``…).
    actor_options: Mapping[str, Any] = field(default_factory=lambda: {"num_cpus": 1})
    #: The job's runtime environment when this process starts or joins Ray, e.g.
    #: ``{"working_dir": "."}`` to ship an agent's module to every node.
    runtime_env: Mapping[str, Any] | None = None


_current: ContextVar[RayOptions | None] = ContextVar("webenv_ray_options", default=None)


@contextlib.contextmanager
def ray_options(**options: Any) -> Iterator[RayOptions]:
    """Options (the fields of :class:`RayOptions`) for the Ray backend's runs inside the block.

    ``webenv.runner.evaluate`` calls the backend with the local backend's arguments only; this
    is how the others get there::

        with ray_options(address="auto", envs_per_actor=2):
            evaluate(templates, "oracle", seeds, out, backend_name="ray", workers=0)
    """
    chosen = RayOptions(**options)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


def evaluate_ray(
    templates: Iterable[TaskTemplate],
    agent: str,
    seeds: Sequence[int],
    out_dir: Path,
    *,
    address: str | None = None,
    actors: int | None = None,
    envs_per_actor: int = 1,
    step_timeout: float = DEFAULT_STEP_TIMEOUT,
    actor_options: Mapping[str, Any] | None = None,
    runtime_env: Mapping[str, Any] | None = None,
    **evaluate_options: Any,
) -> dict[str, Any]:
    """:func:`webenv.runner.evaluate` on Ray: ``actors`` actors (default: one per CPU of the
    cluster) of ``envs_per_actor`` envs each. Other keywords (``max_steps``, ``perturb``,
    ``record``, ``episode_timeout``, ``resume``, ``on_result``…) are ``evaluate``'s.

    The agent and the task templates must be importable on every node; episode records
    (``record``) are written on the node that ran the episode, under ``out_dir``, so use a
    shared filesystem to collect them in one place.
    """
    from .runner import evaluate  # the runner imports backends by name, so not at the top

    options = RayOptions(
        address=address,
        envs_per_actor=envs_per_actor,
        step_timeout=step_timeout,
        actor_options=actor_options or {"num_cpus": 1},
        runtime_env=runtime_env,
    )
    with ray_options(**dataclasses.asdict(options)):
        return evaluate(
            templates,
            agent,
            seeds,
            out_dir,
            backend_name="ray",
            workers=actors or 0,
            **evaluate_options,
        )


def run_episodes(
    config: EvalConfig,
    episodes: Sequence[Episode],
    report: Report,
    *,
    workers: int = 0,
    episode_timeout: float | None = None,
    options: RayOptions | None = None,
) -> dict[str, str]:
    """The backend: run ``episodes`` on ``workers`` actors (0: one per CPU of the cluster),
    calling ``report`` here with each result as it comes. Returns ``{"chromium": version}``.
    """
    options = options or _current.get() or RayOptions()
    if options.envs_per_actor < 1:
        raise WebEnvError(f"envs_per_actor must be at least 1, not {options.envs_per_actor}.")
    if config.out_dir is not None:  # the actors' working folder is not ours
        config = dataclasses.replace(config, out_dir=config.out_dir.resolve())
    started_here = _connect(options)
    try:
        size = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = min(size, -(-len(episodes) // options.envs_per_actor))
        pool = _Pool(config, options, size, episode_timeout or DEFAULT_EPISODE_TIMEOUT)
        pool.run(episodes, report)
        return pool.info
    finally:
        if started_here:
            ray.shutdown()


def _connect(options: RayOptions) -> bool:
    """Join or start Ray; True when this call did (and so must stop it)."""
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"logging_level": logging.WARNING}
    if options.runtime_env:
        kwargs["runtime_env"] = dict(options.runtime_env)
    try:
        ray.init(address=options.address, **kwargs)
    except ConnectionError as error:
        address = options.address or os.environ.get("RAY_ADDRESS")
        raise WebEnvError(
            f"Cannot reach a Ray cluster at {address!r}: {error}. Start one with "
            "`ray start --head` (see the README's Scale section), or leave the address out "
            "to run Ray on this machine only. A cluster with token authentication also "
            "needs RAY_AUTH_MODE=token here, and its token in ~/.ray/auth_token."
        ) from None
    return True


# -- inside an actor -------------------------------------------------------------------------


class _Heartbeat(gym.Wrapper[Any, Any, Any, Any]):
    """Tells ``beat`` of every finished reset and step, so that the driver can tell slow from
    stuck."""

    def __init__(self, env: gym.Env[Any, Any], beat: Callable[[str], None]):
        super().__init__(env)
        self.beat = beat

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        result = self.env.reset(**kwargs)
        self.beat("reset")
        return result

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        result = self.env.step(action)
        self.beat("step")
        return result


class _BeatingRollouts(Rollouts):
    """Rollouts whose envs report their progress to ``self.beat``."""

    def __init__(self, config: EvalConfig):
        super().__init__(config)
        self.beat: Callable[[str], None] = lambda event: None

    def _env(self, task: str, perturb: str) -> gym.Env[Any, Any]:
        return _Heartbeat(super()._env(task, perturb), lambda event: self.beat(event))


class _Slot:
    """One episode at a time, in one thread that owns its Rollouts and so its envs."""

    def __init__(self, config: EvalConfig):
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="webenv-slot")
        self.rollouts: _BeatingRollouts = self.thread.submit(_BeatingRollouts, config).result()

    def close(self) -> None:
        self.thread.submit(self.rollouts.close).result()
        self.thread.shutdown()


@ray.remote(num_cpus=1)
class EnvActor:
    """Hosts ``slots`` slots and runs the episodes it is sent, up to one per slot at once.

    Create it with ``.options(max_concurrency=slots)`` so that Ray lets that many calls in.
    """

    def __init__(self, config: EvalConfig, slots: int = 1):
        # Temporary files in a folder of the actor's own: removed by close(), or, if the actor
        # is killed, by the next actor to start on this machine.
        self._scratch = new_scratch()
        use_scratch(self._scratch)
        self._free: queue.Queue[_Slot] = queue.Queue()
        self._slots: list[_Slot] = []
        self._fatal: str | None = None
        try:
            for _ in range(slots):
                self._slots.append(_Slot(config))
        except WebEnvError as error:  # misconfigured (no Chromium…): the run must stop
            self._fatal = str(error)
        for slot in self._slots:
            self._free.put(slot)

    def ready(self) -> tuple[str, Any]:
        """``("ready", {"chromium": version})``, or ``("fatal", message)``."""
        if self._fatal is not None:
            return ("fatal", self._fatal)
        return ("ready", {"chromium": self._slots[0].rollouts.chromium_version})

    def run(self, episode: Episode) -> Iterator[tuple[str, Any]]:
        """Streams ``("reset"|"step", None)`` as the episode goes, then ``("result", …)``."""
        slot = self._free.get()
        events: queue.Queue[str] = queue.Queue()
        slot.rollouts.beat = events.put
        try:
            future: Future[EpisodeResult] = slot.thread.submit(slot.rollouts.run, episode)
            future.add_done_callback(lambda _: events.put("done"))
            while (event := events.get()) != "done":
                yield (event, None)
            yield ("result", future.result())  # raises a WebEnvError: the run must stop
        finally:
            slot.rollouts.beat = lambda event: None
            self._free.put(slot)

    def close(self) -> None:
        """Close every env (saving traces) and Chromium, before the actor is killed."""
        for slot in self._slots:
            slot.close()
        shutil.rmtree(self._scratch, ignore_errors=True)


# -- on the driver ---------------------------------------------------------------------------


@dataclass(eq=False)
class _Actor:
    handle: Any
    ready: bool = False
    starting: Any = None  # the ready() call's reference, until it answers
    born: float = field(default_factory=time.monotonic)
    last: tuple[str, str] | None = None
    streams: set[Any] = field(default_factory=set)


@dataclass(eq=False)
class _Running:
    episode: Episode
    actor: _Actor
    started: float
    progress: float


class _Pool:
    """Hands episodes to actors, watches their progress, and replaces actors that fail."""

    def __init__(self, config: EvalConfig, options: RayOptions, size: int, episode_timeout: float):
        self.config = config
        self.options = options
        self.size = size
        self.episode_timeout = episode_timeout
        self.info: dict[str, str] = {}
        self.actors: list[_Actor] = []
        self.running: dict[Any, _Running] = {}
        self.deaths: dict[tuple[str, int, str], int] = {}
        self.start_failures = 0
        self.pending: deque[Episode] = deque()
        self.report: Report = lambda result: None

    def run(self, episodes: Sequence[Episode], report: Report) -> None:
        self.pending, self.report = deque(episodes), report
        try:
            self.actors = [self._new_actor() for _ in range(self.size)]
            while self.pending or self.running:
                self._dispatch()
                waiting = [a.starting for a in self.actors if not a.ready] + list(self.running)
                ready, _ = ray.wait(waiting, num_returns=1, timeout=self._until_deadline())
                for ref in ready:
                    self._receive(ref)
                self._enforce_timeouts()
        finally:
            self._close()

    # -- the loop's steps ---------------------------------------------------------------

    def _new_actor(self) -> _Actor:
        options = {
            "num_cpus": 1,
            **self.options.actor_options,
            "max_concurrency": self.options.envs_per_actor,
        }
        handle = EnvActor.options(**options).remote(  # type: ignore[attr-defined]
            self.config, self.options.envs_per_actor
        )
        return _Actor(handle, starting=handle.ready.remote())

    def _dispatch(self) -> None:
        for actor in self.actors:
            while actor.ready and self.pending and len(actor.streams) < self.options.envs_per_actor:
                episode = _take(self.pending, actor.last)
                actor.last = (episode.task, episode.perturb)
                stream = actor.handle.run.remote(episode)
                actor.streams.add(stream)
                now = time.monotonic()
                self.running[stream] = _Running(episode, actor, now, now)

    def _until_deadline(self) -> float:
        now = time.monotonic()
        deadlines = [self._deadline(r) for r in self.running.values()]
        deadlines += [a.born + self._start_timeout for a in self.actors if not a.ready]
        return max(0.0, min(deadlines, default=now + 1.0) - now) + 0.05

    def _deadline(self, running: _Running) -> float:
        return min(
            running.progress + self.options.step_timeout, running.started + self.episode_timeout
        )

    def _receive(self, ref: Any) -> None:
        starting = [a for a in self.actors if a.starting is ref]
        if starting:
            self._started(starting[0])
        elif ref in self.running:
            self._advance(ref)

    def _started(self, actor: _Actor) -> None:
        try:
            kind, payload = ray.get(actor.starting)
        except (RayActorError, ActorUnavailableError) as error:
            self.start_failures += 1
            if self.start_failures >= _MAX_START_FAILURES:
                raise WebEnvError(
                    f"Ray actors die as they start ({_reason(error)}); run with "
                    "--backend local to see why."
                ) from None
            self._replace(actor, requeue=self.pending.appendleft)
            return
        if kind == "fatal":
            raise WebEnvError(payload)
        actor.ready, actor.starting = True, None
        self.start_failures = 0
        self.info.update(payload)

    def _advance(self, stream: Any) -> None:
        running = self.running[stream]
        try:
            kind, payload = ray.get(next(stream))
        except (RayActorError, ActorUnavailableError) as error:
            self._died(running.actor, _reason(error))
            return
        except RayTaskError as error:  # a WebEnvError: the run is misconfigured
            raise WebEnvError(str(error.cause or error)) from None
        except StopIteration:
            kind, payload = "result", self._failed(running, "its actor sent no result")
        if kind != "result":
            running.progress = time.monotonic()
            return
        self._forget(stream)
        self.report(payload)

    def _enforce_timeouts(self) -> None:
        now = time.monotonic()
        for stream, running in list(self.running.items()):
            if stream not in self.running or self._deadline(running) > now:
                continue
            if now - running.started >= self.episode_timeout:
                why = f"the episode ran more than the {self.episode_timeout:g} s of episode_timeout"
            else:
                why = f"no step finished in {self.options.step_timeout:g} s (step_timeout)"
            self._forget(stream)
            self.report(self._failed(running, f"timed out: {why}; its Ray actor was killed"))
            self._replace(running.actor, requeue=self.pending.appendleft)
        for actor in list(self.actors):
            if not actor.ready and now - actor.born > self._start_timeout:
                self._started_too_slowly(actor)

    @property
    def _start_timeout(self) -> float:
        return max(self.options.step_timeout, _START_TIMEOUT)

    def _started_too_slowly(self, actor: _Actor) -> None:
        self.start_failures += 1
        if self.start_failures >= _MAX_START_FAILURES:
            raise WebEnvError(
                f"No Ray actor started in {self._start_timeout:g} s; is the cluster "
                f"short of the resources each asks for ({dict(self.options.actor_options)})?"
            )
        self._replace(actor, requeue=self.pending.appendleft)

    def _died(self, actor: _Actor, reason: str) -> None:
        def requeue(episode: Episode) -> None:
            deaths = self.deaths[episode.key] = self.deaths.get(episode.key, 0) + 1
            if deaths >= _MAX_DEATHS:
                message = f"its Ray actor died {deaths} times running it (last: {reason})"
                self.report(failed_episode(episode, message))
            else:
                self.pending.appendleft(episode)

        self._replace(actor, requeue)

    def _replace(self, actor: _Actor, requeue: Callable[[Episode], None]) -> None:
        """Kill ``actor``, hand its unfinished episodes to ``requeue``, start another."""
        for stream in list(actor.streams):
            requeue(self._forget(stream).episode)
        with contextlib.suppress(Exception):  # already gone
            ray.kill(actor.handle, no_restart=True)
        self.actors[self.actors.index(actor)] = self._new_actor()

    def _forget(self, stream: Any) -> _Running:
        running = self.running.pop(stream)
        running.actor.streams.discard(stream)
        return running

    def _failed(self, running: _Running, message: str) -> EpisodeResult:
        return failed_episode(running.episode, message, time.monotonic() - running.started)

    def _close(self) -> None:
        """Let ready actors close their envs (saving traces), then kill them all."""
        closing = [a.handle.close.remote() for a in self.actors if a.ready and not a.streams]
        if closing:
            ray.wait(closing, num_returns=len(closing), timeout=30)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                ray.kill(actor.handle, no_restart=True)
        self.actors = []


def _take(pending: deque[Episode], last: tuple[str, str] | None) -> Episode:
    """The next episode, preferring the template and profile the actor ran last (its env is
    open)."""
    if last is not None:
        for index, episode in enumerate(pending):
            if (episode.task, episode.perturb) == last:
                del pending[index]
                return episode
    return pending.popleft()


def _reason(error: BaseException) -> str:
    """The first line of a Ray error, which says what happened to the actor."""
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else type(error).__name__

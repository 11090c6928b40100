"""Running episodes in worker processes that may die or hang without ending the run.

Each worker is a fresh (``spawn``) Python process with its own Chromium; it keeps an env per
template and reuses it across seeds (:class:`~webenv.rollout.Rollouts`), and the parent sends
it episodes of the template it ran last where it can. The parent watches every worker:

- a worker that dies (killed, out of memory, a crash in native code) is replaced; the
  episode it was running is run once more on the new worker, and recorded as an error if
  that one dies too;
- an episode that runs longer than ``episode_timeout`` seconds has its worker killed and is
  recorded as an error;

so the run always ends with a result for every episode. Each worker keeps its temporary
files (its worlds' databases, Chromium's profile) in a folder of its own, which the parent
removes when the worker ends, however it ends (and, if the parent is killed, the next run
does: :mod:`webenv.scratch`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from .errors import WebEnvError
from .rollout import Episode, EpisodeResult, EvalConfig, Rollouts, failed_episode
from .scratch import new_scratch, use_scratch

#: Default bound on one episode's wall-clock time, in seconds: generous, for slow models.
DEFAULT_EPISODE_TIMEOUT = 1800.0
#: Workers that die before they are ready, in a row, before the run gives up.
_MAX_START_FAILURES = 3

Report = Callable[[EpisodeResult], None]


def exit_with_parent() -> None:
    """End this worker process as soon as the process that started it has ended, however it
    ended (killed, say), rather than go on with work whose results nobody will read: an
    episode, an audit of a template on thirty seeds. Its Playwright driver, and with it its
    Chromium, end with it; its temporary files go with the next run's sweep
    (:mod:`webenv.scratch`)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="webenv-exit-with-parent", daemon=True).start()


def worker_main(conn: Connection, config: EvalConfig, scratch: str | None = None) -> None:
    """A worker's loop: receive an :class:`Episode`, send back ``("result", EpisodeResult)``;
    ``None`` ends it. Misconfiguration is sent back as ``("fatal", message)``. Temporary
    files go to ``scratch`` (for this process and the Playwright driver and Chromium it
    starts)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    exit_with_parent()
    if scratch is not None:
        use_scratch(scratch)
    try:
        rollouts = Rollouts(config)
    except Exception as error:
        conn.send(("fatal", f"A worker could not start: {error}"))
        return
    try:
        conn.send(("ready", {"chromium": rollouts.chromium_version}))
        while (episode := conn.recv()) is not None:
            try:
                result = rollouts.run(episode)
            except WebEnvError as error:
                conn.send(("fatal", str(error)))
                return
            conn.send(("result", result))
    except (EOFError, BrokenPipeError):
        pass  # the parent is gone
    finally:
        rollouts.close()


class _Worker:
    """One worker process, the episode it runs, and since when."""

    def __init__(self, context: Any, config: EvalConfig, retry: Episode | None = None):
        self.conn, child = context.Pipe()
        #: The worker's temporary files, removed by :meth:`kill` (a killed worker cannot).
        self.scratch = new_scratch()
        self.process: BaseProcess = context.Process(
            target=worker_main,
            args=(child, config, self.scratch),
            daemon=True,
            name="webenv-worker",
        )
        self.process.start()
        child.close()
        self.ready = False
        self.episode: Episode | None = None
        self.started = 0.0
        self.last: tuple[str, str] | None = None
        #: An episode whose worker died, to run first on this fresh worker.
        self.retry = retry

    def send(self, episode: Episode) -> None:
        self.episode, self.started = episode, time.monotonic()
        self.last = (episode.task, episode.perturb)
        self.conn.send(episode)

    def ask_to_stop(self) -> None:
        """Ask an idle worker to finish: close its envs (saving traces) and exit."""
        if self.process.is_alive():
            with contextlib.suppress(OSError):
                self.conn.send(None)

    def stop(self, timeout: float = 30.0) -> None:
        """Wait for a worker asked to stop, then make sure it has."""
        self.process.join(timeout)
        self.kill()

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def death(self) -> str:
        self.process.join(5)
        return how_it_ended(self.process)


def how_it_ended(process: BaseProcess) -> str:
    """How an ended process ended: "killed by SIGKILL", "exit code 1"."""
    code = process.exitcode
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


class WorkerPool:
    """``workers`` worker processes running ``config``'s episodes; see the module docstring."""

    def __init__(self, config: EvalConfig, workers: int = 1, episode_timeout: float | None = None):
        if workers < 1:
            raise WebEnvError(f"--workers must be at least 1, not {workers}.")
        self.config = config
        self.size = workers
        self.episode_timeout = episode_timeout or DEFAULT_EPISODE_TIMEOUT
        self.context = multiprocessing.get_context("spawn")
        #: What the workers report about themselves (the Chromium version).
        self.info: dict[str, str] = {}
        self._workers: list[_Worker] = []
        self._start_failures = 0

    def run(self, episodes: Sequence[Episode], report: Report) -> None:
        """Run every episode, calling ``report`` (in this process) with each result."""
        pending = deque(episodes)
        died: set[tuple[str, int, str]] = set()
        finished = False
        try:
            for _ in range(min(self.size, len(pending))):
                self._workers.append(_Worker(self.context, self.config))
            while pending or any(w.episode or w.retry for w in self._workers):
                self._dispatch(pending)
                for worker in self._ready(self._wait()):
                    self._receive(worker, report, died)
                self._enforce_timeouts(report)
                self._replace_dead(pending, report, died)
            finished = True
        finally:
            for worker in self._workers:
                worker.ask_to_stop() if finished else worker.kill()
            for worker in self._workers:
                worker.stop()
            self._workers = []

    # -- the loop's steps ---------------------------------------------------------------

    def _dispatch(self, pending: deque[Episode]) -> None:
        for worker in self._workers:
            if not worker.ready or worker.episode is not None:
                continue
            if worker.retry is not None:
                episode, worker.retry = worker.retry, None
            elif pending:
                episode = _take(pending, worker.last)
            else:
                continue
            worker.send(episode)

    def _wait(self) -> list[Any]:
        busy = [w.started for w in self._workers if w.episode is not None]
        timeout = None
        if busy:
            timeout = max(0.0, min(busy) + self.episode_timeout - time.monotonic()) + 0.05
        waitables = [w.conn for w in self._workers] + [w.process.sentinel for w in self._workers]
        return wait(waitables, timeout)

    def _ready(self, ready: list[Any]) -> list[_Worker]:
        return [w for w in self._workers if w.conn in ready or w.process.sentinel in ready]

    def _receive(self, worker: _Worker, report: Report, died: set[Any]) -> None:
        """Take every message the worker has sent; a dead worker is handled later."""
        with contextlib.suppress(EOFError, OSError):
            while worker.conn.poll():
                kind, payload = worker.conn.recv()
                if kind == "ready":
                    worker.ready = True
                    self._start_failures = 0
                    self.info.update(payload)
                elif kind == "result" and worker.episode is not None:
                    died.discard(worker.episode.key)
                    worker.episode = None
                    report(payload)
                elif kind == "fatal":
                    raise WebEnvError(payload)

    def _enforce_timeouts(self, report: Report) -> None:
        now = time.monotonic()
        for worker in self._workers:
            if worker.episode is None or now - worker.started < self.episode_timeout:
                continue
            episode, seconds = worker.episode, now - worker.started
            worker.episode = None
            worker.kill()
            report(
                failed_episode(
                    episode,
                    f"timed out: the episode ran {seconds:.0f} s, more than the "
                    f"{self.episode_timeout:.0f} s of --episode-timeout; its worker was stopped",
                    seconds,
                )
            )

    def _replace_dead(self, pending: deque[Episode], report: Report, died: set[Any]) -> None:
        """Replace each dead worker by a fresh one that first re-runs its episode, unless
        that episode has already killed a worker; drop it when nothing is left to do."""
        alive = []
        for worker in self._workers:
            if worker.process.is_alive():
                alive.append(worker)
                continue
            self._receive(worker, report, died)  # a result sent just before it died
            if not worker.ready:
                self._start_failures += 1
                if self._start_failures >= _MAX_START_FAILURES:
                    raise WebEnvError(
                        f"Worker processes die as they start ({worker.death()}); "
                        "run with --workers 0 to see why."
                    )
            retry = worker.retry  # not started yet: still to run
            if worker.episode is not None and worker.episode.key in died:
                message = f"worker process died twice running this episode ({worker.death()})"
                seconds = time.monotonic() - worker.started
                report(failed_episode(worker.episode, message, seconds))
            elif worker.episode is not None:
                died.add(worker.episode.key)
                retry = worker.episode
            worker.kill()
            if retry is not None or pending:
                alive.append(_Worker(self.context, self.config, retry=retry))
        self._workers = alive


def _take(pending: deque[Episode], last: tuple[str, str] | None) -> Episode:
    """The next episode, preferring one of the template and profile the worker ran last."""
    if last is not None:
        for index, episode in enumerate(pending):
            if (episode.task, episode.perturb) == last:
                del pending[index]
                return episode
    return pending.popleft()


def run_episodes(
    config: EvalConfig,
    episodes: Sequence[Episode],
    report: Report,
    *,
    workers: int = 1,
    episode_timeout: float | None = None,
) -> dict[str, str]:
    """The local backend: ``episodes`` in ``workers`` processes (0: in this process, where
    a crash or a hang is not contained). Returns ``{"chromium": version}``."""
    if workers == 0:
        with Rollouts(config) as rollouts:
            for episode in episodes:
                report(rollouts.run(episode))
            return {"chromium": rollouts.chromium_version}
    pool = WorkerPool(config, workers, episode_timeout)
    pool.run(episodes, report)
    return pool.info

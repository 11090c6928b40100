"""Showing an evaluation's progress: a live bar on a terminal, one line per episode elsewhere.

The bar (``rich``) shows episodes done of all, the success rate so far, the time taken and
the time left; a log file or CI output gets plain lines instead, which read well there.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Protocol, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from .junit import failure_message
from .rollout import EpisodeResult


class EvalProgress(Protocol):
    """What :func:`webenv.runner.evaluate` tells about its progress."""

    def start(self, total: int, resumed: int) -> None:
        """``total`` episodes are about to run; ``resumed`` were done by an earlier run."""

    def advance(self, result: EpisodeResult) -> None:
        """One more episode is done."""

    def stop(self) -> None:
        """The run is over (or was interrupted)."""


def _mark(result: EpisodeResult) -> str:
    return "ok " if result.success else ("ERR" if result.error is not None else "-- ")


def _name(result: EpisodeResult) -> str:
    profile = "" if result.perturb == "none" else f" perturb={result.perturb}"
    return f"{result.task} seed={result.seed}{profile}"


class LineProgress:
    """One line per episode, for logs and CI."""

    def __init__(self, stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.total = self.done = self.successes = 0

    def start(self, total: int, resumed: int) -> None:
        self.total, self.done, self.successes = total, 0, 0
        if resumed:
            print(f"{resumed} episodes already done; running {total} more.", file=self.stream)

    def advance(self, result: EpisodeResult) -> None:
        self.done += 1
        self.successes += result.success
        error = f"  {failure_message(result)[:200]}" if result.error is not None else ""
        print(
            f"[{self.done:>{len(str(self.total))}}/{self.total}] {_mark(result)} {_name(result)} "
            f"steps={result.steps} {result.duration:.1f}s{error}",
            file=self.stream,
            flush=True,
        )

    def stop(self) -> None:
        pass


class SteadyTimeRemaining(ProgressColumn):
    """The time left at the run's pace so far. (Rich's own estimate uses the last 30 s only,
    and goes blank whenever no episode ended in them: episodes take longer than that.)"""

    def render(self, task: Task) -> Text:
        if task.finished:
            return Text("0:00:00", style="progress.remaining")
        if not task.completed or task.total is None or not task.elapsed:
            return Text("-:--:--", style="progress.remaining")
        left = task.elapsed * (task.total - task.completed) / task.completed
        return Text(str(timedelta(seconds=round(left))), style="progress.remaining")


class BarProgress:
    """A live progress bar: done/total, success so far, elapsed time and ETA. Episodes that
    end in an error are also printed above the bar."""

    def __init__(
        self,
        stream: TextIO | None = None,
        console: Console | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.console = console or Console(file=stream or sys.stderr)
        self.bar = Progress(
            TextColumn("[bold]eval"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("success {task.fields[successes]}/{task.completed} {task.fields[rate]}"),
            TextColumn("•"),
            TimeElapsedColumn(),
            TextColumn("• ETA"),
            SteadyTimeRemaining(),
            console=self.console,
            get_time=clock,
        )
        self.task = self.bar.add_task("eval", total=0, successes=0, rate="", visible=False)
        self.successes = 0

    def start(self, total: int, resumed: int) -> None:
        if resumed:
            self.console.print(f"{resumed} episodes already done; running {total} more.")
        self.bar.update(self.task, total=total, completed=0, visible=True)
        self.bar.start()

    def advance(self, result: EpisodeResult) -> None:
        self.successes += result.success
        done = self.bar.tasks[0].completed + 1
        if result.error is not None:
            self.bar.console.print(f"ERR {_name(result)}: {failure_message(result)[:200]}")
        self.bar.update(
            self.task,
            advance=1,
            successes=self.successes,
            rate=f"({self.successes / done:.0%})",
        )

    def stop(self) -> None:
        self.bar.stop()


def progress_for(stream: TextIO | None = None) -> EvalProgress:
    """A bar when ``stream`` (stderr by default) is a terminal, else one line per episode."""
    stream = stream or sys.stderr
    return BarProgress(stream) if stream.isatty() else LineProgress(stream)

"""Running an agent over tasks, seeds and perturbation profiles, and writing the results.

The CLI's ``webenv eval`` is a thin shell over :func:`evaluate`. It writes, in ``out_dir``:
``results.jsonl`` (one :class:`EpisodeResult` a line, appended as episodes finish),
``summary.json`` (:func:`webenv.summary.summarise`, plus the agent and the versions of
webenv, Playwright and Chromium), ``junit.xml``, ``report.html``
(:func:`webenv.viewer.report.write_report`) and, when recording, ``episodes/`` with one
episode record per episode (``<task>-<seed>``, ``<task>-<seed>-<profile>`` when perturbed;
each result names its folder in ``record``).

Backends run the episodes. ``local`` runs them in worker processes (:mod:`webenv.workers`),
or in this process with ``workers=0``. ``ray`` is ``webenv.ray.run_episodes``, which takes
the same arguments as :func:`webenv.workers.run_episodes`::

    run_episodes(config, episodes, report, *, workers, episode_timeout) -> dict[str, str]

calling ``report(result)`` in this process for every episode and returning what it learnt
about the run's environment (``{"chromium": version}``).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .agents import check_agent
from .errors import WebEnvError
from .junit import write_junit
from .record import versions
from .rollout import (
    PROFILES,
    RECORD_MODES,
    Episode,
    EpisodeResult,
    EvalConfig,
    run_episode,
)
from .summary import summarise, wilson_interval
from .tasks import TaskTemplate, get_template
from .viewer.report import write_report
from .workers import DEFAULT_EPISODE_TIMEOUT, run_episodes

if TYPE_CHECKING:  # the progress bar's rich is imported only by those who show one
    from .progress import EvalProgress

__all__ = [
    "BACKENDS",
    "DEFAULT_EPISODE_TIMEOUT",
    "PROFILES",
    "RECORD_MODES",
    "Episode",
    "EpisodeResult",
    "EvalConfig",
    "evaluate",
    "plan",
    "read_results",
    "run_episode",
    "summarise",
    "wilson_interval",
    "write_junit",
]

BACKENDS = ("local", "ray")

Backend = Callable[..., dict[str, str]]


def plan(
    templates: Iterable[TaskTemplate], seeds: Sequence[int], profiles: Sequence[str] = ("none",)
) -> list[Episode]:
    """Every (task, seed, profile), grouped by task and profile so that envs are reused."""
    return [
        Episode(template.name, seed, profile)
        for template in templates
        for profile in profiles
        for seed in seeds
    ]


def read_results(path: Path) -> list[EpisodeResult]:
    """The results of a ``results.jsonl``; a line cut short by a crash is skipped."""
    if not path.exists():
        return []
    results = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            result = EpisodeResult.from_dict(json.loads(line))
        except (json.JSONDecodeError, TypeError):
            continue
        if not result.sites:  # written before results named their sites
            with contextlib.suppress(WebEnvError):
                result.sites = list(get_template(result.task).sites)
        results.append(result)
    return results


def backend(name: str) -> Backend:
    """The function that runs episodes for the backend called ``name``."""
    if name == "local":
        return run_episodes
    if name == "ray":
        try:
            module = importlib.import_module("webenv.ray")
        except ImportError as error:
            raise WebEnvError(
                f"The ray backend is not available ({error}). Install it with "
                "pip install 'webenv[ray]', or use --backend local."
            ) from None
        if not hasattr(module, "run_episodes"):
            raise WebEnvError("webenv.ray has no run_episodes(); use --backend local.")
        return module.run_episodes  # type: ignore[no-any-return]
    raise WebEnvError(f"--backend must be one of {', '.join(BACKENDS)}, not {name!r}.")


def evaluate(
    templates: Iterable[TaskTemplate],
    agent: str,
    seeds: Sequence[int],
    out_dir: Path,
    *,
    max_steps: int | None = None,
    observe: Sequence[str] = ("axtree",),
    record: str = "none",
    perturb: str | Sequence[str] = ("none",),
    workers: int = 1,
    backend_name: str = "local",
    episode_timeout: float | None = None,
    resume: bool = False,
    agent_options: Mapping[str, Any] | None = None,
    progress: EvalProgress | None = None,
    on_result: Callable[[EpisodeResult], None] | None = None,
) -> dict[str, Any]:
    """Run ``agent`` on every template, seed and perturbation profile; write the results
    (see the module docstring) and return the summary.

    ``workers``: worker processes (0: run in this process, without protection against a
    crashed or hung episode); ``episode_timeout``: seconds before a running episode is
    stopped and recorded as an error. ``resume``: keep ``out_dir/results.jsonl`` and run only
    the episodes it does not hold; the summary covers them all. Worker processes are
    spawned, so a script that calls this with ``workers >= 1`` needs the usual
    ``if __name__ == "__main__":`` guard.
    """
    if record not in RECORD_MODES:
        raise WebEnvError(f"--record must be one of {', '.join(RECORD_MODES)}, not {record!r}.")
    if workers < 0:
        raise WebEnvError(f"--workers must be 0 (this process) or more, not {workers}.")
    run = backend(backend_name)
    profiles = perturb.split(",") if isinstance(perturb, str) else list(perturb)
    options = dict(agent_options or {})
    check_agent(agent, options)
    started = time.perf_counter()
    out_dir.mkdir(parents=True, exist_ok=True)
    results_path = out_dir / "results.jsonl"
    previous = read_results(results_path) if resume else []
    finished = {result.key for result in previous}
    episodes = [e for e in plan(templates, seeds, profiles) if e.key not in finished]
    config = EvalConfig(
        agent=agent,
        agent_options=options,
        observe=tuple(observe),
        max_steps=max_steps,
        record=record,
        out_dir=out_dir,
    )
    results: list[EpisodeResult] = []
    info: dict[str, str] = {}
    written = results_path.read_bytes() if resume and results_path.exists() else b""
    if written and not written.endswith(b"\n"):
        with results_path.open("a", encoding="utf-8") as lines:
            lines.write("\n")  # end a line cut short by a crash; reading skips it
    with results_path.open("a" if resume else "w", encoding="utf-8") as lines:

        def report(result: EpisodeResult) -> None:
            results.append(result)
            lines.write(json.dumps(asdict(result), ensure_ascii=False, default=str) + "\n")
            lines.flush()
            if progress:
                progress.advance(result)
            if on_result:
                on_result(result)

        if progress:
            progress.start(len(episodes), len(previous))
        try:
            if episodes:
                info = run(
                    config,
                    episodes,
                    report,
                    workers=workers,
                    episode_timeout=episode_timeout or DEFAULT_EPISODE_TIMEOUT,
                )
        finally:
            if progress:
                progress.stop()
    everything = previous + results
    summary = summarise(everything, wall_seconds=time.perf_counter() - started)
    summary["agent"] = agent
    public = {k: v for k, v in options.items() if "key" not in k.lower()}
    if public:
        summary["agent_options"] = public
    summary["resumed"] = len(previous)
    summary["versions"] = {**versions(), "chromium": info.get("chromium", _known_chromium(out_dir))}
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str) + "\n")
    write_junit(everything, out_dir / "junit.xml")
    write_report(out_dir, summary, everything)
    return summary


def _known_chromium(out_dir: Path) -> str:
    """The Chromium version of an earlier summary in ``out_dir`` (when nothing ran now)."""
    try:
        summary = json.loads((out_dir / "summary.json").read_text(encoding="utf-8"))
        return str(summary["versions"]["chromium"])
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"

"""Aggregating episode results into the numbers of ``summary.json``.

Pure functions of :class:`~webenv.rollout.EpisodeResult` lists, so that any backend, a
resumed run and a test with made-up results all summarise the same way.

- ``by_task``, ``by_site``: episodes, successes and success rate of each. A cross-site
  workflow counts once for *each* site it touches, so a site's row answers "how does the
  agent do on tasks that use this site"; the rows of ``by_site`` may add up to more
  episodes than the run has.
- ``by_perturbation``: the same per profile; for a perturbed profile, ``paired`` compares it
  with the clean episodes of the same tasks and seeds only (pairs present in both).
- ``perturbations``: per event kind (``popup.newsletter``…), the episodes where it was
  shown, how often the agent clicked it when shown (distraction rate), and how many steps
  it took to recover (a ``recovered`` event's step minus the step it was shown).
- ``stale``: outdated information (the ``stale.*`` kinds): the episodes that showed a stale
  value, those where the agent acted on one (a ``used`` event: an answer or a form post that
  states it), the rate, and the same per kind. Clean against stale success on the same tasks
  and seeds is ``by_perturbation["stale"]["paired"]`` (a run of ``--perturb none,stale``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from .rollout import EpisodeResult


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a success rate (Wilson score)."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(results: Sequence[EpisodeResult]) -> dict[str, Any]:
    successes = sum(r.success for r in results)
    return {
        "episodes": len(results),
        "successes": successes,
        "success_rate": successes / len(results) if results else 0.0,
    }


def _grouped(pairs: Iterable[tuple[str, EpisodeResult]]) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[EpisodeResult]] = {}
    for name, result in pairs:
        groups.setdefault(name, []).append(result)
    return {name: _rate(members) for name, members in sorted(groups.items())}


def by_perturbation(results: Sequence[EpisodeResult]) -> dict[str, dict[str, Any]]:
    """Success per profile; perturbed profiles also ``paired`` with the clean episodes of the
    same (task, seed)."""
    table = _grouped((r.perturb, r) for r in results)
    clean = {(r.task, r.seed): r for r in results if r.perturb == "none"}
    for profile, entry in table.items():
        if profile == "none":
            continue
        pairs = [
            (clean[(r.task, r.seed)], r)
            for r in results
            if r.perturb == profile and (r.task, r.seed) in clean
        ]
        clean_rate = _rate([c for c, _ in pairs])["success_rate"]
        perturbed_rate = _rate([p for _, p in pairs])["success_rate"]
        entry["paired"] = {
            "episodes": len(pairs),
            "clean_success_rate": clean_rate,
            "perturbed_success_rate": perturbed_rate,
            "change": perturbed_rate - clean_rate,
        }
    return table


def perturbation_events(results: Sequence[EpisodeResult]) -> dict[str, dict[str, Any]]:
    """Per event kind: ``episodes_shown``, counts of each ``what``, ``distraction_rate``
    (clicked / shown) and ``mean_recovery_steps`` (None when nothing recovered)."""
    kinds: dict[str, dict[str, Any]] = {}
    recoveries: dict[str, list[int]] = {}
    for result in results:
        shown_at: dict[str, int] = {}  # kind → step of its latest "shown" in this episode
        seen: set[str] = set()
        for event in result.events:
            kind, what, step = event.get("kind"), event.get("what"), event.get("step", 0)
            if not isinstance(kind, str) or not isinstance(what, str):
                continue
            entry = kinds.setdefault(
                kind,
                {"episodes_shown": 0, "shown": 0, "dismissed": 0, "clicked": 0, "recovered": 0},
            )
            entry[what] = entry.get(what, 0) + 1
            if what == "shown":
                shown_at[kind] = step
                if kind not in seen:
                    seen.add(kind)
                    entry["episodes_shown"] += 1
            elif what == "recovered" and kind in shown_at:
                recoveries.setdefault(kind, []).append(step - shown_at[kind])
    for kind, entry in kinds.items():
        entry["distraction_rate"] = entry["clicked"] / entry["shown"] if entry["shown"] else None
        steps = recoveries.get(kind, [])
        entry["mean_recovery_steps"] = sum(steps) / len(steps) if steps else None
    return dict(sorted(kinds.items()))


#: The prefix of the outdated-information kinds.
STALE_FAMILY = "stale."


def stale_use(results: Sequence[EpisodeResult]) -> dict[str, Any]:
    """How often the agent acted on outdated information: ``episodes_shown`` (a stale value
    was on a page it loaded), ``episodes_used`` (it answered with one, or posted one in a
    form), ``used_rate`` (used / shown, None when none was shown), and ``by_kind``."""
    shown: dict[str, set[int]] = {}
    used: dict[str, set[int]] = {}
    for index, result in enumerate(results):
        for event in result.events:
            kind = event.get("kind")
            if not isinstance(kind, str) or not kind.startswith(STALE_FAMILY):
                continue
            if event.get("what") == "shown":
                shown.setdefault(kind, set()).add(index)
            elif event.get("what") == "used":
                used.setdefault(kind, set()).add(index)

    def entry(showing: set[int], using: set[int]) -> dict[str, Any]:
        return {
            "episodes_shown": len(showing),
            "episodes_used": len(using),
            "used_rate": len(using) / len(showing) if showing else None,
        }

    everywhere = set().union(*shown.values()) if shown else set()
    acted = set().union(*used.values()) if used else set()
    return {
        **entry(everywhere, acted),
        "by_kind": {
            kind: entry(shown.get(kind, set()), used.get(kind, set()))
            for kind in sorted(set(shown) | set(used))
        },
    }


def summarise(
    results: Sequence[EpisodeResult], *, wall_seconds: float | None = None
) -> dict[str, Any]:
    """The summary of ``results`` (see the module's docstring); ``wall_seconds`` is the
    run's wall-clock time, when known."""
    overall = _rate(results)
    seconds = sum(r.duration for r in results)
    return {
        **overall,
        "success_rate_95ci": wilson_interval(overall["successes"], len(results)),
        "errors": sum(r.error is not None for r in results),
        "mean_steps": sum(r.steps for r in results) / len(results) if results else 0.0,
        "by_task": _grouped((r.task, r) for r in results),
        "by_site": _grouped((site, r) for r in results for site in dict.fromkeys(r.sites)),
        "by_perturbation": by_perturbation(results),
        "perturbations": perturbation_events(results),
        "stale": stale_use(results),
        "timing": {
            "wall_seconds": wall_seconds,
            "episode_seconds": seconds,
            "mean_episode_seconds": seconds / len(results) if results else 0.0,
        },
    }

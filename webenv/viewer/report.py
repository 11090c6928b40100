"""``report.html``: a run's summary as one self-contained page (no external assets).

Overall success with its 95% interval; tables by task, by site and by perturbation profile
(perturbed against clean on the same tasks and seeds); the perturbation events; every failure
with its check breakdown; and every episode, each linking to its replay when it was recorded.
The page carries the viewer's stylesheet inline, so it opens from ``file://`` or a CI
system's artifact store. Written next to ``summary.json``, its links go to the episode
folders; served by ``webenv view`` (or exported by it), they go to the viewer's replay pages.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..summary import wilson_interval
from .pages import ENV, STATIC
from .run import result_name

#: The link of an episode's replay from its folder's name; None when there is none.
ReplayLink = Callable[[str], str | None]


def write_report(out_dir: str | Path, summary: dict[str, Any], results: Iterable[Any]) -> Path:
    """Write ``out_dir/report.html`` from a run's summary and its results; return its path.

    ``results`` are :class:`webenv.runner.EpisodeResult` objects or the dicts of
    ``results.jsonl``. Episodes link to their record folders under ``out_dir``.
    """
    out_dir = Path(out_dir)

    def folder(name: str) -> str | None:
        return f"episodes/{name}/" if (out_dir / "episodes" / name).is_dir() else None

    page = render_report(summary, results, title=f"webenv run: {out_dir.name}", replay=folder)
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def render_report(
    summary: dict[str, Any], results: Iterable[Any], *, title: str, replay: ReplayLink
) -> str:
    """The report page; ``replay`` gives each recorded episode's link."""
    rows = [_as_dict(result) for result in results]
    for row in rows:
        row["name"] = result_name(row)
        row["replay"] = replay(row["name"])

    def with_interval(table: dict[str, dict[str, Any]], key: str) -> list[dict[str, Any]]:
        found = []
        for name, entry in sorted(table.items()):
            low, high = wilson_interval(entry["successes"], entry["episodes"])
            found.append({key: name, **entry, "low": low, "high": high})
        return found

    return ENV.get_template("report.html").render(
        summary=summary,
        tasks=with_interval(summary.get("by_task", {}), "task"),
        sites=with_interval(summary.get("by_site", {}), "site"),
        profiles=with_interval(summary.get("by_perturbation", {}), "profile"),
        events=sorted((summary.get("perturbations") or {}).items()),
        failures=[row for row in rows if not row.get("success")],
        episodes=rows,
        title=title,
        css=(STATIC / "webenv.css").read_text(encoding="utf-8"),
    )


def _as_dict(result: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return dataclasses.asdict(result)
    return dict(result)

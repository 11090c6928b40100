"""``report.html``: a run's summary as one self-contained page (no external assets).

Overall success with its 95% interval, a table per task, and every failure with its check
breakdown, linking to the episode's record folder when the run kept one. It is written
next to ``summary.json`` and opens from ``file://`` or a CI system's artifact store.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .pages import ENV


def write_report(out_dir: str | Path, summary: dict[str, Any], results: Iterable[Any]) -> Path:
    """Write ``out_dir/report.html`` from a run's summary and its results; return its path.

    ``results`` are :class:`webenv.runner.EpisodeResult` objects or the dicts of
    ``results.jsonl``.
    """
    from ..runner import wilson_interval  # here: the runner imports this module

    out_dir = Path(out_dir)
    rows = [_as_dict(result) for result in results]
    tasks = []
    for task, entry in sorted(summary.get("by_task", {}).items()):
        low, high = wilson_interval(entry["successes"], entry["episodes"])
        tasks.append({"task": task, **entry, "low": low, "high": high})
    failures = []
    for row in rows:
        if row.get("success"):
            continue
        name = f"{row.get('task')}-{row.get('seed')}"
        record = out_dir / "episodes" / name
        failures.append({**row, "record": f"episodes/{name}/" if record.is_dir() else None})
    page = ENV.get_template("report.html").render(
        summary=summary, tasks=tasks, failures=failures, title=f"webenv run: {out_dir.name}"
    )
    path = out_dir / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def _as_dict(result: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return dataclasses.asdict(result)
    return dict(result)

"""A run folder as the viewer sees it: its summary, its results and its episode records.

A run folder is what ``webenv eval --out DIR`` writes: ``summary.json``, ``results.jsonl``
and, with ``--record``, ``episodes/<task>-<seed>/``. A folder of episode records alone (what
:class:`webenv.record.RecordEpisode` writes) is a run too. Records are read only through
:func:`webenv.record.read_episode`; a record cut short by a crash is listed as incomplete,
and one that cannot be read at all is listed with the reason, so that one bad folder never
hides the others.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import WebEnvError
from ..record import read_episode
from ..tasks import get_template

#: Outcomes of an episode, in the order the list offers them as filters.
OUTCOMES = ("success", "failure", "error", "incomplete", "unreadable")


@dataclass
class EpisodeRow:
    """One line of the episode list."""

    name: str
    task: str
    seed: int | None
    outcome: str
    sites: list[str] = field(default_factory=list)
    reward: float | None = None
    steps: int | None = None
    profile: str = "none"
    problem: str = ""
    recorded: bool = True
    #: Who acted: "" for an agent, "human" for a person's demonstration (``webenv play``).
    agent: str = ""


class Run:
    """The files of one run folder, read on demand (the viewer shows a run as it grows)."""

    def __init__(self, folder: str | Path):
        # Absolute: Flask resolves a relative folder against its package, not the working one.
        self.folder = Path(folder).resolve()
        if not self.folder.is_dir():
            raise WebEnvError(f"No folder {self.folder}; give the --out folder of `webenv eval`.")
        nested = self.folder / "episodes"
        self.episodes_dir = nested if nested.is_dir() else self.folder
        if not (self.episode_names() or self.results() or self.summary()):
            raise WebEnvError(
                f"{self.folder} holds no run: no summary.json, results.jsonl or episode records. "
                "Write one with `webenv eval --record screenshots --out DIR`."
            )

    def summary(self) -> dict[str, Any] | None:
        """``summary.json``, or None when the run has none (yet)."""
        try:
            data = json.loads((self.folder / "summary.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def results(self) -> list[dict[str, Any]]:
        """The lines of ``results.jsonl`` (complete lines only: the run may still be writing)."""
        try:
            text = (self.folder / "results.jsonl").read_text(encoding="utf-8")
        except OSError:
            return []
        results = []
        for line in text.splitlines():
            try:
                results.append(json.loads(line))
            except ValueError:
                break
        return results

    def episode_names(self) -> list[str]:
        """Names of the episode folders, sorted."""
        return sorted(
            path.name for path in self.episodes_dir.iterdir() if (path / "episode.json").is_file()
        )

    def episode_path(self, name: str) -> Path:
        """The folder of episode ``name``; KeyError if the run has no such episode."""
        folder = self.episodes_dir / name
        if name != Path(name).name or name in ("", ".", "..") or not folder.is_dir():
            raise KeyError(name)
        if not (folder / "episode.json").is_file():
            raise KeyError(name)
        return folder

    def episode(self, name: str) -> dict[str, Any]:
        """The record of episode ``name`` (see :func:`webenv.record.read_episode`)."""
        return read_episode(self.episode_path(name))

    def rows(self) -> list[EpisodeRow]:
        """Every episode of the run: the recorded ones, then results that have no record."""
        rows = [self._row(name) for name in self.episode_names()]
        seen = {row.name for row in rows}
        for result in self.results():
            name = result_name(result)
            if name not in seen:
                seen.add(name)
                rows.append(_result_row(name, result))
        rows.sort(key=lambda row: (row.task, row.seed if row.seed is not None else -1, row.name))
        return rows

    def _row(self, name: str) -> EpisodeRow:
        try:
            episode = read_episode(self.episodes_dir / name)
        except (OSError, ValueError, TypeError, AttributeError) as error:
            return EpisodeRow(name, name.rpartition("-")[0] or name, None, "unreadable",
                              problem=f"{type(error).__name__}: {error}")  # fmt: skip
        return episode_row(name, episode)


def result_name(result: dict[str, Any]) -> str:
    """The episode folder's name of a line of ``results.jsonl``: its record's, else
    ``<task>-<seed>``, with ``-<profile>`` when perturbed (as the runner names records)."""
    if result.get("record"):
        return Path(str(result["record"])).name
    perturb = result.get("perturb") or "none"
    suffix = f"-{perturb}" if perturb != "none" else ""
    return f"{result.get('task')}-{result.get('seed')}{suffix}"


def episode_outcome(episode: dict[str, Any]) -> tuple[str, str]:
    """``(outcome, problem)`` of an episode record."""
    status = episode.get("status")
    if status != "complete":
        steps = len(episode.get("step_records", []))
        return "incomplete", f"status {status!r}: the record stops after step {steps}"
    if episode.get("error"):
        return "error", str(episode["error"])
    return ("success" if episode.get("success") else "failure"), ""


def episode_row(name: str, episode: dict[str, Any]) -> EpisodeRow:
    """The list row of a readable episode record."""
    task = episode.get("task") or {}
    outcome, problem = episode_outcome(episode)
    return EpisodeRow(
        name=name,
        task=str(task.get("id", name)),
        seed=episode.get("seed"),
        outcome=outcome,
        sites=list(episode.get("sites") or [task.get("start_site", "")]),
        reward=episode.get("reward"),
        steps=len(episode.get("step_records", [])),
        profile=_profile(episode.get("perturbations")),
        problem=problem,
        agent=str(episode.get("agent") or ""),
    )


def _profile(perturbations: Any) -> str:
    """The perturbation profile's name from a record's ``perturbations`` (a dict or a name)."""
    if isinstance(perturbations, dict):
        perturbations = perturbations.get("profile")
    return str(perturbations) if perturbations else "none"


def _template_sites(task: str) -> list[str]:
    """The sites of a task template, for results without a record (empty if it is unknown)."""
    try:
        return list(get_template(task).sites)
    except WebEnvError:
        return []


def _result_row(name: str, result: dict[str, Any]) -> EpisodeRow:
    error = result.get("error")
    outcome = "error" if error else ("success" if result.get("success") else "failure")
    return EpisodeRow(
        name=name,
        task=str(result.get("task", "")),
        seed=result.get("seed"),
        outcome=outcome,
        sites=_template_sites(str(result.get("task", ""))),
        reward=result.get("reward"),
        steps=result.get("steps"),
        profile=_profile(result.get("perturbations")),
        problem=str(error or ""),
        recorded=False,
    )

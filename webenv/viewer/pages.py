"""The viewer's pages, rendered the same way for the live app and for a static export.

Only the links differ: the app links to its routes (``/episode/<name>?step=N``), the export
to relative file paths that work from ``file://``. Templates receive a :class:`Links` and
never build a URL themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape

from .run import OUTCOMES, Run, episode_outcome
from .steps import step_view

TEMPLATES = Path(__file__).parent / "templates"
STATIC = Path(__file__).parent / "static"

ENV = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def plural(count: int, noun: str) -> str:
    """``1 step``, ``2 steps`` (a filter of the templates: ``{{ n|plural("step") }}``)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


ENV.filters["plural"] = plural


class Links(Protocol):
    def index(self) -> str: ...
    def step(self, name: str, index: int) -> str: ...
    def file(self, name: str, ref: str) -> str: ...
    def static(self, file: str) -> str: ...
    def report(self) -> str: ...


class ServerLinks:
    """Links to the app's routes."""

    def index(self) -> str:
        return "/"

    def step(self, name: str, index: int) -> str:
        return f"/episode/{quote(name)}?step={index}"

    def file(self, name: str, ref: str) -> str:
        return f"/episode/{quote(name)}/{quote(ref)}"

    def static(self, file: str) -> str:
        return f"/static/{quote(file)}"

    def report(self) -> str:
        return "/report.html"


class ExportLinks:
    """Relative links between the files of an export, from a page ``depth`` folders deep."""

    def __init__(self, depth: int):
        self.root = "../" * depth

    def index(self) -> str:
        return f"{self.root}index.html"

    def step(self, name: str, index: int) -> str:
        return f"{self.root}episodes/{quote(name)}/step-{index}.html"

    def file(self, name: str, ref: str) -> str:
        return f"{self.root}episodes/{quote(name)}/{quote(ref)}"

    def static(self, file: str) -> str:
        return f"{self.root}static/{quote(file)}"

    def report(self) -> str:
        return f"{self.root}report.html"


def render_index(run: Run, links: Links) -> str:
    """The list of the run's episodes, with the run's summary."""
    rows = run.rows()
    return ENV.get_template("index.html").render(
        links=links,
        folder=str(run.folder),
        summary=run.summary(),
        rows=rows,
        outcomes=[o for o in OUTCOMES if any(row.outcome == o for row in rows)],
        sites=sorted({site for row in rows for site in row.sites if site}),
        profiles=sorted({row.profile for row in rows}),
        has_report=run.summary() is not None,
    )


def render_step(run: Run, name: str, episode: dict[str, Any], index: int, links: Links) -> str:
    """Step ``index`` of episode ``name`` (whose record is ``episode``)."""
    folder = run.episode_path(name)
    outcome, problem = episode_outcome(episode)
    records = episode.get("step_records", [])
    perturbations = episode.get("perturbations") or {}
    lists = [episode.get("start_events")] + [line.get("events") for line in records]
    events = [
        (number, event)
        for number, found in enumerate(lists)
        for event in found or []
        if isinstance(event, dict)
    ]
    return ENV.get_template("episode.html").render(
        links=links,
        name=name,
        episode=episode,
        outcome=outcome,
        problem=problem,
        records=records,
        step=step_view(episode, folder, index),
        check=(episode.get("check") or {}).get("conditions") or [],
        profile=perturbations.get("profile", "none") if isinstance(perturbations, dict) else "",
        plan=perturbations.get("plan") or [] if isinstance(perturbations, dict) else [],
        events=events,
    )

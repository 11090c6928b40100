"""One step of a recorded episode, ready to show: screenshots, the action drawn, text diffs.

Step 0 is the page after the reset; step *n* is the *n*-th action. A step is shown on the
page it acted on (the previous step's screenshot, with its targets boxed and its mouse
coordinates marked) next to the page it led to, and the observation text it led to is
diffed line by line against the one before, so that what the action changed stands out.
"""

from __future__ import annotations

import difflib
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from .. import actions
from ..errors import ActionError
from ..record import read_observation

#: Actions with page coordinates, drawn as a marker.
MOUSE_ACTIONS = ("mouse_click", "mouse_dblclick", "mouse_move", "mouse_down", "mouse_up")
#: Diff lines shown before the rest is cut (a navigation can change every line of a page).
MAX_DIFF_LINES = 1500


@dataclass
class Shape:
    """A box (``w`` and ``h`` > 0) or a point marker (``w == h == 0``) on a screenshot."""

    x: float
    y: float
    w: float
    h: float
    label: str

    @property
    def is_box(self) -> bool:
        return self.w > 0 or self.h > 0


@dataclass
class DiffLine:
    kind: str  # "add", "del", "ctx" or "hunk"
    text: str


@dataclass
class TextPanel:
    """The axtree or DOM of a step, with its diff against the previous step's."""

    key: str
    title: str
    text: str
    diff: list[DiffLine] | None  # None: nothing to compare with
    cut: int = 0  # diff lines left out


@dataclass
class Screenshot:
    ref: str  # path inside the episode folder
    width: int
    height: int


@dataclass
class StepView:
    index: int
    count: int  # actions in the record
    action: str = ""
    error: str = ""
    url: str = ""
    reward: float | None = None
    ended: str = ""
    seconds: float | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    before: Screenshot | None = None
    after: Screenshot | None = None
    shapes: list[Shape] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    panels: list[TextPanel] = field(default_factory=list)


def step_view(episode: dict[str, Any], folder: Path, index: int) -> StepView:
    """Step ``index`` (0 to the number of recorded actions) of ``episode`` at ``folder``."""
    records = episode.get("step_records", [])
    if not 0 <= index <= len(records):
        raise IndexError(f"step {index} is not in 0–{len(records)}")
    view = StepView(index=index, count=len(records))
    current = _state(episode, folder, index)
    view.after = _screenshot(folder, current["screenshot"])
    previous_text: dict[str, str] | None = None
    if index == 0:
        view.url = str(episode.get("start_url", ""))
        view.events = _events(episode.get("start_events"))
    else:
        line = records[index - 1]
        previous = _state(episode, folder, index - 1)
        previous_text = read_observation(folder, previous["obs"])
        view.action = str(line.get("action", ""))
        view.error = str(line.get("error") or "")
        view.url = str(line.get("url", ""))
        view.reward = line.get("reward")
        view.ended = next((key for key in ("terminated", "truncated") if line.get(key)), "")
        view.seconds = line.get("seconds")
        view.events = _events(line.get("events"))
        view.before = _screenshot(folder, previous["screenshot"])
        view.shapes, view.notes = _overlay(view.action, line.get("targets") or [], view.before)
    view.panels = _panels(read_observation(folder, current["obs"]), previous_text)
    return view


def _events(events: Any) -> list[dict[str, Any]]:
    """Perturbation events, as recorded (a list of dicts), skipping anything else."""
    return [event for event in events or [] if isinstance(event, dict)]


def _state(episode: dict[str, Any], folder: Path, index: int) -> dict[str, str | None]:
    """The screenshot and observation files of the page after step ``index``."""
    if index == 0:
        shot = episode.get("start_screenshot")
        if shot is None and (folder / "screenshots" / "0000.png").is_file():
            shot = "screenshots/0000.png"  # records from before start_screenshot was written
        return {"screenshot": shot, "obs": episode.get("start_obs")}
    line = episode["step_records"][index - 1]
    return {"screenshot": line.get("screenshot"), "obs": line.get("obs")}


def _screenshot(folder: Path, ref: str | None) -> Screenshot | None:
    if not ref:
        return None
    try:
        with Image.open(folder / ref) as image:
            width, height = image.size
    except (OSError, ValueError):
        return None  # missing or cut short: shown as absent rather than broken
    return Screenshot(ref, width, height)


def _overlay(
    action: str, targets: list[dict[str, Any]], shot: Screenshot | None
) -> tuple[list[Shape], list[str]]:
    """Shapes to draw for ``action`` and notes on what could not be drawn."""
    shapes, notes = [], []
    try:
        calls = actions.parse(action)
    except ActionError:
        calls = []
    for call in calls:
        if call.name in MOUSE_ACTIONS:
            at_x, at_y = float(call.args["x"]), float(call.args["y"])
            shapes.append(Shape(at_x, at_y, 0, 0, f"{call.name}({at_x:g}, {at_y:g})"))
    # One box per element, naming every call on it: fill("8", …) then press("8", "Enter").
    names: dict[str, list[str]] = {}
    boxes: dict[str, Any] = {}
    for target in targets:
        bid = str(target.get("id"))
        names.setdefault(bid, []).append(str(target.get("action", "target")))
        boxes[bid] = boxes.get(bid) or target.get("box")
    for bid, called in names.items():
        label = f"{', '.join(dict.fromkeys(called))} [{bid}]"
        box = boxes[bid]
        if not box or len(box) != 4:
            notes.append(f"{label}: no box recorded (the element was not found or not shown).")
            continue
        x, y, width, height = (float(v) for v in box)
        shape = Shape(x, y, width, height, label)
        if shot and not _overlaps(shape, shot):
            notes.append(f"{label} lies outside the screenshot, at x={shape.x:g}, y={shape.y:g}.")
        shapes.append(shape)
    return shapes, notes


def _overlaps(shape: Shape, shot: Screenshot) -> bool:
    return (
        shape.x + shape.w >= 0
        and shape.y + shape.h >= 0
        and shape.x <= shot.width
        and shape.y <= shot.height
    )


def _panels(current: dict[str, str], previous: dict[str, str] | None) -> list[TextPanel]:
    panels = []
    for key, title, split in (
        ("axtree", "Accessibility tree", str.splitlines),
        ("dom", "DOM", dom_lines),
    ):
        if key not in current and not (previous and key in previous):
            continue
        text = current.get(key, "")
        lines = split(text)
        panel = TextPanel(key, title, "\n".join(lines), diff=None)
        if previous is not None:
            diff = diff_lines(split(previous.get(key, "")), lines)
            panel.diff, panel.cut = diff[:MAX_DIFF_LINES], max(0, len(diff) - MAX_DIFF_LINES)
        panels.append(panel)
    return panels


def dom_lines(dom: str) -> list[str]:
    """The pruned DOM (one long line) as one tag per line, so that a line diff means something."""
    return [line for line in re.split(r"(?=<[A-Za-z/!])", dom) if line.strip()]


def diff_lines(before: list[str], after: list[str]) -> list[DiffLine]:
    """A unified line diff (3 lines of context), without the file header; empty if equal."""
    lines = []
    for text in itertools.islice(difflib.unified_diff(before, after, lineterm="", n=3), 2, None):
        kind = {"@": "hunk", "+": "add", "-": "del"}.get(text[:1], "ctx")
        lines.append(DiffLine(kind, text))
    return lines

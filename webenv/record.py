"""The episode record: one folder per episode, written step by step, read by everything else.

``episode.json`` holds the task (with its parameters), seed, versions, the full perturbation
plan, outcome and check breakdown; ``steps.jsonl`` one line per step (its perturbation events
in full); ``screenshots/`` a PNG per step when asked; ``obs/`` the observation's
``axtree`` and ``dom`` text per step (gzipped JSON, kept out of ``steps.jsonl`` so that its
lines stay small). Step 0 is the page after the reset (``start_screenshot``, ``start_obs``
and the perturbation events of the reset, ``start_events``, in ``episode.json``); step *n*
is the page after the *n*-th action. Every write is atomic (a
rename, or an appended and flushed line), so an episode cut short by a crash is still
readable, and says ``"status": "running"``.

With screenshots, each step line also names the ``targets`` of its action: the element ids
it acts on and their boxes ``[x, y, width, height]`` in viewport pixels on the page the
action was taken on (the previous step's screenshot), so that a viewer can draw them. The
boxes come from the previous observation's ``elements`` when the env observes them (exactly
what the agent saw), else (and for elements that list lacks, such as those in frames) from
the page itself just before the action runs.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import textwrap
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image, ImageDraw
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from . import actions
from .env import unwrap
from .errors import ActionError
from .trusted import grader_view

#: Version of the record format; readers refuse records from the future.
SCHEMA_VERSION = 1
#: Observation text kept per step in ``obs/``.
TEXT_KEYS = ("axtree", "dom")
#: Action arguments that name an element.
TARGET_ARGS = ("bid", "from_bid", "to_bid")


def versions() -> dict[str, str]:
    """Versions of what shapes an episode, for the record."""
    found = {}
    for package in ("webenv", "playwright", "gymnasium", "flask"):
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "unknown"
    return found


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` atomically (readers never see half a file)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    # An agent's text may hold lone surrogates, which UTF-8 cannot encode: they are written
    # as JSON's \uXXXX escapes, which read back to the same string.
    with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as out:
        json.dump(data, out, indent=1, ensure_ascii=False, default=str)
    os.replace(tmp, path)


def write_gzip_json(path: Path, data: Any) -> None:
    """Write ``data`` as gzipped JSON to ``path`` atomically."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
        out.write(json.dumps(data, ensure_ascii=False).encode("utf-8", "backslashreplace"))
    os.replace(tmp, path)


class RecordEpisode(gym.Wrapper[Any, Any, Any, Any]):
    """Records every episode of ``env`` into ``folder/<task>-<seed>/``.

    ``screenshots``: also save the viewport after the reset and after every step.
    ``suffix`` is added to each folder's name (``-heavy`` keeps a perturbed episode's record
    apart from the clean one of the same task and seed). ``extra`` fields are merged into every
    episode's ``episode.json`` (e.g. ``{"agent": "human"}`` marks a person's demonstration).
    """

    def __init__(
        self,
        env: gym.Env[Any, Any],
        folder: str | Path,
        screenshots: bool = False,
        suffix: str = "",
        extra: dict[str, Any] | None = None,
    ):
        super().__init__(env)
        self.folder = Path(folder)
        self.suffix = suffix
        self.extra = dict(extra or {})
        self.screenshots = screenshots
        self.path: Path | None = None
        #: The file of the last screenshot saved (None before the first, or without screenshots).
        self.last_screenshot: Path | None = None
        #: The last screenshot that is the page itself (none drawn with a dialog over it).
        self._last_page: Path | None = None
        self._episode: dict[str, Any] = {}
        self._steps = 0
        self._started = 0.0
        #: Element boxes of the last observation, by id (empty: ``elements`` not observed).
        self._boxes: dict[str, list[float]] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._close_episode("interrupted")
        observation, info = self.env.reset(seed=seed, options=options)
        trusted = grader_view(self.env)  # the record is trusted: it keeps what info leaves out
        task = trusted.task.to_dict()
        self.path = self.folder / f"{task['id']}-{info['seed']}{self.suffix}"
        (self.path / "screenshots").mkdir(parents=True, exist_ok=True)
        (self.path / "steps.jsonl").write_text("")
        self._started = time.perf_counter()
        self._steps = 0
        self._episode = {
            "schema": SCHEMA_VERSION,
            "env_id": self.env.spec.id if self.env.spec else None,
            "task": task,
            "sites": list(unwrap(self.env).template.sites),
            "seed": info["seed"],
            "perturbations": trusted.perturbations,
            "start_events": trusted.events,
            "versions": versions(),
            "status": "running",
            "start_url": observation["url"],
            "steps": 0,
            "reward": 0.0,
            "success": False,
            "check": None,
            "timings": {"reset": unwrap(self.env).timings.get("reset")},
            "start_screenshot": self._screenshot(observation, 0),
            "start_obs": self._text(observation, 0),
            **self.extra,
        }
        self._boxes = _boxes(observation)
        write_json(self.path / "episode.json", self._episode)
        return observation, info

    def step(self, action: Any):
        targets = self._targets(action) if self.screenshots else []
        observation, reward, terminated, truncated, info = self.env.step(action)
        trusted = grader_view(self.env)
        self._steps += 1
        self._boxes = _boxes(observation)
        line = {
            "step": self._steps,
            "action": action if isinstance(action, str) else repr(action),
            "error": observation.get("last_action_error", ""),
            "url": observation.get("url", ""),
            "reward": reward,
            "terminated": terminated,
            "truncated": truncated,
            "events": trusted.events,
            "seconds": unwrap(self.env).timings.get("step"),
            "screenshot": self._screenshot(observation, self._steps),
            "obs": self._text(observation, self._steps),
            "targets": targets,
        }
        assert self.path is not None
        with (self.path / "steps.jsonl").open(
            "a", encoding="utf-8", errors="backslashreplace"
        ) as steps:
            steps.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
            steps.flush()
        self._episode.update(steps=self._steps, reward=reward, check=trusted.check)
        if terminated or truncated:
            self._episode["success"] = bool(info.get("success"))
            self._episode["error"] = info.get("error")
            self._close_episode("complete")
        else:
            write_json(self.path / "episode.json", self._episode)
        return observation, reward, terminated, truncated, info

    def close(self) -> None:
        self._close_episode("interrupted")
        super().close()

    def _close_episode(self, status: str) -> None:
        if self.path is None or self._episode.get("status") != "running":
            return
        self._episode["status"] = status
        self._episode["timings"]["total"] = time.perf_counter() - self._started
        write_json(self.path / "episode.json", self._episode)

    def _screenshot(self, observation: dict[str, Any], step: int) -> str | None:
        if not self.screenshots or self.path is None:
            return None
        name = f"screenshots/{step:04d}.png"
        dialog = observation.get("dialog") or ""
        if dialog:
            image = self._behind_dialog(dialog)
        else:
            pixels = observation.get("screenshot")
            if pixels is None:
                pixels = unwrap(self.env).screenshot()
            if pixels is None:
                return None
            image = Image.fromarray(np.asarray(pixels))
            self._last_page = self.path / name
        self.last_screenshot = self.path / name
        image.save(self.last_screenshot, optimize=False)
        return name

    def _behind_dialog(self, dialog: str) -> Image.Image:
        """The step's picture while a JavaScript dialog is open. Chromium captures no page
        whose dialog is open (the capture waits for the dialog), and the env's observation
        holds a blank one: so the page as last captured, with the dialog drawn over it."""
        if self._last_page is not None and self._last_page.exists():
            with Image.open(self._last_page) as last:
                page = last.convert("RGB")
        else:
            size = getattr(self.env.unwrapped, "viewport", (1280, 720))
            page = Image.new("RGB", tuple(size), "white")
        return draw_dialog(page, dialog)

    def _text(self, observation: dict[str, Any], step: int) -> str | None:
        """Save the observation's axtree and DOM text, if it has any; return the file's name."""
        text = {key: observation[key] for key in TEXT_KEYS if observation.get(key)}
        if not text or self.path is None:
            return None
        name = f"obs/{step:04d}.json.gz"
        (self.path / "obs").mkdir(exist_ok=True)
        write_gzip_json(self.path / name, text)
        return name

    def _targets(self, action: Any) -> list[dict[str, Any]]:
        """The elements ``action`` acts on, with their boxes on the page as it is now."""
        try:
            calls = actions.parse(action)
        except ActionError:
            return []
        targets = []
        for index, call in enumerate(calls):
            for arg in TARGET_ARGS:
                bid = call.args.get(arg)
                if isinstance(bid, str):
                    box = self._boxes.get(bid) or self._page_box(bid)
                    targets.append({"call": index, "action": call.name, "id": bid, "box": box})
        return targets

    def _page_box(self, bid: str) -> list[float] | None:
        """The box of element ``bid`` in the episode's page (None when it has none)."""
        session = getattr(self.env.unwrapped, "_session", None)
        if session is None or session.dialog is not None:
            return None  # an open dialog holds the page: asking it would wait for the dialog
        return element_box(session.page, bid)


def draw_dialog(page: Image.Image, dialog: str) -> Image.Image:
    """``page`` with a JavaScript dialog (``"confirm: Leave this page?"``) drawn at its top,
    where Chromium shows one: the page dimmed, a box with the message and the dialog's type."""
    kind, _, message = dialog.partition(": ")
    shown = Image.blend(page, Image.new("RGB", page.size, "black"), 0.25)
    draw = ImageDraw.Draw(shown)
    width = min(460, page.width - 20)
    left = (page.width - width) // 2
    lines = textwrap.wrap(message, 60)[:8] or [""]
    bottom = 24 + 18 * len(lines) + 40
    draw.rectangle((left, 8, left + width, 8 + bottom), fill="white", outline="#888")
    for index, line in enumerate(lines):
        draw.text((left + 16, 24 + 18 * index), line, fill="black")
    draw.text((left + 16, 8 + bottom - 28), f"[{kind or 'dialog'}]", fill="#555")
    return shown


def element_box(page: Page, bid: str) -> list[float] | None:
    """The box ``[x, y, width, height]`` (viewport pixels) of element ``bid`` in ``page``.

    None when the page has no such element, it has no box (hidden), or the page went away.
    """
    if not bid.isdigit():
        return None
    selector = f'[data-webenv-id="{bid}"]'
    try:
        # As actions find their element: the main frame first, then same-origin frames.
        for frame in page.frames:
            locator = frame.locator(selector)
            if locator.count():
                box = locator.first.bounding_box(timeout=1000)
                if box is None:
                    return None
                return [round(box[key], 1) for key in ("x", "y", "width", "height")]
    except PlaywrightError:
        return None
    return None


def _boxes(observation: dict[str, Any]) -> dict[str, list[float]]:
    """Element boxes by id from an ``elements`` observation (empty when it has none)."""
    text = observation.get("elements")
    if not isinstance(text, str):
        return {}
    try:
        return {
            str(e["id"]): [round(float(v), 1) for v in e["box"]]
            for e in json.loads(text)
            if e.get("box")
        }
    except (ValueError, KeyError, TypeError):
        return {}


def read_episode(path: str | Path) -> dict[str, Any]:
    """An episode record: ``episode.json`` with its ``steps`` as a list (partial if cut short)."""
    path = Path(path)
    episode = json.loads((path / "episode.json").read_text(encoding="utf-8"))
    if episode.get("schema", 0) > SCHEMA_VERSION:
        raise ValueError(
            f"{path} was recorded by a newer webenv (schema {episode['schema']}); upgrade webenv."
        )
    lines = (path / "steps.jsonl").read_text(encoding="utf-8").splitlines()
    steps = []
    for text in lines:
        try:
            steps.append(json.loads(text))
        except json.JSONDecodeError:
            break  # a line cut by a crash: what came before still stands
    episode["step_records"] = steps
    return episode


def read_observation(path: str | Path, name: str | None) -> dict[str, str]:
    """The observation text (``axtree``, ``dom``) saved as ``name`` in the episode at ``path``.

    ``name`` is a step's ``obs`` (or the episode's ``start_obs``); empty when the step has
    none, as in records that did not save it, or when the file is gone or unreadable.
    """
    if not name:
        return {}
    try:
        with gzip.open(Path(path) / name, "rt", encoding="utf-8") as text:
            data = json.load(text)
    except (OSError, ValueError, EOFError):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)}

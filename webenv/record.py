"""The episode record: one folder per episode, written step by step, read by everything else.

``episode.json`` holds the task, seed, versions, outcome and check breakdown; ``steps.jsonl``
one line per step; ``screenshots/`` a PNG per step when asked. Every write is atomic (a
rename, or an appended and flushed line), so an episode cut short by a crash is still
readable, and says ``"status": "running"``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

#: Version of the record format; readers refuse records from the future.
SCHEMA_VERSION = 1


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
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1, ensure_ascii=False, default=str)
    os.replace(tmp, path)


class RecordEpisode(gym.Wrapper[Any, Any, Any, Any]):
    """Records every episode of ``env`` into ``folder/<task>-<seed>/``.

    ``screenshots``: also save the viewport after the reset and after every step.
    """

    def __init__(self, env: gym.Env[Any, Any], folder: str | Path, screenshots: bool = False):
        super().__init__(env)
        self.folder = Path(folder)
        self.screenshots = screenshots
        self.path: Path | None = None
        self._episode: dict[str, Any] = {}
        self._steps = 0
        self._started = 0.0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._close_episode("interrupted")
        observation, info = self.env.reset(seed=seed, options=options)
        task = info["task"]
        self.path = self.folder / f"{task['id']}-{info['seed']}"
        (self.path / "screenshots").mkdir(parents=True, exist_ok=True)
        (self.path / "steps.jsonl").write_text("")
        self._started = time.perf_counter()
        self._steps = 0
        self._episode = {
            "schema": SCHEMA_VERSION,
            "env_id": self.env.spec.id if self.env.spec else None,
            "task": task,
            "seed": info["seed"],
            "perturbations": info.get("perturbations", {"profile": "none"}),
            "versions": versions(),
            "status": "running",
            "start_url": observation["url"],
            "steps": 0,
            "reward": 0.0,
            "success": False,
            "check": None,
            "timings": {"reset": self.env.unwrapped.timings.get("reset")},
        }
        self._screenshot(observation, 0)
        write_json(self.path / "episode.json", self._episode)
        return observation, info

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = self.env.step(action)
        self._steps += 1
        line = {
            "step": self._steps,
            "action": action if isinstance(action, str) else repr(action),
            "error": observation.get("last_action_error", ""),
            "url": observation.get("url", ""),
            "reward": reward,
            "terminated": terminated,
            "truncated": truncated,
            "events": info.get("events", []),
            "seconds": self.env.unwrapped.timings.get("step"),
            "screenshot": self._screenshot(observation, self._steps),
        }
        assert self.path is not None
        with (self.path / "steps.jsonl").open("a", encoding="utf-8") as steps:
            steps.write(json.dumps(line, ensure_ascii=False, default=str) + "\n")
            steps.flush()
        self._episode.update(steps=self._steps, reward=reward, check=info.get("check"))
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
        pixels = observation.get("screenshot")
        if pixels is None:
            pixels = self.env.unwrapped.screenshot()
        if pixels is None:
            return None
        name = f"screenshots/{step:04d}.png"
        Image.fromarray(np.asarray(pixels)).save(self.path / name, optimize=False)
        return name


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

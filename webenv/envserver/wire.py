"""What the server sends: observations, public info and faults, as OpenEnv's JSON shapes.

An OpenEnv result is ``{"observation": {...}, "reward": float | None, "done": bool,
"metadata": {...}}``; its WebSocket frames wrap it as ``{"type": "observation", "data":
result}``, ``{"type": "state", "data": {...}}`` or ``{"type": "error", "data": {"message",
"code"}}``. :func:`render_observation` is the one place where an env's observation becomes
what the client sees (a later ``render="chat"`` belongs there); nothing of the trusted side
(:mod:`webenv.trusted`) ever goes through it.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Mapping
from typing import Any

import numpy as np
from PIL import Image

from .. import __version__

#: Observation keys the server may send, besides the screenshot.
TEXT_KEYS = (
    "goal",
    "url",
    "axtree",
    "dom",
    "tabs",
    "focused",
    "dialog",
    "last_action",
    "last_action_error",
)


def png_base64(pixels: np.ndarray) -> str:
    """An H×W×3 ``uint8`` image as a compressed PNG, base64 text."""
    buffer = io.BytesIO()
    Image.fromarray(np.asarray(pixels, dtype=np.uint8)).save(buffer, format="PNG", optimize=False)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def render_observation(
    observation: Mapping[str, Any] | None, *, fault: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The agent's view of one observation: text keys as they are, a screenshot as PNG
    base64 (``screenshot_png``), and ``fault`` (None, or what failed on the server's side)."""
    observation = observation or {}
    rendered: dict[str, Any] = {key: observation[key] for key in TEXT_KEYS if key in observation}
    for key in ("goal", "url", "last_action_error"):
        rendered.setdefault(key, "")
    if observation.get("screenshot") is not None:
        rendered["screenshot_png"] = png_base64(observation["screenshot"])
    rendered["fault"] = dict(fault) if fault else None
    return rendered


def result(
    observation: Mapping[str, Any] | None,
    *,
    reward: float | None,
    done: bool,
    metadata: Mapping[str, Any],
    fault: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One OpenEnv result (the body of ``/reset`` and ``/step``, the data of a WebSocket
    ``observation`` frame). A fault sets ``reward`` to None: it is no verdict on the agent."""
    return {
        "observation": render_observation(observation, fault=fault),
        "reward": None if fault else reward,
        "done": done,
        "metadata": {**metadata, "fault": dict(fault) if fault else None},
    }


def fault(kind: str, message: str, *, where: str, retry: bool = True) -> dict[str, Any]:
    """A fault of the server's side: ``kind`` ``browser_crash``, ``timeout``,
    ``infrastructure`` or ``server_error``; ``retry``: the same request may succeed on a new
    episode (reset again)."""
    return {
        "kind": kind,
        "message": message,
        "where": where,
        "infrastructure_error": True,
        "retry": retry,
    }


def error(message: str, code: str, **extra: Any) -> dict[str, Any]:
    """A WebSocket error frame, with OpenEnv's codes (``CAPACITY_REACHED``,
    ``VALIDATION_ERROR``, ``EXECUTION_ERROR``, ``SESSION_ERROR``…)."""
    return {"type": "error", "data": {"message": message, "code": code, **extra}}


ACTION_SCHEMA: dict[str, Any] = {
    "title": "WebEnvAction",
    "type": "object",
    "properties": {
        "action": {
            "type": "string",
            "description": 'One action of webenv\'s grammar, e.g. click("12"), '
            'fill("7", "blue shirt"), send_msg_to_user("$24.99").',
        },
        "metadata": {"type": "object"},
    },
    "required": ["action"],
}

OBSERVATION_SCHEMA: dict[str, Any] = {
    "title": "WebEnvObservation",
    "type": "object",
    "properties": {
        **{key: {"type": "string"} for key in TEXT_KEYS},
        "screenshot_png": {
            "type": "string",
            "description": "The viewport as a base64 PNG (only when the server observes it).",
        },
        "fault": {
            "type": ["object", "null"],
            "description": "Set when the server failed (browser crash, timeout): "
            "{kind, message, where, infrastructure_error: true, retry}. The reward is then "
            "null: no verdict on the agent.",
        },
        "done": {"type": "boolean"},
        "reward": {"type": ["number", "null"]},
        "metadata": {"type": "object"},
    },
}

STATE_SCHEMA: dict[str, Any] = {
    "title": "WebEnvState",
    "type": "object",
    "properties": {
        "episode_id": {"type": ["string", "null"]},
        "step_count": {"type": "integer"},
        "session_id": {"type": "string"},
        "task": {"type": ["object", "null"]},
        "done": {"type": "boolean"},
    },
}

METADATA: dict[str, Any] = {
    "name": "webenv",
    "description": "Realistic mock websites (a shop, webmail, a forms portal) in headless "
    "Chromium; rewards from the sites' server-side state.",
    "version": __version__,
    "author": None,
    "documentation_url": None,
    "readme_content": None,
}

"""A module-level ASGI app, for ``uvicorn webenv.envserver.asgi:app`` (the Docker image and
``openenv.yaml``), configured from the environment as ``webenv server``'s options are:

``WEBENV_SERVER_TASKS`` (globs, space-separated; default ``*``), ``WEBENV_SERVER_PERTURB``
(profiles, comma-separated; ``none``), ``WEBENV_SERVER_MAX_SESSIONS`` (8),
``WEBENV_SERVER_IDLE_TIMEOUT`` (seconds, 300), ``WEBENV_SERVER_OBSERVE`` (``axtree``;
comma-separated), ``WEBENV_SERVER_SEED`` (0), ``WEBENV_SERVER_TOKEN`` (none: no token asked).
"""

from __future__ import annotations

import os

from .app import server_app


def _setting(name: str, default: str) -> str:
    return os.environ.get(f"WEBENV_SERVER_{name}", "").strip() or default


app = server_app(
    _setting("TASKS", "*").split(),
    perturb=[p.strip() for p in _setting("PERTURB", "none").split(",") if p.strip()],
    max_sessions=int(_setting("MAX_SESSIONS", "8")),
    idle_timeout=float(_setting("IDLE_TIMEOUT", "300")),
    observe=[k.strip() for k in _setting("OBSERVE", "axtree").split(",") if k.strip()],
    seed=int(_setting("SEED", "0")),
    token=_setting("TOKEN", "") or None,
)

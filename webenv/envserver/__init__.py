"""``webenv server``: many concurrent sessions of webenv in one process, OpenEnv-compatible.

LLM trainers reach environments through a server; OpenEnv's ``EnvClient`` (TRL's "native
path") speaks a WebSocket per session to ``/ws`` and HTTP to ``/health``, ``/schema``,
``/metadata``. This package serves webenv on that protocol.

**Why not OpenEnv's own server classes.** ``openenv.core.env_server.HTTPEnvServer`` (and
``create_app``) were read and do not fit a browser env, so this server speaks their wire
protocol exactly instead, on Starlette and uvicorn (``pip install 'webenv[server]'``):

- its HTTP ``/reset`` and ``/step`` make a fresh env per request and close it after, so an
  HTTP client can never step an episode it reset (here they take a ``session_id``, and a
  reset without one leases a new session);
- it runs each session's synchronous env in a thread of its own, and Playwright's sync API
  gives each thread its own Chromium: a browser per session, where this server shares one
  (:mod:`webenv.envserver.hub`: one thread, each session's calls in a greenlet);
- its idle reaper skips WebSocket sessions, its capacity answer says no when to retry, and
  its ``/health`` carries nothing but a status.

OpenEnv's clients work unchanged: ``GenericEnvClient(base_url=...)`` (or any ``EnvClient``)
sends ``{"type": "reset", "data": {...}}`` and ``{"type": "step", "data": {"action":
"click(\\"12\\")"}}`` and reads ``{"type": "observation", "data": {"observation", "reward",
"done", "metadata"}}``.

**What a client receives.** Only what the agent may see (:mod:`webenv.envserver.wire`): the
observation's text keys (``goal``, ``url``, ``axtree``, ``tabs``, ``dialog``,
``last_action_error``…; a screenshot, when observed, as PNG base64 in ``screenshot_png``),
the reward computed on the server, ``done``, and in ``metadata`` the env's public ``info``
(:mod:`webenv.trusted`). A fault of the server's side (a browser crash, a timeout, a start
page that never loaded, an unexpected error) comes as ``observation["fault"]`` (also
``metadata["fault"]``): ``{"kind", "message", "where", "infrastructure_error": true,
"retry"}``, with ``reward`` None and ``done`` true, never as a plain reward of 0.

**Capacity and leases.** At ``max_sessions``, a WebSocket gets OpenEnv's error frame
(``code: CAPACITY_REACHED``, with ``retry_after_s``) and is closed; an HTTP reset gets
``503`` with ``Retry-After``. A session unused for ``idle_timeout`` seconds is closed (a
WebSocket gets ``code: SESSION_EXPIRED``), freeing its place.
"""

from __future__ import annotations

from typing import Any

from .sessions import CapacityError, Suite

__all__ = ["CapacityError", "EnvServer", "Suite", "serve", "server_app"]


def __getattr__(name: str) -> Any:
    """The app's names, imported on first use: Starlette is an optional extra."""
    if name in ("EnvServer", "serve", "server_app"):
        try:
            from . import app
        except ImportError as error:
            from ..errors import WebEnvError

            raise WebEnvError(
                f"The env server needs the server extra ({error.name} is missing): "
                "pip install 'webenv[server]'."
            ) from None
        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

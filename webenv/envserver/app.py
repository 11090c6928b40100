"""The ASGI app: OpenEnv's endpoints over a :class:`SessionPool`, and ``webenv server``.

Routes (see :mod:`webenv.envserver` for the protocol):

- ``GET /health``, ``GET /schema``, ``GET /metadata``;
- ``WS /ws``: a session per connection, OpenEnv's frames;
- ``POST /reset``, ``POST /step``, ``GET /state``, ``POST /close``: the same over HTTP, the
  session named by ``session_id`` (a reset without one leases a new session).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..actions import MAX_ACTION_CHARS
from ..errors import WebEnvError
from . import wire
from .auth import BearerAuth
from .hub import BrowserHub, cores
from .sessions import CapacityError, Session, SessionGone, SessionPool, Suite

#: How often the reaper looks for idle sessions, at most, in seconds.
REAP_INTERVAL = 5.0


class EnvServer:
    """A browser hub and its session pool; :attr:`app` serves them (start with
    :meth:`start`, or let the app's lifespan do it). With ``token``, every request but
    ``GET /health`` must carry ``Authorization: Bearer <token>`` (:mod:`.auth`)."""

    def __init__(
        self,
        tasks: Sequence[str] = ("*",),
        *,
        perturb: Sequence[str] = ("none",),
        max_sessions: int = 8,
        idle_timeout: float = 300.0,
        step_timeout: float = 120.0,
        observe: Sequence[str] = ("axtree",),
        seed: int = 0,
        headless: bool = True,
        token: str | None = None,
    ):
        suite = Suite.from_patterns(tasks, perturb, seed)
        self.hub = BrowserHub(headless)
        self.pool = SessionPool(
            self.hub,
            suite,
            max_sessions=max_sessions,
            idle_timeout=idle_timeout,
            step_timeout=step_timeout,
            observe=observe,
        )
        self._started = False
        self._reaper: asyncio.Task[None] | None = None
        self.app = Starlette(
            routes=[
                Route("/health", self.health, methods=["GET"]),
                Route("/schema", self.schema, methods=["GET"]),
                Route("/metadata", self.metadata, methods=["GET"]),
                Route("/reset", self.http_reset, methods=["POST"]),
                Route("/step", self.http_step, methods=["POST"]),
                Route("/state", self.http_state, methods=["GET"]),
                Route("/close", self.http_close, methods=["POST"]),
                WebSocketRoute("/ws", self.websocket),
            ],
            lifespan=self._lifespan,
            middleware=[Middleware(BearerAuth, token=token)] if token else None,
        )

    # -- life -----------------------------------------------------------------------------

    def start(self) -> None:
        """Launch Chromium (idempotent)."""
        if not self._started:
            self.hub.start()
            self._started = True

    @contextlib.asynccontextmanager
    async def _lifespan(self, _: Starlette) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, self.start)
        self._reaper = asyncio.create_task(self._reap_forever())
        try:
            yield
        finally:
            self._reaper.cancel()
            await self.pool.close_all()
            await asyncio.get_running_loop().run_in_executor(None, self.hub.stop)

    async def _reap_forever(self) -> None:
        interval = min(REAP_INTERVAL, max(self.pool.idle_timeout / 4, 0.05))
        while True:
            await asyncio.sleep(interval)
            await self.pool.reap()

    def grader_env(self, session_id: str) -> Any:
        """The gym env of a session, for trusted code in this process (tests, graders:
        :func:`webenv.grader_view` takes it). Never served over the wire."""
        return self.pool.get(session_id).env

    # -- plain endpoints --------------------------------------------------------------------

    async def health(self, _: Request) -> JSONResponse:
        pool, hub = self.pool, self.hub
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
        busy = sum(1 for s in list(pool.sessions.values()) if s.busy.locked())
        status = "healthy" if hub.connected or not self._started else "degraded"
        return JSONResponse(
            {
                "status": status,
                "sessions": {
                    "active": len(pool.sessions),
                    "busy": busy,
                    "max": pool.max_sessions,
                    "idle_timeout_s": pool.idle_timeout,
                    "reaped": pool.reaped,
                },
                "browser": {
                    "connected": hub.connected,
                    "version": hub.browser_version,
                    "launches": hub.launches,
                },
                "load": {
                    "inflight": hub.inflight,
                    "loadavg_1m": round(load, 2),
                    "per_core": round(load / cores(), 2),
                    "faults": pool.faults,
                },
            }
        )

    async def schema(self, _: Request) -> JSONResponse:
        return JSONResponse(
            {
                "action": wire.ACTION_SCHEMA,
                "observation": wire.OBSERVATION_SCHEMA,
                "state": wire.STATE_SCHEMA,
            }
        )

    async def metadata(self, _: Request) -> JSONResponse:
        suite = self.pool.suite
        return JSONResponse(
            {**wire.METADATA, "tasks": list(suite.tasks), "perturb": list(suite.perturb)}
        )

    # -- HTTP sessions ----------------------------------------------------------------------

    async def http_reset(self, request: Request) -> JSONResponse:
        body = await _body(request)
        if isinstance(body, JSONResponse):
            return body
        session_id = body.pop("session_id", None)
        if session_id is not None and not isinstance(session_id, str):
            return _problem(422, "session_id must be a string.", "VALIDATION_ERROR")
        try:
            session = self.pool.get(session_id) if session_id else self.pool.open()
        except CapacityError as error:
            return _capacity(error)
        except SessionGone as error:
            return _problem(404, str(error), "SESSION_ERROR")
        try:
            answer = await self.pool.reset(session, body)
        except SessionGone as error:
            return _problem(404, str(error), "SESSION_ERROR")
        except (WebEnvError, KeyError, TypeError, ValueError) as error:
            if not session_id:  # the lease made for this reset is not kept
                await self.pool.close(session)
            return _problem(422, _message(error), "VALIDATION_ERROR")
        return JSONResponse(answer)

    async def http_step(self, request: Request) -> JSONResponse:
        body = await _body(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            session = self.pool.get(str(body.get("session_id")))
        except SessionGone as error:
            return _problem(404, str(error), "SESSION_ERROR")
        action = body.get("action")
        action = action.get("action") if isinstance(action, dict) else action
        try:
            return JSONResponse(await self.pool.step(session, action))
        except SessionGone as error:
            return _problem(404, str(error), "SESSION_ERROR")
        except (WebEnvError, KeyError) as error:
            return _problem(422, _message(error), "VALIDATION_ERROR")

    async def http_state(self, request: Request) -> JSONResponse:
        try:
            session = self.pool.get(request.query_params.get("session_id", ""))
        except SessionGone as error:
            return _problem(404, str(error), "SESSION_ERROR")
        return JSONResponse(session.state())

    async def http_close(self, request: Request) -> JSONResponse:
        body = await _body(request)
        if isinstance(body, JSONResponse):
            return body
        try:
            session = self.pool.get(str(body.get("session_id")))
        except SessionGone as error:
            return _problem(404, str(error), "SESSION_ERROR")
        await self.pool.close(session)
        return JSONResponse({"session_id": session.id, "closed": True})

    # -- WebSocket sessions -------------------------------------------------------------------

    async def websocket(self, socket: WebSocket) -> None:
        try:
            session = self.pool.open()  # before the handshake ends: counted at once
        except CapacityError as error:
            await socket.accept()
            await socket.send_json(
                wire.error(
                    str(error),
                    "CAPACITY_REACHED",
                    active_sessions=error.active,
                    max_sessions=error.limit,
                    retry_after_s=error.retry_after,
                )
            )
            await socket.close(code=1013)  # "try again later"
            return
        try:
            await socket.accept()
            await self._converse(socket, session)
        except WebSocketDisconnect:
            pass
        finally:
            await self.pool.close(session)
            with contextlib.suppress(Exception):
                await socket.close()

    async def _converse(self, socket: WebSocket, session: Session) -> None:
        while True:
            try:
                raw = await asyncio.wait_for(socket.receive_text(), self.pool.idle_timeout)
            except TimeoutError:
                self.pool.reaped += 1
                message = (
                    f"Session closed after {self.pool.idle_timeout:g} s without a message; "
                    "connect again for a new one."
                )
                await socket.send_json(wire.error(message, "SESSION_EXPIRED"))
                return
            too_large = len(raw) > MAX_MESSAGE_BYTES
            frame = (
                f"A frame is at most {MAX_MESSAGE_BYTES} bytes." if too_large else _json_object(raw)
            )
            if isinstance(frame, str):
                await socket.send_json(wire.error(frame, "INVALID_JSON"))
                continue
            kind, data = frame.get("type"), frame.get("data") or {}
            if kind == "close":
                return
            try:
                if kind == "reset":
                    answer = {"type": "observation", "data": await self.pool.reset(session, data)}
                elif kind == "step":
                    action = data.get("action") if isinstance(data, dict) else None
                    answer = {"type": "observation", "data": await self.pool.step(session, action)}
                elif kind == "state":
                    answer = {"type": "state", "data": session.state()}
                else:
                    answer = wire.error(f"Unknown message type: {kind!r}", "UNKNOWN_TYPE")
            except SessionGone as error:
                await socket.send_json(wire.error(str(error), "SESSION_EXPIRED"))
                return
            except (WebEnvError, KeyError) as error:
                answer = wire.error(_message(error), "VALIDATION_ERROR")
            except Exception as error:  # a request the checks above did not foresee
                answer = wire.error(f"{type(error).__name__}: {error}", "EXECUTION_ERROR")
            await socket.send_json(answer)


#: The largest request body or WebSocket frame read: an action is at most
#: :data:`webenv.actions.MAX_ACTION_CHARS` characters, with room for its JSON around it.
MAX_MESSAGE_BYTES = 4 * MAX_ACTION_CHARS + 4096


def _json_object(raw: str | bytes) -> dict[str, Any] | str:
    """``raw`` as a JSON object, or the reason it is none (a parse error, a number past
    Python's digit limit, a value that is no object)."""
    try:
        value = json.loads(raw)
    except ValueError as error:  # JSONDecodeError, and a number of too many digits
        return f"Invalid JSON: {error}"
    if not isinstance(value, dict):
        return 'A message must be a JSON object, e.g. {"type": "reset", "data": {}}.'
    return value


async def _body(request: Request) -> dict[str, Any] | JSONResponse:
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_MESSAGE_BYTES:
        return _problem(413, f"The body is over {MAX_MESSAGE_BYTES} bytes.", "TOO_LARGE")
    raw = bytearray()
    async for chunk in request.stream():  # a body without a length is cut off at the cap too
        raw += chunk
        if len(raw) > MAX_MESSAGE_BYTES:
            return _problem(413, f"The body is over {MAX_MESSAGE_BYTES} bytes.", "TOO_LARGE")
    if not raw.strip():
        return {}
    body = _json_object(bytes(raw))
    if isinstance(body, str):
        return _problem(400, body, "INVALID_JSON")
    return body


def _message(error: BaseException) -> str:
    return str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)


def _problem(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse({"detail": message, "code": code}, status_code=status)


def _capacity(error: CapacityError) -> JSONResponse:
    return JSONResponse(
        {
            "detail": str(error),
            "code": "CAPACITY_REACHED",
            "active_sessions": error.active,
            "max_sessions": error.limit,
            "retry_after_s": error.retry_after,
        },
        status_code=503,
        headers={"Retry-After": str(error.retry_after)},
    )


def server_app(tasks: Sequence[str] = ("*",), **options: Any) -> Starlette:
    """The env server as an ASGI app, for embedding (``uvicorn.run(server_app(...))``).
    Keyword arguments as for :class:`EnvServer`; the app launches Chromium at its startup."""
    return EnvServer(tasks, **options).app


def serve(server: EnvServer, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Serve ``server`` with uvicorn until interrupted."""
    try:
        import uvicorn
    except ImportError:  # pragma: no cover - the extra is missing
        raise WebEnvError(
            "The env server needs uvicorn and starlette: pip install 'webenv[server]'."
        ) from None
    uvicorn.run(
        server.app,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE_BYTES,
    )

"""A shared secret in front of the env server: ``Authorization: Bearer <token>`` on every
request and WebSocket handshake but ``GET /health`` (a load balancer's probe carries none).

OpenEnv's clients send it with ``headers={"Authorization": f"Bearer {token}"}``;
:func:`webenv.trl.environment` with ``token=``. Without a token the server trusts whoever can
reach its port, which is why it listens on loopback unless told otherwise.
"""

from __future__ import annotations

import hmac
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # starlette is the server extra's; the command line imports this module
    from starlette.types import ASGIApp, Receive, Scope, Send

#: The environment variable ``webenv server`` and ``webenv.envserver.asgi`` read the token from.
TOKEN_VARIABLE = "WEBENV_SERVER_TOKEN"
#: Routes open without the token.
OPEN_PATHS = frozenset({"/health"})


class BearerAuth:
    """ASGI middleware refusing requests without the server's token: HTTP with ``401`` and
    OpenEnv's error shape, a WebSocket by closing the handshake (code 1008) before it opens."""

    def __init__(self, app: ASGIApp, token: str):
        if not token.strip():
            raise ValueError("the env server's token is empty")
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "unauthorized"})
        else:
            await _unauthorized(send)

    def _allowed(self, scope: Scope) -> bool:
        if scope["type"] == "http" and scope.get("path") in OPEN_PATHS:
            return True
        given = [value for name, value in scope.get("headers", ()) if name == b"authorization"]
        return len(given) == 1 and hmac.compare_digest(given[0], self._expected)


async def _unauthorized(send: Send) -> None:
    body: dict[str, Any] = {
        "message": "This webenv server needs its token: send Authorization: Bearer <token> "
        f"(the value of --token or ${TOKEN_VARIABLE} it was started with).",
        "code": "UNAUTHORIZED",
    }
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                (b"www-authenticate", b'Bearer realm="webenv"'),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})

"""A token in front of the env server (``webenv server --token``): every request and WebSocket
handshake without ``Authorization: Bearer <token>`` is refused, but ``GET /health``; OpenEnv's
own client (with ``headers=``) and webenv's TRL tools (with ``token=``) play through it."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

import webenv
import webenv.trl
from tests.servers import Served, serve
from tests.test_trl import TrlLoop

TOKEN = "tok-3f9c1e0a7b"
TASK = "shop.order_total"
#: One server for the module, on one pytest-xdist worker; Chromium runs in the server's thread.
pytestmark = [pytest.mark.xdist_group("envserver-auth"), pytest.mark.browser]


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    yield from serve((TASK,), max_sessions=2, token=TOKEN)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(
    "headers",
    [
        {},
        _bearer("tok-3f9c1e0a7"),  # one character short
        _bearer(TOKEN + "x"),
        {"Authorization": TOKEN},  # no scheme
        {"Authorization": f"Basic {TOKEN}"},
        {"X-Token": TOKEN},
    ],
    ids=["none", "short", "long", "no-scheme", "basic", "other-header"],
)
def test_every_route_but_health_refuses_a_request_without_the_token(served, headers):
    with httpx.Client(base_url=served.http, timeout=30) as http:
        assert http.get("/health", headers=headers).status_code == 200
        for method, path, body in [
            ("GET", "/metadata", None),
            ("GET", "/schema", None),
            ("POST", "/reset", {"task": TASK, "seed": 0}),
            ("POST", "/step", {"session_id": "x", "action": {"action": "noop()"}}),
            ("GET", "/state", None),
            ("POST", "/close", {"session_id": "x"}),
        ]:
            response = http.request(method, path, json=body, headers=headers)
            assert response.status_code == 401, (path, response.text)
            assert response.json()["code"] == "UNAUTHORIZED"
            assert response.headers["www-authenticate"].startswith("Bearer")
        assert http.get("/health").json()["sessions"]["active"] == 0  # no session was leased


def test_openenv_client_plays_with_the_token_and_is_refused_without(served):
    from openenv.core import GenericEnvClient

    with pytest.raises(Exception) as refused, GenericEnvClient(base_url=served.http).sync() as c:
        c.reset(task=TASK, seed=0)
    assert "403" in str(refused.value) or "401" in str(refused.value), refused.value
    with GenericEnvClient(base_url=served.http, headers=_bearer(TOKEN)).sync() as client:
        result = client.reset(task=TASK, seed=0)
        session_id = result.metadata["session_id"]
        total = webenv.grader_view(served.server.grader_env(session_id)).params["total_cents"]
        result = client.step({"action": f'send_msg_to_user("${total / 100:.2f}")'})
        assert (result.reward, result.done) == (1.0, True)


def test_trl_tools_pass_the_token_and_say_why_they_are_refused(served, monkeypatch):
    monkeypatch.delenv("WEBENV_SERVER_TOKEN", raising=False)
    loop = TrlLoop()
    try:
        refused = webenv.trl.environment(url=served.http)()
        with pytest.raises(webenv.trl.ServerError, match=r"asks for a token.*token="):
            refused.reset(task=TASK, seed=0)
        wrong = webenv.trl.environment(url=served.http, token="nope")()
        with pytest.raises(webenv.trl.ServerError, match="token was not accepted"):
            wrong.reset(task=TASK, seed=0)
        monkeypatch.setenv("WEBENV_SERVER_TOKEN", TOKEN)  # the same variable as the server's
        env = webenv.trl.environment(url=served.http)()
        first = env.reset(task=TASK, seed=0)
        assert first.startswith("Goal: ") and env.fault is None
        total = webenv.grader_view(served.server.grader_env(env.session_id)).params["total_cents"]
        loop.message([lambda: env.send_msg_to_user(text=f"${total / 100:.2f}")])
        assert env.done and env.get_reward() == 1.0
    finally:
        loop.close()

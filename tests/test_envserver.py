"""The env server (``webenv server``): OpenEnv's own client and a client that speaks only the
documented protocol (plain HTTP and WebSocket frames) drive concurrent sessions over one
Chromium; rewards are right, nothing of the trusted side is sent, faults are flagged, a full
server says when to retry, and idle sessions are reaped.

One server (uvicorn in a thread, its Chromium in the hub's thread) serves the whole module.
The oracle's actions come from the server object in this process (``grader_env``), never
over the wire.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image
from websockets.sync.client import connect

import webenv
from tests.processes import chromium_pids
from tests.servers import Served, serve
from tests.test_leaks import leaked, secrets, without_keys
from webenv.agents import OracleAgent
from webenv.envserver import Suite
from webenv.envserver.wire import render_observation

#: Mixed templates with short oracle episodes: two questions and two actions, three sites.
TASKS = (
    "shop.order_total",
    "mail.mark_unread",
    "mail.contact_phone",
    "forms.past_confirmation_number",
)
IDLE_TIMEOUT = 3.0
#: What shows the page itself: the page may show an order's total; the agent's own action
#: (echoed in last_action) holds its answer. Everything else must hold no secret.
PAGE_KEYS = ("axtree", "dom", "tabs", "url", "focused", "dialog", "last_action")
#: The session's and the episode's handles: random hex (uuid4), so they carry nothing of the
#: task, yet one in about 2,000 holds a given four digits (a total of $48.57 is 4857 in cents).
RANDOM_KEYS = ("session_id", "episode_id")
#: One server for the module: its tests run on one pytest-xdist worker.
pytestmark = pytest.mark.xdist_group("envserver")


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    yield from serve(TASKS, max_sessions=4, idle_timeout=IDLE_TIMEOUT, seed=7)


def _hidden(served: Served, session_id: str) -> dict[str, str]:
    env = served.server.grader_env(session_id)
    view = webenv.grader_view(env)
    return secrets(view, view.task.goal)


def _without_page(frame: Any) -> Any:
    """A frame with the page's own text (see PAGE_KEYS) and the random handles (see
    RANDOM_KEYS) left out."""
    frame = without_keys(json.loads(json.dumps(frame)), RANDOM_KEYS)
    data = frame.get("data", frame)
    observation = data.get("observation") if isinstance(data, dict) else None
    if isinstance(observation, dict):
        for key in PAGE_KEYS:
            observation.pop(key, None)
    return frame


# -- OpenEnv's own client ---------------------------------------------------------------------


@pytest.mark.browser
def test_openenv_client_plays_episodes_with_server_side_rewards(served):
    from openenv.core import GenericEnvClient

    with GenericEnvClient(base_url=served.http).sync() as client:
        result = client.reset(task="shop.order_total", seed=0)
        session_id = result.metadata["session_id"]
        assert result.done is False and result.reward is None
        assert result.observation["fault"] is None
        assert result.observation["url"].startswith("http://shop.localhost:")
        assert "[" in result.observation["axtree"] and result.observation["goal"]
        assert result.metadata["info"]["task"]["id"] == "shop.order_total"
        assert set(result.metadata["info"]) == {"task", "seed", "perturbations", "events"}
        total = webenv.grader_view(served.server.grader_env(session_id)).params["total_cents"]
        # A wrong answer: zero, and no fault.
        result = client.step({"action": f'send_msg_to_user("${total / 100 + 1:.2f}")'})
        assert (result.reward, result.done, result.observation["fault"]) == (0.0, True, None)
        state = client.state()
        assert state["step_count"] == 1 and state["done"] is True
        result = client.reset(task="shop.order_total", seed=0)
        result = client.step({"action": f'send_msg_to_user("${total / 100:.2f}")'})
        assert (result.reward, result.done) == (1.0, True)
        assert result.metadata["info"] == {"success": True, "events": []}
        # A reset with no arguments draws from the server's suite.
        result = client.reset()
        assert result.metadata["info"]["task"]["id"] in TASKS
        assert result.metadata["session_id"] == session_id  # one session per connection


@pytest.mark.browser
def test_openenv_client_sees_a_bad_request_as_an_error_not_an_episode(served):
    from openenv.core import GenericEnvClient

    with GenericEnvClient(base_url=served.http).sync() as client:
        with pytest.raises(RuntimeError, match=r"shop\.nope.*VALIDATION_ERROR"):
            client.reset(task="shop.nope")
        with pytest.raises(RuntimeError, match="reset before step"):
            client.step({"action": "noop()"})
        with pytest.raises(RuntimeError, match=r"perturb must be.*VALIDATION_ERROR"):
            client.reset(task="shop.order_total", perturb=5)
        with pytest.raises(RuntimeError, match=r"must be a string.*VALIDATION_ERROR"):
            client.step({"action": ["noop()"]})


# -- an independent client: the documented protocol only -------------------------------------


def _episode(served: Served, task: str, seed: int) -> tuple[float, list[Any], str]:
    """One oracle episode over a plain WebSocket; the reward, every frame, the session."""
    frames: list[Any] = []
    with connect(served.ws, open_timeout=30) as socket:

        def ask(message: dict[str, Any]) -> dict[str, Any]:
            socket.send(json.dumps(message))
            frame = json.loads(socket.recv(timeout=120))
            frames.append(frame)
            assert frame["type"] != "error", frame
            return frame

        data = ask({"type": "reset", "data": {"task": task, "seed": seed}})["data"]
        session_id = data["metadata"]["session_id"]
        agent = OracleAgent(served.server.grader_env(session_id))
        agent.reset(data["observation"], data["metadata"]["info"])
        while not data["done"]:
            action = agent.act(data["observation"])
            data = ask({"type": "step", "data": {"action": action}})["data"]
            assert data["observation"]["fault"] is None, data["observation"]["fault"]
        frames.append({"hidden": _hidden(served, session_id)})
        ask({"type": "state"})
    return data["reward"], frames, session_id


@pytest.mark.browser
def test_four_concurrent_sessions_of_mixed_tasks_earn_their_rewards_and_leak_nothing(served):
    results: dict[str, Any] = {}

    def run(task: str) -> None:
        try:
            results[task] = _episode(served, task, seed=1)
        except BaseException as error:
            results[task] = error

    threads = [threading.Thread(target=run, args=(task,)) for task in TASKS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(240)
    for task in TASKS:
        assert not isinstance(results[task], BaseException), (task, results[task])
        reward, frames, _ = results[task]
        assert reward == 1.0, task
        hidden = frames.pop(-2)["hidden"]  # (the last frame is the state's)
        assert hidden, task  # there is something to hide
        for frame in frames:
            public = _without_page(frame)
            assert not leaked(public, hidden), (task, leaked(public, hidden), frame)
    assert len({results[task][2] for task in TASKS}) == 4  # four sessions
    public = [httpx.get(served.http + path).json() for path in ("/health", "/schema", "/metadata")]
    assert public[0]["browser"]["connected"] is True and public[0]["sessions"]["max"] == 4
    assert "action" in public[1] and public[2]["name"] == "webenv"


# -- faults ----------------------------------------------------------------------------------


@pytest.mark.browser
def test_a_killed_chromium_is_a_flagged_fault_and_new_sessions_still_work(served):
    # Two sessions wait in a step when Chromium is killed under them; both get a fault, and
    # both, reset at once, go on in a relaunched Chromium; so does a new session.
    launches = httpx.get(served.http + "/health").json()["browser"]["launches"]
    with connect(served.ws, open_timeout=30) as one, connect(served.ws, open_timeout=30) as two:
        sockets = (one, two)

        def send_all(message: dict[str, Any]) -> None:
            for socket in sockets:
                socket.send(json.dumps(message))

        def receive_all() -> list[dict[str, Any]]:
            return [json.loads(socket.recv(timeout=120)) for socket in sockets]

        send_all({"type": "reset", "data": {"task": "mail.mark_unread", "seed": 0}})
        assert all(frame["type"] == "observation" for frame in receive_all())
        send_all({"type": "step", "data": {"action": "noop(wait_ms=2000)"}})
        time.sleep(0.5)  # both steps are waiting in the browser
        killed = chromium_pids() - served.chromium_before
        assert killed
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        for frame in receive_all():
            data = frame["data"]
            assert frame["type"] == "observation" and data["done"] is True
            assert data["reward"] is None  # never a plain 0
            fault = data["observation"]["fault"]
            assert fault["kind"] == "browser_crash" and fault["infrastructure_error"] is True
            assert data["metadata"]["fault"] == fault
        send_all({"type": "reset", "data": {"task": "mail.mark_unread", "seed": 0}})
        for frame in receive_all():
            assert frame["type"] == "observation", frame
            assert frame["data"]["observation"]["fault"] is None
            assert frame["data"]["observation"]["url"].startswith("http://mail.localhost:")
    reply = httpx.post(served.http + "/reset", json={"task": "shop.order_total", "seed": 2})
    body = reply.json()
    assert reply.status_code == 200 and body["observation"]["fault"] is None
    assert body["observation"]["url"].startswith("http://shop.localhost:")
    httpx.post(served.http + "/close", json={"session_id": body["metadata"]["session_id"]})
    health = httpx.get(served.http + "/health").json()
    assert health["browser"]["connected"] is True
    assert health["browser"]["launches"] == launches + 1


@pytest.mark.browser
def test_a_step_past_the_servers_bound_is_a_timeout_fault(served):
    pool = served.server.pool
    reply = httpx.post(served.http + "/reset", json={"task": "shop.order_total", "seed": 3})
    session_id = reply.json()["metadata"]["session_id"]
    bound, pool.step_timeout = pool.step_timeout, 0.3
    try:
        step = {"session_id": session_id, "action": {"action": "noop(wait_ms=3000)"}}
        body = httpx.post(served.http + "/step", json=step, timeout=30).json()
    finally:
        pool.step_timeout = bound
    assert body["reward"] is None and body["done"] is True
    assert body["observation"]["fault"]["kind"] == "timeout"
    # The session is closed after it; so is a WebSocket's, whose next request is told so.
    again = httpx.post(served.http + "/step", json=step, timeout=30)
    assert again.status_code == 404
    with connect(served.ws, open_timeout=30) as socket:
        socket.send(json.dumps({"type": "reset", "data": {"task": "shop.order_total", "seed": 3}}))
        json.loads(socket.recv(timeout=60))
        pool.step_timeout = 0.3
        try:
            socket.send(json.dumps({"type": "step", "data": {"action": "noop(wait_ms=3000)"}}))
            frame = json.loads(socket.recv(timeout=60))
        finally:
            pool.step_timeout = bound
        assert frame["data"]["observation"]["fault"]["kind"] == "timeout"
        socket.send(json.dumps({"type": "step", "data": {"action": "noop()"}}))
        frame = json.loads(socket.recv(timeout=60))
    assert frame["type"] == "error" and frame["data"]["code"] == "SESSION_EXPIRED"


@pytest.mark.browser
def test_a_server_shut_down_under_a_step_past_its_bound_still_closes_that_session():
    # The step outlives its bound, and the server shuts down before the step ends: the
    # session is closed when the step ends (its world removed, its hold on Chromium given
    # back), so the server leaves no Chromium behind (serve() checks that as it stops).
    stopping = serve(("shop.order_total",), max_sessions=1)
    served = next(stopping)
    reply = httpx.post(served.http + "/reset", json={"task": "shop.order_total", "seed": 1})
    session_id = reply.json()["metadata"]["session_id"]
    world = served.server.grader_env(session_id).unwrapped.world.root
    served.server.pool.step_timeout = 0.3
    step = {"session_id": session_id, "action": {"action": "noop(wait_ms=3000)"}}
    body = httpx.post(served.http + "/step", json=step, timeout=30).json()
    assert body["observation"]["fault"]["kind"] == "timeout"
    with pytest.raises(StopIteration):
        next(stopping)  # shut down while the step still runs
    assert not world.exists()


# -- capacity and leases ---------------------------------------------------------------------


#: Long enough that none of four silent sessions is reaped before a fifth client connects,
#: however busy the machine (at IDLE_TIMEOUT, one was, under load).
CAPACITY_IDLE_TIMEOUT = 60.0


@pytest.fixture
def full() -> Iterator[Served]:
    yield from serve(TASKS, max_sessions=4, idle_timeout=CAPACITY_IDLE_TIMEOUT, seed=7)


@pytest.mark.browser
def test_a_full_server_says_when_to_retry_and_frees_places(full):
    served = full
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(served.ws, open_timeout=30)) for _ in range(4)]
        with connect(served.ws, open_timeout=30) as fifth:
            frame = json.loads(fifth.recv(timeout=30))
        assert frame["type"] == "error" and frame["data"]["code"] == "CAPACITY_REACHED"
        assert 1 <= frame["data"]["retry_after_s"] <= CAPACITY_IDLE_TIMEOUT
        assert "retry after" in frame["data"]["message"]
        reply = httpx.post(served.http + "/reset", json={})
        assert reply.status_code == 503
        assert 1 <= int(reply.headers["Retry-After"]) <= CAPACITY_IDLE_TIMEOUT
        assert reply.json()["code"] == "CAPACITY_REACHED"
        sockets[0].close()
        deadline = time.monotonic() + 10
        while httpx.get(served.http + "/health").json()["sessions"]["active"] > 3:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        reply = httpx.post(served.http + "/reset", json={"task": "shop.order_total", "seed": 4})
        assert reply.status_code == 200
        httpx.post(served.http + "/close", json=reply.json()["metadata"])


@pytest.mark.browser
def test_idle_sessions_are_reaped(served):
    before = httpx.get(served.http + "/health").json()["sessions"]["reaped"]
    reply = httpx.post(served.http + "/reset", json={"task": "shop.order_total", "seed": 5})
    session_id = reply.json()["metadata"]["session_id"]
    with connect(served.ws, open_timeout=30) as socket:  # connected, and silent
        frame = json.loads(socket.recv(timeout=IDLE_TIMEOUT * 4))
    assert frame["data"]["code"] == "SESSION_EXPIRED"
    deadline = time.monotonic() + IDLE_TIMEOUT * 4
    state = served.http + f"/state?session_id={session_id}"  # (reading it is no use of it)
    while httpx.get(state).status_code == 200:
        assert time.monotonic() < deadline, "the idle HTTP session was never reaped"
        time.sleep(0.1)
    step = {"session_id": session_id, "action": {"action": "noop()"}}
    reply = httpx.post(served.http + "/step", json=step)
    assert reply.status_code == 404 and "reaped" in reply.json()["detail"]
    health = httpx.get(served.http + "/health").json()
    assert health["sessions"]["reaped"] >= before + 2
    assert health["sessions"]["active"] == 0


# -- without a browser -------------------------------------------------------------------------


def test_the_suite_draws_the_same_episodes_every_run():
    suite = Suite.from_patterns(["shop.*", "mail.*"], ["none", "light"], seed=3)
    draws = [suite.draw(i) for i in range(20)]
    assert draws == [Suite.from_patterns(["shop.*", "mail.*"], ["none", "light"], 3).draw(i)
                     for i in range(20)]  # fmt: skip
    assert {name.split(".")[0] for name, _, _ in draws} == {"shop", "mail"}
    assert {profile for _, _, profile in draws} == {"none", "light"}
    assert draws != [Suite.from_patterns(["shop.*", "mail.*"], ["none"], 4).draw(i)
                     for i in range(20)]  # fmt: skip


def test_a_screenshot_goes_as_png_base64_and_secrets_never_go():
    pixels = np.random.default_rng(0).integers(0, 255, (72, 128, 3), dtype=np.uint8)
    rendered = render_observation({"goal": "g", "url": "u", "screenshot": pixels})
    assert "screenshot" not in rendered and isinstance(rendered["screenshot_png"], str)
    image = Image.open(io.BytesIO(base64.b64decode(rendered["screenshot_png"])))
    assert image.format == "PNG" and np.array_equal(np.asarray(image), pixels)
    # Only the agent's keys pass: anything else an observation might carry is dropped.
    rendered = render_observation({"goal": "g", "params": {"total_cents": 5820}})
    assert set(rendered) == {"goal", "url", "last_action_error", "fault"}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tasks", "shop.order_totl"], "Did you mean shop.order_total or"),
        (["--perturb", "none,havy"], "--perturb: unknown profile(s) havy"),
        (["--observe", "axtree,som"], "--observe som: choose from"),
    ],
)
def test_the_server_command_refuses_bad_options_before_starting(argv, message, capsys):
    from webenv.cli import main

    assert main(["server", *argv]) == 2
    assert message in capsys.readouterr().err

"""webenv.trl: the class TRL's ``GRPOTrainer(environment_factory=...)`` instantiates.

TRL itself needs torch, too heavy here; these tests do what TRL 1.16 does with the class
(``trl/trainer/grpo_trainer.py``): the probe (``inspect.getmembers(type(instance),
inspect.isfunction)``: ``reset``, ``get_reward``, every other public function a tool), the
schemas (transformers' ``get_json_schema``, which TRL's chat template rendering uses), the
split of tools into async and sync (``inspect.iscoroutinefunction``), and the calls: ``reset``
from the training thread, the tool calls of one assistant message gathered on an event loop
in a daemon thread (``asyncio.gather`` there, ``run_coroutine_threadsafe(...).result()``
here). The episodes run against a real ``webenv server`` (uvicorn in a thread), with the
oracle's actions made into tool calls by :func:`webenv.chat.tool_calls_from_action`.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import webenv
import webenv.trl
from tests.processes import chromium_pids
from tests.servers import Served, serve
from webenv import chat
from webenv.actions import ACTIONS
from webenv.agents import OracleAgent

TASKS = ("shop.order_total", "mail.mark_unread")
#: One server for the module: its tests run on one pytest-xdist worker.
pytestmark = pytest.mark.xdist_group("trl")


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    yield from serve(TASKS, max_sessions=4)


class TrlLoop:
    """TRL's daemon event loop: the tool calls of one message gathered on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def message(self, calls: list[Callable[[], Any]], timeout: float = 120) -> list[Any]:
        """Run the calls of one assistant message as TRL does (exceptions returned)."""

        async def gather() -> list[Any]:
            return await asyncio.gather(*(call() for call in calls), return_exceptions=True)

        return asyncio.run_coroutine_threadsafe(gather(), self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def trl_loop() -> Iterator[TrlLoop]:
    loop = TrlLoop()
    yield loop
    loop.close()


def probe(factory: Callable[[], Any]) -> tuple[bool, bool, dict[str, Any], dict[str, Any]]:
    """What TRL's ``GRPOTrainer.__init__`` finds on an instance, and its tool dicts."""
    instance = factory()
    has_reset = has_reward = False
    methods = []
    for member_name, _ in inspect.getmembers(type(instance), predicate=inspect.isfunction):
        if member_name == "reset":
            has_reset = True
        elif member_name == "get_reward":
            has_reward = True
        elif not member_name.startswith("_"):
            methods.append(getattr(instance, member_name))
    sync_tools = {m.__name__: m for m in methods if not inspect.iscoroutinefunction(m)}
    async_tools = {m.__name__: m for m in methods if inspect.iscoroutinefunction(m)}
    return has_reset, has_reward, sync_tools, async_tools


def calls_of(env: Any, action: str) -> list[Callable[[], Any]]:
    """The tool calls a model makes for ``action``, as TRL makes them: the method called
    with the arguments as keywords (JSON nulls as None)."""
    calls = []
    for call in chat.tool_calls_from_action(action):
        function = call["function"]
        method = getattr(env, function["name"])
        arguments = json.loads(function["arguments"])
        calls.append(lambda method=method, arguments=arguments: method(**arguments))
    return calls


def oracle_episode(served: Served, trl_loop: TrlLoop, env: Any, task: str, seed: int) -> str:
    """One oracle episode through the tools; the last tool result."""
    first = env.reset(prompt=[{"role": "user", "content": ""}], task=task, seed=seed)
    assert first.startswith("Goal: ") and env.fault is None
    agent = OracleAgent(served.server.grader_env(env.session_id))
    agent.reset(env.observation, env.info)
    result = first
    while not env.done:
        results = trl_loop.message(calls_of(env, agent.act(env.observation)))
        assert not any(isinstance(r, BaseException) for r in results), results
        result = results[-1]
    return result


# -- what TRL finds on the class (no server) ---------------------------------------------------


def test_trls_probe_finds_reset_get_reward_and_one_async_tool_per_action():
    cls = webenv.trl.environment(max_tokens=1000)
    has_reset, has_reward, sync_tools, async_tools = probe(cls)
    assert has_reset and has_reward
    assert sync_tools == {}  # every tool runs concurrently on TRL's loop
    assert sorted(async_tools) == sorted(ACTIONS)
    assert webenv.trl.tool_names(cls) == sorted(ACTIONS)
    chosen = webenv.trl.environment(actions=["click", "fill", "send_msg_to_user"])
    assert sorted(probe(chosen)[3]) == ["click", "fill", "send_msg_to_user"]
    with pytest.raises(webenv.ActionError, match="No action clik"):
        webenv.trl.environment(actions=["clik"])


def test_each_tools_schema_from_get_json_schema_matches_the_action():
    get_json_schema = pytest.importorskip("transformers.utils").get_json_schema
    env = webenv.trl.environment()()
    strict = {tool["function"]["name"]: tool["function"] for tool in chat.tools()}
    types = {"str": "string", "int": "integer", "number": "number"}
    for name, spec in ACTIONS.items():
        function = get_json_schema(getattr(env, name))["function"]
        assert function["name"] == name
        assert function["description"] == spec.doc
        parameters = function["parameters"]
        assert list(parameters["properties"]) == [param.name for param in spec.params], name
        required = [param.name for param in spec.params if param.required]
        assert parameters.get("required", []) == required, name
        for param in spec.params:
            schema = parameters["properties"][param.name]
            described = strict[name]["parameters"]["properties"][param.name]["description"]
            assert schema["description"] == described
            assert schema.get("nullable", False) is not param.required
            if param.kind in types:
                assert schema["type"] == types[param.kind], (name, param.name)
            else:  # a string or a list of strings
                assert {"type": "string"} in schema["anyOf"], (name, param.name)


def test_a_call_that_is_no_valid_action_is_refused_with_the_reason(trl_loop):
    env = webenv.trl.environment()()
    refused = trl_loop.message(
        [
            lambda: env.click(),
            lambda: env.click(bid="3", colour="red"),
            lambda: env.scroll(delta_x="down", delta_y=3),
            lambda: env.click(bid="3"),
        ]
    )
    assert all(isinstance(error, webenv.ActionError) for error in refused), refused
    assert "bid is required" in str(refused[0])
    assert "no argument 'colour'" in str(refused[1])
    assert "delta_x must be a number, not a string" in str(refused[2])
    assert "No episode has started" in str(refused[3])


def test_the_url_comes_from_the_argument_the_variable_or_the_default(monkeypatch):
    monkeypatch.delenv(webenv.trl.URL_VARIABLE, raising=False)
    assert webenv.trl.environment().url == "http://127.0.0.1:8000"
    monkeypatch.setenv(webenv.trl.URL_VARIABLE, "http://127.0.0.2:9000")
    assert webenv.trl.environment().url == "http://127.0.0.2:9000"
    assert webenv.trl.environment(url="http://h:1").url == "http://h:1"


def test_an_unreachable_server_says_how_to_start_one():
    with socket.socket() as probe_socket:  # a port nothing listens on
        probe_socket.bind(("127.0.0.1", 0))
        port = probe_socket.getsockname()[1]
    env = webenv.trl.environment(url=f"http://127.0.0.1:{port}", timeout=10)()
    with pytest.raises(webenv.trl.ServerError, match=r"Cannot reach webenv server.*webenv server"):
        env.reset(task="shop.order_total", seed=0)


def test_tasks_and_dataset_rows_name_their_episodes():
    cls = webenv.trl.environment(["mail.mark_unread", "shop.order_t*"], seed=5)
    assert cls.tasks == ("mail.mark_unread", "shop.order_total")
    draws = [cls()._options({"prompt": []}) for _ in range(3)]
    assert draws == [
        {"task": "mail.mark_unread", "seed": 5},
        {"task": "shop.order_total", "seed": 5},
        {"task": "mail.mark_unread", "seed": 6},
    ]
    assert cls()._options({"task": "shop.order_total", "seed": 2}) == {
        "task": "shop.order_total",
        "seed": 2,
    }
    with pytest.raises(webenv.UnknownTaskError, match="No task matches"):
        webenv.trl.environment("shop.nope*")
    rows = webenv.trl.dataset("shop.order_total", seeds=[0, 1])
    assert [(row["task"], row["seed"], row["perturb"]) for row in rows] == [
        ("shop.order_total", 0, "none"),
        ("shop.order_total", 1, "none"),
    ]
    assert rows[0]["prompt"] == [
        {"role": "system", "content": chat.system_prompt()},
        {"role": "user", "content": ""},
    ]


# -- episodes against a real server -------------------------------------------------------------


@pytest.mark.browser
def test_two_oracle_episodes_through_the_tools_earn_the_servers_reward(served, trl_loop):
    cls = webenv.trl.environment(url=served.http, max_tokens=600)
    envs = [cls(), cls()]
    results: dict[int, Any] = {}

    def run(index: int, task: str) -> None:
        try:
            results[index] = oracle_episode(served, trl_loop, envs[index], task, seed=1)
        except BaseException as error:
            results[index] = error

    threads = [threading.Thread(target=run, args=item) for item in enumerate(TASKS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(240)
    for index in range(2):
        assert isinstance(results[index], str), results[index]
        assert results[index] == "The episode is over. Stop calling tools."
        assert envs[index].get_reward() == 1.0 and envs[index].fault is None
        assert envs[index].info["success"] is True
    assert envs[0].session_id != envs[1].session_id


@pytest.mark.browser
def test_a_wrong_answer_earns_zero_and_the_page_keeps_within_the_budget(served, trl_loop):
    env = webenv.trl.environment(url=served.http, max_tokens=300)()
    first = env.reset(task="shop.order_total", seed=0)
    assert chat.count_tokens(first) <= 300
    assert first.startswith(f"Goal: {env.observation['goal']}\nURL: http://shop.localhost:")
    total = webenv.grader_view(served.server.grader_env(env.session_id)).params["total_cents"]
    # One message, two calls: they run in the order they were made.
    page, ended = trl_loop.message(
        [
            lambda: env.scroll(delta_x=0, delta_y=200),
            lambda: env.send_msg_to_user(text=f"${total / 100 + 1:.2f}"),
        ]
    )
    assert chat.count_tokens(page) <= 300 and "Last action: scroll(0, 200)" in page
    assert ended == "The episode is over. Stop calling tools."
    assert env.get_reward() == 0.0 and env.fault is None and env.steps == 2
    late = trl_loop.message([lambda: env.noop()])[0]
    assert isinstance(late, webenv.ActionError) and "episode is over" in str(late)
    # The next episode on the same instance: the same session, a fresh reward.
    session = env.session_id
    env.reset(task="shop.order_total", seed=0)
    trl_loop.message([lambda: env.send_msg_to_user(text=f"${total / 100:.2f}")])
    assert env.get_reward() == 1.0 and env.session_id == session


@pytest.mark.browser
def test_a_connection_closed_between_episodes_is_opened_again(served, trl_loop):
    env = webenv.trl.environment(url=served.http)()
    env.reset(task="mail.mark_unread", seed=0)
    first = env.session_id
    webenv.trl._LOOP.submit(env._socket.close()).result(10)  # as when the server reaps it
    env.reset(task="mail.mark_unread", seed=0)
    assert env.fault is None and env.session_id != first
    assert "[" in env.observation["axtree"]


@pytest.mark.browser
def test_a_killed_chromium_is_no_reward_at_all(served, trl_loop):
    env = webenv.trl.environment(url=served.http)()
    env.reset(task="mail.mark_unread", seed=0)
    outcome: list[Any] = []
    waiting = threading.Thread(
        target=lambda: outcome.extend(trl_loop.message([lambda: env.noop(wait_ms=2000)]))
    )
    waiting.start()
    time.sleep(0.5)  # the step is waiting in the browser
    killed = chromium_pids() - served.chromium_before
    assert killed
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    waiting.join(120)
    assert outcome and "The environment failed (browser_crash" in outcome[0]
    assert "not scored" in outcome[0]
    assert env.get_reward() is None and env.fault["kind"] == "browser_crash"
    # The server relaunches Chromium: the next episode is scored again.
    env.reset(task="mail.mark_unread", seed=0)
    assert env.fault is None and env.get_reward() == 0.0


@pytest.mark.browser
def test_a_step_past_the_servers_bound_is_no_reward_and_the_next_reset_opens_a_new_session(
    served, trl_loop
):
    env = webenv.trl.environment(url=served.http)()
    env.reset(task="shop.order_total", seed=3)
    first = env.session_id
    pool = served.server.pool
    bound, pool.step_timeout = pool.step_timeout, 0.3
    try:
        [ended] = trl_loop.message([lambda: env.noop(wait_ms=3000)])
    finally:
        pool.step_timeout = bound
    assert "The environment failed (timeout" in ended
    assert env.get_reward() is None and env.fault["kind"] == "timeout"
    # The server closed that session after the fault: the next reset gets a new one.
    env.reset(task="shop.order_total", seed=3)
    assert env.fault is None and env.session_id != first and not env.done

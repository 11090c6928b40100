"""webenv.verifiers: verifiers' (0.4, ``verifiers.v1``) OpenEnv env playing webenv's
episodes against a real ``webenv server``.

verifiers' full engine runs each model through a harness program it sets up with ``uv``
(``runtime.prepare_uv_script``: ``uv sync --script``, which downloads the program's packages
from PyPI): one test runs ``vf-eval`` whole, where ``uv`` is installed, against a stand-in
OpenAI-compatible model. The others drive the seam below the engine: the env's own
``run(task, agents)`` (verifiers' ``OpenEnvEnv``, unchanged, and :class:`WebEnvEnv`) on our
tasks, with ``agents`` built by verifiers' own ``Agents`` and a scripted player whose
interaction answers each user turn with verifiers' ``Segment`` and records on a real
verifiers ``Trace``. The player replays the oracle's actions as bare action strings, as a
model told by :func:`webenv.verifiers.system_prompt` answers.

verifiers 0.4 and openenv 0.10 cannot be installed together (mcp 2 against fastmcp 3's
mcp<2): with verifiers, pip picks openenv 0.4.1, whose client these tests use. The module is
skipped where verifiers is not installed (it is not in the ``dev`` extra: it would pull an
older openenv and openai into the dev environment).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1")

import webenv  # noqa: E402
import webenv.verifiers  # noqa: E402
from tests.processes import chromium_pids  # noqa: E402
from tests.test_trl import Served, serve  # noqa: E402
from webenv import chat  # noqa: E402
from webenv.agents import OracleAgent  # noqa: E402
from webenv.envserver.wire import ACTION_SCHEMA  # noqa: E402

pytestmark = pytest.mark.xdist_group("verifiers")


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    yield from serve(("shop.order_total", "mail.mark_unread"), max_sessions=2)


class ScriptedInteraction:
    """What ``OpenEnvEnv.run`` uses of verifiers' ``Interaction``: ``turn`` and ``trace``."""

    def __init__(self, trace: Any, reply: Callable[[str], str]):
        self.trace = trace
        self.reply = reply
        self.turns: list[str] = []

    async def turn(self, message: str) -> Any:
        from verifiers.v1.agent import Segment
        from verifiers.v1.types import AssistantMessage

        self.turns.append(message)
        return Segment(messages=[AssistantMessage(content=self.reply(message))])


class ScriptedPlayer:
    """An agent of ``Agents`` whose ``interaction`` replays a script on a real ``Trace``."""

    def __init__(self, config: Any, reply: Callable[[str], str]):
        self.config = config
        self.reply = reply
        self.interactions: list[ScriptedInteraction] = []

    @contextlib.asynccontextmanager
    async def interaction(self, task: Any) -> AsyncIterator[ScriptedInteraction]:
        from verifiers.v1.trace import AgentInfo, Trace, TraceTask

        trace = Trace(
            task=TraceTask(type=type(task).__name__, data=task.data),
            agent=AgentInfo(config=self.config.model_copy(update={"model": "scripted"})),
        )
        interaction = ScriptedInteraction(trace, self.reply)
        self.interactions.append(interaction)
        yield interaction


def play(env_class: type, served: Served, task: Any, reply: Callable[[str], str]) -> ScriptedPlayer:
    """Run ``env_class.run(task, agents)`` with a scripted player; the player."""
    import asyncio

    from verifiers.v1.tasksets.openenv import OpenEnvEnvConfig

    config = OpenEnvEnvConfig(taskset={"id": "openenv", "base_url": served.http})
    players: list[ScriptedPlayer] = []

    def make(name: str, agent_config: Any) -> ScriptedPlayer:
        players.append(ScriptedPlayer(agent_config, reply))
        return players[-1]

    agents = vf.Agents(config, make=make)
    asyncio.run(asyncio.wait_for(env_class(config).run(task, agents), 120))
    return players[0]


def only_session(served: Served) -> str:
    [session_id] = list(served.server.pool.sessions)
    return session_id


def a_task(served: Served, template: str, seed: int, **options: Any) -> Any:
    [task] = webenv.verifiers.taskset(template, [seed], base_url=served.http, **options)
    return task


# -- the taskset (no server) ------------------------------------------------------------------


def test_the_taskset_has_one_task_per_template_and_seed_and_the_action_prompt(monkeypatch):
    monkeypatch.setenv("WEBENV_SERVER_URL", "http://127.0.0.1:8123")
    taskset = webenv.verifiers.taskset(["mail.mark_unread", "shop.order_t*"], seeds=[3, 4])
    tasks = list(taskset)
    assert [task.data.name for task in tasks] == [
        "mail.mark_unread#3",
        "shop.order_total#3",
        "mail.mark_unread#4",
        "shop.order_total#4",
    ]
    assert tasks[1].data.reset == {"task": "shop.order_total", "seed": 3, "perturb": "none"}
    assert {task.data.base_url for task in tasks} == {"http://127.0.0.1:8123"}
    assert tasks[0].data.prompt is None  # the env's first observation opens the exchange
    assert "Reply with exactly one action and nothing else" in tasks[0].data.system_prompt
    with pytest.raises(webenv.UnknownTaskError, match="No task matches"):
        webenv.verifiers.taskset("shop.nope")


def test_verifiers_plugin_loader_finds_the_taskset_and_env_in_all():
    from verifiers.v1.utils.loaders import _plugin_class

    module = webenv.verifiers
    assert _plugin_class(module, vf.Taskset, "taskset") is webenv.verifiers.WebEnvTaskset
    assert _plugin_class(module, vf.Env, "environment") is webenv.verifiers.WebEnvEnv


def test_our_action_schema_takes_a_bare_action_in_verifiers_parse_action():
    from verifiers.v1.tasksets.openenv.taskset import parse_action

    assert parse_action('click("12")', ACTION_SCHEMA) == {"action": 'click("12")'}
    fenced = '```\nfill("7", "blue shirt")\n```'
    assert parse_action(fenced, ACTION_SCHEMA) == {"action": 'fill("7", "blue shirt")'}
    assert parse_action('{"action": "noop()"}', ACTION_SCHEMA) == {"action": "noop()"}


# -- episodes against a real server --------------------------------------------------------------


@pytest.mark.browser
def test_verifiers_own_openenv_env_plays_an_oracle_episode_and_sums_the_reward(served):
    from verifiers.v1.tasksets.openenv import OpenEnvEnv

    oracle: list[OracleAgent] = []

    def reply(payload: str) -> str:
        message = json.loads(payload)
        assert message["action_schema"]["required"] == ["action"]
        observation = message["observation"]
        if not oracle:
            oracle.append(OracleAgent(served.server.grader_env(only_session(served))))
            oracle[0].reset(observation, {})
        return oracle[0].act(observation)

    player = play(OpenEnvEnv, served, a_task(served, "mail.mark_unread", 1), reply)
    [interaction] = player.interactions
    assert interaction.trace.rewards["openenv_reward"].score == 1.0
    assert len(interaction.turns) >= 2  # several steps, each observation a user turn


@pytest.mark.browser
def test_webenv_env_sends_pages_within_the_budget_and_scores_right_and_wrong(served):
    def answer(off_by: int) -> Callable[[str], str]:
        def reply(page: str) -> str:
            view = webenv.grader_view(served.server.grader_env(only_session(served)))
            return f'send_msg_to_user("${view.params["total_cents"] / 100 + off_by:.2f}")'

        return reply

    for off_by, expected in ((0, 1.0), (1, 0.0)):
        task = a_task(served, "shop.order_total", 0, max_tokens=300)
        [interaction] = play(webenv.verifiers.WebEnvEnv, served, task, answer(off_by)).interactions
        assert interaction.trace.rewards["openenv_reward"].score == expected
        [page] = interaction.turns
        assert page.startswith("Goal: ") and "URL: http://shop.localhost:" in page
        assert chat.count_tokens(page) <= 300


def _kill_chromium(served: Served) -> None:
    for pid in chromium_pids() - served.chromium_before:
        os.kill(pid, signal.SIGKILL)


@pytest.mark.browser
def test_a_killed_chromium_is_an_error_of_the_episode_not_a_reward(served):
    def reply(page: str) -> str:
        threading.Timer(0.5, _kill_chromium, args=(served,)).start()  # during the step
        return "noop(wait_ms=2000)"

    with pytest.raises(vf.EnvError, match="browser_crash"):
        play(webenv.verifiers.WebEnvEnv, served, a_task(served, "mail.mark_unread", 0), reply)
    # The server relaunches Chromium at the next reset: the next episode is scored.
    task = a_task(served, "mail.mark_unread", 0)
    player = play(webenv.verifiers.WebEnvEnv, served, task, lambda page: 'send_msg_to_user("x")')
    assert player.interactions[0].trace.rewards["openenv_reward"].score == 0.0


@pytest.mark.browser
@pytest.mark.skipif(shutil.which("uv") is None, reason="verifiers' harnesses need uv")
def test_vf_eval_plays_an_episode_against_a_standin_model(served, tmp_path, monkeypatch):
    # The whole engine: vf-eval, verifiers' openenv taskset pointed at the server, the
    # "null" harness (a chat loop) in a subprocess, and a stand-in model that answers with
    # the right total, streamed as OpenAI's API streams it.
    from flask import Flask, Response, request
    from verifiers.v1.cli.eval.main import main
    from werkzeug.serving import make_server

    app = Flask("standin")
    requests: list[Any] = []

    @app.post("/v1/chat/completions")
    def completions() -> Any:
        body = request.get_json()
        requests.append(body)
        view = webenv.grader_view(served.server.grader_env(only_session(served)))
        content = f'send_msg_to_user("${view.params["total_cents"] / 100:.2f}")'
        head = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "scripted"}
        delta = {"role": "assistant", "content": content}
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        chunks = [
            {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            {**head, "choices": [], "usage": usage},
        ]
        text = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks)
        return Response(text + "data: [DONE]\n\n", mimetype="text/event-stream")

    http = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    (tmp_path / "eval.toml").write_text(
        f"""model = "scripted"
num_rollouts = 1
[client]
base_url = "http://127.0.0.1:{http.server_port}/v1"
api_key_var = "STANDIN_KEY"
[env.taskset]
id = "openenv"
base_url = "{served.http}"
resets = [{{ task = "shop.order_total", seed = 0 }}]
[env.player.harness]
id = "null"
[env.player.runtime]
type = "subprocess"
"""
    )
    monkeypatch.setenv("STANDIN_KEY", "unused")
    monkeypatch.chdir(tmp_path)
    try:
        main(["@", "eval.toml", "--rich", "None"])
    finally:
        http.shutdown()
    [line] = next(tmp_path.glob("outputs/*/traces.jsonl")).read_text().splitlines()
    [trace] = json.loads(line)["traces"]
    assert trace["rewards"]["openenv_reward"]["score"] == 1.0
    [request_body] = requests  # one turn: the observation, answered at once
    payload = json.loads(request_body["messages"][-1]["content"])
    assert payload["observation"]["url"].startswith("http://shop.localhost:")
    assert payload["action_schema"]["required"] == ["action"]

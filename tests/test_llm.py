"""The chat-model agent, against a small OpenAI-compatible stand-in server on loopback.

The stand-in answers ``/v1/chat/completions`` the way a model would: it reads the goal and
the accessibility tree from the request and replies with prose and an action, in the forms
models use (a fenced block, inline code, nonsense), with a rate limit and an overload
thrown in.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

from webenv.actions import describe
from webenv.cli import main
from webenv.errors import WebEnvError
from webenv.llm import OpenAIChatAgent, extract_action


def scripted_reply(messages: list[dict[str, str]]) -> str:
    """Restore a message from the Trash, reading only what the agent sent."""
    page = messages[-1]["content"]
    if "Last action:" not in page:
        return "Let me look around first."  # no action at all: the env reports it
    subject = re.search(r"Goal: .*?“(.+?)”", page).group(1)
    box = re.search(rf'\[(\d+)\] checkbox "Select “{re.escape(subject)}”" (\w+)', page)
    if box is None and re.search(r"^URL: \S*/folder/trash", page, re.MULTILINE):
        return 'It is back in the Inbox.\n```\nsend_msg_to_user("Done.")\n```'
    if box is None:
        trash = re.search(r'\[(\d+)\] link "Trash"', page).group(1)
        return f'The message is in the Trash.\n```\nclick("{trash}")\n```'
    if box.group(2) == "unchecked":
        return f'I select the message.\n`check("{box.group(1)}")`'
    move = re.search(r'\[(\d+)\] button "Move to Inbox"', page).group(1)
    return f'Now I move it.\n```python\nclick("{move}")\n```\nThat should do it.'


def create_standin() -> Flask:
    app = Flask("standin")
    app.config["requests"] = []

    @app.post("/v1/chat/completions")
    def chat() -> Any:
        body = request.get_json()
        app.config["requests"].append({"auth": request.headers.get("Authorization"), **body})
        if len(app.config["requests"]) == 1:
            return (
                jsonify(error={"message": "slow down", "type": "rate_limit"}),
                429,
                {"retry-after-ms": "20"},
            )
        if len(app.config["requests"]) == 4:
            return jsonify(error={"message": "overloaded", "type": "server_error"}), 503
        reply = scripted_reply(body["messages"])
        return jsonify(
            id=f"chatcmpl-{len(app.config['requests'])}",
            object="chat.completion",
            created=0,
            model=body["model"],
            choices=[
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply},
                    "finish_reason": "stop",
                }
            ],
            usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        )

    @app.post("/denied/v1/chat/completions")
    def denied() -> Any:
        return jsonify(error={"message": "Incorrect API key", "type": "invalid_api_key"}), 401

    return app


@pytest.fixture(scope="module")
def standin() -> Iterator[tuple[str, Flask]]:
    app = create_standin()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ('I will search.\n```\nfill("7", "boots")\n```', 'fill("7", "boots")'),
        ('```python\nclick("3")\n```\nor rather\n```\nclick("4")\n```', 'click("4")'),
        ('```\nnot an action\n```\nclick("5")', 'click("5")'),
        ('Thinking...\nclick("9")', 'click("9")'),
        ('Answer: `send_msg_to_user("$24.99")`', 'send_msg_to_user("$24.99")'),
        ('```\ncheck("1")\nclick("2")\n```', 'check("1")\nclick("2")'),
        ("I am not sure what to do.", "I am not sure what to do."),
        ("", ""),
    ],
)
def test_one_action_is_taken_from_the_reply(reply, action):
    assert extract_action(reply) == action


@pytest.mark.browser  # Chromium in a process or thread of its own
def test_a_real_episode_runs_end_to_end_against_the_standin(standin, tmp_path, monkeypatch):
    url, app = standin
    app.config["requests"].clear()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-standin")
    out = tmp_path / "run"
    code = main(
        ["eval", "--agent", "openai", "--model", "standin-1", "--base-url", f"{url}/v1",
         "--tasks", "mail.restore_from_trash", "--episodes", "1", "--out", str(out)]
    )  # fmt: skip
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["successes"] == 1 and summary["errors"] == 0
    assert summary["agent_options"] == {"model": "standin-1", "base_url": f"{url}/v1"}
    [result] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert result["success"] is True and result["steps"] == 5  # nonsense, Trash, check, move, done

    sent = app.config["requests"]
    assert len(sent) == 7  # a 429 and a 503 were retried
    assert sent[0]["messages"] == sent[1]["messages"]
    assert sent[3]["messages"] == sent[4]["messages"]
    assert {r["model"] for r in sent} == {"standin-1"}
    assert {r["auth"] for r in sent} == {"Bearer sk-standin"}
    system = sent[1]["messages"][0]
    assert system["role"] == "system" and describe() in system["content"]
    first_page = sent[1]["messages"][-1]["content"]
    assert first_page.startswith(f"Goal: {result['goal']}\nURL: http://mail.localhost:")
    assert re.search(r'^\s*\[\d+\] link "Trash" -> /folder/trash$', first_page, re.MULTILINE)
    # the nonsense reply came back to the model as the env's parse error, with history
    second = sent[2]["messages"]
    assert "Last action: Let me look around first." in second[-1]["content"]
    assert "Error of the last action: Could not parse" in second[-1]["content"]
    assert second[-2] == {"role": "assistant", "content": "Let me look around first."}
    assert "Page:" not in second[-3]["content"]  # past pages are kept short
    assert len(sent[-1]["messages"]) == 1 + 2 * 4 + 1  # system, 4 past turns (the most), this page


def test_a_refused_key_stops_the_run_with_advice(standin):
    url, _ = standin
    agent = OpenAIChatAgent("standin-1", base_url=f"{url}/denied/v1", api_key="wrong")
    observation = {"goal": "g", "url": "u", "axtree": "", "last_action": "",
                   "last_action_error": ""}  # fmt: skip
    with pytest.raises(WebEnvError, match="OPENAI_API_KEY or pass --api-key"):
        agent.act(observation)


def test_the_openai_agent_needs_a_model_and_other_agents_take_no_model(tmp_path, capsys):
    assert main(["eval", "--agent", "openai", "--tasks", "shop.fill_cart", "--out",
                 str(tmp_path)]) == 2  # fmt: skip
    assert "needs a model: --model" in capsys.readouterr().err
    assert main(["eval", "--agent", "noop", "--model", "m", "--tasks", "shop.fill_cart",
                 "--out", str(tmp_path)]) == 2  # fmt: skip
    assert "--model only go with --agent openai" in capsys.readouterr().err

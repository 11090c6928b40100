"""The chat-model agent, against a small OpenAI-compatible stand-in server on loopback.

The stand-in answers ``/v1/chat/completions`` the way a model would: it reads the goal and
the accessibility tree from the request and replies with tool calls (one to a tool that does
not exist), or with prose and an action in the forms models use (a fenced block, inline
code), or with a reply no agent can use; with a rate limit and an overload thrown in.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

from webenv import chat
from webenv.actions import describe
from webenv.cli import main
from webenv.errors import WebEnvError
from webenv.llm import OpenAIChatAgent, UnusableReplyError, extract_action


def page_of(messages: list[dict[str, Any]]) -> str:
    """The last page the agent sent (a refused call's answer may come after it)."""
    content = [m for m in messages if m["role"] == "user"][-1]["content"]
    if isinstance(content, list):  # with a screenshot: the text part
        return "".join(part["text"] for part in content if part["type"] == "text")
    return content


def scripted_action(page: str) -> tuple[str, dict[str, Any]]:
    """Restore a message from the Trash, reading only what the agent sent: the next call."""
    subject = re.search(r"Goal: .*?“(.+?)”", page).group(1)
    box = re.search(rf'\[(\d+)\] checkbox "Select “{re.escape(subject)}”" (\w+)', page)
    if box is None and re.search(r"^URL: \S*/folder/trash", page, re.MULTILINE):
        return "send_msg_to_user", {"text": "Done."}
    if box is None:
        trash = re.search(r'\[(\d+)\] link "Trash"', page).group(1)
        return "click", {"bid": trash, "button": None, "modifiers": None}
    if box.group(2) == "unchecked":
        return "check", {"bid": box.group(1)}
    move = re.search(r'\[(\d+)\] button "Move to Inbox"', page).group(1)
    return "click", {"bid": move, "button": None, "modifiers": None}


def text_reply(name: str, arguments: dict[str, Any]) -> str:
    """The call written as models write it, in the forms they use."""
    action = f"{name}({json.dumps(next(iter(arguments.values())))})"
    if name == "check":
        return f"I select the message.\n`{action}`"
    if name == "send_msg_to_user":
        return f"It is back in the Inbox.\n```\n{action}\n```"
    return f"On it.\n```python\n{action}\n```\nThat should do it."


def scripted_message(mode: str, messages: list[dict[str, Any]], count: int) -> dict[str, Any]:
    """The assistant message of the stand-in's reply in ``mode``: ``tools`` (tool calls, the
    first one to a tool that does not exist), ``text`` (an action in prose), or one reply the
    agent cannot use: ``prose`` (no action), ``bad_json`` (arguments cut off), ``wrong_tool``
    (never a real tool)."""
    page = page_of(messages)
    if mode == "prose":
        return {"role": "assistant", "content": "Let me look around first."}
    name, arguments = scripted_action(page)
    if mode == "text":
        return {"role": "assistant", "content": text_reply(name, arguments)}
    encoded = json.dumps(arguments)
    first_try = "Last action:" not in page and messages[-1]["role"] == "user"
    if mode == "wrong_tool" or (mode == "tools" and first_try):
        name, encoded = "open_folder", '{"name": "Trash"}'
    if mode == "bad_json":
        encoded = encoded[:-3]
    call = {"id": f"call_{count}", "type": "function",
            "function": {"name": name, "arguments": encoded}}  # fmt: skip
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def create_standin() -> Flask:
    app = Flask("standin")
    app.config.update(requests=[], mode="tools", flaky=False)

    @app.post("/v1/chat/completions")
    def chat() -> Any:
        body = request.get_json()
        app.config["requests"].append({"auth": request.headers.get("Authorization"), **body})
        count = len(app.config["requests"])
        if app.config["flaky"] and count == 1:
            return (
                jsonify(error={"message": "slow down", "type": "rate_limit"}),
                429,
                {"retry-after-ms": "20"},
            )
        if app.config["flaky"] and count == 4:
            return jsonify(error={"message": "overloaded", "type": "server_error"}), 503
        message = scripted_message(app.config["mode"], body["messages"], count)
        return jsonify(
            id=f"chatcmpl-{len(app.config['requests'])}",
            object="chat.completion",
            created=0,
            model=body["model"],
            choices=[
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if message.get("tool_calls") else "stop",
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


def run_eval(url: str, out: Path, *flags: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """``webenv eval`` of the openai agent on one episode: exit code, summary, result."""
    code = main(
        ["eval", "--agent", "openai", "--model", "standin-1", "--base-url", f"{url}/v1",
         "--tasks", "mail.restore_from_trash", "--episodes", "1", "--out", str(out), *flags]
    )  # fmt: skip
    summary = json.loads((out / "summary.json").read_text())
    [result] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return code, summary, result


@pytest.mark.browser  # Chromium in a process or thread of its own
def test_a_real_episode_runs_on_tool_calls_against_the_standin(standin, tmp_path, monkeypatch):
    url, app = standin
    app.config.update(requests=[], mode="tools", flaky=True)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-standin")
    code, summary, result = run_eval(url, tmp_path / "run")
    assert code == 0
    assert summary["successes"] == 1 and summary["errors"] == 0
    assert summary["agent_options"] == {"model": "standin-1", "base_url": f"{url}/v1"}
    assert result["success"] is True and result["reward"] == 1.0
    assert result["steps"] == 4  # Trash, check, move, done

    sent = app.config["requests"]
    assert len(sent) == 7  # a 429 and a 503 were retried, a refused call asked again
    assert sent[0]["messages"] == sent[1]["messages"]
    assert sent[3]["messages"] == sent[4]["messages"]
    assert {r["model"] for r in sent} == {"standin-1"}
    assert {r["auth"] for r in sent} == {"Bearer sk-standin"}
    assert all(r["tools"] == chat.tools() for r in sent)
    assert all(r["max_completion_tokens"] == 1024 and "max_tokens" not in r for r in sent)
    system, first_page = sent[1]["messages"]
    assert system == {"role": "system", "content": chat.system_prompt(tools=True)}
    assert first_page["content"].startswith(f"Goal: {result['goal']}\nURL: http://mail.localhost:")
    assert re.search(r'^\s*\[\d+\] link "Trash" -> /folder/trash$', first_page["content"], re.M)
    # the call to a tool that does not exist was answered with the reason, and asked again
    refused, answer = sent[2]["messages"][-2:]
    assert refused["tool_calls"][0]["function"]["name"] == "open_folder"
    assert answer["role"] == "tool" and answer["tool_call_id"] == refused["tool_calls"][0]["id"]
    assert answer["content"].startswith("Error: There is no tool 'open_folder'.")
    # each call taken is answered with how the step went, then comes the page
    *_, call, done, page = sent[4]["messages"]
    assert call["tool_calls"][0]["function"]["name"] == "click"
    assert done == {"role": "tool", "tool_call_id": call["tool_calls"][0]["id"], "content": "OK."}
    assert page["role"] == "user" and "Last action: click(" in page["content"]
    assert "Page:" not in sent[-1]["messages"][1]["content"]  # past pages are kept short
    assert len(sent[-1]["messages"]) == 1 + 5 + 3 + 3 + 1  # system, 3 past turns, this page


@pytest.mark.browser  # Chromium in a process or thread of its own
def test_a_real_episode_runs_on_text_actions_against_the_standin(standin, tmp_path):
    url, app = standin
    app.config.update(requests=[], mode="text", flaky=False)
    code, summary, result = run_eval(url, tmp_path / "run", "--text-actions", "--timeout", "30")
    assert code == 0 and summary["successes"] == 1 and summary["errors"] == 0
    assert summary["agent_options"] == {
        "model": "standin-1", "base_url": f"{url}/v1", "timeout": 30.0, "tools": False
    }  # fmt: skip
    assert result["success"] is True and result["reward"] == 1.0 and result["steps"] == 4
    sent = app.config["requests"]
    assert len(sent) == 4 and not any("tools" in r for r in sent)
    system = sent[0]["messages"][0]
    assert system["role"] == "system" and describe() in system["content"]
    second = sent[1]["messages"]
    assert second[-2]["role"] == "assistant" and '```python\nclick("' in second[-2]["content"]
    assert "Last action: click(" in second[-1]["content"]
    assert len(sent[-1]["messages"]) == 1 + 2 * 3 + 1


@pytest.mark.browser  # Chromium in a process or thread of its own
def test_a_reply_without_an_action_is_an_episode_fault_with_the_reason(standin, tmp_path):
    url, app = standin
    app.config.update(requests=[], mode="prose", flaky=False)
    code, summary, result = run_eval(url, tmp_path / "run")
    assert code == 1 and summary["errors"] == 1 and summary["successes"] == 0
    assert result["steps"] == 0 and "UnusableReplyError" in result["error"]
    assert "holds no tool call and no action: 'Let me look around first.'" in result["error"]


OBSERVATION = {"goal": "g", "url": "u", "axtree": "", "last_action": "", "last_action_error": ""}


@pytest.mark.parametrize(
    ("mode", "requests", "reason"),
    [
        ("prose", 1, "The model's reply holds no tool call and no action"),
        ("bad_json", 1, "The model called 'click' with arguments that are not JSON"),
        ("wrong_tool", 3, "tool calls were still refused: There is no tool 'open_folder'"),
    ],
)
def test_a_reply_the_agent_cannot_use_raises_the_reason(standin, mode, requests, reason):
    url, app = standin
    app.config.update(requests=[], mode=mode, flaky=False)
    page = {**OBSERVATION, "axtree": '[5] link "Trash" -> /folder/trash',
            "goal": "Restore “Lunch” from the Trash."}  # fmt: skip
    agent = OpenAIChatAgent("standin-1", base_url=f"{url}/v1", repairs=2)
    with pytest.raises(UnusableReplyError, match=re.escape(reason)):
        agent.act(page)
    assert len(app.config["requests"]) == requests
    assert not isinstance(UnusableReplyError("x"), WebEnvError)  # a fault, not a stopped run


def test_a_screenshot_goes_along_only_when_asked(standin):
    url, app = standin
    page = {**OBSERVATION, "axtree": '[5] link "Trash" -> /folder/trash',
            "goal": "Restore “Lunch” from the Trash.",
            "screenshot": np.full((36, 64, 3), 90, dtype=np.uint8)}  # fmt: skip
    for screenshot in (False, True):
        app.config.update(requests=[], mode="text", flaky=False)
        agent = OpenAIChatAgent("standin-1", base_url=f"{url}/v1", screenshot=screenshot)
        assert agent.act(page) == 'click("5")'
        [sent] = app.config["requests"]
        content = sent["messages"][-1]["content"]
        if screenshot:
            assert [part["type"] for part in content] == ["text", "image_url"]
            assert content[1]["image_url"]["url"].startswith("data:image/jpeg;base64,")
        else:
            assert isinstance(content, str) and content.startswith("Goal: Restore")


def test_the_timeout_bounds_each_request(standin):
    url, _ = standin
    agent = OpenAIChatAgent("standin-1", base_url=f"{url}/v1", timeout=3.5)
    assert agent.client.timeout.read == 3.5 and agent.client.timeout.connect == 3.5


def test_a_refused_key_stops_the_run_with_advice(standin):
    url, _ = standin
    agent = OpenAIChatAgent("standin-1", base_url=f"{url}/denied/v1", api_key="wrong")
    with pytest.raises(WebEnvError, match="OPENAI_API_KEY or pass --api-key"):
        agent.act(OBSERVATION)


def test_the_openai_agent_needs_a_model_and_other_agents_take_no_model(tmp_path, capsys):
    assert main(["eval", "--agent", "openai", "--tasks", "shop.fill_cart", "--out",
                 str(tmp_path)]) == 2  # fmt: skip
    assert "needs a model: --model" in capsys.readouterr().err
    assert main(["eval", "--agent", "noop", "--model", "m", "--tasks", "shop.fill_cart",
                 "--out", str(tmp_path)]) == 2  # fmt: skip
    assert "--model only go with --agent openai" in capsys.readouterr().err

"""webenv demos: the oracle's episodes as chat transcripts, read back by ``datasets``, the same
file for the same command (in this process or in a worker), and nothing of the task's secrets
in what the model is shown."""

from __future__ import annotations

import itertools
import json
from typing import Any

import gymnasium as gym
import pytest

import webenv
from tests.test_leaks import leaked, secrets
from webenv import chat, demos
from webenv.cli import main, parse_seeds
from webenv.tasks import env_id, get_template
from webenv.validate.episodes import idle

TEMPLATE = "shop.order_total"


def test_the_plan_orders_templates_profiles_seeds_and_adds_a_near_miss_per_seed():
    template = get_template(TEMPLATE)
    jobs = demos.plan([template], [3, 4], ["none", "heavy"], include_failures=True)
    misses = sorted(template.near_misses())
    assert [(job.perturb, job.seed, job.near_miss) for job in jobs] == [
        ("none", 3, None),
        ("none", 3, misses[3 % len(misses)]),
        ("none", 4, None),
        ("none", 4, misses[4 % len(misses)]),
        ("heavy", 3, None),
        ("heavy", 3, misses[3 % len(misses)]),
        ("heavy", 4, None),
        ("heavy", 4, misses[4 % len(misses)]),
    ]
    assert [job.seed for job in demos.plan([template], [3, 4], ["none"])] == [3, 4]


@pytest.mark.parametrize("text", ["0-999", "7", "3,5,8", "0-2,5,7-9", "4,3"])
def test_the_card_writes_the_seeds_as_the_command_takes_them(text):
    seeds = parse_seeds(text)
    assert demos.seeds_text(seeds) == text
    assert parse_seeds(demos.seeds_text(seeds)) == seeds


def test_bad_options_are_refused_before_any_episode(capsys, tmp_path):
    assert main(["demos", "--tasks", "shop.ordr_total", "--out", str(tmp_path)]) == 2
    assert "Did you mean shop.order_total" in capsys.readouterr().err
    assert main(["demos", "--tasks", TEMPLATE, "--max-tokens", "-1"]) == 2
    assert "--max-tokens" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


@pytest.mark.browser  # the second run's worker process starts a Chromium of its own
def test_demos_are_chat_transcripts_the_same_for_the_same_command(tmp_path, capsys):
    command = ["demos", "--tasks", TEMPLATE, "--seeds", "0", "--include-failures"]
    assert main([*command, "--out", str(tmp_path / "a")]) == 0
    assert main([*command, "--workers", "1", "--out", str(tmp_path / "b")]) == 0
    written = (tmp_path / "a" / demos.DEMOS_FILE).read_bytes()
    assert written == (tmp_path / "b" / demos.DEMOS_FILE).read_bytes()

    import datasets

    rows = datasets.load_dataset(
        "json", data_files=str(tmp_path / "a" / demos.DEMOS_FILE), split="train"
    ).to_list()
    assert [row["label"] for row in rows] == ["success", "near-miss"]
    success, miss = rows
    assert success["reward"] == 1.0 and miss["reward"] == 0.0 and miss["near_miss"]
    assert success["task"]["template"] == TEMPLATE and success["task"]["seed"] == 0
    assert "params" not in success["task"]
    assert json.loads(success["tools"]) == chat.tools()
    for row in rows:
        check_transcript(row["messages"], row["steps"])
    final = success["messages"][-1]["tool_calls"][-1]["function"]
    assert final["name"] == "send_msg_to_user" and "$" in json.loads(final["arguments"])["text"]

    card = (tmp_path / "a" / demos.CARD_FILE).read_text()
    assert f"| {TEMPLATE} | 1 | 1 | 0 |" in card and "| none | 1 | 1 | 0 |" in card
    assert f"webenv demos --tasks {TEMPLATE} --seeds 0 --perturb none --max-tokens 4000" in card
    assert "license: mit" in card
    assert card == (tmp_path / "b" / demos.CARD_FILE).read_text().replace(
        str(tmp_path / "b"), str(tmp_path / "a")
    )


def check_transcript(messages: list[dict[str, Any]], steps: int) -> None:
    """System, then per step: a page, the assistant's calls, a result for each call (the last
    step's calls end the transcript)."""
    assert messages[0] == {"role": "system", "content": chat.system_prompt()}
    assistants = [m for m in messages if m["role"] == "assistant"]
    assert len(assistants) == steps
    pending: list[str] = []
    for previous, message in itertools.pairwise(messages):
        if message["role"] == "user":
            assert not pending and message["content"].startswith("Goal: ")
        elif message["role"] == "assistant":
            assert previous["role"] == "user" and message["tool_calls"]
            pending = [call["id"] for call in message["tool_calls"]]
        else:
            assert message["role"] == "tool" and message["tool_call_id"] == pending.pop(0)
            assert message["content"] == "OK." or message["content"].startswith("Error: ")
    assert messages[-1]["role"] == "assistant"


def test_a_transcript_shows_the_pages_as_chat_renders_them_and_no_secret(browser):
    # Under heavy perturbations, with the trusted view read at every step: the pages are
    # webenv.chat's renders of the observations; no secret is in the task, the events, the
    # tools or the tool results, and the user messages hold none the pages did not show.
    env = gym.make(env_id(get_template(TEMPLATE)), observe=demos.OBSERVE)
    seen: list[dict[str, Any]] = []
    hidden: dict[str, str] = {}
    kinds: list[str] = []

    def on_step(observation: Any, info: Any) -> None:
        seen.append(dict(observation))
        hidden.update(secrets(webenv.grader_view(env), observation["goal"]))
        kinds.extend(event["kind"] for event in webenv.grader_view(env).events)

    try:
        line = demos.transcript(env, 1, "heavy", budget=chat.DEFAULT_BUDGET, on_step=on_step)
        # A policy that stops short of the goal: a failed episode, marked so, reward 0.
        failed = demos.transcript(env, 1, policy=idle(1))
    finally:
        env.close()
    assert failed["label"] == "failed" and failed["reward"] == 0.0 and failed["steps"] == 2
    assert failed["error"] == "the oracle's episode was not rewarded"
    roles = [message["role"] for message in failed["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "user", "assistant"]
    assert line["label"] == "success" and line["reward"] == 1.0
    assert line["events"] == list(dict.fromkeys(kinds)) and line["events"]
    assert any(value.startswith("task parameter") for value in hidden.values())
    assert any(value.startswith("check message") for value in hidden.values())
    pages = [m for m in line["messages"] if m["role"] == "user"]
    assert len(pages) == line["steps"] == len(seen) - 1
    port = seen[0]["url"].split(":")[2].split("/")[0]
    for page, observation in zip(pages, seen, strict=False):
        rendered = chat.render(observation, chat.DEFAULT_BUDGET)["content"]
        assert page["content"] == rendered.replace(f".localhost:{port}", ".localhost:8000")

    shown = json.dumps(seen, default=str)
    unseen = {value: source for value, source in hidden.items() if value not in shown}
    public = {key: value for key, value in line.items() if key != "messages"}
    tool_results = [m for m in line["messages"] if m["role"] == "tool"]
    assert not leaked({"public": public, "tool": tool_results}, hidden)
    assert not leaked({"pages": pages}, unseen)
    told = [m for m in line["messages"][:-1] if m["role"] == "assistant"]
    assert not leaked({"calls": told}, unseen)

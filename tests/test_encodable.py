"""An agent's text with lone surrogates (``press("\\ud800")``, or a raw one in the action a
client sends as JSON) comes back in the observation (``last_action``, the key's error), and an
observation must still go through JSON: in the env, and over the env server, whose answer would
otherwise be an HTTP 500 with no reward and no fault."""

from __future__ import annotations

import json

import gymnasium as gym
from starlette.testclient import TestClient

import webenv
from webenv.env import encodable

ACTIONS = ('keyboard_press("\\ud800")', 'press("8", "\\udfff")', "scroll(0, 1)\ud800")


def test_strings_become_what_utf8_carries():
    assert encodable("a\ud800b") == "a\ufffdb"
    assert encodable("\ud83d\ude00") == "\U0001f600"  # a pair makes its character
    assert encodable({"x": ["\udfff", 1], "y": "plain"}) == {"x": ["\ufffd", 1], "y": "plain"}


def test_an_observation_after_a_lone_surrogate_encodes(browser):
    with gym.make("webenv/shop.order_total-v0", observe=("axtree", "dom", "elements")) as env:
        env.reset(seed=0)
        for action in ACTIONS:
            observation, reward, terminated, _, info = env.step(action)
            json.dumps(observation, ensure_ascii=False).encode("utf-8")
            json.dumps(info, default=str, ensure_ascii=False).encode("utf-8")
            assert observation["last_action_error"], action  # refused, and said so
            assert reward == 0.0 and not terminated


def test_the_env_server_answers_a_step_with_a_lone_surrogate(browser):
    with TestClient(webenv.server_app(["shop.order_total"], max_sessions=1)) as client:
        reset = client.post("/reset", json={"task": "shop.order_total", "seed": 0})
        session = reset.json()["metadata"]["session_id"]
        for action in ACTIONS:
            body = json.dumps({"session_id": session, "action": {"action": action}})  # "\\ud800"
            step = client.post("/step", content=body, headers={"content-type": "application/json"})
            assert step.status_code == 200, step.text
            assert step.json()["observation"]["last_action_error"]
        client.post("/close", json={"session_id": session})

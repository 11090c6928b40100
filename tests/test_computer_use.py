"""webenv.computer_use: strict tools for screenshot-only agents, each call mapped onto the
env's coordinate actions, strict errors; and an episode of a screenshot-only env driven
through it to its reward in the real browser."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym
import jsonschema
import pytest

import webenv
from webenv import computer_use as cu
from webenv.actions import parse
from webenv.errors import ActionError

# --- the tools ------------------------------------------------------------------------------


def test_every_tool_is_valid_for_openai_strict_mode():
    tools = cu.tools()
    assert [tool["function"]["name"] for tool in tools] == list(cu.TOOLS)
    for tool in tools:
        function = tool["function"]
        schema = function["parameters"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert tool["type"] == "function" and function["strict"] is True
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert schema["required"] == list(schema["properties"])
        for arg in cu.TOOLS[function["name"]].args:
            validator = jsonschema.Draft202012Validator(schema["properties"][arg.name])
            assert validator.is_valid(None) is arg.optional, (function["name"], arg.name)
    click = next(t for t in tools if t["function"]["name"] == "click")["function"]
    button = jsonschema.Draft202012Validator(click["parameters"]["properties"]["button"])
    assert button.is_valid("right") and not button.is_valid("back")


#: Each call, and the env action it maps onto.
MAPPED = [
    ("screenshot", {}, "noop(0)"),
    ("click", {"x": 10, "y": 20, "button": None}, 'mouse_click(10, 20, "left")'),
    ("click", {"x": 10, "y": 20, "button": "middle"}, 'mouse_click(10, 20, "middle")'),
    ("double_click", {"x": 5, "y": 6}, 'mouse_dblclick(5, 6, "left")'),
    ("right_click", {"x": 5, "y": 6}, 'mouse_click(5, 6, "right")'),
    ("move", {"x": 1279, "y": 719}, "mouse_move(1279, 719)"),
    ("type", {"text": 'a "quote"\n'}, 'keyboard_type("a \\"quote\\"\\n")'),
    ("key", {"keys": "ctrl+a"}, 'keyboard_press("Control+a")'),
    ("key", {"keys": "Return"}, 'keyboard_press("Enter")'),
    (
        "key",
        {"keys": "ctrl+shift+Tab BackSpace super+space F5 ctrl+minus"},
        'keyboard_press("Control+Shift+Tab")\nkeyboard_press("Backspace")\n'
        'keyboard_press("Meta+Space")\nkeyboard_press("F5")\nkeyboard_press("Control+-")',
    ),
    (
        "scroll",
        {"x": 640, "y": 360, "direction": "down", "amount": 3},
        "mouse_move(640, 360)\nscroll(0, 300)",
    ),
    (
        "scroll",
        {"x": 640, "y": 360, "direction": "left", "amount": 2},
        "mouse_move(640, 360)\nscroll(-200, 0)",
    ),
    (
        "drag",
        {"from_x": 1, "from_y": 2, "to_x": 3, "to_y": 4},
        'mouse_down(1, 2, "left")\nmouse_move(3, 4)\nmouse_up(3, 4, "left")',
    ),
    ("wait", {"ms": 250}, "noop(250)"),
    ("done", {}, 'send_msg_to_user("Done.")'),
    ("answer", {"text": "$58.20"}, 'send_msg_to_user("$58.20")'),
    ("infeasible", {"reason": "No such item."}, 'report_infeasible("No such item.")'),
]


@pytest.mark.parametrize(("name", "arguments", "action"), MAPPED)
def test_each_call_maps_onto_the_envs_coordinate_actions(name, arguments, action):
    [tool] = [t for t in cu.tools() if t["function"]["name"] == name]
    jsonschema.validate(arguments, tool["function"]["parameters"])
    assert cu.action_from_tool_call(name, arguments) == action
    assert cu.action_from_tool_call(name, json.dumps(arguments)) == action
    parse(action)


def test_every_tool_is_mapped():
    assert {name for name, _, _ in MAPPED} == set(cu.TOOLS)


@pytest.mark.parametrize(
    ("name", "arguments", "reason"),
    [
        ("clik", {}, "There is no tool 'clik'. Did you mean click?"),
        ("click", "{x: 1}", "not valid JSON"),
        ("click", "[1, 2]", "must be a JSON object"),
        ("click", {"x": 1, "y": 2}, "click needs 'button' (null for"),
        ("click", {"x": 1, "y": 2, "button": None, "z": 1}, "no argument 'z'"),
        ("click", {"x": "1", "y": 2, "button": None}, "x must be an integer, not '1'"),
        ("click", {"x": 1.5, "y": 2, "button": None}, "x must be an integer"),
        ("click", {"x": True, "y": 2, "button": None}, "x must be an integer"),
        ("click", {"x": 1, "y": 2, "button": "back"}, "button must be one of 'left'"),
        ("click", {"x": 1280, "y": 2, "button": None}, "x=1280 is off the screen"),
        ("drag", {"from_x": 1, "from_y": -1, "to_x": 3, "to_y": 4}, "from_y=-1 is off"),
        ("type", {"text": None}, "type: text must be a string"),
        ("key", {"keys": "ctrl+Retrun"}, "unknown key 'Retrun' in 'ctrl+Retrun'. Did you mean"),
        ("key", {"keys": "hyper+a"}, "'hyper' in 'hyper+a' is not a modifier"),
        ("key", {"keys": "  "}, "keys is empty"),
        ("key", {"keys": " ".join(["a"] * 11)}, "11 key combinations; at most 10"),
        ("scroll", {"x": 1, "y": 1, "direction": "down", "amount": -2}, "amount must be 0"),
        ("scroll", {"x": 1, "y": 1, "direction": "back", "amount": 2}, "direction must be"),
        ("wait", {"ms": -5}, "ms must be 0 or more"),
    ],
)
def test_bad_calls_are_refused_saying_what_to_fix(name, arguments, reason):
    with pytest.raises(ActionError, match=None) as raised:
        cu.action_from_tool_call(name, arguments)
    assert reason in str(raised.value)


def test_a_smaller_viewport_bounds_the_points():
    assert cu.action_from_tool_call("move", {"x": 799, "y": 599}, viewport=(800, 600))
    with pytest.raises(ActionError, match="800×600"):
        cu.action_from_tool_call("move", {"x": 800, "y": 5}, viewport=(800, 600))


@pytest.mark.parametrize(
    ("tool_input", "action"),
    [
        ({"action": "screenshot"}, "noop(0)"),
        ({"action": "left_click", "coordinate": [3, 4]}, 'mouse_click(3, 4, "left")'),
        ({"action": "middle_click", "coordinate": [3, 4]}, 'mouse_click(3, 4, "middle")'),
        ({"action": "right_click", "coordinate": [3, 4]}, 'mouse_click(3, 4, "right")'),
        ({"action": "double_click", "coordinate": [3, 4]}, 'mouse_dblclick(3, 4, "left")'),
        ({"action": "triple_click", "coordinate": [3, 4]}, 'mouse_click(3, 4, "left")\n' * 2
         + 'mouse_click(3, 4, "left")'),
        ({"action": "mouse_move", "coordinate": [3, 4]}, "mouse_move(3, 4)"),
        ({"action": "left_mouse_down", "coordinate": [3, 4]}, 'mouse_down(3, 4, "left")'),
        ({"action": "left_mouse_up", "coordinate": [3, 4]}, 'mouse_up(3, 4, "left")'),
        ({"action": "type", "text": "hi"}, 'keyboard_type("hi")'),
        ({"action": "key", "text": "ctrl+a"}, 'keyboard_press("Control+a")'),
        (
            {"action": "scroll", "coordinate": [9, 9], "scroll_direction": "up",
             "scroll_amount": 5},
            "mouse_move(9, 9)\nscroll(0, -500)",
        ),
        (
            {"action": "left_click_drag", "start_coordinate": [1, 2], "coordinate": [3, 4]},
            'mouse_down(1, 2, "left")\nmouse_move(3, 4)\nmouse_up(3, 4, "left")',
        ),
        ({"action": "wait", "duration": 1.5}, "noop(1500)"),
    ],
)  # fmt: skip
def test_anthropics_computer_tool_maps_alike(tool_input, action):
    assert cu.action_from_anthropic(tool_input) == action


@pytest.mark.parametrize(
    ("tool_input", "reason"),
    [
        ({"action": "left_click", "coordinate": [3]}, "coordinate must be [x, y]"),
        ({"action": "left_click", "coordinate": [3, 9999]}, "y=9999 is off the screen"),
        ({"action": "left_mouse_up", "coordinate": [-1, 0]}, "x=-1 is off the screen"),
        ({"action": "wait", "duration": "1"}, "duration must be a number"),
        ({"action": "cursor_position"}, "no action 'cursor_position' here; these map:"),
    ],
)
def test_anthropic_inputs_are_as_strict(tool_input, reason):
    with pytest.raises(ActionError) as raised:
        cu.action_from_anthropic(tool_input)
    assert reason in str(raised.value)


# --- an episode -----------------------------------------------------------------------------


def center(observation: Mapping[str, Any], role: str, name: str) -> tuple[int, int]:
    """The middle of the box of the one element of ``role`` whose name holds ``name``, from
    ``elements`` (the test's eyes only: the agent is handed the screenshot)."""
    found = [
        item
        for item in json.loads(observation["elements"])
        if item["role"] == role and name in item["name"]
    ]
    assert len(found) == 1, (role, name, found)
    x, y, width, height = found[0]["box"]
    return round(x + width / 2), round(y + height / 2)


def visible(observation: Mapping[str, Any], role: str, name: str) -> bool:
    elements = json.loads(observation["elements"])
    return any(e["role"] == role and e["name"] == name and e["visible"] for e in elements)


def test_a_screenshot_only_episode_driven_by_computer_use_calls_is_rewarded(browser):
    env = gym.make("webenv/shop.change_phone-v0", observe=("screenshot", "elements"))
    try:
        observation, _ = env.reset(seed=0)
        assert "axtree" not in observation and observation["screenshot"].shape == (720, 1280, 3)
        phone = webenv.grader_view(env).params["phone"]
        assert phone in observation["goal"]

        def call(name: str, **arguments: Any) -> Mapping[str, Any]:
            action = cu.action_from_tool_call(name, arguments)
            observation, reward, terminated, _, _ = env.step(action)
            assert not observation["last_action_error"], (name, observation["last_action_error"])
            call.reward, call.terminated = reward, terminated  # type: ignore[attr-defined]
            return observation

        observation = call("screenshot")
        x, y = center(observation, "link", "Account")
        observation = call("click", x=x, y=y, button=None)
        x, y = center(observation, "link", "Account settings")
        observation = call("click", x=x, y=y, button=None)
        x, y = center(observation, "textbox", "Phone")
        observation = call("click", x=x, y=y, button=None)
        observation = call("key", keys="ctrl+a BackSpace")
        observation = call("type", text=phone)
        for _ in range(5):
            if visible(observation, "button", "Save changes"):
                break
            observation = call("scroll", x=640, y=360, direction="down", amount=3)
        x, y = center(observation, "button", "Save changes")
        observation = call("click", x=x, y=y, button=None)
        observation = call("wait", ms=100)
        observation = call("done")
        assert call.terminated and call.reward == 1.0  # type: ignore[attr-defined]
    finally:
        env.close()


def test_the_readme_snippet_runs(browser, capsys):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("## Computer-use actions", 1)[1].split("\n## ", 1)[0]
    [snippet] = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    scope: dict[str, Any] = {}
    exec(compile(snippet, "README.md", "exec"), scope)  # our own README, as a user runs it
    assert scope["observation"]["url"].endswith("/account")  # the click hit the link
    assert capsys.readouterr().out.splitlines()[-2:] == [
        'keyboard_press("Control+a")',
        'keyboard_press("Backspace")',
    ]

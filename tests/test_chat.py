"""webenv.chat: strict tool schemas, tool calls to actions and back, observations as messages
within a budget (the cuts in their order), and nothing of the task's secrets in them."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import jsonschema
import numpy as np
import pytest
from PIL import Image

import webenv
from tests.test_leaks import leaked, secrets
from webenv import chat
from webenv.actions import ACTIONS, parse
from webenv.agents import OracleAgent
from webenv.errors import ActionError
from webenv.tasks import env_id, templates

# --- tools ----------------------------------------------------------------------------------


def test_every_tool_is_valid_for_openai_strict_mode():
    tools = chat.tools()
    assert [tool["function"]["name"] for tool in tools] == list(ACTIONS)
    for tool in tools:
        function = tool["function"]
        schema = function["parameters"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert tool["type"] == "function" and function["strict"] is True
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert schema["required"] == list(schema["properties"])  # every property required
        for param in ACTIONS[function["name"]].params:
            accepts_null = jsonschema.Draft202012Validator(schema["properties"][param.name])
            assert accepts_null.is_valid(None) is (not param.required), (function, param)
            assert "default" not in schema["properties"][param.name]  # not in strict mode


#: Every action's example, and some with their optional arguments set.
ACTION_STRINGS = [spec.example for spec in ACTIONS.values()] + [
    'click("12", "right", ["Shift", "Alt"])',
    'select_option("9", ["S", "M"])',
    "noop(250)",
    "scroll(-10.5, 400)",
    'dialog_accept("yes")',
    'fill("7", "quotes \\" and ñ and \\n")',
]


@pytest.mark.parametrize("action", ACTION_STRINGS)
def test_every_action_round_trips_through_a_tool_call(action):
    [call] = chat.tool_calls_from_action(action)
    assert call["id"] == "call_0" and call["type"] == "function"
    name, arguments = call["function"]["name"], json.loads(call["function"]["arguments"])
    [tool] = [t for t in chat.tools() if t["function"]["name"] == name]
    jsonschema.validate(arguments, tool["function"]["parameters"])
    back = chat.action_from_tool_call(name, call["function"]["arguments"])
    assert parse(back) == parse(action)
    assert chat.action_from_tool_call(name, arguments) == back  # a dict works alike


def test_a_step_of_several_actions_is_several_tool_calls():
    calls = chat.tool_calls_from_action('check("1")\nclick("2")', id_prefix="step3")
    assert [c["id"] for c in calls] == ["step3_0", "step3_1"]
    assert [c["function"]["name"] for c in calls] == ["check", "click"]
    assert json.loads(calls[1]["function"]["arguments"]) == {
        "bid": "2", "button": None, "modifiers": None
    }  # fmt: skip


CLICK = {"bid": "12", "button": None, "modifiers": None}


@pytest.mark.parametrize(
    ("name", "arguments", "reason"),
    [
        ("clik", CLICK, "There is no tool 'clik'. Did you mean click?"),
        ("rm_rf", {}, "There is no tool 'rm_rf'. Call one of the tools given."),
        ("click", {**CLICK, "force": True}, "click has no argument 'force'"),
        ("click", {"bid": "12"}, "click needs 'button', 'modifiers' (null for"),
        ("click", {**CLICK, "bid": 12}, "click: bid must be a string, not an integer"),
        ("click", {**CLICK, "bid": None}, "click: bid is required, not null"),
        ("click", {**CLICK, "modifiers": [1]}, "modifiers must be a string or array of strings"),
        ("tab_focus", {"index": 1.5}, "tab_focus: index must be a integer, not a number"),
        ("tab_focus", {"index": True}, "index must be a integer, not a boolean"),
        ("scroll", {"delta_x": 0, "delta_y": 1e12}, "delta_y is out of range"),
        ("click", '{"bid": "12",', "The arguments of click are not valid JSON"),
        ("click", '["12"]', "The arguments of click must be a JSON object"),
        ("go_back", {"x": 1}, "go_back has no argument 'x'; its arguments: none"),
    ],
)
def test_a_bad_tool_call_is_refused_with_a_reason(name, arguments, reason):
    with pytest.raises(ActionError) as refused:
        chat.action_from_tool_call(name, arguments)
    assert reason in str(refused.value)
    message = chat.tool_result("call_7", str(refused.value))
    assert message == {
        "role": "tool",
        "tool_call_id": "call_7",
        "content": f"Error: {refused.value}",
    }


def test_a_tool_message_says_how_the_step_went():
    assert chat.tool_result("c", {"last_action_error": ""})["content"] == "OK."
    failed = chat.tool_result("c", {"last_action_error": "No element with id 99."})
    assert failed["content"] == "Error: No element with id 99."


# --- rendering ------------------------------------------------------------------------------


def test_tokens_are_counted_one_documented_way():
    assert chat.count_tokens('[12] button "Add to cart"') == 10  # [ 12 ] butt on " Add to cart "
    assert chat.count_tokens("Restoring") == 3  # runs of at most 4 word characters
    assert chat.count_tokens("a b\nc") == chat.count_tokens("a b") + chat.count_tokens("c")


def page(options: int = 30, text_lines: int = 40, below: int = 60) -> dict[str, Any]:
    """An observation: a form in view (a select with ``options`` options, a button), text in
    view, then ``below`` lines of products under the fold; ``elements`` says which is which."""
    lines = ['[1] heading "Returns" level=1', '[2] combobox "Reason" value="Too small"']
    elements = [{"id": "1", "visible": True}, {"id": "2", "visible": True}]
    for number in range(options):
        selected = " selected" if number == 20 else ""
        lines.append(f'  [{100 + number}] option "Reason number {number}"{selected}')
    lines.append('[3] button "Send"')
    elements.append({"id": "3", "visible": True})
    for number in range(text_lines):
        lines.append(f'StaticText "Policy paragraph {number} says something long enough"')
    lines.append('[4] region "More products"')
    elements.append({"id": "4", "visible": False})
    for number in range(below):
        lines.append(f'  [{500 + number}] link "Product {number}" -> /p/{number}')
        elements.append({"id": str(500 + number), "visible": False})
    return {
        "goal": "Return the boots.",
        "url": "http://shop.localhost:8000/returns",
        "tabs": "*0 Returns — http://shop.localhost:8000/returns",
        "dialog": "",
        "focused": "",
        "last_action": 'click("3")',
        "last_action_error": "",
        "axtree": "\n".join(lines),
        "elements": json.dumps(elements),
    }


def test_a_page_within_the_budget_is_sent_whole_in_the_documented_order():
    observation = {
        **page(),
        "dialog": "confirm: Leave this page?",
        "last_action_error": "No element with id 99.",
    }
    text = chat.render(observation, chat.UNBOUNDED)["content"]
    assert text.split("\n")[:7] == [
        "Goal: Return the boots.",
        "URL: http://shop.localhost:8000/returns",
        "Tabs:",
        "*0 Returns — http://shop.localhost:8000/returns",
        "Open dialog (answer it with dialog_accept or dialog_dismiss): confirm: Leave this page?",
        'Last action: click("3")',
        "Error of the last action: No element with id 99.",
    ]
    assert text.endswith("Page:\n" + observation["axtree"])
    assert chat.render(observation)["content"] == text  # the default budget holds it


def budget_for(observation: dict[str, Any], fraction: float) -> chat.Budget:
    full = chat.count_tokens(chat.render_text(observation, chat.UNBOUNDED))
    return chat.Budget(max_tokens=int(full * fraction))


def test_cuts_come_in_their_order_as_the_budget_shrinks():
    observation = page()
    # (a) first: part of what is under the fold, the farthest first
    text = chat.render_text(observation, budget_for(observation, 0.9))
    assert re.search(r"^  … \d+ lines outside the viewport$", text, re.MULTILINE)
    assert '"Product 0"' in text and '"Product 59"' not in text
    assert "text lines cut" not in text and "more options" not in text
    # (b) then text far from the element acted on (the button), the farthest first
    text = chat.render_text(observation, budget_for(observation, 0.45))
    assert "Product" not in text.replace("More products", "")  # all of (a) went first
    assert "text lines cut" in text and "Policy paragraph 0 " in text
    assert "Policy paragraph 39 " not in text and "more options" not in text
    # (c) then the long select, keeping its first options and the selected one
    text = chat.render_text(observation, budget_for(observation, 0.15))
    assert "Policy paragraph" not in text
    assert '"Reason number 4"' in text and '"Reason number 29"' not in text
    assert '"Reason number 20" selected' in text
    assert re.search(r"^  … \d+ more options$", text, re.MULTILINE)
    # (d) last, lines from the end
    text = chat.render_text(observation, budget_for(observation, 0.05))
    assert re.search(r"^… \d+ lines cut$", text, re.MULTILINE)
    assert '[2] combobox "Reason"' in text and '[3] button "Send"' not in text


@pytest.mark.parametrize("limit", [60, 90, 150, 300, 500, 800, 2000])
def test_every_budget_is_kept_and_the_same_input_gives_the_same_message(limit):
    observation = page()
    for budget in (chat.Budget(max_tokens=limit), chat.Budget(max_chars=limit * 3)):
        text = chat.render_text(observation, budget)
        assert budget.fits(text)
        assert text == chat.render_text(dict(observation), budget)


def test_without_viewport_information_cut_a_is_skipped():
    observation = {**page(), "elements": None}
    text = chat.render_text(observation, budget_for(observation, 0.9))
    assert "outside the viewport" not in text and "text lines cut" in text


def test_text_near_the_focused_element_stays_longest():
    observation = {**page(), "last_action": "", "focused": "4"}  # the region at the end
    text = chat.render_text(observation, budget_for(observation, 0.45))
    assert "Policy paragraph 39 " in text and "Policy paragraph 0 " not in text


def test_a_header_over_the_budget_is_clipped():
    observation = {**page(), "goal": "word " * 500}
    text = chat.render_text(observation, chat.Budget(max_chars=300))
    assert len(text) == 300 and text.endswith("…")


def test_a_page_can_be_sent_as_a_diff_of_the_previous_one():
    before = page()
    after = {**before, "axtree": before["axtree"].replace('"Product 30"', '"Product 30 (sold)"')}
    text = chat.render_text(after, chat.UNBOUNDED, previous=before)
    assert '"Product 30 (sold)"' in text and '"Product 29"' in text  # one line of context
    assert re.search(r"^… \d+ unchanged lines$", text, re.MULTILINE)
    assert '"Product 10"' not in text
    moved = {**after, "url": "http://shop.localhost:8000/cart"}
    assert "unchanged" not in chat.render_text(moved, chat.UNBOUNDED, previous=before)


@pytest.mark.parametrize(("image_format", "pil_format"), [("jpeg", "JPEG"), ("png", "PNG")])
def test_a_screenshot_is_attached_only_when_asked(image_format, pil_format):
    pixels = np.zeros((72, 128, 3), dtype=np.uint8)
    pixels[:, 64:] = (200, 30, 30)
    observation = {**page(), "screenshot": pixels}
    assert isinstance(chat.render(observation)["content"], str)  # off by default
    text, image = chat.render(observation, screenshot=True, image_format=image_format)["content"]
    assert text == {"type": "text", "text": chat.render_text(observation)}
    header, data = image["image_url"]["url"].split(",", 1)
    assert image["type"] == "image_url" and header == f"data:image/{image_format};base64"
    decoded = Image.open(io.BytesIO(base64.b64decode(data)))
    assert decoded.format == pil_format and decoded.size == (128, 72)


# --- a real page, and trust -----------------------------------------------------------------


def test_a_real_first_page_is_cut_to_its_viewport_first(browser):
    env = gym.make("webenv/shop.buy_product-v0", observe=("axtree", "elements"))
    try:
        observation, _ = env.reset(seed=0)
    finally:
        env.close()
    budget = chat.Budget(max_tokens=700)
    text = chat.render_text(observation, budget)
    assert budget.fits(text) and "lines outside the viewport" in text
    assert 'searchbox "Search products"' in text  # the top of the page is in view
    assert chat.count_tokens(chat.render_text(observation, chat.UNBOUNDED)) > 700


#: One template whose answer is on a page, and one whose one-time code is sent by mail.
TRUST_TEMPLATES = ("shop.order_total", "workflows.buy_requested_item")


@pytest.mark.parametrize("name", TRUST_TEMPLATES)
def test_messages_carry_no_secret_the_observation_does_not_show(name, browser):
    # Pages may show a parameter (the total the goal asks for is on the order's page): the
    # renderer must add nothing to what the observation holds, and the prompt and tools nothing.
    env = gym.make(
        env_id(templates()[name]),
        observe=("axtree", "elements"),
        perturb={"walls.verify_code": 1.0},
        max_episode_steps=40,
    )
    try:
        observation, info = env.reset(seed=0)
        goal = observation["goal"]
        hidden = secrets(webenv.grader_view(env), goal)
        assert hidden  # there is something to look for
        fixed = {"system": chat.system_prompt(), "tools": chat.tools()}
        assert not leaked(fixed, hidden)
        agent = OracleAgent(env)
        agent.reset(observation, info)
        previous, done, step = None, False, 0
        while not done:
            hidden = {**hidden, **secrets(webenv.grader_view(env), goal)}
            shown = leaked(observation, hidden)
            for budget in (chat.DEFAULT_BUDGET, chat.Budget(max_tokens=300)):
                message = chat.render(observation, budget, previous=previous)
                assert set(leaked(message, hidden)) <= set(shown), (step, budget)
            previous = observation
            observation, reward, terminated, truncated, _ = env.step(agent.act(observation))
            done, step = terminated or truncated, step + 1
        assert reward == 1.0
    finally:
        env.close()


def test_the_readme_snippet_runs(browser):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("## Chat and tool calling", 1)[1].split("\n## ", 1)[0]
    [snippet] = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    scope: dict[str, Any] = {}
    exec(compile(snippet, "README.md", "exec"), scope)  # our own README, as a user runs it
    roles = [message["role"] for message in scope["messages"]]
    assert roles in (["system", "user", "tool", "user"], ["system", "user", "tool"])
    assert scope["messages"][1]["content"].startswith("Goal: ")

"""The action grammar: literal calls only, clear errors for everything else."""

import pytest

from webenv.actions import (
    ACTIONS,
    MAX_ACTION_CHARS,
    Call,
    describe,
    from_tool_call,
    parse,
    tool_schemas,
)
from webenv.errors import ActionError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('click("12")', [Call("click", {"bid": "12", "button": "left", "modifiers": ()})]),
        ("click(12)", [Call("click", {"bid": "12", "button": "left", "modifiers": ()})]),
        ('fill("7", "blue shirt")', [Call("fill", {"bid": "7", "value": "blue shirt"})]),
        (
            'select_option("9", ["S", "M"])',
            [Call("select_option", {"bid": "9", "options": ["S", "M"]})],
        ),
        ("scroll(0, -200.5)", [Call("scroll", {"delta_x": 0, "delta_y": -200.5})]),
        ("noop()", [Call("noop", {"wait_ms": 0})]),
        ("noop(wait_ms=500)", [Call("noop", {"wait_ms": 500})]),
        ('send_msg_to_user("$1,204.00")', [Call("send_msg_to_user", {"text": "$1,204.00"})]),
        (
            'fill("3", "a")\nclick("4")',
            [
                Call("fill", {"bid": "3", "value": "a"}),
                Call("click", {"bid": "4", "button": "left", "modifiers": ()}),
            ],
        ),
    ],
)
def test_valid_actions_parse_into_bound_calls(text, expected):
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("click(", "Could not parse"),
        ('exec("import os")', "Unknown action 'exec'"),
        ("__import__('os').system('true')", "is not an action name"),
        ("open('/etc/passwd')", "Unknown action 'open'"),
        ("click(x)", "must be a literal str"),
        ('click("1" + "2")', "must be a literal str"),
        ("click([1])", "must be a str, not list"),
        ("click(True)", "must be a str, not bool"),
        ("scroll('a', 1)", "must be a number, not str"),
        ("scroll(0, 1e999)", "out of range"),
        ("fill('3')", "needs 'value'"),
        ("click('3', bogus=1)", "has no argument 'bogus'"),
        ("click('3', bid='4')", "got 'bid' twice"),
        ("click('1', 'left', [], 4)", "takes at most 3 arguments"),
        ("x = 1", "is not an action call"),
        ("lambda: 1", "is not an action call"),
        ("", "Empty action"),
        ("   ", "Empty action"),
        ("click('1')\n" * 11, "at most 10"),
        ("a" * (MAX_ACTION_CHARS + 1), "characters; at most"),
        ("(" * 500 + ")" * 500, "Could not parse"),
        ('fill("1", "\x00")\x00', "Could not parse"),
    ],
)
def test_bad_actions_raise_action_error_saying_why(text, message):
    with pytest.raises(ActionError, match=message.replace("(", r"\(").replace("[", r"\[")):
        parse(text)


@pytest.mark.parametrize("value", [None, 12, b"click('1')", ["click('1')"]])
def test_non_string_actions_are_refused(value):
    with pytest.raises(ActionError, match="must be a string"):
        parse(value)


def test_every_action_has_an_example_that_parses():
    for spec in ACTIONS.values():
        assert parse(spec.example)[0].name == spec.name


def test_describe_lists_every_action():
    text = describe()
    for name in ACTIONS:
        assert f"- {name}(" in text


def test_tool_schemas_describe_every_action_for_both_styles():
    openai = {tool["function"]["name"]: tool["function"] for tool in tool_schemas("openai")}
    anthropic = {tool["name"]: tool for tool in tool_schemas("anthropic")}
    assert set(openai) == set(anthropic) == set(ACTIONS)
    fill = anthropic["fill"]["input_schema"]
    assert fill["required"] == ["bid", "value"]
    assert fill["properties"]["value"]["type"] == "string"
    assert openai["noop"]["parameters"]["required"] == []


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("click", {"bid": "12"}, [Call("click", {"bid": "12", "button": "left", "modifiers": ()})]),
        (
            "fill",
            '{"bid": "7", "value": "a \\"b\\""}',
            [Call("fill", {"bid": "7", "value": 'a "b"'})],
        ),
        ("noop", "", [Call("noop", {"wait_ms": 0})]),
    ],
)
def test_tool_calls_become_actions(name, arguments, expected):
    assert parse(from_tool_call(name, arguments)) == expected


@pytest.mark.parametrize(
    ("name", "arguments"),
    [("click", "{not json"), ("__import__('os').system", {}), ("click", [1]), ("exec", {})],
)
def test_hostile_tool_calls_are_refused(name, arguments):
    with pytest.raises(ActionError):
        parse(from_tool_call(name, arguments))

"""The action grammar: strings such as ``click("12")`` parsed into checked calls.

Compatible with BrowserGym's high-level action set. Parsing uses :mod:`ast` and accepts
literal arguments only; nothing an agent writes is ever executed as code, in Python or in
the page. Execution lives in :mod:`webenv.execute`.
"""

from __future__ import annotations

import ast
import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from .errors import ActionError

#: Longest action string accepted (a long ``fill`` fits; a pasted book does not).
MAX_ACTION_CHARS = 20_000
#: Most calls in one step.
MAX_CALLS = 10

_STR, _INT, _NUM, _STRS = "str", "int", "number", "str or list of str"
_TYPES: dict[str, tuple[type, ...]] = {_STR: (str,), _INT: (int,), _NUM: (int, float)}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    default: Any = ...  # Ellipsis: required
    doc: str = ""

    @property
    def required(self) -> bool:
        return self.default is ...


@dataclass(frozen=True)
class ActionSpec:
    name: str
    params: tuple[Param, ...]
    doc: str
    example: str


@dataclass(frozen=True)
class Call:
    """One parsed action: its name and arguments, bound to parameter names."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        inner = ", ".join(json.dumps(value, ensure_ascii=False) for value in self.args.values())
        return f"{self.name}({inner})"


def _spec(name: str, doc: str, example: str, *params: Param) -> ActionSpec:
    return ActionSpec(name, params, doc, example)


_BID = Param("bid", _STR, doc="element id, as shown in brackets in the axtree")
_BUTTON = Param("button", _STR, "left", "left, middle or right")
_MODIFIERS = Param("modifiers", _STRS, (), "keys held: Alt, Control, Meta, Shift")

ACTIONS: dict[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        _spec("noop", "Do nothing; optionally wait.", "noop()", Param("wait_ms", _NUM, 0)),
        _spec("click", "Click an element.", 'click("12")', _BID, _BUTTON, _MODIFIERS),
        _spec("dblclick", "Double-click an element.", 'dblclick("12")', _BID, _BUTTON, _MODIFIERS),
        _spec("hover", "Move the mouse over an element.", 'hover("12")', _BID),
        _spec(
            "fill",
            "Replace the text of an input, textarea or editable element.",
            'fill("7", "blue shirt")',
            _BID,
            Param("value", _STR),
        ),
        _spec("clear", "Empty an input or textarea.", 'clear("7")', _BID),
        _spec(
            "select_option",
            "Choose option(s) of a select element, by label or value.",
            'select_option("9", "Large")',
            _BID,
            Param("options", _STRS),
        ),
        _spec("check", "Tick a checkbox or choose a radio button.", 'check("15")', _BID),
        _spec("uncheck", "Untick a checkbox.", 'uncheck("15")', _BID),
        _spec(
            "press",
            "Focus an element and press a key combination.",
            'press("7", "Enter")',
            _BID,
            Param("key_comb", _STR),
        ),
        _spec("focus", "Focus an element.", 'focus("7")', _BID),
        _spec(
            "scroll",
            "Scroll the page by pixels.",
            "scroll(0, 400)",
            Param("delta_x", _NUM),
            Param("delta_y", _NUM),
        ),
        _spec(
            "upload_file",
            "Attach file(s) from the episode's files to a file input.",
            'upload_file("20", "receipt.pdf")',
            _BID,
            Param("file", _STRS),
        ),
        _spec(
            "drag_and_drop",
            "Drag one element onto another.",
            'drag_and_drop("3", "8")',
            Param("from_bid", _STR),
            Param("to_bid", _STR),
        ),
        _spec(
            "goto",
            "Open a URL of the world's sites.",
            'goto("http://shop.localhost:8000/")',
            Param("url", _STR),
        ),
        _spec("go_back", "Go back in history.", "go_back()"),
        _spec("go_forward", "Go forward in history.", "go_forward()"),
        _spec("new_tab", "Open a new, empty tab and focus it.", "new_tab()"),
        _spec("tab_focus", "Focus the tab at an index.", "tab_focus(0)", Param("index", _INT)),
        _spec("tab_close", "Close the current tab.", "tab_close()"),
        _spec(
            "mouse_move",
            "Move the mouse to page coordinates.",
            "mouse_move(640, 360)",
            Param("x", _NUM),
            Param("y", _NUM),
        ),
        _spec(
            "mouse_click",
            "Click at page coordinates.",
            "mouse_click(640, 360)",
            Param("x", _NUM),
            Param("y", _NUM),
            _BUTTON,
        ),
        _spec(
            "mouse_dblclick",
            "Double-click at page coordinates.",
            "mouse_dblclick(640, 360)",
            Param("x", _NUM),
            Param("y", _NUM),
            _BUTTON,
        ),
        _spec(
            "mouse_down",
            "Press a mouse button at page coordinates.",
            "mouse_down(640, 360)",
            Param("x", _NUM),
            Param("y", _NUM),
            _BUTTON,
        ),
        _spec(
            "mouse_up",
            "Release a mouse button at page coordinates.",
            "mouse_up(640, 360)",
            Param("x", _NUM),
            Param("y", _NUM),
            _BUTTON,
        ),
        _spec(
            "keyboard_press",
            "Press a key combination.",
            'keyboard_press("Control+a")',
            Param("key", _STR),
        ),
        _spec(
            "keyboard_type",
            "Type text with the keyboard (at most 1000 characters a step).",
            'keyboard_type("hello")',
            Param("text", _STR),
        ),
        _spec(
            "dialog_accept",
            "Accept the open JavaScript dialog (OK), with text for a prompt.",
            "dialog_accept()",
            Param("prompt_text", _STR, ""),
        ),
        _spec("dialog_dismiss", "Dismiss the open JavaScript dialog (Cancel).", "dialog_dismiss()"),
        _spec(
            "send_msg_to_user",
            "Answer the user; ends the episode.",
            'send_msg_to_user("$24.99")',
            Param("text", _STR),
        ),
        _spec(
            "report_infeasible",
            "Say the task cannot be done, and why; ends the episode.",
            'report_infeasible("The item does not exist.")',
            Param("reason", _STR),
        ),
    )
}

#: Actions that end the episode.
FINAL_ACTIONS = frozenset({"send_msg_to_user", "report_infeasible"})
#: Actions that do nothing to the page (so a page unchanged since the last observation is
#: settled without waiting for a quiet DOM).
PAGE_FREE_ACTIONS = FINAL_ACTIONS | {"noop"}


def parse(text: Any) -> list[Call]:
    """Parse one step's action string into calls, or raise :class:`ActionError` saying why."""
    if not isinstance(text, str):
        raise ActionError(f"An action must be a string, not {type(text).__name__}.")
    # A str subclass is read as the plain string it holds: its own methods are never called.
    text = str.__str__(text)
    if len(text) > MAX_ACTION_CHARS:
        raise ActionError(f"The action is {len(text)} characters; at most {MAX_ACTION_CHARS}.")
    source = text.strip()
    if not source:
        raise ActionError('Empty action. To do nothing, send noop(); e.g. click("12").')
    # Python's parser gives up on deep nesting ("not not … x", "- - … 1") with MemoryError or
    # RecursionError, and so may ast.unparse when an error message quotes such a statement.
    too_deep = f"Could not parse {_clip(source)!r}: it is nested too deeply."
    try:
        tree = ast.parse(source, mode="exec")
    except (SyntaxError, ValueError) as error:
        reason = getattr(error, "msg", str(error))
        raise ActionError(f"Could not parse {_clip(source)!r}: {reason}.") from None
    except (MemoryError, RecursionError):
        raise ActionError(too_deep) from None
    if len(tree.body) > MAX_CALLS:
        raise ActionError(f"{len(tree.body)} actions in one step; at most {MAX_CALLS}.")
    try:
        return [_bind(statement) for statement in tree.body]
    except (MemoryError, RecursionError):
        raise ActionError(too_deep) from None


def _bind(statement: ast.stmt) -> Call:
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        raise ActionError(
            f"{_clip(ast.unparse(statement))!r} is not an action call; "
            'write one call per line, e.g. click("12").'
        )
    call = statement.value
    if not isinstance(call.func, ast.Name):
        raise ActionError(f"{_clip(ast.unparse(call.func))!r} is not an action name.")
    spec = ACTIONS.get(call.func.id)
    if spec is None:
        raise ActionError(
            f"Unknown action {call.func.id!r}. Actions: {', '.join(sorted(ACTIONS))}."
        )
    if len(call.args) > len(spec.params):
        raise ActionError(f"{spec.name}() takes at most {len(spec.params)} arguments.")
    values: dict[str, Any] = {}
    for param, node in zip(spec.params, call.args, strict=False):
        values[param.name] = _literal(spec, param, node)
    names = {param.name: param for param in spec.params}
    for keyword in call.keywords:
        if keyword.arg is None or keyword.arg not in names:
            raise ActionError(f"{spec.name}() has no argument {keyword.arg!r}.")
        if keyword.arg in values:
            raise ActionError(f"{spec.name}() got {keyword.arg!r} twice.")
        values[keyword.arg] = _literal(spec, names[keyword.arg], keyword.value)
    for param in spec.params:
        if param.name not in values:
            if param.required:
                raise ActionError(f"{spec.name}() needs {param.name!r}; e.g. {spec.example}.")
            values[param.name] = param.default
    return Call(spec.name, {param.name: values[param.name] for param in spec.params})


def _literal(spec: ActionSpec, param: Param, node: ast.expr) -> Any:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ActionError(
            f"{spec.name}(): {param.name} must be a literal {param.kind}, "
            f"not {_clip(ast.unparse(node))!r}."
        ) from None
    if param.kind == _STR and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # click(12) means click("12")
    if param.kind == _STRS:
        if isinstance(value, str):
            return value
        if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
            return list(value)
    elif isinstance(value, _TYPES[param.kind]) and not isinstance(value, bool):
        if param.kind == _NUM and not abs(value) < 1e9:  # type: ignore[arg-type]
            raise ActionError(f"{spec.name}(): {param.name} is out of range.")
        return value
    raise ActionError(
        f"{spec.name}(): {param.name} must be a {param.kind}, not {type(value).__name__}."
    )


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe() -> str:
    """A prompt-ready description of every action."""
    lines = ["Actions (one or more per step, one per line):"]
    for spec in ACTIONS.values():
        params = ", ".join(p.name if p.required else f"{p.name}={p.default!r}" for p in spec.params)
        lines.append(f"- {spec.name}({params}): {spec.doc} Example: {spec.example}")
    return "\n".join(lines)


_JSON_TYPES: dict[str, dict[str, Any]] = {
    _STR: {"type": "string"},
    _INT: {"type": "integer"},
    _NUM: {"type": "number"},
    _STRS: {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
}


def tool_schemas(style: str = "openai") -> list[dict[str, Any]]:
    """Every action as a function-calling tool: ``style`` is ``openai`` or ``anthropic``."""
    tools = []
    for spec in ACTIONS.values():
        properties = {
            p.name: {**_JSON_TYPES[p.kind], "description": p.doc or p.name} for p in spec.params
        }
        schema = {
            "type": "object",
            "properties": properties,
            "required": [p.name for p in spec.params if p.required],
            "additionalProperties": False,
        }
        if style == "openai":
            tools.append(
                {
                    "type": "function",
                    "function": {"name": spec.name, "description": spec.doc, "parameters": schema},
                }
            )
        elif style == "anthropic":
            tools.append({"name": spec.name, "description": spec.doc, "input_schema": schema})
        else:
            raise ValueError(f"style must be 'openai' or 'anthropic', not {style!r}")
    return tools


def from_tool_call(name: str, arguments: dict[str, Any] | str) -> str:
    """The action string of a function call (arguments as a dict or a JSON string).

    The result goes through :func:`parse` like any action, so nothing is trusted here.
    """
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError:
            raise ActionError(f"Arguments of {name!r} are not JSON.") from None
    if not isinstance(arguments, dict):
        raise ActionError(f"Arguments of {name!r} must be an object.")
    if name not in ACTIONS:
        close = difflib.get_close_matches(name, ACTIONS, n=1)
        hint = f"Did you mean {close[0]}? " if close else ""
        raise ActionError(
            f"{name[:80]!r} is not an action. {hint}tool_schemas() lists the actions' tools."
        )
    inner = ", ".join(
        f"{key}={json.dumps(value)}" for key, value in arguments.items() if str(key).isidentifier()
    )
    return f"{name}({inner})"

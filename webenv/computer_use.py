"""A computer-use action space for screenshot-only agents: clicks at pixels, typing, keys.

For agents that see only ``observe=("screenshot",)`` and act as the big labs' computer-use
tools do, at screen coordinates, with no element ids::

    from webenv import computer_use

    tools = computer_use.tools()              # strict-mode OpenAI function tools
    action = computer_use.action_from_tool_call("click", '{"x": 640, "y": 360, "button": null}')
    env.step(action)                          # 'mouse_click(640, 360)'

Each call maps onto the env's own coordinate actions (:mod:`webenv.actions`); coordinates
are CSS pixels of the viewport, which are the screenshot's pixels (the env's screenshot is the
viewport at scale 1).

========================  ==========================  ==========================================
tool (arguments)          Anthropic ``computer``      env action(s)
========================  ==========================  ==========================================
screenshot()              ``screenshot``              ``noop()``: every step observes one anyway
click(x, y, button)       ``left_click``,             ``mouse_click(x, y, button)``
                          ``middle_click``
double_click(x, y)        ``double_click``            ``mouse_dblclick(x, y)``
right_click(x, y)         ``right_click``             ``mouse_click(x, y, "right")``
move(x, y)                ``mouse_move``              ``mouse_move(x, y)``
type(text)                ``type``                    ``keyboard_type(text)``
key(keys)                 ``key`` (xdotool names:     ``keyboard_press("Control+a")``, one per
                          "ctrl+a", "Return")         combination of a space-separated sequence
scroll(x, y, direction,   ``scroll`` (coordinate,     ``mouse_move(x, y)`` then
amount)                   scroll_direction,           ``scroll(dx, dy)``, :data:`SCROLL_STEP`
                          scroll_amount)              pixels per unit of ``amount``
drag(from_x, from_y,      ``left_click_drag``         ``mouse_down(from)``, ``mouse_move(to)``,
to_x, to_y)               (start_coordinate,          ``mouse_up(to)``
                          coordinate)
wait(ms)                  ``wait`` (duration, in      ``noop(ms)``, at most
                          seconds)                    :data:`webenv.execute.MAX_WAIT_MS`
done()                    (none)                      ``send_msg_to_user("Done.")``
answer(text)              (none)                      ``send_msg_to_user(text)``
infeasible(reason)        (none)                      ``report_infeasible(reason)``
========================  ==========================  ==========================================

Anthropic's ``coordinate: [x, y]`` is this schema's ``x`` and ``y``;
:func:`action_from_anthropic` takes the input of Anthropic's ``computer`` tool as is (its
``triple_click``, ``hold_key``, ``left_mouse_down`` and ``left_mouse_up`` too, which map onto
``mouse_click`` ×3, ``keyboard_press`` (pressed once, not held for the duration),
``mouse_down`` and ``mouse_up``; ``cursor_position`` and ``zoom`` do not map). Finishing is not an
action of that tool: an agent answers with text, which its harness sends as :func:`answer`.

Calls are checked as strictly as :func:`webenv.chat.action_from_tool_call` checks: an unknown
tool or key name, a missing or unknown argument, a wrong type, a coordinate outside the
viewport raise :class:`~webenv.errors.ActionError` with a reason meant for the model.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import actions
from .chat import tool_arguments
from .errors import ActionError
from .tasks import DONE

#: Pixels scrolled per unit of ``amount`` (a mouse wheel's notch).
SCROLL_STEP = 100
#: The viewport coordinates are checked against, unless a call is given another.
VIEWPORT = (1280, 720)
#: Scroll directions and the sign of (dx, dy) they take.
DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
#: Most key combinations in one ``key`` call (each is one env call, at most
#: :data:`webenv.actions.MAX_CALLS`).
MAX_KEYS = actions.MAX_CALLS


@dataclass(frozen=True)
class _Arg:
    name: str
    kind: str | tuple[str, ...]  # "int", "str", or the choices of an enum of strings
    doc: str
    optional: bool = False


@dataclass(frozen=True)
class _Tool:
    name: str
    doc: str
    args: tuple[_Arg, ...] = ()


_X = _Arg("x", "int", "pixels from the screenshot's left edge")
_Y = _Arg("y", "int", "pixels from the screenshot's top edge")

TOOLS: dict[str, _Tool] = {
    tool.name: tool
    for tool in (
        _Tool("screenshot", "Take a screenshot of the screen, changing nothing."),
        _Tool(
            "click",
            "Click at a point of the screenshot.",
            (_X, _Y, _Arg("button", ("left", "middle", "right"), "the button", True)),
        ),
        _Tool("double_click", "Double-click at a point of the screenshot.", (_X, _Y)),
        _Tool("right_click", "Right-click at a point of the screenshot.", (_X, _Y)),
        _Tool("move", "Move the mouse to a point of the screenshot.", (_X, _Y)),
        _Tool(
            "type",
            "Type text with the keyboard, where the focus is.",
            (_Arg("text", "str", "the text to type"),),
        ),
        _Tool(
            "key",
            "Press a key or key combination, or several in turn.",
            (
                _Arg(
                    "keys",
                    "str",
                    'xdotool style: "Return", "ctrl+a", "shift+Tab"; several separated by '
                    'spaces, e.g. "ctrl+a BackSpace"',
                ),
            ),
        ),
        _Tool(
            "scroll",
            "Scroll what is under a point of the screenshot.",
            (
                _X,
                _Y,
                _Arg("direction", tuple(DIRECTIONS), "which way"),
                _Arg("amount", "int", f"how far, in wheel notches of {SCROLL_STEP} pixels"),
            ),
        ),
        _Tool(
            "drag",
            "Press the left button at one point, move to another and release it there.",
            (
                _Arg("from_x", "int", "start, pixels from the left edge"),
                _Arg("from_y", "int", "start, pixels from the top edge"),
                _Arg("to_x", "int", "end, pixels from the left edge"),
                _Arg("to_y", "int", "end, pixels from the top edge"),
            ),
        ),
        _Tool("wait", "Wait, for the page to change.", (_Arg("ms", "int", "milliseconds"),)),
        _Tool("done", "Say the goal is done; ends the episode."),
        _Tool(
            "answer",
            "Answer the user with the value the goal asks for; ends the episode.",
            (_Arg("text", "str", "the value itself, as the page shows it"),),
        ),
        _Tool(
            "infeasible",
            "Say the goal cannot be done on these sites, and why; ends the episode.",
            (_Arg("reason", "str", "why"),),
        ),
    )
}


def tools() -> list[dict[str, Any]]:
    """Every computer-use action as an OpenAI function tool in strict mode: every argument
    required, an optional one nullable, no other property allowed."""
    out = []
    for tool in TOOLS.values():
        properties: dict[str, Any] = {}
        for arg in tool.args:
            if isinstance(arg.kind, tuple):
                schema: dict[str, Any] = {"type": "string", "enum": list(arg.kind)}
            else:
                schema = {"type": "integer" if arg.kind == "int" else "string"}
            if arg.optional:
                schema["type"] = [schema["type"], "null"]
                if "enum" in schema:
                    schema["enum"] = [*schema["enum"], None]
            properties[arg.name] = {**schema, "description": arg.doc}
        out.append(
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.doc,
                    "parameters": {
                        "type": "object",
                        "properties": properties,
                        "required": [arg.name for arg in tool.args],
                        "additionalProperties": False,
                    },
                    "strict": True,
                },
            }
        )
    return out


def action_from_tool_call(
    name: str,
    arguments: Mapping[str, Any] | str,
    viewport: tuple[int, int] = VIEWPORT,
) -> str:
    """The env action of one computer-use call, ``arguments`` a JSON string or a dict.

    Raises :class:`ActionError`, saying what to fix, for an unknown tool, arguments that are
    not a JSON object, an unknown or missing argument, a wrong type, an unknown key name, a
    point outside ``viewport`` (width, height) or a negative amount or wait.
    """
    tool = TOOLS.get(name)
    if tool is None:
        close = difflib.get_close_matches(name, TOOLS, n=1)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise ActionError(f"There is no tool {name[:80]!r}.{hint} Call one of the tools given.")
    args = _checked(tool, arguments)
    width, height = viewport
    for axis, limit in (("x", width), ("y", height)):
        for key in (axis, f"from_{axis}", f"to_{axis}"):
            if key in args and not 0 <= args[key] < limit:
                raise ActionError(
                    f"{name}: {key}={args[key]} is off the screen; it is {width}×{height} "
                    f"pixels, so 0 ≤ x < {width} and 0 ≤ y < {height}."
                )
    calls = _calls(name, args)
    text = "\n".join(str(actions.Call(call, dict(values))) for call, values in calls)
    actions.parse(text)  # the env's own checks (ranges), worded for the model
    return text


def _calls(name: str, args: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The env calls (name, arguments in order) a checked computer-use call makes."""
    point = {"x": args.get("x"), "y": args.get("y")}
    if name == "screenshot":
        return [("noop", {"wait_ms": 0})]
    if name == "click":
        return [("mouse_click", {**point, "button": args["button"] or "left"})]
    if name == "double_click":
        return [("mouse_dblclick", {**point, "button": "left"})]
    if name == "right_click":
        return [("mouse_click", {**point, "button": "right"})]
    if name == "move":
        return [("mouse_move", point)]
    if name == "type":
        return [("keyboard_type", {"text": args["text"]})]
    if name == "key":
        return [("keyboard_press", {"key": combo}) for combo in key_combinations(args["keys"])]
    if name == "scroll":
        if args["amount"] < 0:
            raise ActionError("scroll: amount must be 0 or more; the direction says which way.")
        sign_x, sign_y = DIRECTIONS[args["direction"]]
        pixels = args["amount"] * SCROLL_STEP
        return [
            ("mouse_move", point),
            ("scroll", {"delta_x": sign_x * pixels, "delta_y": sign_y * pixels}),
        ]
    if name == "drag":
        start = {"x": args["from_x"], "y": args["from_y"]}
        end = {"x": args["to_x"], "y": args["to_y"]}
        return [
            ("mouse_down", {**start, "button": "left"}),
            ("mouse_move", end),
            ("mouse_up", {**end, "button": "left"}),
        ]
    if name == "wait":
        if args["ms"] < 0:
            raise ActionError("wait: ms must be 0 or more.")
        return [("noop", {"wait_ms": args["ms"]})]
    if name == "done":
        return [(call.name, call.args) for call in actions.parse(DONE)]
    if name == "answer":
        return [("send_msg_to_user", {"text": args["text"]})]
    return [("report_infeasible", {"reason": args["reason"]})]


def _checked(tool: _Tool, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
    name = tool.name
    arguments = tool_arguments(name, arguments, [arg.name for arg in tool.args])
    out: dict[str, Any] = {}
    for arg in tool.args:
        value = arguments[arg.name]
        if value is None and arg.optional:
            out[arg.name] = None
            continue
        if isinstance(arg.kind, tuple):
            if value not in arg.kind:
                choices = ", ".join(map(repr, arg.kind))
                raise ActionError(f"{name}: {arg.name} must be one of {choices}, not {value!r}.")
        elif arg.kind == "int":
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ActionError(f"{name}: {arg.name} must be an integer, not {value!r}.")
        elif not isinstance(value, str):
            raise ActionError(f"{name}: {arg.name} must be a string, not {value!r}.")
        out[arg.name] = value
    return out


# --- keys -----------------------------------------------------------------------------------

#: Modifier names (xdotool's and the usual others) to Playwright's.
MODIFIERS = {
    "ctrl": "Control",
    "control": "Control",
    "alt": "Alt",
    "option": "Alt",
    "shift": "Shift",
    "super": "Meta",
    "meta": "Meta",
    "cmd": "Meta",
    "command": "Meta",
    "win": "Meta",
}
#: Key names (xdotool's keysyms and common spellings, lower-cased) to Playwright's.
KEYS = {
    "return": "Enter",
    "enter": "Enter",
    "kp_enter": "Enter",
    "tab": "Tab",
    "escape": "Escape",
    "esc": "Escape",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "insert": "Insert",
    "space": "Space",
    "home": "Home",
    "end": "End",
    "page_up": "PageUp",
    "pageup": "PageUp",
    "prior": "PageUp",
    "page_down": "PageDown",
    "pagedown": "PageDown",
    "next": "PageDown",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    **{f"f{number}": f"F{number}" for number in range(1, 13)},
    **{modifier.lower(): modifier for modifier in ("Control", "Alt", "Shift", "Meta")},
}
_SYMBOLS = {
    "minus": "-",
    "plus": "+",
    "equal": "=",
    "comma": ",",
    "period": ".",
    "slash": "/",
    "semicolon": ";",
    "apostrophe": "'",
    "grave": "`",
    "bracketleft": "[",
    "bracketright": "]",
    "backslash": "\\",
}


def key_combinations(keys: str) -> list[str]:
    """xdotool-style keys (``"ctrl+a BackSpace"``) as Playwright key combinations
    (``["Control+a", "Backspace"]``); :class:`ActionError` naming an unknown key."""
    combos = keys.split()
    if not combos:
        raise ActionError('key: keys is empty; e.g. "Return" or "ctrl+a".')
    if len(combos) > MAX_KEYS:
        raise ActionError(f"key: {len(combos)} key combinations; at most {MAX_KEYS} in one call.")
    return [_combination(combo) for combo in combos]


def _combination(combo: str) -> str:
    parts = combo.split("+")
    if "" in parts:  # "ctrl++" : the plus key
        parts = [part for part in parts if part] + ["+"]
    *held, last = parts
    names = []
    for part in held:
        modifier = MODIFIERS.get(part.lower())
        if modifier is None:
            raise ActionError(
                f"key: {part!r} in {combo!r} is not a modifier; use ctrl, alt, shift or super."
            )
        names.append(modifier)
    return "+".join([*names, _key(last, combo)])


def _key(name: str, combo: str) -> str:
    if len(name) == 1:
        return name
    known = KEYS.get(name.lower()) or _SYMBOLS.get(name.lower())
    if known is not None:
        return known
    if re.fullmatch(r"(?:Key[A-Z]|Digit[0-9])", name):
        return name
    close = difflib.get_close_matches(name.lower(), [*KEYS, *_SYMBOLS], n=1)
    hint = f" Did you mean {close[0]}?" if close else ""
    raise ActionError(f"key: unknown key {name!r} in {combo!r}.{hint}")


# --- Anthropic's computer tool --------------------------------------------------------------

_ANTHROPIC_CLICKS = {
    "left_click": ("click", "left"),
    "middle_click": ("click", "middle"),
    "right_click": ("right_click", None),
    "double_click": ("double_click", None),
    "mouse_move": ("move", None),
}


_ANTHROPIC_OTHERS = (
    "triple_click",
    "left_mouse_down",
    "left_mouse_up",
    "type",
    "key",
    "hold_key",
    "scroll",
    "left_click_drag",
    "wait",
)


def action_from_anthropic(
    tool_input: Mapping[str, Any], viewport: tuple[int, int] = VIEWPORT
) -> str:
    """The env action of an input of Anthropic's ``computer`` tool (``{"action":
    "left_click", "coordinate": [x, y]}``, …), through :func:`action_from_tool_call`."""
    if not isinstance(tool_input, Mapping):
        raise ActionError("The computer tool's input must be a JSON object.")
    kind = tool_input.get("action")

    def point(key: str = "coordinate") -> tuple[Any, Any]:
        value = tool_input.get(key)
        if not (isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2):
            raise ActionError(f"{kind}: {key} must be [x, y], not {value!r}.")
        return value[0], value[1]

    if kind == "screenshot":
        return action_from_tool_call("screenshot", {}, viewport)
    if kind in _ANTHROPIC_CLICKS:
        name, button = _ANTHROPIC_CLICKS[kind]
        x, y = point()
        args: dict[str, Any] = {"x": x, "y": y}
        if name == "click":
            args["button"] = button
        return action_from_tool_call(name, args, viewport)
    if kind == "triple_click":
        x, y = point()
        click = action_from_tool_call("click", {"x": x, "y": y, "button": None}, viewport)
        return "\n".join([click] * 3)
    if kind in ("left_mouse_down", "left_mouse_up"):
        x, y = point()
        action_from_tool_call("move", {"x": x, "y": y}, viewport)  # the point's checks
        method = "mouse_down" if kind == "left_mouse_down" else "mouse_up"
        return str(actions.Call(method, {"x": x, "y": y, "button": "left"}))
    if kind == "type":
        return action_from_tool_call("type", {"text": tool_input.get("text")}, viewport)
    if kind in ("key", "hold_key"):
        return action_from_tool_call("key", {"keys": tool_input.get("text")}, viewport)
    if kind == "scroll":
        x, y = point()
        args = {
            "x": x,
            "y": y,
            "direction": tool_input.get("scroll_direction"),
            "amount": tool_input.get("scroll_amount"),
        }
        return action_from_tool_call("scroll", args, viewport)
    if kind == "left_click_drag":
        (from_x, from_y), (to_x, to_y) = point("start_coordinate"), point()
        args = {"from_x": from_x, "from_y": from_y, "to_x": to_x, "to_y": to_y}
        return action_from_tool_call("drag", args, viewport)
    if kind == "wait":
        duration = tool_input.get("duration")
        if isinstance(duration, bool) or not isinstance(duration, int | float):
            raise ActionError(f"wait: duration must be a number of seconds, not {duration!r}.")
        if not math.isfinite(duration):
            raise ActionError(f"wait: duration must be a finite number of seconds, not {duration}.")
        return action_from_tool_call("wait", {"ms": round(duration * 1000)}, viewport)
    known = ", ".join(["screenshot", *_ANTHROPIC_CLICKS, *_ANTHROPIC_OTHERS])
    raise ActionError(f"The computer tool has no action {kind!r} here; these map: {known}.")

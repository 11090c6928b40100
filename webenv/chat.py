"""The environment as a conversation: observations as chat messages, tool calls as actions.

What LLM trainers (and :class:`webenv.llm.OpenAIChatAgent`) plug in::

    from webenv import chat

    tools = chat.tools()                      # one strict-mode tool per action
    message = chat.render(observation)        # {"role": "user", "content": "Goal: …"}
    action = chat.action_from_tool_call("click", '{"bid": "12", "button": null, …}')
    calls = chat.tool_calls_from_action('fill("7", "boots")')   # for demonstrations

**Tools.** :func:`tools` gives one function per action of :mod:`webenv.actions`, valid for
OpenAI's strict mode: ``"strict": true``, ``additionalProperties: false`` and every property
required, an optional argument being nullable (``null`` takes its default).
:func:`action_from_tool_call` is as strict: an unknown tool, an unknown or missing argument,
a wrong type or arguments that are not a JSON object raise :class:`~webenv.errors.ActionError`
with a reason meant for the model (:func:`tool_result` wraps it in a ``tool`` message).

**Messages.** :func:`render` writes the goal, the URL, the tabs, an open dialog, the last
action and its error, then the accessibility tree, within a :class:`Budget` (characters, or
tokens counted by :func:`count_tokens`: one token per run of up to 4 word characters and one
per other non-space character: an estimate, deterministic, with no tokenizer). When the page is
over the budget, lines are cut in this fixed order, each step only as far as needed:

(a) lines outside the viewport, farthest from the viewport first. This needs the
    observation's ``elements`` (``observe=("axtree", "elements")``): the axtree text itself
    carries no positions. A line with an id is in view when its element is; a text line when
    the nearest element above it in the tree is. Without ``elements`` this cut is skipped.
(b) non-interactive lines (text, headings, cells… with no control inside) farthest from the
    focused element or the element the last action named (else from the top of the viewport,
    else of the page).
(c) options of a select or listbox past the first :data:`OPTIONS_KEPT` (selected ones stay),
    collapsed to "… N more options".
(d) lines from the end, with "… N lines cut".

Cut lines leave a marker ("… N lines outside the viewport", "… N text lines cut"), and if the
header alone is over the budget the message is clipped. The same observation and budget give
the same message, always. ``previous`` renders the tree as a diff against the previous
observation of the same URL (unchanged runs elided as "… N unchanged lines"), and
``screenshot=True`` attaches the screenshot as a JPEG (or PNG) data URL in an ``image_url``
part; images are not counted in the budget.

Everything rendered comes from the observation itself, which holds only what a user of the
sites could see: never the task's parameters (see :mod:`webenv.trusted`).
"""

from __future__ import annotations

import base64
import bisect
import difflib
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import actions
from .errors import ActionError

#: The budget :func:`render` uses when none is given, in :func:`count_tokens` tokens.
DEFAULT_MAX_TOKENS = 4000
#: Options of a select or listbox kept by cut (c).
OPTIONS_KEPT = 5
#: Roles of the controls an agent acts on (the set ``observe.js`` marks as interactive).
INTERACTIVE = frozenset(
    [
        "button",
        "link",
        "textbox",
        "searchbox",
        "combobox",
        "listbox",
        "option",
        "checkbox",
        "radio",
        "switch",
        "slider",
        "spinbutton",
        "menuitem",
        "tab",
        "treeitem",
    ]
)

_TOKEN = re.compile(r"\w{1,4}|[^\w\s]")
_NODE = re.compile(r"^(?P<indent> *)(?:\[(?P<id>\d+)\] )?(?P<role>\w+)")
_BID_ARGS = ("bid", "from_bid", "to_bid")

SYSTEM_PROMPT = """You are a web agent. You operate a web browser to complete the user's goal
on the websites shown to you. Each turn you see the current page as an accessibility tree:
one element per line, interactive elements prefixed with their id in brackets, e.g.
[12] button "Add to cart". Refer to elements by these ids. Lines marked "…" were cut to keep
the page short: scroll, or act on what you see, to bring them back.

{how}

When the goal asks for information, answer with send_msg_to_user holding the value itself,
as the page shows it: "$58.20", not a sentence around it, and only one value: an answer
naming two candidates counts as wrong. When you have done what the goal asks, say so with
send_msg_to_user("Done."): the episode ends then and is graded. When the goal cannot be done
on these sites, say so with report_infeasible."""

_HOW_TOOLS = """Act by calling the tools, one per step; each tool is an action. Pass null for
an optional argument to use its default."""

_HOW_TEXT = """{actions}

Reply with a short thought, then exactly one action in a fenced code block, e.g.
```
click("12")
```"""


def system_prompt(tools: bool = True) -> str:
    """The system prompt: for tool calling, or (``tools=False``) for actions written as text
    in a fenced block, with the action grammar spelled out."""
    how = _HOW_TOOLS if tools else _HOW_TEXT.format(actions=actions.describe())
    return SYSTEM_PROMPT.format(how=how)


# --- tools ----------------------------------------------------------------------------------


def tools() -> list[dict[str, Any]]:
    """Every action as an OpenAI function tool in strict mode (from
    :func:`webenv.actions.tool_schemas`): all arguments required, optional ones nullable."""
    strict = []
    for tool in actions.tool_schemas("openai"):
        function = tool["function"]
        spec = actions.ACTIONS[function["name"]]
        properties = {}
        for param in spec.params:
            schema = dict(function["parameters"]["properties"][param.name])
            if not param.required:
                schema = _nullable(schema)
                schema["description"] += f" (null: {json.dumps(_plain(param.default))})"
            properties[param.name] = schema
        parameters = {
            "type": "object",
            "properties": properties,
            "required": [param.name for param in spec.params],
            "additionalProperties": False,
        }
        strict.append(
            {
                "type": "function",
                "function": {**function, "parameters": parameters, "strict": True},
            }
        )
    return strict


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {**schema, "type": [schema["type"], "null"]}


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def tool_arguments(
    name: str, arguments: Mapping[str, Any] | str, names: Sequence[str]
) -> Mapping[str, Any]:
    """The arguments of a strict-mode call of tool ``name``, read from JSON if they are a
    string: exactly ``names``, each given (``null`` for an optional one's default), or an
    :class:`~webenv.errors.ActionError` saying what is wrong."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except ValueError as error:  # JSONDecodeError, and a number of too many digits
            raise ActionError(f"The arguments of {name} are not valid JSON: {error}.") from None
    if not isinstance(arguments, Mapping):
        raise ActionError(f"The arguments of {name} must be a JSON object.")
    unknown = [str(key) for key in arguments if key not in names]
    if unknown:
        raise ActionError(
            f"{name} has no argument {', '.join(map(repr, unknown))}; "
            f"its arguments: {', '.join(names) or 'none'}."
        )
    missing = [key for key in names if key not in arguments]
    if missing:
        raise ActionError(
            f"{name} needs {', '.join(map(repr, missing))} (null for an optional argument's "
            "default)."
        )
    return arguments


def action_from_tool_call(name: str, arguments: Mapping[str, Any] | str) -> str:
    """The action string of one tool call, ``arguments`` as a JSON string or a dict.

    Raises :class:`ActionError`, saying what to fix, for an unknown tool, arguments that are
    not a JSON object, an unknown or missing argument, or a value of the wrong type; the
    result parses with :func:`webenv.actions.parse`.
    """
    spec = actions.ACTIONS.get(name)
    if spec is None:
        close = difflib.get_close_matches(name, actions.ACTIONS, n=1)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise ActionError(f"There is no tool {name[:80]!r}.{hint} Call one of the tools given.")
    names = [param.name for param in spec.params]
    arguments = tool_arguments(name, arguments, names)
    values = []
    for param in spec.params:
        value = arguments[param.name]
        if value is None:
            if param.required:
                raise ActionError(f"{name}: {param.name} is required, not null.")
            value = param.default
        elif not _has_kind(value, param.kind):
            raise ActionError(
                f"{name}: {param.name} must be a {_KIND_NAMES[param.kind]}, "
                f"not {_json_type(value)}."
            )
        values.append(_plain(value))
    given = [arguments[key] is not None for key in names]
    while given and not given[-1]:  # trailing nulls: left to their defaults
        given.pop()
        values.pop()
    text = str(actions.Call(name, dict(zip(names, values, strict=False))))
    actions.parse(text)  # range checks and the like, worded for the model
    return text


_KIND_NAMES = {
    "str": "string",
    "int": "integer",
    "number": "number",
    "str or list of str": "string or array of strings",
}


def _has_kind(value: Any, kind: str) -> bool:
    if isinstance(value, bool):
        return False
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int)
    if kind == "number":
        return isinstance(value, int | float)
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(item, str) for item in value)
    )


def _json_type(value: Any) -> str:
    for kind, name in ((bool, "a boolean"), (str, "a string"), (int, "an integer")):
        if isinstance(value, kind):
            return name
    if isinstance(value, float):
        return "a number"
    if isinstance(value, list):
        return "an array" if value else "an empty array"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


def tool_calls_from_action(action: str, id_prefix: str = "call") -> list[dict[str, Any]]:
    """The tool calls an assistant message makes for ``action`` (one per call in it), in
    OpenAI's ``tool_calls`` form, ids ``{id_prefix}_0``, …: for demonstrations. Raises
    :class:`ActionError` if the action does not parse."""
    return [
        {
            "id": f"{id_prefix}_{index}",
            "type": "function",
            "function": {
                "name": call.name,
                "arguments": json.dumps(
                    {key: _plain(value) for key, value in _nulled(call).items()},
                    ensure_ascii=False,
                ),
            },
        }
        for index, call in enumerate(actions.parse(action))
    ]


def _nulled(call: actions.Call) -> dict[str, Any]:
    """A call's arguments with the defaults written as null, as :func:`tools` asks."""
    spec = actions.ACTIONS[call.name]
    return {
        p.name: None if not p.required and call.args[p.name] == p.default else call.args[p.name]
        for p in spec.params
    }


def tool_result(tool_call_id: str, observation_or_error: Mapping[str, Any] | str) -> dict[str, str]:
    """The ``tool`` message answering a call: the reason it was refused (a string), or how
    the step went (the next observation's ``last_action_error``, or "OK.")."""
    if isinstance(observation_or_error, str):
        content = f"Error: {observation_or_error}"
    else:
        error = observation_or_error.get("last_action_error")
        content = f"Error: {error}" if error else "OK."
    return {"role": "tool", "tool_call_id": tool_call_id, "content": content}


# --- budgets --------------------------------------------------------------------------------


def count_tokens(text: str) -> int:
    """Tokens as :func:`render` counts them: one per run of up to 4 word characters, one per
    other non-space character. Deterministic, no tokenizer; counts add up over lines."""
    return len(_TOKEN.findall(text))


@dataclass(frozen=True)
class Budget:
    """How long a rendered message may be: ``max_chars`` characters and/or ``max_tokens``
    tokens (:func:`count_tokens`); both None: no bound."""

    max_chars: int | None = None
    max_tokens: int | None = None

    def fits(self, text: str) -> bool:
        if self.max_chars is not None and len(text) > self.max_chars:
            return False
        return self.max_tokens is None or count_tokens(text) <= self.max_tokens

    def clip(self, text: str) -> str:
        """``text`` cut at the end to fit, with "…"."""
        if self.fits(text):
            return text
        low, high = 0, len(text)  # the longest prefix that fits, with its mark
        while low < high:
            middle = (low + high + 1) // 2
            if self.fits(text[:middle] + "…"):
                low = middle
            else:
                high = middle - 1
        return text[:low] + "…" if low else ""


#: The default budget.
DEFAULT_BUDGET = Budget(max_tokens=DEFAULT_MAX_TOKENS)
#: No bound at all.
UNBOUNDED = Budget()


# --- rendering ------------------------------------------------------------------------------


@dataclass
class _Line:
    text: str
    depth: int
    id: str | None
    role: str
    fixed: bool = False  # a marker of the diff: never cut but by (d)


_MARKERS = {
    "viewport": ("line", "lines", " outside the viewport"),
    "text": ("text line", "text lines", " cut"),
    "options": ("more option", "more options", ""),
    "end": ("line", "lines", " cut"),
    "unchanged": ("unchanged line", "unchanged lines", ""),
}


def _marker(depth: int, count: int, kind: str) -> str:
    one, many, tail = _MARKERS[kind]
    return "  " * depth + f"… {count} {one if count == 1 else many}{tail}"


def render(
    observation: Mapping[str, Any],
    budget: Budget | None = None,
    *,
    previous: Mapping[str, Any] | None = None,
    screenshot: bool = False,
    image_format: str = "jpeg",
) -> dict[str, Any]:
    """The observation as a ``user`` message within ``budget`` (default
    :data:`DEFAULT_BUDGET`); see the module's docstring for what is cut, in which order.

    Args:
        observation: an observation of :class:`webenv.WebEnv` (``axtree`` is the page;
            ``elements``, if observed, lets lines outside the viewport go first).
        budget: a :class:`Budget`; :data:`UNBOUNDED` for none.
        previous: the previous observation; if it shows the same URL, the tree is a diff
            against it, unchanged runs elided.
        screenshot: attach ``observation["screenshot"]`` as an ``image_url`` part.
        image_format: ``"jpeg"`` (quality 80) or ``"png"``.
    """
    text = render_text(observation, budget, previous=previous)
    if not screenshot:
        return {"role": "user", "content": text}
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    pixels = observation.get("screenshot")
    if pixels is not None:
        url = image_data_url(pixels, image_format)
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return {"role": "user", "content": parts}


def render_text(
    observation: Mapping[str, Any],
    budget: Budget | None = None,
    *,
    previous: Mapping[str, Any] | None = None,
) -> str:
    """The text of :func:`render`'s message."""
    budget = DEFAULT_BUDGET if budget is None else budget
    header = "\n".join(header_lines(observation))
    lines = _parse(str(observation.get("axtree") or ""))
    if previous is not None and previous.get("url") == observation.get("url"):
        lines = _diff(_parse(str(previous.get("axtree") or "")), lines)
    cut: dict[int, str] = {}

    def page(removed: Mapping[int, str]) -> str:
        return f"{header}\nPage:\n{_tree(lines, removed)}".rstrip("\n")

    fits = _Sizer(f"{header}\nPage:", lines, budget).fits
    if not fits(cut):
        visible = _visibility(lines, observation.get("elements"))
        stages: list[tuple[str, list[int]]] = [
            ("viewport", _outside_viewport(lines, visible)),
            ("text", _far_text(lines, _anchors(lines, observation, visible))),
            ("options", _long_lists(lines)),
        ]
        for kind, order in stages:
            cut = _cut_until_fits(cut, kind, order, fits)
            if fits(cut):
                break
        else:
            cut = _cut_end(cut, len(lines), fits)
    return budget.clip(page(cut))


def header_lines(observation: Mapping[str, Any], full: bool = True) -> list[str]:
    """The lines above the tree: goal, URL, tabs, dialog, last action and its error
    (``full=False``: goal, URL, last action and error, the short form for a history)."""
    lines = [f"Goal: {observation.get('goal', '')}", f"URL: {observation.get('url', '')}"]
    if full and observation.get("tabs"):
        lines.append(f"Tabs:\n{observation['tabs']}")
    if full and observation.get("dialog"):
        lines.append(
            f"Open dialog (answer it with dialog_accept or dialog_dismiss): {observation['dialog']}"
        )
    if observation.get("last_action"):
        lines.append(f"Last action: {observation['last_action']}")
    if observation.get("last_action_error"):
        lines.append(f"Error of the last action: {observation['last_action_error']}")
    return lines


def _parse(axtree: str) -> list[_Line]:
    lines = []
    for text in axtree.splitlines():
        match = _NODE.match(text)
        if match is None:
            lines.append(_Line(text, 0, None, ""))
        else:
            lines.append(_Line(text, len(match["indent"]) // 2, match["id"], match["role"]))
    return lines


def _diff(before: list[_Line], after: list[_Line], context: int = 1) -> list[_Line]:
    """``after`` with runs of lines unchanged since ``before`` elided, ``context`` lines kept
    on either side of a change."""
    matcher = difflib.SequenceMatcher(
        None, [line.text for line in before], [line.text for line in after], autojunk=False
    )
    out: list[_Line] = []
    for tag, _, _, start, end in matcher.get_opcodes():
        if tag != "equal" or end - start <= 2 * context + 1:
            out.extend(after[start:end])
            continue
        keep_head = context if start > 0 else 0
        keep_tail = context if end < len(after) else 0
        out.extend(after[start : start + keep_head])
        hidden = after[start + keep_head : end - keep_tail]
        depth = hidden[0].depth
        out.append(_Line(_marker(depth, len(hidden), "unchanged"), depth, None, "", True))
        out.extend(after[end - keep_tail : end])
    return out


def _pieces(lines: Sequence[_Line], removed: Mapping[int, str]) -> Iterator[int | str]:
    """The tree's lines: the index of a line kept, or the marker of a run of lines cut."""
    index = 0
    while index < len(lines):
        kind = removed.get(index)
        if kind is None:
            yield index
            index += 1
            continue
        start = index
        while index < len(lines) and removed.get(index) == kind:
            index += 1
        yield _marker(0 if kind == "end" else lines[start].depth, index - start, kind)


def _tree(lines: Sequence[_Line], removed: Mapping[int, str]) -> str:
    return "\n".join(
        piece if isinstance(piece, str) else lines[piece].text for piece in _pieces(lines, removed)
    )


class _Sizer:
    """Whether a page fits, from the sizes of its lines (characters and tokens both add up
    over lines), without writing it out: the cuts try many sets of lines."""

    def __init__(self, head: str, lines: Sequence[_Line], budget: Budget):
        self.lines, self.budget = lines, budget
        self.head = (len(head), count_tokens(head))
        self.sizes = [(len(line.text), count_tokens(line.text)) for line in lines]

    def fits(self, removed: Mapping[int, str]) -> bool:
        chars, tokens = self.head
        for piece in _pieces(self.lines, removed):
            if isinstance(piece, str):
                chars, tokens = chars + 1 + len(piece), tokens + count_tokens(piece)
            else:
                chars, tokens = chars + 1 + self.sizes[piece][0], tokens + self.sizes[piece][1]
        limit_chars, limit_tokens = self.budget.max_chars, self.budget.max_tokens
        return (limit_chars is None or chars <= limit_chars) and (
            limit_tokens is None or tokens <= limit_tokens
        )


_Fits = Callable[[Mapping[int, str]], bool]


def _cut_until_fits(
    cut: dict[int, str], kind: str, order: list[int], fits: _Fits
) -> dict[int, str]:
    """``cut`` plus the fewest of ``order`` (taken in order) that bring the page within the
    budget, found by bisection (all of them if that is not enough)."""
    order = [index for index in order if index not in cut]

    def with_first(count: int) -> dict[int, str]:
        return {**cut, **dict.fromkeys(order[:count], kind)}

    low, high = 0, len(order)  # with_first(high) fits, or high is all there is
    while low < high:
        middle = (low + high) // 2
        if fits(with_first(middle)):
            high = middle
        else:
            low = middle + 1
    return with_first(high)


def _cut_end(cut: dict[int, str], count: int, fits: _Fits) -> dict[int, str]:
    """Cut (d): every line from the latest start that brings the page within the budget."""

    def from_(start: int) -> dict[int, str]:
        kept = {index: kind for index, kind in cut.items() if index < start}
        return {**kept, **dict.fromkeys(range(start, count), "end")}

    low, high = 0, count  # from_(low) fits, or low is 0
    while low < high:
        middle = (low + high + 1) // 2
        if fits(from_(middle)):
            low = middle
        else:
            high = middle - 1
    return from_(low)


def _visibility(lines: Sequence[_Line], elements: Any) -> list[bool | None]:
    """Per line: in the viewport, outside it, or unknown (None), from ``elements``."""
    if isinstance(elements, str):
        try:
            elements = json.loads(elements)
        except json.JSONDecodeError:
            elements = None
    if not isinstance(elements, list):
        return [None] * len(lines)
    shown = {
        str(item["id"]): bool(item.get("visible"))
        for item in elements
        if isinstance(item, Mapping) and "id" in item
    }
    out: list[bool | None] = []
    ancestors: list[tuple[int, bool | None]] = []  # (depth, visibility) of lines with ids
    for line in lines:
        while ancestors and ancestors[-1][0] >= line.depth:
            ancestors.pop()
        if line.id is not None:
            state = shown.get(line.id, ancestors[-1][1] if ancestors else None)
            ancestors.append((line.depth, state))
        else:
            state = ancestors[-1][1] if ancestors else None
        out.append(None if line.fixed else state)
    return out


def _by_distance(candidates: list[int], anchors: list[int]) -> list[int]:
    """``candidates`` farthest from the nearest anchor first; ties: the later line first."""
    if not anchors:
        return sorted(candidates, reverse=True)
    ordered = sorted(anchors)

    def distance(index: int) -> int:
        return min(abs(index - anchor) for anchor in _nearest(ordered, index))

    return sorted(candidates, key=lambda index: (-distance(index), -index))


def _nearest(ordered: list[int], index: int) -> list[int]:

    at = bisect.bisect_left(ordered, index)
    return ordered[max(at - 1, 0) : at + 1]


def _outside_viewport(lines: Sequence[_Line], visible: Sequence[bool | None]) -> list[int]:
    inside = [index for index, state in enumerate(visible) if state]
    if not inside:
        return []
    outside = [index for index, state in enumerate(visible) if state is False]
    return _by_distance(outside, inside)


def _anchors(
    lines: Sequence[_Line], observation: Mapping[str, Any], visible: Sequence[bool | None]
) -> list[int]:
    """Lines of the focused element and of the elements the last action named; else the
    first line in the viewport; else the first line."""
    ids = {str(observation.get("focused") or "")}
    try:
        for call in actions.parse(observation.get("last_action") or ""):
            ids.update(str(call.args[key]) for key in _BID_ARGS if key in call.args)
    except ActionError:
        pass
    found = [index for index, line in enumerate(lines) if line.id is not None and line.id in ids]
    if found:
        return found
    inside = [index for index, state in enumerate(visible) if state]
    return inside[:1] or [0]


def _far_text(lines: Sequence[_Line], anchors: list[int]) -> list[int]:
    """Lines with no control on them or inside them, farthest from the anchors first."""
    candidates = []
    for index, line in enumerate(lines):
        if line.fixed or line.role in INTERACTIVE:
            continue
        inner = index + 1
        while inner < len(lines) and lines[inner].depth > line.depth:
            if lines[inner].role in INTERACTIVE:
                break
            inner += 1
        else:
            candidates.append(index)
            continue
        if lines[inner].depth <= line.depth:  # the scan left the subtree: no control in it
            candidates.append(index)
    return _by_distance(candidates, anchors)


def _long_lists(lines: Sequence[_Line]) -> list[int]:
    """Options past the first :data:`OPTIONS_KEPT` of each select or listbox (selected ones
    kept), the last of every list first."""
    ranked: list[tuple[int, int]] = []  # (rank in its list, line)
    for index, line in enumerate(lines):
        if line.role not in ("combobox", "listbox"):
            continue
        options = []
        inner = index + 1
        while inner < len(lines) and lines[inner].depth > line.depth:
            if lines[inner].role == "option":
                options.append(inner)
            inner += 1
        for rank, option in enumerate(options[OPTIONS_KEPT:], start=OPTIONS_KEPT):
            if not re.search(r" selected(?: |$)", lines[option].text):
                ranked.append((rank, option))
    return [index for _, index in sorted(ranked, key=lambda item: (-item[0], item[1]))]


# --- screenshots ----------------------------------------------------------------------------


def image_data_url(pixels: Any, image_format: str = "jpeg") -> str:
    """An H×W×3 ``uint8`` array as a ``data:image/jpeg;base64,…`` (or PNG) URL."""
    from PIL import Image

    if image_format not in ("jpeg", "png"):
        raise ValueError(f"image_format must be 'jpeg' or 'png', not {image_format!r}")
    buffer = io.BytesIO()
    image = Image.fromarray(pixels).convert("RGB")
    if image_format == "jpeg":
        image.save(buffer, format="JPEG", quality=80, optimize=True)
    else:
        image.save(buffer, format="PNG", optimize=True)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"data:image/{image_format};base64,{encoded}"

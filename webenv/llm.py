"""An agent that asks a chat model for each action, over any OpenAI-compatible endpoint.

Built on the official ``openai`` client (``pip install 'webenv[llm]'``), which speaks to
OpenAI and to the many servers that copy its chat API (vLLM, Ollama, llama.cpp, LiteLLM…)
and brings bounded timeouts and retries with exponential backoff on 408/409/429/5xx and
dropped connections, honouring ``Retry-After``.

The conversation is :mod:`webenv.chat`'s: its system prompt, each page rendered within a
budget, and (by default) native tool calling: the request carries ``tools`` (one strict
function per action), the reply's ``tool_calls`` become the step's action, and the next
request answers each call with a ``tool`` message saying how it went. A call the env cannot
take (an unknown tool, a missing argument, a wrong type) is answered at once with a ``tool``
message giving the reason, and the model is asked again, up to ``repairs`` times.

``tools=False`` is the fallback for servers without tool calling: the action grammar is in
the system prompt and the action is taken from the reply's text, the last fenced code block
that parses, else the last line that parses (:func:`extract_action`).

A reply the agent cannot use (no tool call and no action in its text, arguments that are not
JSON, a call still wrong after the repairs) raises :class:`UnusableReplyError`: the episode ends as
a fault with that reason in its ``error`` (see :func:`webenv.rollout.run_episode`), never as
an empty action scored 0.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

from . import actions, chat
from .errors import ActionError, WebEnvError

#: Placeholder key for servers that need none (the ``openai`` client insists on one).
NO_KEY = "none"
#: The system prompt of the text fallback (``tools=False``).
SYSTEM_PROMPT = chat.system_prompt(tools=False)

_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.DOTALL)
_INLINE = re.compile(r"`([^`\n]+)`")


class UnusableReplyError(Exception):
    """The model's reply holds no action the agent can take. Not a :class:`WebEnvError`
    (which stops a whole run): the episode is recorded as a fault with this reason."""


def extract_action(reply: str) -> str:
    """The action in a model's reply: the last fenced block that parses, else the last line
    (or inline code span, from the end) that parses, else the reply itself, unchanged."""
    for block in reversed(_FENCE.findall(reply)):
        if _parses(block):
            return block.strip()
    for line in reversed(reply.splitlines()):
        whole = line.strip().strip("`").strip()
        for candidate in (whole, *reversed(_INLINE.findall(line))):
            if candidate.strip() and _parses(candidate):
                return candidate.strip()
    return reply.strip()


def _parses(text: str) -> bool:
    try:
        return bool(actions.parse(text))
    except ActionError:
        return False


class OpenAIChatAgent:
    """Asks ``model`` at ``base_url`` (an OpenAI-compatible ``/v1``) for every action.

    Args:
        model: the model's name.
        base_url: the endpoint (default: OpenAI's).
        api_key: defaults to ``OPENAI_API_KEY``; local servers may need none.
        tools: native tool calling (default); False: actions written as text, for servers
            without tools.
        history: previous turns sent along (their pages shortened to goal, URL, last action
            and error, to keep requests small).
        max_tokens: the reply's bound, sent as ``max_completion_tokens``.
        max_page_tokens: the budget of each page (:func:`webenv.chat.count_tokens` tokens).
        repairs: times a refused tool call is answered with its reason and asked again.
        screenshot: attach each page's screenshot (the env must observe ``screenshot``).
        timeout: seconds each request may take (``webenv eval --timeout``);
        max_retries: its retries on rate limits, overloads and dropped connections.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        tools: bool = True,
        history: int = 4,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        max_page_tokens: int = chat.DEFAULT_MAX_TOKENS,
        repairs: int = 2,
        screenshot: bool = False,
        timeout: float = 60.0,
        max_retries: int = 4,
    ):
        try:
            import openai
        except ImportError:
            raise WebEnvError(
                "The openai agent needs the openai package: pip install 'webenv[llm]'."
            ) from None
        self.model = model
        self.tools = tools
        self.history = history
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.budget = chat.Budget(max_tokens=max_page_tokens)
        self.repairs = repairs
        self.screenshot = screenshot
        self.client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or NO_KEY,
            timeout=openai.Timeout(timeout, connect=min(timeout, 10.0)),
            max_retries=max_retries,
        )
        self.system_prompt = chat.system_prompt(tools=tools)
        self._turns: list[list[dict[str, Any]]] = []  # past turns, each a list of messages
        self._pending: list[str] = []  # ids of the tool calls the last step took

    def reset(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        self._turns, self._pending = [], []

    def act(self, observation: Mapping[str, Any]) -> str:
        answers = [chat.tool_result(call_id, observation) for call_id in self._pending]
        self._pending = []
        if self._turns and answers:
            self._turns[-1].extend(answers)
        kept = self._turns[-self.history :] if self.history else []
        past = [message for turn in kept for message in turn]
        page = chat.render(observation, self.budget, screenshot=self.screenshot)
        messages = [{"role": "system", "content": self.system_prompt}, *past, page]
        short = {"role": "user", "content": "\n".join(chat.header_lines(observation, False))}
        turn: list[dict[str, Any]] = [short]
        for attempt in range(self.repairs + 1):
            reply = self._complete(messages)
            action, answered = self._action(reply, last_try=attempt == self.repairs)
            turn.append(reply)
            messages.append(reply)
            if action is not None:
                self._turns = [*kept, turn]
                return action
            turn.extend(answered)
            messages.extend(answered)
        raise AssertionError("unreachable: the last try returns or raises")

    def _action(
        self, reply: dict[str, Any], last_try: bool
    ) -> tuple[str | None, list[dict[str, Any]]]:
        """The step's action from an assistant message; or None and the ``tool`` messages
        refusing its calls (to send back); :class:`UnusableReplyError` if there is nothing to
        send back or no try is left."""
        calls = reply.get("tool_calls") or []
        if not calls:
            text = reply.get("content") or ""
            action = extract_action(text)
            if not _parses(action):
                said = f": {text[:200]!r}" if text.strip() else " (it was empty)"
                raise UnusableReplyError(
                    f"The model's reply holds no tool call and no action{said}."
                )
            return action, []
        found: list[str] = []
        errors: dict[str, str] = {}
        for call in calls:
            function = call["function"]
            try:
                arguments = json.loads(function.get("arguments") or "{}")
            except json.JSONDecodeError as error:
                raise UnusableReplyError(
                    f"The model called {function.get('name')!r} with arguments that are not "
                    f"JSON ({error}): {str(function.get('arguments'))[:200]!r}."
                ) from None
            try:
                found.append(chat.action_from_tool_call(function.get("name", ""), arguments))
            except ActionError as error:
                errors[call["id"]] = str(error)
        if not errors:
            self._pending = [call["id"] for call in calls]
            return "\n".join(found), []
        if last_try:
            reasons = "; ".join(errors.values())
            raise UnusableReplyError(f"The model's tool calls were still refused: {reasons}")
        not_run = "Not run: another call of the same reply was refused."
        return None, [
            chat.tool_result(call["id"], errors.get(call["id"], not_run)) for call in calls
        ]

    def _complete(self, messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The assistant message of the model's reply, as a plain dict."""
        import openai

        extra: dict[str, Any] = {"tools": chat.tools()} if self.tools else {}
        try:
            response = self.client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.temperature,
                max_completion_tokens=self.max_tokens,
                **extra,
            )
        except (openai.AuthenticationError, openai.PermissionDeniedError) as error:
            raise WebEnvError(
                f"The model server refused the API key ({error.status_code}): set "
                "OPENAI_API_KEY or pass --api-key."
            ) from None
        except openai.NotFoundError as error:
            raise WebEnvError(
                f"The model server has no model {self.model!r} or no chat endpoint at "
                f"{self.client.base_url} ({error.status_code}); check --model and --base-url "
                "(it usually ends in /v1)."
            ) from None
        if not response.choices:
            raise UnusableReplyError("The model server replied with no choices.")
        message = response.choices[0].message
        reply: dict[str, Any] = {"role": "assistant", "content": message.content}
        if message.tool_calls:
            reply["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {
                        "name": call.function.name,  # type: ignore[union-attr]
                        "arguments": call.function.arguments,  # type: ignore[union-attr]
                    },
                }
                for call in message.tool_calls
            ]
        return reply

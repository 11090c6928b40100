"""An agent that asks a chat model for each action, over any OpenAI-compatible endpoint.

Built on the official ``openai`` client (``pip install 'webenv[llm]'``), which speaks to
OpenAI and to the many servers that copy its chat API (vLLM, Ollama, llama.cpp, LiteLLM…)
and brings bounded timeouts and retries with exponential backoff on 408/409/429/5xx and
dropped connections, honouring ``Retry-After``.

Each step sends the action grammar (:func:`webenv.actions.describe`) as the system prompt,
a few previous turns, and the current page: goal, URL, tabs, dialog, last action and its
error, and the accessibility tree. One action string is taken from the reply: the last
fenced code block that parses, else the last line that parses. A reply with none is sent
to the env as it is, so the next observation's ``last_action_error`` tells the model what
was wrong, as it would for any malformed action.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import Any

from . import actions
from .errors import ActionError, WebEnvError

SYSTEM_PROMPT = """You are a web agent. You operate a web browser to complete the user's goal
on the websites shown to you. Each turn you see the current page as an accessibility tree:
one element per line, interactive elements prefixed with their id in brackets, e.g.
[12] button "Add to cart". Refer to elements by these ids.

{actions}

Reply with a short thought, then exactly one action in a fenced code block, e.g.
```
click("12")
```
When the goal asks for information, answer with send_msg_to_user("...") holding the value
itself, as the page shows it: send_msg_to_user("$58.20"), not a sentence around it, and only
one value: an answer naming two candidates counts as wrong. When you have done what the goal
asks, say so with send_msg_to_user("Done."): the episode ends then and is graded. When the goal
cannot be done on these sites, say so with report_infeasible("...")."""

#: Placeholder key for servers that need none (the ``openai`` client insists on one).
NO_KEY = "none"

_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.DOTALL)
_INLINE = re.compile(r"`([^`\n]+)`")


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

    ``api_key`` defaults to ``OPENAI_API_KEY``; local servers may need none. ``history``
    previous turns are sent along (their pages shortened to the URL and any error, to keep
    requests small); ``max_page_chars`` bounds the accessibility tree sent. ``timeout`` (s)
    bounds each request, ``max_retries`` its retries.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        history: int = 4,
        temperature: float = 0.0,
        max_tokens: int = 1024,
        max_page_chars: int = 40_000,
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
        self.history = history
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_page_chars = max_page_chars
        self.client = openai.OpenAI(
            base_url=base_url,
            api_key=api_key or os.environ.get("OPENAI_API_KEY") or NO_KEY,
            timeout=openai.Timeout(timeout, connect=min(timeout, 10.0)),
            max_retries=max_retries,
        )
        self.system_prompt = SYSTEM_PROMPT.format(actions=actions.describe())
        self._turns: list[dict[str, str]] = []

    def reset(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        self._turns = []

    def act(self, observation: Mapping[str, Any]) -> str:
        page = self.describe_page(observation)
        past = self._turns[-2 * self.history :] if self.history else []
        messages = [
            {"role": "system", "content": self.system_prompt},
            *past,
            {"role": "user", "content": page},
        ]
        reply = self._complete(messages)
        self._turns += [
            {"role": "user", "content": self.describe_page(observation, full=False)},
            {"role": "assistant", "content": reply},
        ]
        return extract_action(reply)

    def describe_page(self, observation: Mapping[str, Any], full: bool = True) -> str:
        """The observation as the model reads it; ``full=False``: the short form kept in
        the history."""
        lines = [f"Goal: {observation.get('goal', '')}", f"URL: {observation.get('url', '')}"]
        if observation.get("last_action"):
            lines.append(f"Last action: {observation['last_action']}")
        if observation.get("last_action_error"):
            lines.append(f"Error of the last action: {observation['last_action_error']}")
        if not full:
            return "\n".join(lines)
        if observation.get("dialog"):
            lines.append(
                f"Open dialog (answer it with dialog_accept() or dialog_dismiss()): "
                f"{observation['dialog']}"
            )
        if observation.get("tabs"):
            lines.append(f"Tabs:\n{observation['tabs']}")
        tree = str(observation.get("axtree", ""))
        if len(tree) > self.max_page_chars:
            tree = tree[: self.max_page_chars] + "\n… (page cut short; scroll to see more)"
        lines.append(f"Page:\n{tree}")
        return "\n".join(lines)

    def _complete(self, messages: list[dict[str, str]]) -> str:
        import openai

        try:
            response = self.client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.temperature,
                max_tokens=self.max_tokens,
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
            return ""
        return response.choices[0].message.content or ""

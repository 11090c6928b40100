"""Built-in agents, and loading an agent named on the command line.

An agent is anything with ``act(observation) -> str``; it may also have
``reset(observation, info)`` (or ``reset(observation)``), called at the start of each episode
with the public ``info`` (nothing in it gives the answers away: see :mod:`webenv.trusted`).
``openai`` is :class:`webenv.llm.OpenAIChatAgent`, for any OpenAI-compatible chat endpoint.
"""

from __future__ import annotations

import importlib
import os
import random
import re
import sys
from collections.abc import Mapping
from typing import Any, Protocol

import gymnasium as gym

from .errors import WebEnvError
from .perturb import recovering
from .tasks import Oracle
from .trusted import grader_view


class Agent(Protocol):
    def act(self, observation: Mapping[str, Any]) -> str: ...


class NoopAgent:
    """Does nothing, every step: the floor every task must grade at zero."""

    def act(self, observation: Mapping[str, Any]) -> str:
        return "noop()"


class RandomAgent:
    """Random actions on the elements of the current page (never answers)."""

    WORDS = ("blue", "shirt", "1", "2", "Large", "hello", "test@example.com", "")

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def reset(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        self.rng.seed(f"{info.get('seed', 0)}")

    def act(self, observation: Mapping[str, Any]) -> str:
        ids = re.findall(r"^\s*\[(\d+)\]", observation.get("axtree", ""), re.MULTILINE) or ["1"]
        bid = self.rng.choice(ids)
        word = self.rng.choice(self.WORDS)
        return self.rng.choice(
            [
                f'click("{bid}")',
                f'click("{bid}")',
                f'fill("{bid}", "{word}")',
                f'select_option("{bid}", "{word}")',
                f'press("{bid}", "Enter")',
                f'check("{bid}")',
                f"scroll(0, {self.rng.randint(-500, 500)})",
                "go_back()",
            ]
        )


class OracleAgent:
    """The task's own scripted solution. Privileged by design: it is given the env itself, and
    reads the task with its parameters through the trusted path (:func:`webenv.grader_view`)
    and the perturbation plan to get past what it meets (:func:`webenv.perturb.recovering`),
    never through ``info``, which holds neither."""

    def __init__(self, env: gym.Env[Any, Any]):
        self.env = env
        self._policy: Oracle | None = None
        self._first: str | None = None

    def reset(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        task = grader_view(self.env).task
        self._policy = recovering(task.template.oracle, self.env)(task, observation)
        self._first = next(self._policy)

    def act(self, observation: Mapping[str, Any]) -> str:
        if self._policy is None:
            raise WebEnvError("OracleAgent.act() called before reset().")
        if self._first is not None:
            action, self._first = self._first, None
            return action
        try:
            return self._policy.send(observation)
        except StopIteration:
            return 'send_msg_to_user("done")'


#: Agents named by a word rather than ``module:attr``.
BUILTIN_AGENTS = ("oracle", "noop", "random", "openai")


def load_agent(
    spec: str,
    env: gym.Env[Any, Any],
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Agent:
    """``oracle``, ``noop``, ``random``, ``openai``, or ``module:attr`` naming a class
    (instantiated with no arguments) or an act function. ``options`` are keyword arguments of
    the ``openai`` agent (model, base_url, api_key…)."""
    if spec == "oracle":
        return OracleAgent(env)
    if spec == "noop":
        return NoopAgent()
    if spec == "random":
        return RandomAgent(seed)
    if spec == "openai":
        return _openai_agent(options)
    target = _import_agent(spec)
    if isinstance(target, type):
        target = target()
    if hasattr(target, "act"):
        return target  # type: ignore[no-any-return]
    if callable(target):
        return _FunctionAgent(target)
    raise WebEnvError(f"Agent {spec!r} is neither a class nor a function.")


def check_agent(spec: str, options: Mapping[str, Any] | None = None) -> None:
    """Raise :class:`WebEnvError` now if ``spec`` cannot load, before any episode starts
    (without instantiating a ``module:attr`` class, which may be costly)."""
    if spec == "openai":
        _openai_agent(options)
    elif spec not in BUILTIN_AGENTS:
        target = _import_agent(spec)
        if not (isinstance(target, type) or hasattr(target, "act") or callable(target)):
            raise WebEnvError(f"Agent {spec!r} is neither a class nor a function.")


def _openai_agent(options: Mapping[str, Any] | None) -> Agent:
    from .llm import OpenAIChatAgent

    options = dict(options or {})
    if not options.get("model"):
        raise WebEnvError("The openai agent needs a model: --model NAME (e.g. gpt-4o-mini).")
    return OpenAIChatAgent(**options)


def _import_agent(spec: str) -> Any:
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise WebEnvError(
            f"Unknown agent {spec!r}: use oracle, noop, random, openai, or module:attr "
            "(a class with act(observation) -> str, or such a function)."
        )
    # From the folder the command runs in, as `python -m` and uvicorn's `module:app` do: the
    # `webenv` script's own folder is first on its path, not the user's project.
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as error:
        raise WebEnvError(f"Cannot load agent {spec!r}: {error}") from None


class _FunctionAgent:
    def __init__(self, act: Any):
        self.act = act

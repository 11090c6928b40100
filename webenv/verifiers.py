"""verifiers (0.4, the ``verifiers.v1`` stack): webenv's templates and seeds as a taskset
played through verifiers' own OpenEnv env, against ``webenv server``.

verifiers drives any OpenEnv server with its ``openenv`` taskset
(``verifiers/v1/tasksets/openenv/taskset.py``): ``OpenEnvEnv.run`` connects
``GenericEnvClient(base_url=...)``, reads ``/schema``'s action schema, resets with each of
the config's ``resets``, sends the observation (and the schema) as the user turn, takes each
reply as an action and sums the per-step rewards (``openenv_reward``). webenv's action
schema has one required field, ``action``, so a reply that is only an action, such as
``click("12")``, is taken as ``{"action": 'click("12")'}`` (its ``parse_action``).

This module adds what that taskset leaves to the user: the ``resets``, one per template and
seed, and a system prompt that tells the model to answer with an action alone::

    import webenv.verifiers

    taskset = webenv.verifiers.taskset(["shop.*"], seeds=range(4), base_url="http://127.0.0.1:8000")
    tasks = list(taskset)   # OpenEnvTask, one per (template, seed)

:class:`WebEnvTaskset` (with :class:`WebEnvConfig`) is the taskset class, exported by
``__all__`` with :class:`WebEnvEnv`, one subclass of each as verifiers' plugin loader expects
of a taskset package. verifiers 0.4's loader cannot find a taskset by a dotted id (it asks
``importlib.util.find_spec("verifiers.v1.tasksets.webenv.verifiers")``, which raises), so
from verifiers' command line use its ``openenv`` taskset with these resets (see the README).

``OpenEnvEnv`` itself sends each observation whole, as JSON, and counts a step whose reward
is null as 0, so an episode that ended in a fault of the server (``observation.fault``:
Chromium crashed, a step past the server's bound) would score 0. :class:`WebEnvEnv`, the env
this taskset exports, plays the same loop with two differences: each page is rendered by
:func:`webenv.chat.render_text` within ``max_tokens``, and a fault raises
:class:`verifiers.v1.EnvError`, so verifiers records the episode as an error (and may run it
again) instead of a reward.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import verifiers.v1 as vf
from pydantic import Field, model_validator
from verifiers.v1.tasksets.openenv import OpenEnvData, OpenEnvEnv, OpenEnvTask
from verifiers.v1.tasksets.openenv.taskset import parse_action

from . import chat
from .actions import describe
from .errors import UnknownTaskError
from .tasks import matching
from .trl import DEFAULT_URL, URL_VARIABLE

__all__ = [
    "WebEnvConfig",
    "WebEnvData",
    "WebEnvEnv",
    "WebEnvTaskset",
    "resets",
    "system_prompt",
    "taskset",
]

_HOW = """{actions}

Reply with exactly one action and nothing else, e.g.
click("12")
Each reply is run on the page as it is, and the next page comes back."""


def system_prompt() -> str:
    """webenv's system prompt for replies that are an action alone, as ``OpenEnvEnv`` takes
    them (no thought around it, no fence)."""
    return chat.SYSTEM_PROMPT.format(how=_HOW.format(actions=describe()))


def resets(
    tasks: Sequence[str] | str = ("*",), seeds: Iterable[int] = range(4), perturb: str = "none"
) -> list[dict[str, Any]]:
    """One set of ``reset`` arguments per template (names or glob patterns) and seed, for
    an OpenEnv taskset's ``resets``."""
    patterns = [tasks] if isinstance(tasks, str) else list(tasks)
    names = sorted(template.name for template in matching(patterns))
    if not names:
        raise UnknownTaskError(
            f"No task matches {', '.join(patterns)!r}; `webenv list` shows them all."
        )
    return [
        {"task": name, "seed": seed, "perturb": perturb} for seed in list(seeds) for name in names
    ]


class WebEnvData(OpenEnvData):
    max_tokens: int | None = chat.DEFAULT_MAX_TOKENS


class WebEnvConfig(vf.TasksetConfig):
    """Which episodes, on which server."""

    base_url: str = Field(default_factory=lambda: os.environ.get(URL_VARIABLE) or DEFAULT_URL)
    """The webenv server (``webenv server``), ``http://host:port``."""
    tasks: list[str] = Field(default_factory=lambda: ["*"])
    """Template names or glob patterns."""
    seeds: list[int] = Field(default_factory=lambda: [0, 1, 2, 3])
    """The seeds of each template."""
    perturb: str = "none"
    """The perturbation profile of every episode."""
    max_tokens: int | None = chat.DEFAULT_MAX_TOKENS
    """The budget of each page sent to the model (:func:`webenv.chat.count_tokens`)."""

    @model_validator(mode="after")
    def _known_tasks(self) -> WebEnvConfig:
        resets(self.tasks, [0], self.perturb)  # an unknown name fails here, saying so
        return self


class WebEnvTaskset(vf.Taskset[OpenEnvTask, WebEnvConfig]):
    """webenv's episodes as ``OpenEnvTask``: one per template and seed, each played by
    ``OpenEnvEnv`` against the server at ``base_url``, with :func:`system_prompt`."""

    def load(self) -> Iterator[OpenEnvTask]:
        config = self.config
        prompt = self.system_prompt or system_prompt()
        for arguments in resets(config.tasks, config.seeds, config.perturb):
            yield OpenEnvTask(
                WebEnvData(
                    name=f"{arguments['task']}#{arguments['seed']}",
                    prompt=None,
                    system_prompt=prompt,
                    env=None,
                    base_url=config.base_url,
                    use_docker=False,
                    provider_kwargs={},
                    reset=arguments,
                    max_tokens=config.max_tokens,
                ),
                config.task,
            )


def taskset(
    tasks: Sequence[str] | str = ("*",),
    seeds: Iterable[int] = range(4),
    *,
    base_url: str | None = None,
    perturb: str = "none",
    max_tokens: int | None = chat.DEFAULT_MAX_TOKENS,
) -> WebEnvTaskset:
    """A :class:`WebEnvTaskset` of ``tasks`` (names or glob patterns) × ``seeds`` on the
    server at ``base_url`` (default: ``$WEBENV_SERVER_URL``, else ``http://127.0.0.1:8000``)."""
    patterns = [tasks] if isinstance(tasks, str) else list(tasks)
    options: dict[str, Any] = {
        "tasks": patterns,
        "seeds": list(seeds),
        "perturb": perturb,
        "max_tokens": max_tokens,
    }
    if base_url is not None:
        options["base_url"] = base_url
    return WebEnvTaskset(WebEnvConfig(**options))


class WebEnvEnv(OpenEnvEnv):
    """verifiers' ``OpenEnvEnv`` loop for webenv: pages rendered within the task's budget,
    a fault of the server an error of the episode (:class:`verifiers.v1.EnvError`)."""

    async def run(self, task: Any, agents: Any) -> None:
        import httpx
        from openenv import GenericEnvClient

        data = task.data
        budget = chat.Budget(max_tokens=getattr(data, "max_tokens", chat.DEFAULT_MAX_TOKENS))
        base_url = str(data.base_url).rstrip("/")
        async with httpx.AsyncClient(timeout=30) as http:
            response = await http.get(f"{base_url}/schema")
            response.raise_for_status()
        action_schema = response.json()["action"]
        total = 0.0
        async with GenericEnvClient(base_url=base_url) as client:
            result = _checked(await client.reset(**data.reset), "reset")
            async with agents.player.interaction(task) as interaction:
                segment = await interaction.turn(chat.render_text(result.observation, budget))
                while not segment.terminated and not result.done:
                    action = segment.last_reply.strip()
                    if not action:
                        interaction.trace.stop("empty_action")
                        break
                    step = parse_action(action, action_schema)
                    result = _checked(await client.step(step), "step")
                    total += result.reward or 0.0
                    if result.done:
                        break
                    segment = await interaction.turn(chat.render_text(result.observation, budget))
        interaction.trace.record_reward("openenv_reward", total)


def _checked(result: Any, where: str) -> Any:
    """``result``, unless it carries a fault of the server: then an EnvError saying which."""
    fault = (result.observation or {}).get("fault")
    if fault:
        raise vf.EnvError(
            f"webenv server fault at {where} ({fault.get('kind')}): {fault.get('message')} "
            "- not the agent's doing; the episode is not scored."
        )
    return result

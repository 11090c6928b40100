"""What the agent sees and what the grader sees: the public ``info``, and the trusted view.

An agent (and anything handed to it: the observation, ``info``, the eval harness's
``reset(observation, info)``) sees only what a user of the sites could know. The task's
parameters hold the expected answers (an order's total, a tracking number), the perturbation
plan holds one-time codes and the salts of its cookies, and the check's breakdown names the
expected values: an agent that read them could score without opening a page. They stay on the
trusted side: the episode record, the evaluation's results, and :func:`grader_view`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from .errors import WebEnvError
from .perturb.base import TRUSTED_EVENTS
from .tasks import Task

#: The keys of a perturbation event that ``info`` keeps. Others (the path a wall or a dead
#: link struck on, which may name an order or carry a query) go to the record only.
PUBLIC_EVENT_KEYS = ("kind", "site", "what", "step")


def public_task(task: Task) -> dict[str, Any]:
    """What ``info["task"]`` says of a task instance: which template, which seed, how hard,
    what kind of answer it wants, and the goal the agent is given anyway. Never its
    parameters."""
    template = task.template
    return {
        "id": task.id,
        "version": template.version,
        "seed": task.seed,
        "difficulty": template.difficulty,
        "answer_type": template.answer_type,
        "goal": task.goal,
        "start_site": task.start_site,
    }


def public_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Perturbation events as ``info["events"]`` carries them (see :data:`PUBLIC_EVENT_KEYS`)."""
    return [
        {key: event[key] for key in PUBLIC_EVENT_KEYS if key in event}
        for event in events
        if event.get("what") not in TRUSTED_EVENTS
    ]


@dataclass(frozen=True)
class GraderView:
    """The trusted side of the current episode. Never for the policy: it holds the answers.

    ``task`` is the task instance (its ``params`` are what the check compares with);
    ``perturbations`` the full plan (kinds, sites, page views and parameters, one-time codes
    included); ``check`` the last step's check breakdown (``{"success", "conditions": [{"name",
    "passed", "message"}]}``, None before the first step); ``events`` the perturbation events of
    the last reset or step with all their details.
    """

    task: Task
    perturbations: dict[str, Any]
    check: dict[str, Any] | None
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def params(self) -> dict[str, Any]:
        """The task's parameters: expected answers and every value the check compares."""
        return self.task.params


def grader_view(env: gym.Env[Any, Any]) -> GraderView:
    """The trusted view of ``env``'s current episode (``env`` a :class:`~webenv.WebEnv`,
    wrapped or not): the task's parameters, the full perturbation plan and the last check.

    It exists so that graders, episode records, tests and the oracle (the task's own scripted
    solution) can read what ``info`` leaves out on purpose. Never hand it, or anything taken
    from it, to a policy being trained or evaluated. For envs in other processes (Gymnasium's
    ``AsyncVectorEnv``), ``envs.call("grader_view")`` gives one view per env.
    """
    unwrapped = env.unwrapped
    method = getattr(unwrapped, "grader_view", None)
    if method is None:
        raise WebEnvError(
            f"{type(unwrapped).__name__} is not a webenv env; grader_view() takes a WebEnv "
            "(or a wrapper around one)."
        )
    view = method()
    assert isinstance(view, GraderView)
    return view

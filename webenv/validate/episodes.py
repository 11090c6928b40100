"""Running one episode of a generator policy (an oracle, a near-miss, a scripted agent)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from .. import actions
from ..agents import RandomAgent
from ..errors import WebEnvError
from ..perturb import recovering
from ..tasks import DONE, Answer, Oracle, Task
from ..trusted import grader_view

#: A policy as the oracle and near-misses are: given the task and the first observation, a
#: generator of actions that receives each next observation.
Policy = Callable[[Task, Mapping[str, Any]], Oracle]


@dataclass
class PolicyRun:
    """What one episode of a policy came to."""

    seed: int
    reward: float = 0.0
    #: Steps taken, including the final action the run added.
    steps: int = 0
    terminated: bool = False
    truncated: bool = False
    #: The last step's check breakdown (``{"success", "conditions"}``), read through
    #: :func:`webenv.grader_view`; None before a step.
    check: dict[str, Any] | None = None
    #: Every perturbation event of the episode, in full (from :func:`webenv.grader_view`).
    events: list[dict[str, Any]] = field(default_factory=list)
    #: Each step as ``[action, error, url]``, and a last line saying why the policy stopped.
    trail: list[list[str]] = field(default_factory=list)
    #: What the policy raised to stop before its end (``LookupError``: nothing it could act
    #: on in the page), as ``repr``; "" when it ran out of moves or was never stopped so.
    stopped: str = ""
    #: How the episode ended: the final action's message or infeasibility report, if any.
    answer: Answer | None = None
    #: Why the run could not be graded as the policy meant it: an action failed under
    #: ``strict``, the policy raised, the env raised; None when it ran to its end.
    error: str | None = None
    #: The last step's ``info``.
    info: dict[str, Any] = field(default_factory=dict)

    def as_info(self) -> dict[str, Any]:
        """The last ``info`` with ``policy_steps``, ``events``, ``check`` and ``trail``."""
        return {
            **self.info,
            "policy_steps": self.steps,
            "events": self.events,
            "check": self.check,
            "trail": self.trail,
        }

    def to_dict(self) -> dict[str, Any]:
        answer = None if self.answer is None else [self.answer.kind, self.answer.text]
        return {
            "seed": self.seed,
            "reward": self.reward,
            "steps": self.steps,
            "answer": answer,
            "error": self.error,
            "check": self.check,
            "events": self.events,
            "trail": self.trail,
        }


def run_policy(
    env: gym.Env[Any, Any],
    seed: int,
    policy: Policy,
    *,
    perturb: str | None = None,
    strict: bool = False,
    finish: bool = True,
    on_step: Callable[[Mapping[str, Any], Mapping[str, Any]], None] | None = None,
) -> PolicyRun:
    """Run ``policy(task, first_observation)`` for one episode of ``env``.

    Args:
        env: a webenv env (``gym.make(webenv.tasks.env_id(template))``), wrapped or not.
        seed: the episode's seed.
        policy: a generator policy, as a template's ``oracle`` and near-misses are. It may
            stop early (``StopIteration``), or raise ``LookupError`` when it cannot go on in a
            page it did not expect (a near-miss); what it did is then graded.
        perturb: a perturbation profile for the episode; the policy is made to get past what
            it meets (:func:`webenv.perturb.recovering`), as the oracle agent is.
        strict: stop at the first action that fails, as an error (for oracles, whose every
            action must succeed).
        finish: when the policy stops without ending the episode, send the agent's final
            action (:data:`webenv.tasks.DONE`), as the harness does, so what it left is
            graded.
        on_step: called with the observation and ``info`` of the reset and of every step
            (a test's assertions on what the agent is shown, for instance).

    Returns:
        A :class:`PolicyRun`: reward, steps, the check breakdown, events, the trail of
        actions, the answer the episode ended with, and an error if the run was cut short.
    """
    observation, info = env.reset(seed=seed, options={"perturb": perturb or "none"})
    trusted = grader_view(env)
    run = PolicyRun(seed=seed, events=list(trusted.events), info=info)
    if on_step is not None:
        on_step(observation, info)
    if perturb not in (None, "none"):
        policy = recovering(policy, env)
    steps = policy(trusted.task, observation)
    action: str | None = _next(run, steps, None)
    while action is not None:
        observation, reward, terminated, truncated, info = env.step(action)
        run.steps += 1
        run.reward, run.info = float(reward), info
        run.terminated, run.truncated = terminated, truncated
        trusted = grader_view(env)
        run.events += trusted.events
        run.check = trusted.check
        if on_step is not None:
            on_step(observation, info)
        error = observation["last_action_error"]
        run.trail.append([action[:200], error[:300], observation["url"]])
        if terminated:
            run.answer = _answer(action)
        if strict and error:
            run.error = f"step {run.steps}, {action[:120]}: {error[:300]}"
        if terminated or truncated or run.error is not None:
            return run
        if action == DONE:
            run.trail.append(["the final action did not end the episode"])
            return run
        action = _next(run, steps, observation)
        if action is None and finish and run.error is None:
            action = DONE
    return run


def _next(run: PolicyRun, steps: Oracle, observation: Mapping[str, Any] | None) -> str | None:
    """The policy's next action; None when it stopped (``run.trail`` says why)."""
    try:
        return next(steps) if observation is None else steps.send(observation)
    except StopIteration:
        run.trail.append(["policy stopped"])
    except LookupError as stop:
        run.stopped = repr(stop)[:280]
        run.trail.append([f"policy stopped: {run.stopped}"])
    except Exception as error:  # the policy's own bug: reported, not raised
        run.error = f"the policy raised {error!r}"[:400]
        run.trail.append([run.error])
    return None


def _answer(action: str) -> Answer | None:
    """The answer a final action gives, if ``action`` ends with one."""
    try:
        calls = actions.parse(action)
    except WebEnvError:
        return None
    for call in calls:
        if call.name in actions.FINAL_ACTIONS:
            kind = "message" if call.name == "send_msg_to_user" else "infeasible"
            return Answer(kind, str(next(iter(call.args.values()), "")))
    return None


def idle(steps: int) -> Policy:
    """A policy that does nothing for ``steps`` steps, then stops."""

    def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
        for _ in range(steps):
            yield "noop()"

    return policy


def random_policy(steps: int) -> Policy:
    """:class:`webenv.agents.RandomAgent` for ``steps`` steps (seeded by the task), as a
    policy; it never answers."""

    def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
        agent = RandomAgent()
        agent.reset(observation, {"seed": task.seed})
        for _ in range(steps):
            observation = yield agent.act(observation)

    return policy


def oracle_policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
    """The task's own oracle, as a policy."""
    return task.template.oracle(task, observation)

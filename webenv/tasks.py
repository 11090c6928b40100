"""Task templates: how a task is sampled, stated, checked, and solved by its oracle.

A template is a class registered with :func:`register`. For one episode seed it samples its
parameters from the episode's RNG and the world's data (so the task is solvable in that
world), states a goal, names where the agent starts, checks the final server state (and the
agent's answer), and ships an oracle: a scripted policy that solves it through the same
observations and actions an agent uses.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
import re
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .answers import grade
from .errors import UnknownTaskError
from .world import World

#: What an oracle is: a generator given the first observation, yielding actions and
#: receiving each next observation.
Oracle = Generator[str, Mapping[str, Any], None]
#: A part of an oracle, used with ``observation = yield from part(...)``: it returns the
#: observation after its last action.
Moves = Generator[str, Mapping[str, Any], Mapping[str, Any]]
#: A policy that must fail the task: given the task and the first observation, an Oracle.
NearMiss = Callable[["Task", Mapping[str, Any]], Oracle]


@dataclass(frozen=True)
class Condition:
    """One thing the check verified, and what it found."""

    name: str
    passed: bool
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "passed": self.passed, "message": self.message}


@dataclass(frozen=True)
class CheckResult:
    """A check's breakdown; success only if there is at least one condition and all pass."""

    conditions: tuple[Condition, ...]

    @property
    def success(self) -> bool:
        return bool(self.conditions) and all(c.passed for c in self.conditions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "conditions": [condition.to_dict() for condition in self.conditions],
        }


class Checks:
    """Collects conditions: ``checks.expect("one order", n == 1, f"found {n} orders")``."""

    def __init__(self) -> None:
        self._conditions: list[Condition] = []

    def expect(self, name: str, passed: bool, message: str = "") -> bool:
        self._conditions.append(Condition(name, bool(passed), message))
        return bool(passed)

    def result(self) -> CheckResult:
        return CheckResult(tuple(self._conditions))


@dataclass(frozen=True)
class Answer:
    """How the agent ended the episode: a message to the user, or a report of infeasibility."""

    kind: str  # "message" or "infeasible"
    text: str


@dataclass
class Task:
    """One instance of a template: what the agent is asked, in which world."""

    template: TaskTemplate
    seed: int
    params: dict[str, Any]
    goal: str
    start_site: str
    start_path: str = "/"
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.template.name

    def check(self, world: World, answer: Answer | None) -> CheckResult:
        return self.template.check(world, self.params, answer)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.template.version,
            "seed": self.seed,
            "params": self.params,
            "goal": self.goal,
            "start_site": self.start_site,
            "start_path": self.start_path,
        }


class TaskTemplate:
    """Base class of templates. Subclasses set the class attributes and the four methods."""

    name: ClassVar[str] = ""
    version: ClassVar[int] = 0
    sites: ClassVar[tuple[str, ...]] = ()
    tags: ClassVar[tuple[str, ...]] = ()
    difficulty: ClassVar[str] = "easy"
    feasible: ClassVar[bool] = True
    #: For info-seeking tasks, the answer's type (see :mod:`webenv.answers`); else None.
    answer_type: ClassVar[str | None] = None
    #: The task's step budget; its Gymnasium id adds ``registration.RECOVERY_STEPS`` to it.
    max_steps: ClassVar[int] = 30
    #: Whether the episode starts signed in as the persona on every site.
    start_signed_in: ClassVar[bool] = True

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """The task's parameters, drawn from ``rng`` and the world's data. JSON-friendly."""
        raise NotImplementedError

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        """Ways to state the goal (one is drawn per episode); each names every checked value."""
        raise NotImplementedError

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        """``(site, path)`` where the agent starts."""
        return self.sites[0], "/"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        """Verify the final state (and answer) against the parameters."""
        raise NotImplementedError

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        """A scripted policy that solves ``task`` from observations only."""
        raise NotImplementedError

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        """Every value the check depends on, as the goal must state it (a lint test checks
        that each phrasing names them all)."""
        raise NotImplementedError

    def near_misses(self) -> dict[str, NearMiss]:
        """Scripted policies that come close but must fail: a wrong size, one item too many,
        the wrong recipient, an answer off by one, a list of every candidate."""
        raise NotImplementedError

    def altered(self, change: Callable[[dict[str, Any]], dict[str, Any]]) -> NearMiss:
        """A near-miss: this template's oracle, run on parameters changed by ``change``."""

        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            params = change(copy.deepcopy(task.params))
            return self.oracle(dataclasses.replace(task, params=params), observation)

        return policy

    @staticmethod
    def answering(text: Callable[[Task], str]) -> NearMiss:
        """A near-miss that answers ``text(task)`` straight away."""

        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield f"send_msg_to_user({json.dumps(text(task))})"

        return policy

    def instantiate(self, seed: int, world: World) -> Task:
        rng = random.Random(f"{self.name}-v{self.version}-{seed}")
        params = self.sample(rng, world)
        goal = rng.choice(self.goals(params))
        site, path = self.start(params)
        return Task(self, seed, params, goal, site, path)

    # -- helpers for checks ---------------------------------------------------------------

    def check_answer(
        self,
        checks: Checks,
        answer: Answer | None,
        expected: Any,
        *,
        year: int | None = None,
        candidates: Iterable[str] = (),
    ) -> None:
        """Expect a message whose one value of ``answer_type`` is ``expected`` (see
        :func:`webenv.answers.grade`: ``year`` for dates written without one, ``candidates``
        that count as a second answer for names and ids)."""
        if answer is None or answer.kind != "message":
            checks.expect("answered", False, "the episode ended without an answer")
            return
        result = grade(
            self.answer_type or "name", answer.text, expected, year=year, candidates=candidates
        )
        checks.expect("answer", result.passed, f"{answer.text[:200]!r}: {result.reason}")

    @staticmethod
    def check_infeasible(checks: Checks, answer: Answer | None) -> None:
        """Expect the episode to end with ``report_infeasible(...)``, and nothing else."""
        ended = "no answer" if answer is None else f"{answer.kind}: {answer.text[:200]!r}"
        checks.expect(
            "reported infeasible", answer is not None and answer.kind == "infeasible", ended
        )


_TEMPLATES: dict[str, TaskTemplate] = {}
_NAME = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")


def register(cls: type[TaskTemplate]) -> type[TaskTemplate]:
    """Class decorator: add a template to the registry under ``cls.name``."""
    if not _NAME.match(cls.name):
        raise ValueError(f"template name {cls.name!r} must look like 'site.snake_case'")
    if cls.name in _TEMPLATES and type(_TEMPLATES[cls.name]) is not cls:
        raise ValueError(f"template {cls.name!r} is registered twice")
    if not cls.sites:
        raise ValueError(f"template {cls.name!r} names no sites")
    _TEMPLATES[cls.name] = cls()
    return cls


def load_builtin() -> None:
    """Import the built-in templates (``tasks/``), which register themselves."""
    import webenv.suite  # noqa: F401


def templates() -> dict[str, TaskTemplate]:
    load_builtin()
    return dict(sorted(_TEMPLATES.items()))


def get_template(name: str) -> TaskTemplate:
    load_builtin()
    name = name.removeprefix("webenv/").split("-v")[0]
    if name not in _TEMPLATES:
        close = [known for known in _TEMPLATES if name.split(".")[-1] in known]
        hint = f" Did you mean {', '.join(close[:3])}?" if close else ""
        raise UnknownTaskError(f"No task template {name!r}.{hint} `webenv list` shows them all.")
    return _TEMPLATES[name]


def env_id(template: TaskTemplate) -> str:
    """The template's Gymnasium id."""
    return f"webenv/{template.name}-v{template.version}"


def matching(patterns: Iterable[str]) -> list[TaskTemplate]:
    """Templates whose name or id matches any of the glob ``patterns``."""
    from fnmatch import fnmatchcase

    chosen = []
    for template in templates().values():
        if any(fnmatchcase(template.name, p) or fnmatchcase(env_id(template), p) for p in patterns):
            chosen.append(template)
    return chosen

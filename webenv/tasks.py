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
import functools
import json
import random
import re
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .answers import AnswerError, parse_answer
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every oracle ends the episode as an agent must: with a final action. A template's
        # own ``oracle`` only does the task; the one its class exposes then says it is done
        # (info-seeking and infeasible oracles end with their answer, so they never get
        # there). The template's own moves stay at ``oracle.__wrapped__``.
        super().__init_subclass__(**kwargs)
        if "oracle" in cls.__dict__:
            cls.oracle = _finishing(cls.__dict__["oracle"])  # type: ignore[method-assign]

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

    def check_answer(self, checks: Checks, answer: Answer | None, expected: Any) -> None:
        """Expect a message whose one value of ``answer_type`` equals ``expected``."""
        if answer is None or answer.kind != "message":
            checks.expect("answered", False, "the episode ended without an answer")
            return
        try:
            value = parse_answer(self.answer_type or "string", answer.text)
        except AnswerError as error:
            checks.expect("answer", False, f"{answer.text[:200]!r}: {error}")
            return
        checks.expect("answer", value == expected, f"answered {value!r}")

    @staticmethod
    def check_infeasible(checks: Checks, answer: Answer | None) -> None:
        """Expect the episode to end saying the task cannot be done: ``report_infeasible(...)``,
        or a message to the user that says so (:func:`says_infeasible`)."""
        ended = "no answer" if answer is None else f"{answer.kind}: {answer.text[:200]!r}"
        reported = answer is not None and (
            answer.kind == "infeasible" or says_infeasible(answer.text)
        )
        checks.expect("reported infeasible", reported, ended)


#: The final action an oracle ends an action task with.
DONE = 'send_msg_to_user("Done.")'


def _finishing(oracle: Callable[..., Oracle]) -> Callable[..., Oracle]:
    """``oracle``, followed by :data:`DONE` once its own moves are over."""

    @functools.wraps(oracle)
    def finished(self: TaskTemplate, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from oracle(self, task, observation)
        yield DONE

    return finished


#: A message says the task cannot be done when it has one of these...
_CANNOT = re.compile(
    r"\b(can ?not|can't|can’t|couldn't|couldn’t|could not|unable|impossible|infeasible|"
    r"not (?:possible|available|offered|sold|found|there|in stock|exist)|out of stock|"
    r"unavailable|no such|(?:does|did|do|is|are|was)(?: not|n't|n’t)|there is no|"
    r"there are no|there's no|there’s no|no (?:e-?mail|message|product|order|slot|time|"
    r"appointment|position|job|opening|receipt)s?)\b",
    re.IGNORECASE,
)
#: ... and claims no part of it done.
_DID = re.compile(
    r"\b(done|completed|i(?:'ve| have)? (?:bought|ordered|placed|purchased|booked|sent|"
    r"replied|forwarded|submitted|applied|added|saved|updated))\b",
    re.IGNORECASE,
)


def says_infeasible(text: str) -> bool:
    """Whether a message to the user says the task cannot be done ("The shop doesn't sell
    it", "There is no e-mail from Ann Lee") without claiming it was done."""
    return bool(_CANNOT.search(text)) and not _DID.search(text)


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

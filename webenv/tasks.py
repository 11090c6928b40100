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
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from .answers import Fact, grade
from .changes import RowChange
from .claims import says_infeasible
from .errors import SamplingError, UnknownTaskError
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
class May:
    """What a task may do to one table of the user's data: add rows, remove rows, change some
    columns of existing rows (``edit``: a set of columns, or True for any)."""

    add: bool = False
    remove: bool = False
    edit: frozenset[str] | bool = False
    #: Columns that may change only to one value (reading marks a message read, not unread).
    only_to: tuple[tuple[str, Any], ...] = ()
    #: ``(column, value, companion)``: the column may take that value only in a change that
    #: also changes ``companion`` (a message is read by opening it, which records when:
    #: ``("is_read", 1, "opened_at")``; one marked read from a list is not).
    only_with: tuple[tuple[str, Any, str], ...] = ()
    #: ``(column, n)``: at most ``n`` existing rows may change the column (reading opens the
    #: messages it needs and a few more, not the whole mailbox: ``("opened_at", 8)``). Counted
    #: over the episode by :func:`nothing_else_changed`.
    at_most: tuple[tuple[str, int], ...] = ()
    #: Values every added row must have, when a task may add rows of one kind only (a draft
    #: of its own form, not of another): ``(("form_slug", "appointment"),)``; a frozenset
    #: is the values it may have (a sent message in any folder but Drafts).
    adds: tuple[tuple[str, Any], ...] = ()
    #: ``(column, table)``: every added row's ``column`` names a row the episode added to
    #: ``table`` of the same site (a message put under the label the task creates, not under
    #: one the user had). Checked by :func:`allowed`, which knows the episode's added rows.
    adds_to_new: tuple[tuple[str, str], ...] = ()
    #: The task parameter naming the only existing row(s) that may change or go (the row's id,
    #: or a list of ids), when the task is about one row of a table of many (returning one
    #: order changes that order's status, no other's); None for any row. See :meth:`of_row`.
    row: str | None = None
    #: The keys of those rows, bound from one task's parameters (:func:`bind`).
    rows: frozenset[tuple[Any, ...]] | None = None

    def of_row(self, param: str) -> May:
        """The same, but only for the row(s) the task parameter ``param`` names:
        ``edit("status").of_row("order_id")``."""
        return dataclasses.replace(self, row=param)

    def bound(self, params: Mapping[str, Any]) -> May:
        """This, with the rows its :attr:`row` parameter names in ``params``."""
        if self.row is None:
            return self
        value = params[self.row]
        ids = value if isinstance(value, list | tuple) else [value]
        return dataclasses.replace(self, rows=frozenset((row_id,) for row_id in ids))

    def allows(self, change: RowChange) -> bool:
        if change.kind == "added":
            row = dict(change.row)
            return self.add and all(
                row.get(column) in value
                if isinstance(value, frozenset)
                else row.get(column) == value
                for column, value in self.adds
            )
        if self.row is not None and (self.rows is None or change.key not in self.rows):
            return False  # another row than the task's (or rows never bound: none)
        if change.kind == "removed":
            return self.remove
        bound = dict(self.only_to)
        changed = dict(zip(change.columns, change.values, strict=False))
        for column, value in changed.items():
            if column in bound and value != bound[column]:
                return False
        for column, value, companion in self.only_with:
            if column in changed and changed[column] == value and companion not in changed:
                return False
        if isinstance(self.edit, bool):
            return self.edit
        return set(change.columns) <= self.edit

    def overlaps(self, other: May) -> bool:
        """Whether some change both allow (``self``: a template's allowance; ``other``: a
        collateral damage's). (One narrowed to a task's rows by :attr:`row` still
        overlaps: which rows a task's parameters name is not known here.)"""
        if self.add and other.add and (self.adds == other.adds or not (self.adds and other.adds)):
            return True
        if self.remove and other.remove:
            return True
        if not self.edit or not other.edit:
            return False
        named = [set(e) for e in (self.edit, other.edit) if not isinstance(e, bool)]
        if not named:
            return True  # both edit any column
        both = set.intersection(*named)
        # A column this (a template's allowance) bounds by a number of rows and the other (a
        # damage, which stands for as many rows as it likes) does not: the damage's change of
        # many rows is not one this allows.
        both -= {column for column, _n in self.at_most} - {c for c, _n in other.at_most}
        # A column bound to one value that it may take only beside a companion neither lets
        # change is not a change both allow.
        bound = {**dict(self.only_to), **dict(other.only_to)}
        for column, value, companion in (*self.only_with, *other.only_with):
            if column in bound and bound[column] == value and companion not in both:
                both.discard(column)
        return bool(both)


#: Anything may happen to the table's rows.
ANY = May(add=True, remove=True, edit=True)
#: Rows may be added to the table, not changed or removed.
ADD = May(add=True)


def edit(*columns: str) -> May:
    """Only these columns of the table's existing rows may change."""
    return May(edit=frozenset(columns))


def edit_to(**values: Any) -> May:
    """Only these columns of the table's existing rows may change, each only to its value."""
    return May(edit=frozenset(values), only_to=tuple(values.items()))


#: What a task may change of the user's data: ``{site: {table: May}}``. Tables and sites not
#: named must be left as they were.
Allowance = Mapping[str, Mapping[str, May]]

#: The name of the condition every check ends with.
NOTHING_ELSE = "nothing else of the user's changed"


def allow(**sites: Mapping[str, May]) -> Allowance:
    """A template's ``may_change``: ``allow(shop={"orders": ADD, "order_items": ADD})``;
    ``allow()`` for a task that changes nothing."""
    return MappingProxyType({site: MappingProxyType(dict(t)) for site, t in sites.items()})


def bind(allowance: Allowance, params: Mapping[str, Any]) -> Allowance:
    """``allowance`` for one task: each :meth:`May.of_row` bound to the rows ``params`` name."""
    return {
        site: {table: may.bound(params) for table, may in tables.items()}
        for site, tables in allowance.items()
    }


def allowed(
    change: RowChange, allowance: Allowance, added: Mapping[tuple[str, str], set[Any]] | None = None
) -> bool:
    """Whether ``allowance`` lets ``change`` happen; ``added``: the ids of the rows the
    episode added, per ``(site, table)`` (:func:`added_ids`), for :attr:`May.adds_to_new`."""
    may = allowance.get(change.site, {}).get(change.table)
    if may is None:
        return False
    if change.kind == "added" and may.adds_to_new:
        row = dict(change.row)
        for column, table in may.adds_to_new:
            if row.get(column) not in (added or {}).get((change.site, table), set()):
                return False
    return may.allows(change)


def added_ids(changes: Iterable[RowChange]) -> dict[tuple[str, str], set[Any]]:
    """The first key column (the id) of every added row, per ``(site, table)``."""
    found: dict[tuple[str, str], set[Any]] = {}
    for change in changes:
        if change.kind == "added":
            found.setdefault((change.site, change.table), set()).add(change.key[0])
    return found


def nothing_else_changed(world: World, allowance: Allowance) -> Condition:
    """The condition that the user's data changed only as ``allowance`` lets it; its message
    lists what else changed."""
    changes = world.changes()
    added = added_ids(changes)
    others = [change.describe() for change in changes if not allowed(change, allowance, added)]
    too_many = _over_bounds(changes, allowance)
    shown = "; ".join([*too_many, *others[:12]])
    if len(others) > 12:
        shown += f"; and {len(others) - 12} more"
    passed = not others and not too_many
    return Condition(NOTHING_ELSE, passed, shown or "only what the task may change")


def _over_bounds(changes: Iterable[RowChange], allowance: Allowance) -> list[str]:
    """What goes past an allowance's :attr:`May.at_most`, e.g. ``mail.messages: 14 rows
    changed opened_at (at most 8 may)``."""
    counts: Counter[tuple[str, str, str, int]] = Counter()
    for change in changes:
        may = allowance.get(change.site, {}).get(change.table)
        if may is not None and change.kind == "changed":
            counts.update(
                (change.site, change.table, column, bound)
                for column, bound in may.at_most
                if column in change.columns
            )
    return [
        f"{site}.{table}: {count} rows changed {column} (at most {bound} may)"
        for (site, table, column, bound), count in counts.items()
        if count > bound
    ]


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


@dataclass(frozen=True)
class Answering:
    """A near-miss that answers ``text(task)`` straight away, without a look at any page (so
    that its answer can be graded on the world alone, for every seed)."""

    text: Callable[[Task], str]

    def __call__(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield f"send_msg_to_user({json.dumps(self.text(task))})"


@dataclass
class Task:
    """One instance of a template: what the agent is asked, in which world."""

    template: TaskTemplate
    seed: int
    params: dict[str, Any]
    goal: str
    start_site: str
    start_path: str = "/"

    @property
    def id(self) -> str:
        return self.template.name

    def check(self, world: World, answer: Answer | None) -> CheckResult:
        """The template's check, that nothing outside what the task may change changed, and,
        for an action task that can be done, that the agent did not end it saying it cannot
        be: a policy that always claims so would otherwise pass every infeasible task for free.
        ``report_infeasible`` says so on any template; a message is read for it
        (:func:`~webenv.claims.says_infeasible`) only on a template some of whose instances
        cannot be done, where the same reading passes them. Where every instance can be done,
        no message could win anything by saying so, and a reading's mistake would only fail
        correct work. (A question's answer is graded by its own check.)"""
        try:
            result = self.template.check(world, self.params, answer)
        except Exception as error:  # a row it reads is gone (the agent deleted it), say
            reason = str(error).splitlines()[0][:200] if str(error) else ""
            missing = Condition(
                "what the task is about is still there to check",
                False,
                f"the check could not read it ({type(error).__name__}: {reason}): was it deleted?",
            )
            result = CheckResult((missing,))
        allowance = self.template.allowance(self.params)
        conditions = [*result.conditions, nothing_else_changed(world, allowance)]
        feasible = self.template.is_feasible(self.params)
        if feasible and self.template.answer_type is None and answer is not None:
            claimed = answer.kind == "infeasible" or (
                not self.template.feasible and says_infeasible(answer.text)
            )
            ended = f"ended with {answer.kind}: {answer.text[:200]!r}"
            conditions.append(Condition("did not say it cannot be done", not claimed, ended))
        return CheckResult(tuple(conditions))

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
    #: Whether every instance can be done. A template some of whose instances cannot be (the
    #: agent must find out and say so) sets it False and tells each instance's with
    #: :meth:`is_feasible`: it draws both kinds (:func:`draw_feasible`), with goals that read
    #: the same either way, so that neither its id nor its goal gives the answer away.
    feasible: ClassVar[bool] = True
    #: For info-seeking tasks, the answer's type (see :mod:`webenv.answers`); else None.
    answer_type: ClassVar[str | None] = None
    #: The task's step budget; its Gymnasium id adds ``registration.RECOVERY_STEPS`` to it.
    max_steps: ClassVar[int] = 30
    #: Whether the episode starts signed in as the persona on every site.
    start_signed_in: ClassVar[bool] = True
    #: What of the user's data a careful person doing the task would inevitably change (see
    #: :class:`May`); anything else changed fails the check. Every template declares it, if
    #: only as ``allow()`` (a question changes nothing).
    may_change: ClassVar[Allowance | None] = None

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

    def is_feasible(self, params: Mapping[str, Any]) -> bool:
        """Whether the instance of ``params`` can be done: its ``"feasible"`` parameter (see
        :func:`draw_feasible`), else the template's :attr:`feasible`."""
        return bool(params.get("feasible", self.feasible))

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

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        """What this instance may change: ``may_change``, unless a template narrows it to the
        rows its parameters name (as :meth:`May.of_row` does, bound here)."""
        return bind(self.may_change or {}, params)

    def altered(self, change: Callable[[dict[str, Any]], dict[str, Any]]) -> NearMiss:
        """A near-miss: this template's oracle, run on parameters changed by ``change``."""

        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            params = change(copy.deepcopy(task.params))
            return self.oracle(dataclasses.replace(task, params=params), observation)

        return policy

    @staticmethod
    def answering(text: Callable[[Task], str]) -> NearMiss:
        """A near-miss that answers ``text(task)`` straight away."""
        return Answering(text)

    def instantiate(self, seed: int, world: World) -> Task:
        rng = random.Random(f"{self.name}-v{self.version}-{seed}")
        try:
            params = self.sample(rng, world)
        except (SamplingError, LookupError, ValueError) as exc:
            # LookupError and ValueError: a draw from an empty or too short list of the world's
            # things ("Cannot choose from an empty sequence"), as SamplingError says it.
            raise SamplingError(
                f"{self.name} found no instance in the world of seed {seed}: {exc}. This is a "
                "bug of the template; other seeds still work."
            ) from exc
        if self.feasible and not self.is_feasible(params):
            # Its final message would be read for a refusal on this instance and not on the
            # others (Task.check): "do it, then say it can't be done" would pass both kinds.
            raise TypeError(
                f"{self.name} drew an instance that cannot be done: a template with such "
                "instances sets feasible = False."
            )
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
        whole: bool = False,
        most: bool = False,
        least: bool = False,
        facts: Iterable[Fact] = (),
        mentions: Iterable[str] = (),
    ) -> None:
        """Expect a message whose one value of ``answer_type`` is ``expected`` (see
        :func:`webenv.answers.grade`: ``year`` for dates written without one, ``candidates``
        that count as a second answer for names and ids, ``whole`` for a total that a part
        left out of it, "plus tax", makes another amount, ``most`` for a cap that "up to $X"
        states, ``least`` for a minimum that "at least $X" states, ``facts`` the answer may
        cite as its reasons, each with the words naming it: the limit it applied, the price it
        subtracted, and ``mentions``, names it may write that hold no value, the title of the
        article asked about)."""
        if answer is None or answer.kind != "message":
            checks.expect("answered", False, "the episode ended without an answer")
            return
        result = grade(
            self.answer_type or "name",
            answer.text,
            expected,
            year=year,
            candidates=candidates,
            whole=whole,
            most=most,
            least=least,
            facts=facts,
            mentions=mentions,
        )
        checks.expect("answer", result.passed, f"{answer.text[:200]!r}: {result.reason}")

    @staticmethod
    def check_infeasible(checks: Checks, answer: Answer | None) -> None:
        """Expect the episode to end saying the task cannot be done: ``report_infeasible(...)``,
        or a message to the user that says so (:func:`says_infeasible`)."""
        ended = "no answer" if answer is None else f"{answer.kind}: {answer.text[:200]!r}"
        reported = answer is not None and (
            answer.kind == "infeasible" or says_infeasible(answer.text)
        )
        checks.expect("reported infeasible", reported, ended)


#: The share of a template's instances that cannot be done, where some cannot (a template whose
#: every instance could not be done would pay one ``report_infeasible`` without a look).
INFEASIBLE_SHARE = 0.4


def draw_feasible(rng: random.Random) -> bool:
    """Whether an instance of a template that mixes both kinds can be done, drawn from ``rng``
    (:data:`INFEASIBLE_SHARE` of them cannot); ``sample`` keeps it as ``params["feasible"]``."""
    return rng.random() >= INFEASIBLE_SHARE


#: The final action an oracle ends an action task with.
DONE = 'send_msg_to_user("Done.")'


#: How many times a template's sampling loop may draw before it gives up: a sampling loop is a
#: ``for _ in range(MAX_DRAWS)`` ending in :class:`~webenv.errors.SamplingError`, never a bare
#: ``while`` (a test checks), so that a world with no such instance fails its reset at once,
#: with the template and the seed named, instead of drawing forever.
MAX_DRAWS = 1000


def own_moves(template: TaskTemplate, task: Task, observation: Mapping[str, Any]) -> Oracle:
    """``template``'s oracle without its final action: its moves alone, for a policy that does
    that task as one part of something else (collateral damage, say)."""
    moves = getattr(type(template).oracle, "__wrapped__", type(template).oracle)
    return moves(template, task, observation)  # type: ignore[no-any-return]


def go_on(moves: Oracle, observation: Mapping[str, Any]) -> Oracle:
    """The rest of ``moves``, an oracle's moves already started and waiting for
    ``observation`` (one that looked at a page before deciding to carry on)."""
    while True:
        try:
            action = moves.send(observation)
        except StopIteration:
            return
        observation = yield action


def _finishing(oracle: Callable[..., Oracle]) -> Callable[..., Oracle]:
    """``oracle``, followed by :data:`DONE` once its own moves are over."""

    @functools.wraps(oracle)
    def finished(self: TaskTemplate, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from oracle(self, task, observation)
        yield DONE

    return finished


# -- collateral near-misses ---------------------------------------------------------------


@dataclass(frozen=True)
class Collateral:
    """Damage a careless agent does on the side, through a site's pages: a change to the
    user's data no task asked for (cancel another order, delete an unrelated message)."""

    site: str
    #: What it did, as a near-miss's label says it: "cancelled another order".
    label: str
    #: The changes that are the damage, per table: it is not paired with a template allowed
    #: to make any of them (the damage would then be the task's own business, which its check
    #: judges: a second phone change is no collateral of a phone change).
    makes: Mapping[str, May]
    #: The moves, from the site's home page; they may read the task (to leave what its goal
    #: names alone) but nothing else.
    moves: Callable[[Task, Mapping[str, Any]], Moves]


_COLLATERAL: dict[tuple[str, str], Collateral] = {}
_FINAL = ("send_msg_to_user", "report_infeasible")


def register_collateral(
    site: str, label: str, makes: Mapping[str, May]
) -> Callable[[Callable[[Task, Mapping[str, Any]], Moves]], Callable[..., Moves]]:
    """Decorator: add the moves of a :class:`Collateral` to the near-misses of every template
    of ``site`` not allowed to make the changes ``makes``."""

    def add(moves: Callable[[Task, Mapping[str, Any]], Moves]) -> Callable[..., Moves]:
        _COLLATERAL[site, label] = Collateral(site, label, dict(makes), moves)
        return moves

    return add


def site_home(url: str, site: str) -> str:
    """The home page of ``site`` in the same world as the page at ``url``
    (``http://shop.localhost:8123/cart`` → ``http://mail.localhost:8123/``)."""
    scheme, rest = url.split("://", 1)
    host = rest.split("/", 1)[0]
    return f"{scheme}://{site}.{host.split('.', 1)[1]}/"


def collateral_near_misses(template: TaskTemplate) -> dict[str, NearMiss]:
    """For every collateral damage a template's sites know: the damage first, then the
    template's oracle; and the oracle up to its final action (its answer, or saying it is
    done), then the damage, then that final action. Both must earn nothing."""
    allowance = template.may_change or {}
    misses: dict[str, NearMiss] = {}
    for collateral in _COLLATERAL.values():
        mayed = allowance.get(collateral.site, {})
        if collateral.site not in template.sites or any(
            table in mayed and mayed[table].overlaps(may) for table, may in collateral.makes.items()
        ):
            continue
        misses[f"{collateral.label}, then the task"] = _damage_first(template, collateral)
        if template.answer_type is None and template.feasible and not template.start_signed_in:
            continue  # after the task, the one signed in may be an account the task made
        ending = "answering" if template.answer_type is not None else "saying it is done"
        label = f"the task, but {collateral.label} before {ending}"
        misses[label] = _damage_before_answer(template, collateral)
    return misses


def _damage_first(template: TaskTemplate, collateral: Collateral) -> NearMiss:
    def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
        start = observation["url"]
        observation = yield f"goto({json.dumps(site_home(start, collateral.site))})"
        observation = yield from collateral.moves(task, observation)
        observation = yield f"goto({json.dumps(start)})"
        yield from template.oracle(task, observation)

    return policy


def _damage_before_answer(template: TaskTemplate, collateral: Collateral) -> NearMiss:
    def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
        steps = template.oracle(task, observation)
        action = next(steps)
        while not action.lstrip().startswith(_FINAL):
            observation = yield action
            action = steps.send(observation)
        observation = yield f"goto({json.dumps(site_home(observation['url'], collateral.site))})"
        yield from collateral.moves(task, observation)
        yield action

    return policy


def _with_collateral(near_misses: Callable[[Any], dict[str, NearMiss]]) -> Any:
    """``near_misses`` of a template, and the collateral near-misses of its sites."""
    own = getattr(near_misses, "own_near_misses", near_misses)

    def every(self: TaskTemplate) -> dict[str, NearMiss]:
        return {**own(self), **collateral_near_misses(self)}

    every.own_near_misses = own  # type: ignore[attr-defined]
    every.__doc__ = own.__doc__
    return every


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
    # Every template's near-misses include collateral damage on its sites (one toolkit).
    cls.near_misses = _with_collateral(cls.near_misses)  # type: ignore[method-assign]
    _TEMPLATES[cls.name] = cls()
    return cls


def load_builtin() -> None:
    """Import the built-in templates (``tasks/``), which register themselves."""
    import webenv.suite  # noqa: F401


_plugins_loaded = False


def load_templates() -> None:
    """Import the built-in templates and, once, the task suites of other distributions (the
    ``webenv.tasks`` entry points, :mod:`webenv.plugins`); a failing suite raises
    :class:`~webenv.errors.PluginError` again at every call."""
    global _plugins_loaded
    load_builtin()
    if _plugins_loaded:
        return
    from .plugins import load_task_plugins

    load_task_plugins()
    _plugins_loaded = True


def templates() -> dict[str, TaskTemplate]:
    load_templates()
    return registered()


def registered() -> dict[str, TaskTemplate]:
    """The templates registered so far, by name, loading nothing more."""
    return dict(sorted(_TEMPLATES.items()))


def get_template(name: str) -> TaskTemplate:
    load_templates()
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

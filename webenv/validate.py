"""Auditing task templates: the checks a careful annotator would make of each, as a library.

For each template and seed, :func:`validate_template` verifies that the oracle succeeds, clean
and under perturbation; that doing nothing, acting at random and every near-miss fail; that an
info-seeking task's answer check takes a careful sentence and refuses a hedge; that every
phrasing of the goal states what the check depends on; that a seed always gives the same
instance; and that the seeds give varied instances with answers that are not free. The
``webenv validate`` command runs it over the built-in suite or any registered templates.

Episodes run through the public env API (``gym.make(webenv.tasks.env_id(template))``) with
:func:`run_policy`, the loop the task tests share. Checks that need no browser (the untouched
world, the goal's wording, determinism, diversity) are :func:`check_instances`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

import gymnasium as gym

from . import actions
from .agents import RandomAgent
from .answers import AnswerError, parse_answer
from .errors import WebEnvError
from .perturb import PROFILES as PERTURB_PROFILES
from .perturb import make_plan, recovering
from .registration import register_envs
from .tasks import Answer, Oracle, Task, TaskTemplate, env_id
from .world import World

#: A policy as the oracle and near-misses are: given the task and the first observation, a
#: generator of actions that receives each next observation.
Policy = Callable[[Task, Mapping[str, Any]], Oracle]

#: The final action a policy's run ends with when the policy stops without ending it.
DONE = 'send_msg_to_user("Done.")'
#: Profiles checked by default.
PROFILES = ("light", "heavy", "adversarial")
#: Ways to end an episode without doing anything (checked on the untouched world).
IDLE_ENDINGS = (None, Answer("message", ""), Answer("message", "Done."))
#: The share of seeds that must give distinct instances (20 of 30).
DISTINCT_SHARE = 2 / 3
#: At most one answer in this many may be degenerate (0, $0.00, empty).
DEGENERATE_ONE_IN = 30
#: A careful person's sentences around the right answer ``{}``; each must earn the reward.
SENTENCES = ("{}", "It's {}.", "The answer is {}", "{}, as far as I can see", "I found {}.")
#: What another identifier looks like: a short run of letters, digits, dashes and spaces,
#: with at least one digit.
_ID_LIKE = re.compile(r"(?=.*[0-9])[A-Za-z0-9][A-Za-z0-9 -]{0,40}")
#: Hedges: the right answer ``{0}`` with another candidate ``{1}``; each must earn nothing.
HEDGES = ("{0} or {1}", "Either {1} or {0}.", "It's {0}, or maybe {1}.")


# -- running a policy -------------------------------------------------------------------------


@dataclass
class PolicyRun:
    """What one episode of a policy came to."""

    seed: int
    reward: float = 0.0
    #: Steps taken, including the final action the run added.
    steps: int = 0
    terminated: bool = False
    truncated: bool = False
    #: The last step's check breakdown (``{"success", "conditions"}``), None before a step.
    check: dict[str, Any] | None = None
    #: Every perturbation event of the episode, in full.
    events: list[dict[str, Any]] = field(default_factory=list)
    #: Each step as ``[action, error, url]``, and a last line saying why the policy stopped.
    trail: list[list[str]] = field(default_factory=list)
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
            action (:data:`DONE`), as the harness does, so what it left is graded.

    Returns:
        A :class:`PolicyRun`: reward, steps, the check breakdown, events, the trail of
        actions, the answer the episode ended with, and an error if the run was cut short.
    """
    observation, info = env.reset(seed=seed, options={"perturb": perturb or "none"})
    run = PolicyRun(seed=seed, events=list(info.get("events", [])), info=info)
    if perturb not in (None, "none"):
        policy = recovering(policy, env)
    steps = policy(_task(env), observation)
    action: str | None = _next(run, steps, None)
    while action is not None:
        observation, reward, terminated, truncated, info = env.step(action)
        run.steps += 1
        run.reward, run.terminated, run.truncated, run.info = (
            float(reward),
            terminated,
            truncated,
            info,
        )
        run.events += info.get("events", [])
        run.check = _check(env, info)
        error = observation["last_action_error"]
        run.trail.append([action[:200], error[:300], observation["url"]])
        if terminated or truncated:
            run.answer = _answer(action) if terminated else None
            return run
        if strict and error:
            run.error = f"step {run.steps}, {action[:120]}: {error[:300]}"
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
        run.trail.append([f"policy stopped: {stop!r}"[:300]])
    except Exception as error:  # the policy's own bug: reported, not raised
        run.error = f"the policy raised {error!r}"[:400]
        run.trail.append([run.error])
    return None


def _task(env: gym.Env[Any, Any]) -> Task:
    task = env.unwrapped.task  # type: ignore[attr-defined]
    assert isinstance(task, Task)
    return task


def _check(env: gym.Env[Any, Any], info: Mapping[str, Any]) -> dict[str, Any] | None:
    check = info.get("check")
    return dict(check) if check is not None else None


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


# -- reports ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One seed's (or one episode's) verdict within a check."""

    passed: bool
    reason: str = ""
    seed: int | None = None
    #: What the verdict is about when a check has several per seed (a near-miss's label, a
    #: sentence of the answer battery).
    label: str = ""
    #: The episode, for failures (see :meth:`PolicyRun.to_dict`).
    episode: dict[str, Any] | None = None

    def describe(self) -> str:
        where = [f"seed {self.seed}" if self.seed is not None else "", self.label]
        prefix = ", ".join(part for part in where if part)
        return f"{prefix}: {self.reason}" if prefix else self.reason

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"passed": self.passed, "reason": self.reason, "seed": self.seed}
        if self.label:
            data["label"] = self.label
        if self.episode is not None:
            data["episode"] = self.episode
        return data


@dataclass(frozen=True)
class CheckReport:
    """One check of one template over the seeds: passed unless a case failed."""

    name: str
    cases: tuple[Case, ...] = ()
    #: Why the check does not apply (an action task has no answer to grade), if it does not.
    skipped: str = ""

    @property
    def passed(self) -> bool:
        return all(case.passed for case in self.cases)

    @property
    def failures(self) -> list[Case]:
        return [case for case in self.cases if not case.passed]

    @property
    def reason(self) -> str:
        """A short reason: the first failure, and how many cases failed."""
        if self.skipped:
            return self.skipped
        failures = self.failures
        if not failures:
            if len(self.cases) == 1 and self.cases[0].reason:
                return self.cases[0].reason
            return f"{len(self.cases)} passed"
        more = f" ({len(failures)} of {len(self.cases)} failed)" if len(self.cases) > 1 else ""
        return failures[0].describe() + more

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "skipped": bool(self.skipped),
            "reason": self.reason,
            "cases": [case.to_dict() for case in self.cases],
        }


@dataclass(frozen=True)
class TemplateReport:
    """Every check of one template."""

    template: str
    id: str
    seeds: tuple[int, ...]
    checks: tuple[CheckReport, ...]

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def check(self, name: str) -> CheckReport:
        """The check named ``name`` (see :data:`CHECKS`)."""
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(f"no check {name!r}; the checks are {[c.name for c in self.checks]}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "template": self.template,
            "id": self.id,
            "passed": self.passed,
            "seeds": list(self.seeds),
            "checks": [check.to_dict() for check in self.checks],
        }


#: Every check's name, in the order of the table: the oracle clean, then under each profile
#: (named by the profile), and the rest.
CHECKS = (
    "oracle",
    *(profile for profile in PERTURB_PROFILES if profile != "none"),
    "untouched",
    "noop",
    "random",
    "near-misses",
    "answers",
    "goal",
    "same-seed",
    "diverse",
    "nonzero",
)


# -- checks with no browser -----------------------------------------------------------------------


def check_instances(template: TaskTemplate, seeds: Sequence[int]) -> list[CheckReport]:
    """The checks of a template's instances that need no browser, over ``seeds``.

    ``untouched``: the check fails on the freshly restored world, ended in every idle way (no
    answer, an empty message, "Done."). ``goal``: every phrasing of the goal
    (``template.goals``) states every value of ``template.stated_values``. ``same-seed``: a
    seed gives the same parameters and goal twice. ``diverse``: at least two thirds of the
    seeds give distinct instances.
    """
    untouched, goal, same, keys = [], [], [], {}
    world = World(template.sites)
    try:
        for seed in seeds:
            try:
                task = _instance(template, world, seed)
                untouched.append(_untouched(task, world, seed))
                goal.append(_goal_states_values(template, task.params, seed))
                again = _instance(template, world, seed)
                same.append(_same_instance(task, again, seed))
                keys[seed] = _instance_key(task)
            except Exception as error:  # a template's bug, reported as such
                case = Case(False, f"instantiating raised {error!r}"[:300], seed)
                untouched.append(case)
                goal.append(case)
                same.append(case)
    finally:
        world.close()
    return [
        CheckReport("untouched", tuple(untouched)),
        CheckReport("goal", tuple(goal)),
        CheckReport("same-seed", tuple(same)),
        CheckReport("diverse", (_diverse(keys, len(seeds)),)),
    ]


def _instance(template: TaskTemplate, world: World, seed: int) -> Task:
    """``template``'s instance of ``seed`` in its freshly restored world, marked as started."""
    world.restore(seed)
    task = template.instantiate(seed, world)
    world.mark_start()
    return task


def _untouched(task: Task, world: World, seed: int) -> Case:
    for ending in IDLE_ENDINGS:
        if task.check(world, ending).success:
            said = "no answer" if ending is None else f"the message {ending.text!r}"
            return Case(False, f"the check passes on the untouched world, ended with {said}", seed)
    return Case(True, "", seed)


def _goal_states_values(template: TaskTemplate, params: Mapping[str, Any], seed: int) -> Case:
    values = [str(value) for value in template.stated_values(params)]
    phrasings = template.goals(params)
    if not phrasings:
        return Case(False, "goals() gives no phrasing", seed)
    for phrasing in phrasings:
        missing = [value for value in values if value not in phrasing]
        if missing:
            return Case(False, f"the goal {phrasing[:120]!r} omits {missing[0]!r}", seed)
    return Case(True, f"{len(phrasings)} phrasings state {len(values)} values", seed)


def _same_instance(first: Task, again: Task, seed: int) -> Case:
    for what, one, other in (
        ("params", first.params, again.params),
        ("goal", first.goal, again.goal),
    ):
        if _json(one) != _json(other):
            return Case(False, f"the {what} differ from one instantiation to the next", seed)
    return Case(True, "", seed)


def _instance_key(task: Task) -> str:
    return _json({"params": task.params, "goal": task.goal})


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _diverse(keys: Mapping[int, str], count: int) -> Case:
    needed = math.ceil(count * DISTINCT_SHARE)
    distinct = len(set(keys.values()))
    reason = f"{distinct} distinct instances of {count} seeds (at least {needed} needed)"
    return Case(distinct >= needed, reason)


# -- the answer battery ----------------------------------------------------------------------------


def alternatives(kind: str, answer: str) -> list[str]:
    """Other values of ``kind`` near ``answer`` (a cent more, the next day, one digit off):
    candidates a hedge may offer beside the right answer. Empty when ``answer`` holds no one
    value of ``kind`` or the kind has no neighbours (names)."""
    try:
        value = parse_answer(kind, answer)
    except AnswerError:
        return []
    if kind == "money":
        return [f"${cents / 100:,.2f}" for cents in (value + 100, value - 1) if cents > 0]
    if kind == "number" and isinstance(value, Decimal):
        return [str(value + 1)]
    if kind == "date" and isinstance(value, date):
        return [(value + timedelta(days=1)).isoformat()]
    if kind == "time":
        later = datetime.combine(date(2000, 1, 1), value) + timedelta(hours=1)
        return [later.strftime("%I:%M %p").lstrip("0")]
    if kind == "phone":
        digits = str(value)
        last = str((int(digits[-1]) + 1) % 10)
        return [f"({digits[:3]}) {digits[3:6]}-{digits[6:9]}{last}"]
    if kind == "identifier":
        positions = [i for i, ch in enumerate(answer) if ch.isdigit()]
        if positions:
            i = positions[-1]
            return [answer[:i] + str((int(answer[i]) + 1) % 10) + answer[i + 1 :]]
    return []


def same_kind_candidates(kind: str, answer: str, texts: Iterable[str]) -> list[str]:
    """Those of ``texts`` (other answers: near-misses') holding one value of ``kind`` that is
    not ``answer``'s (for names, any other text: a name cannot be told from a sentence)."""
    try:
        right = parse_answer(kind, answer)
    except AnswerError:
        return []
    chosen = []
    for text in texts:
        if not text.strip() or len(text) > 200:
            continue
        try:
            value = parse_answer(kind, text)
        except AnswerError:
            continue
        if kind == "identifier" and not _ID_LIKE.fullmatch(text.strip()):
            continue  # a sentence, not another id
        if value != right and value not in ("", frozenset(), []) and text not in chosen:
            chosen.append(text)
    return chosen


def answer_battery(answer: str, candidates: Iterable[str]) -> tuple[list[str], list[str]]:
    """``(sentences, hedges)``: ``answer`` in careful sentences (:data:`SENTENCES`), and with
    each of ``candidates`` beside it (:data:`HEDGES`)."""
    sentences = [form.format(answer) for form in SENTENCES]
    hedges = [form.format(answer, other) for other in candidates for form in HEDGES]
    return sentences, hedges


def check_answers(
    template: TaskTemplate,
    answers: Mapping[int, str],
    others: Mapping[int, Iterable[str]] | None = None,
) -> CheckReport:
    """The answer battery of an info-seeking template, with no browser.

    Args:
        template: a template with ``answer_type`` set.
        answers: the right answer of each seed (the oracle's final message).
        others: other answers of each seed (the near-misses'), a source of hedges' candidates
            beside :func:`alternatives`.

    Each careful sentence around the right answer must pass the check on the seed's untouched
    world, and each hedge must fail it.
    """
    kind = template.answer_type
    if kind is None:
        return CheckReport("answers", skipped="not info-seeking")
    if not answers:
        return CheckReport("answers", (Case(False, "no answer of the oracle to grade"),))
    cases = []
    world = World(template.sites)
    try:
        for seed, answer in sorted(answers.items()):
            near = [*(others or {}).get(seed, ()), *alternatives(kind, answer)]
            candidates = same_kind_candidates(kind, answer, near)
            sentences, hedges = answer_battery(answer, candidates)
            task = _instance(template, world, seed)
            for sentence in sentences:
                if not task.check(world, Answer("message", sentence)).success:
                    cases.append(Case(False, f"{sentence!r} fails", seed, "sentence"))
            for hedge in hedges:
                if task.check(world, Answer("message", hedge)).success:
                    cases.append(Case(False, f"the hedge {hedge!r} passes", seed, "hedge"))
            if not hedges:
                cases.append(Case(False, f"no other {kind} to hedge {answer!r} with", seed))
            count = f"{len(sentences)} sentences pass, {len(hedges)} hedges fail"
            cases.append(Case(True, count, seed))
    finally:
        world.close()
    return CheckReport("answers", tuple(cases))


def is_degenerate(kind: str, answer: str) -> bool:
    """Whether ``answer`` is a free answer: 0, $0.00, or empty."""
    if not answer.strip():
        return True
    try:
        value = parse_answer(kind, answer)
    except AnswerError:
        return False
    return value in (0, "", frozenset(), []) or (isinstance(value, Decimal) and value == 0)


def check_nonzero(template: TaskTemplate, answers: Mapping[int, str], count: int) -> CheckReport:
    """At most one answer in :data:`DEGENERATE_ONE_IN` of ``count`` seeds is degenerate."""
    kind = template.answer_type
    if kind is None:
        return CheckReport("nonzero", skipped="not info-seeking")
    free = [seed for seed, answer in sorted(answers.items()) if is_degenerate(kind, answer)]
    allowed = count // DEGENERATE_ONE_IN
    reason = f"{len(free)} degenerate answers of {count} seeds (at most {allowed})"
    if free:
        reason += f": seeds {', '.join(map(str, free[:5]))}"
    return CheckReport("nonzero", (Case(len(free) <= allowed, reason),))


# -- checks with episodes -----------------------------------------------------------------------


def _episode_case(run: PolicyRun, want_success: bool, label: str = "", keep: bool = False) -> Case:
    """A case from an episode: the oracle must earn 1.0, others 0.0."""
    if run.error is not None:
        return Case(False, run.error, run.seed, label, run.to_dict())
    if want_success and run.reward != 1.0:
        failed = [c for c in (run.check or {}).get("conditions", []) if not c["passed"]]
        why = f"{failed[0]['name']}: {failed[0]['message']}" if failed else "no check"
        reason = f"reward {run.reward} after {run.steps} steps ({why})"[:300]
        return Case(False, reason, run.seed, label, run.to_dict())
    if not want_success and run.reward != 0.0:
        return Case(False, f"earns {run.reward}", run.seed, label, run.to_dict())
    return Case(True, f"reward {run.reward}", run.seed, label, run.to_dict() if keep else None)


def _guarded(env: gym.Env[Any, Any], seed: int, policy: Policy, **options: Any) -> PolicyRun:
    """:func:`run_policy`, with an env's exception reported as the run's error."""
    try:
        return run_policy(env, seed, policy, **options)
    except Exception as error:
        return PolicyRun(seed=seed, error=f"the episode raised {error!r}"[:400])


def validate_template(
    template: TaskTemplate,
    seeds: Sequence[int],
    profiles: Sequence[str] = PROFILES,
    *,
    random_steps: int = 15,
    noop_steps: int = 5,
    env_kwargs: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> TemplateReport:
    """Every check of ``template`` over ``seeds`` (see the module's docstring and
    :data:`CHECKS`), its episodes run in one env, closed after.

    Args:
        template: a registered template (``@webenv.register``).
        seeds: the seeds to check; the diversity floors are meant over 30 or more.
        profiles: perturbation profiles the oracle must get past (with recovery); a seed whose
            plan under a profile is empty is not run again.
        random_steps: the random agent's steps per episode, before it says it is done.
        noop_steps: the no-op episode's steps, before it says it is done.
        env_kwargs: keyword arguments of ``gym.make`` (``observe``, ``timeouts`` …).
        progress: called with a line before each group of episodes.
    """
    register_envs()  # templates registered since ``import webenv`` get their ids
    say = progress or (lambda line: None)
    seeds = list(seeds)
    static = {check.name: check for check in check_instances(template, seeds)}
    near_misses = template.near_misses()
    reports: dict[str, CheckReport] = {}
    answers: dict[int, str] = {}
    others: dict[int, list[str]] = {seed: [] for seed in seeds}
    env = gym.make(env_id(template), **dict(env_kwargs or {}))
    try:
        say(f"{template.name}: the oracle on {len(seeds)} seeds")
        clean = {}
        for seed in seeds:
            run = clean[seed] = _guarded(env, seed, oracle_policy, strict=True)
            if run.answer is not None and run.answer.kind == "message":
                answers[seed] = run.answer.text
        reports["oracle"] = CheckReport(
            "oracle", tuple(_episode_case(clean[s], True) for s in seeds)
        )
        for profile in profiles:
            if profile == "none":
                continue
            say(f"{template.name}: the oracle under {profile}")
            cases = []
            for seed in seeds:
                plan = make_plan(seed, profile, template.sites, template.start_signed_in)
                if not plan.items:
                    stands = _episode_case(clean[seed], True)
                    cases.append(Case(stands.passed, "nothing planned: " + stands.reason, seed))
                    continue
                run = _guarded(env, seed, oracle_policy, perturb=profile)
                cases.append(_episode_case(run, True))
            reports[profile] = CheckReport(profile, tuple(cases))
        say(f"{template.name}: doing nothing, acting at random")
        noop = _guarded(env, seeds[0], idle(noop_steps))
        reports["noop"] = CheckReport("noop", (_episode_case(noop, False),))
        randoms = [_guarded(env, seed, random_policy(random_steps)) for seed in seeds]
        reports["random"] = CheckReport("random", tuple(_episode_case(r, False) for r in randoms))
        say(f"{template.name}: {len(near_misses)} near-misses")
        cases = []
        for label, near_miss in near_misses.items():
            for seed in seeds:
                run = _guarded(env, seed, near_miss)
                cases.append(_episode_case(run, False, label))
                if run.answer is not None and run.answer.kind == "message":
                    others[seed].append(run.answer.text)
        if not near_misses:
            cases.append(Case(False, "the template has no near-misses; it needs at least one"))
        reports["near-misses"] = CheckReport("near-misses", tuple(cases))
    finally:
        env.close()
    reports["answers"] = check_answers(template, answers, others)
    reports["nonzero"] = check_nonzero(template, answers, len(seeds))
    reports.update(static)
    order = [name for name in CHECKS if name in reports]
    return TemplateReport(
        template.name, env_id(template), tuple(seeds), tuple(reports[n] for n in order)
    )


@dataclass(frozen=True)
class ValidationReport:
    """The audit of several templates."""

    templates: tuple[TemplateReport, ...]
    seeds: tuple[int, ...]
    profiles: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return all(report.passed for report in self.templates)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "passed": self.passed,
            "seeds": list(self.seeds),
            "profiles": list(self.profiles),
            "checks": [
                name for name in CHECKS if name not in PERTURB_PROFILES or name in self.profiles
            ],
            "templates": [report.to_dict() for report in self.templates],
        }


def validate_templates(
    templates: Iterable[TaskTemplate],
    seeds: Sequence[int],
    profiles: Sequence[str] = PROFILES,
    **options: Any,
) -> ValidationReport:
    """:func:`validate_template` for each of ``templates`` (same keyword options)."""
    reports = tuple(validate_template(t, seeds, profiles, **options) for t in templates)
    return ValidationReport(reports, tuple(seeds), tuple(p for p in profiles if p != "none"))


def table(report: ValidationReport) -> Iterator[str]:
    """The report as lines of text: a table of templates × checks (pass, FAIL, or - where a
    check does not apply), then each failure's short reason."""
    names = [name for name in CHECKS if name not in PERTURB_PROFILES or name in report.profiles]
    width = max([len(t.template) for t in report.templates] + [8])
    yield f"{'template':<{width}}  " + "  ".join(names)
    for template in report.templates:
        marks = []
        for name in names:
            try:
                check = template.check(name)
            except KeyError:
                mark = "-"
            else:
                mark = "-" if check.skipped else ("pass" if check.passed else "FAIL")
            marks.append(f"{mark:<{len(name)}}")
        yield f"{template.template:<{width}}  " + "  ".join(marks).rstrip()
    failures = [
        (template.template, check)
        for template in report.templates
        for check in template.checks
        if not check.passed
    ]
    if failures:
        yield ""
    for name, check in failures:
        yield f"FAIL {name} {check.name}: {check.reason}"

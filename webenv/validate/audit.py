"""Every check of a template, its episodes run in one env through the public env API."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import gymnasium as gym

from ..perturb import make_plan
from ..registration import register_envs
from ..tasks import TaskTemplate, env_id
from .battery import check_answers, check_nonzero
from .episodes import Policy, PolicyRun, idle, oracle_policy, random_policy, run_policy
from .instances import check_instances
from .report import (
    RANDOM_STEPS,
    Case,
    CheckReport,
    TemplateReport,
    ValidationInterrupted,
    ValidationReport,
    check_order,
)
from .resume import code_of

#: Profiles checked by default.
PROFILES = ("light", "heavy", "adversarial", "heavy+stale")


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
        return Case(False, f"earns {run.reward}{_cut_short(run)}", run.seed, label, run.to_dict())
    return Case(True, f"reward {run.reward}", run.seed, label, run.to_dict() if keep else None)


def _cut_short(run: PolicyRun) -> str:
    """Why a policy that earned what it should not may never have made its move: the step
    limit came first, or it found nothing to act on. Such a near-miss needs mending, and the
    check may be sound."""
    if run.truncated:
        return f", cut short by the step limit after {run.steps} steps"
    if run.stopped:
        return f", but the policy stopped: {run.stopped[:220]}"
    return ""


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
    random_steps: int = RANDOM_STEPS,
    noop_steps: int = 5,
    env_kwargs: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> TemplateReport:
    """Every check of ``template`` over ``seeds`` (see the module's docstring and
    :func:`check_order`), its episodes run in one env, closed after.

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
    code = code_of(template)  # before the first episode: the code this audit runs
    say = progress or (lambda line: None)
    seeds = list(seeds)
    static = {check.name: check for check in check_instances(template, seeds)}
    try:
        near_misses = template.near_misses()
    except NotImplementedError:
        near_misses = {}  # reported below: every template needs at least one
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
                case = _episode_case(run, True)
                shown = sum(event.get("what") == "shown" for event in run.events)
                met = f"; {shown} perturbation{'' if shown == 1 else 's'} shown"
                cases.append(dataclasses.replace(case, reason=case.reason + met))
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
            cases.append(Case(False, "no near-misses: near_misses() must give at least one"))
        reports["near-misses"] = CheckReport("near-misses", tuple(cases))
    finally:
        env.close()
    reports["answers"] = check_answers(template, answers, others)
    reports.update(static)
    if static["nonzero"].skipped == "the check does not use check_answer":
        reports["nonzero"] = check_nonzero(template, answers, len(seeds))
    order = [name for name in check_order(profiles) if name in reports]
    report = TemplateReport(
        template.name,
        env_id(template),
        tuple(seeds),
        tuple(reports[n] for n in order),
        code,
    )
    failed = [check.name for check in report.checks if not check.passed]
    # Said as each audit ends: a long run's table comes only once every template is done.
    say(f"{template.name}: " + (f"FAIL {', '.join(failed)}" if failed else "passed every check"))
    return report


def validate_templates(
    templates: Iterable[TaskTemplate],
    seeds: Sequence[int],
    profiles: Sequence[str] = PROFILES,
    *,
    workers: int = 0,
    on_report: Callable[[TemplateReport], None] | None = None,
    **options: Any,
) -> ValidationReport:
    """:func:`validate_template` for each of ``templates`` (same keyword options).

    ``workers``: 0 audits them one after another in this process; more audits each template
    in a worker process of its own, that many at once (:mod:`webenv.validate.parallel`: a
    worker that dies fails its template's audit, not the others'). The reports are in the
    order of ``templates`` either way. ``on_report`` is called with each template's report as
    its audit ends (so a caller can keep it before the last one is done).
    """
    templates, seeds = list(templates), list(seeds)
    named = tuple(p for p in profiles if p != "none")
    steps = options.get("random_steps", RANDOM_STEPS)
    reports: dict[str, TemplateReport] = {}

    def ended(report: TemplateReport) -> None:
        reports[report.template] = report
        if on_report is not None:
            on_report(report)

    try:
        if workers:
            from .parallel import validate_in_workers

            say = options.pop("progress", None) is not None
            validate_in_workers(
                templates, seeds, profiles, workers, progress=say, on_report=ended, **options
            )
        else:
            for template in templates:
                ended(validate_template(template, seeds, profiles, **options))
    except KeyboardInterrupt:
        done = tuple(reports[t.name] for t in templates if t.name in reports)
        left = tuple(t.name for t in templates if t.name not in reports)
        raise ValidationInterrupted(
            ValidationReport(done, tuple(seeds), named, not_audited=left, random_steps=steps)
        ) from None
    ordered = tuple(reports[template.name] for template in templates)
    return ValidationReport(ordered, tuple(seeds), named, random_steps=steps)

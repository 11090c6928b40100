"""What an audit found: a verdict per seed, per check, per template, and as a table."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..perturb import PROFILES as PERTURB_PROFILES

#: The random agent's steps per episode, by default.
RANDOM_STEPS = 15


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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Case:
        """The case of :meth:`to_dict`."""
        return cls(
            bool(data["passed"]),
            str(data.get("reason", "")),
            data.get("seed"),
            str(data.get("label", "")),
            data.get("episode"),
        )


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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckReport:
        """The check of :meth:`to_dict` (a skipped check's reason is its ``reason``)."""
        cases = tuple(Case.from_dict(case) for case in data.get("cases", ()))
        return cls(str(data["name"]), cases, str(data["reason"]) if data.get("skipped") else "")


@dataclass(frozen=True)
class TemplateReport:
    """Every check of one template."""

    template: str
    id: str
    seeds: tuple[int, ...]
    checks: tuple[CheckReport, ...]
    #: The fingerprint of the code the audit ran (:func:`webenv.validate.resume.code_of`):
    #: ``webenv validate --resume`` keeps an audit only while it is unchanged.
    code: str = ""

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
            "code": self.code,
            "checks": [check.to_dict() for check in self.checks],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TemplateReport:
        """The report of :meth:`to_dict`."""
        return cls(
            str(data["template"]),
            str(data["id"]),
            tuple(int(seed) for seed in data["seeds"]),
            tuple(CheckReport.from_dict(check) for check in data["checks"]),
            str(data.get("code", "")),
        )


#: The checks after the oracle's, in the order of the table.
_AFTER = (
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


def check_order(profiles: Iterable[str]) -> tuple[str, ...]:
    """The checks of an audit under ``profiles``, in the order of the table: the oracle clean,
    then under each profile (named by the profile, ``heavy+stale`` too), and the rest."""
    return ("oracle", *dict.fromkeys(p for p in profiles if p != "none"), *_AFTER)


#: Every check's name with the named profiles (see :func:`check_order`).
CHECKS = check_order(PERTURB_PROFILES)


@dataclass(frozen=True)
class ValidationReport:
    """The audit of several templates."""

    templates: tuple[TemplateReport, ...]
    seeds: tuple[int, ...]
    profiles: tuple[str, ...]
    #: Templates asked for whose audit never ended: the run was interrupted (Ctrl-C) first.
    not_audited: tuple[str, ...] = ()
    #: The random agent's steps per episode.
    random_steps: int = RANDOM_STEPS

    @property
    def passed(self) -> bool:
        return not self.not_audited and all(report.passed for report in self.templates)

    @property
    def check_names(self) -> list[str]:
        """The checks run: :func:`check_order` of this audit's profiles."""
        return list(check_order(self.profiles))

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "passed": self.passed,
            "seeds": list(self.seeds),
            "profiles": list(self.profiles),
            "random_steps": self.random_steps,
            "checks": self.check_names,
            "templates": [report.to_dict() for report in self.templates],
            "not_audited": list(self.not_audited),
        }


class ValidationInterrupted(KeyboardInterrupt):
    """Ctrl-C during an audit: ``report`` holds the templates whose audit had ended, and
    names the others in ``not_audited``."""

    def __init__(self, report: ValidationReport):
        super().__init__(f"interrupted with {len(report.not_audited)} templates not audited")
        self.report = report


#: The check of a template whose audit ended without a report: its worker died, or the audit
#: raised (:mod:`webenv.validate.parallel`).
RUN = "run"


def table(report: ValidationReport) -> Iterator[str]:
    """The report as lines of text: a table of templates × checks (pass, FAIL, - where a
    check does not apply, ? where the audit ended before it), then each failure's short reason
    and a count of templates passed."""
    names = report.check_names
    width = max([len(t.template) for t in report.templates] + [8])
    yield f"{'template':<{width}}  " + "  ".join(names)
    for template in report.templates:
        marks = []
        cut_short = any(check.name == RUN for check in template.checks)
        for name in names:
            try:
                check = template.check(name)
            except KeyError:
                mark = "?" if cut_short else "-"
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
    yield ""
    for name, check in failures:
        yield f"FAIL {name} {check.name}: {check.reason}"
    passed = sum(template.passed for template in report.templates)
    count = len(report.templates)
    yield f"{passed} of {count} template{'' if count == 1 else 's'} passed every check."
    if report.not_audited:
        left = len(report.not_audited)
        yield (
            f"Interrupted: {left} template{'' if left == 1 else 's'} not audited: "
            + ", ".join(report.not_audited)
        )

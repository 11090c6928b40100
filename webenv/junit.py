"""``junit.xml``: an evaluation as a test suite, one test case per episode, for CI systems.

A failed episode is a failure carrying its check's breakdown; an episode that could not
finish (the agent raised, the browser or worker died, it timed out) is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from .rollout import EpisodeResult


def _case_name(result: EpisodeResult) -> str:
    profile = "" if result.perturb == "none" else f" [{result.perturb}]"
    return f"seed {result.seed}{profile}"


def _conditions(result: EpisodeResult) -> list[dict[str, Any]]:
    return list(result.check.get("conditions", []))


def failure_message(result: EpisodeResult) -> str:
    """Why an episode failed, in one line: its error, or its check's failed conditions."""
    if result.error is not None:
        return result.error.splitlines()[0] if result.error else "error"
    conditions = _conditions(result)
    failed = [c for c in conditions if not c["passed"]] or conditions
    return "; ".join(f"{c['name']}: {c['message']}" for c in failed) or "not done"


def write_junit(results: Sequence[EpisodeResult], path: Path) -> None:
    """JUnit XML, one testcase per episode, so that CI systems show evaluations as tests."""
    suite = ElementTree.Element(
        "testsuite",
        name="webenv",
        tests=str(len(results)),
        failures=str(sum(not r.success and r.error is None for r in results)),
        errors=str(sum(r.error is not None for r in results)),
        time=f"{sum(r.duration for r in results):.3f}",
    )
    for result in results:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname=result.task,
            name=_case_name(result),
            time=f"{result.duration:.3f}",
        )
        if result.error is not None:
            ElementTree.SubElement(case, "error", message=result.error[:200]).text = result.error
        elif not result.success:
            conditions = _conditions(result)
            detail = f"goal: {result.goal}\nsteps: {result.steps}\n" + "\n".join(
                f"[{'pass' if c['passed'] else 'FAIL'}] {c['name']}: {c['message']}"
                for c in conditions
            )
            ElementTree.SubElement(
                case, "failure", message=failure_message(result)[:500]
            ).text = detail
    ElementTree.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)

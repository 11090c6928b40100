"""A run of the suite stopped part-way goes on where it stopped, and only where nothing changed
(tests/progress.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import progress, rotation

ROOT = Path(__file__).resolve().parents[1]
#: Three quick tests for the runs below.
SELECTED = ["tests/test_answers_facts.py", "-k", "without_its_facts or limit_applied"]


def _pytest(file: Path, seed: int, resume: bool) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
    env.update({progress.PROGRESS_VARIABLE: str(file), rotation.VARIABLE: str(seed)})
    env[progress.RESUME_VARIABLE] = "1" if resume else ""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", "-q"]
    return subprocess.run(
        [*command, *SELECTED], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def _passed(file: Path) -> list[str]:
    lines = [json.loads(line) for line in file.read_text().splitlines()]
    return [line["passed"] for line in lines[1:]]


def test_a_resumed_run_runs_only_what_has_not_passed_at_the_same_code_and_seed(tmp_path):
    # A run that is not resumed begins the file again, whatever it held.
    file = tmp_path / "progress.jsonl"
    file.write_text(json.dumps({"base": "x", "seed": 11}) + '\n{"passed": "gone"}\n')
    first = _pytest(file, 11, resume=False)
    assert first.returncode == 0, first.stdout + first.stderr
    passed = _passed(file)
    assert "gone" not in passed
    assert len(passed) >= 3 and all("test_answers_facts.py::" in test for test in passed)
    assert f"each pass written to {file}" in first.stdout

    # Going on: everything selected has passed; nothing runs, and the run passes, saying so.
    again = _pytest(file, 11, resume=True)
    assert again.returncode == 0, again.stdout + again.stderr
    assert re.fullmatch(r"\d+ deselected in [\d.]+s", again.stdout.splitlines()[-1]), again.stdout
    assert f"{len(passed)} tests passed in earlier runs of this code ({file})" in again.stdout

    # A pass of a module that has changed since is run again, and only that one.
    lines = file.read_text().splitlines()
    changed = json.loads(lines[1])
    lines[1] = json.dumps({**changed, "code": "an earlier version of the module"})
    file.write_text("\n".join(lines) + "\n")
    once_more = _pytest(file, 11, resume=True)
    assert once_more.returncode == 0, once_more.stdout + once_more.stderr
    assert "1 run again, their modules changed" in once_more.stdout
    assert re.search(r"^1 passed, \d+ deselected", once_more.stdout, re.M), once_more.stdout
    assert _passed(file)[-1] == changed["passed"]

    # Another run seed is another run: begun again, and every test runs.
    other = _pytest(file, 12, resume=True)
    assert other.returncode == 0, other.stdout + other.stderr
    assert "begun again (its code, tests or run seed differ)" in other.stdout
    assert f"{len(passed)} passed" in other.stdout and sorted(_passed(file)) == sorted(passed)


def _report(nodeid: str, when: str, outcome: str) -> pytest.TestReport:
    return pytest.TestReport(nodeid, ("x.py", 1, nodeid), {}, outcome, None, when)  # type: ignore[arg-type]


def test_only_a_test_whose_call_and_teardown_passed_is_written(tmp_path, monkeypatch):
    file = tmp_path / "progress.jsonl"
    monkeypatch.setenv(progress.PROGRESS_VARIABLE, str(file))
    monkeypatch.delenv(progress.RESUME_VARIABLE, raising=False)
    recorder = progress.Progress(file)
    outcomes = {
        "passes": ("passed", "passed"),
        "fails": ("failed", "passed"),
        "fails_in_teardown": ("passed", "failed"),
        "skipped": ("skipped", "passed"),
    }
    for test, (call, teardown) in outcomes.items():
        recorder.record(_report(test, "setup", "passed"))
        recorder.record(_report(test, "call", call))
        recorder.record(_report(test, "teardown", teardown))
    assert _passed(file) == ["passes"]
    # A torn last line (the run killed mid-write) is passed over.
    with file.open("a") as out:
        out.write('{"passed": "half')
    assert set(progress._read(file)[1]) == {"passes"}

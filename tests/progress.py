"""Going on with a run of the suite that was stopped part-way (``make test-full RESUME=1``).

The full matrix takes hours of both cores, longer than a machine may be given at a time. With
``WEBENV_TEST_PROGRESS=FILE`` a run writes each test that passed (its call and its teardown) to
``FILE`` as it passes; with ``WEBENV_TEST_RESUME=1`` as well, a run keeps the passes ``FILE``
holds and does not run those tests again, provided that nothing they ran has changed since:

- webenv's own sources, its sites' and its task suite's, and the versions of the libraries
  its verdicts depend on (the fingerprint an audit of ``webenv validate`` carries);
- the test's own module, and every file of the tests that is no test module (conftests,
  helpers, fixture pages) or that another file imports (``tests.test_leaks``);
- the project's pytest settings, Python and the Chromium the tests launch;
- the run seed (tests/rotation.py), which a resumed run takes from ``FILE``, so that it
  collects the same tests.

A pass whose test module changed is run again; any other change begins ``FILE`` again, and
the run says why. Kept passes are counted in the summary, so that a run of nothing is never
mistaken for a run of everything.

The set of kept tests is fixed before the first test runs (``FILE.kept``): pytest-xdist's
workers, and any worker started again after one died, collect and deselect the same tests.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import cache
from pathlib import Path

import pytest

from tests import rotation

PROGRESS_VARIABLE = "WEBENV_TEST_PROGRESS"
RESUME_VARIABLE = "WEBENV_TEST_RESUME"
ROOT = Path(__file__).resolve().parents[1]
#: The tests' own files, whatever their kind (fixture pages, data, helpers).
TESTS = ROOT / "tests"


def _path() -> Path | None:
    value = os.environ.get(PROGRESS_VARIABLE)
    return Path(value).resolve() if value else None


def _resuming() -> bool:
    return os.environ.get(RESUME_VARIABLE, "") not in ("", "0")


def _read(path: Path) -> tuple[dict[str, object], dict[str, str]]:
    """The header of a progress file, and each test it says passed with the fingerprint of its
    module then (a torn last line is skipped)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}, set()
    header: dict[str, object] = {}
    passed: dict[str, str] = {}
    for number, line in enumerate(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if number == 0 and isinstance(entry, dict) and "base" in entry:
            header = entry
        elif isinstance(entry, dict) and isinstance(entry.get("passed"), str):
            passed[entry["passed"]] = str(entry.get("code"))
    return header, passed


def adopt_earlier_seed() -> None:
    """When resuming and no run seed is given, take the stopped run's (before the conftest
    reads it), so that this run collects the same tests."""
    path = _path()
    if path is None or not _resuming() or rotation.VARIABLE in os.environ:
        return
    seed = _read(path)[0].get("seed")
    if isinstance(seed, int):
        os.environ[rotation.VARIABLE] = str(seed)


def _shared(files: list[Path]) -> list[Path]:
    """The files of the tests every test may run: all but the test modules no file imports."""
    texts = {path: path.read_bytes() for path in files if path.suffix == ".py"}
    shared = []
    for path in files:
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts).encode()
        imported = any(dotted in text for other, text in texts.items() if other != path)
        if not path.name.startswith("test_") or path.suffix != ".py" or imported:
            shared.append(path)
    return shared


@cache
def base() -> str:
    """What every kept pass depends on (see the module docstring), but its own module."""
    from webenv.browser import find_chromium
    from webenv.validate.resume import _package_code

    digest = hashlib.sha256(_package_code())
    digest.update(f"python {sys.version}\0seed {rotation.run_seed()}\0".encode())
    files = [p for p in sorted(TESTS.rglob("*")) if p.is_file() and "__pycache__" not in p.parts]
    for path in [ROOT / "pyproject.toml", *_shared(files)]:
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    try:
        chromium = Path(find_chromium()).resolve()
        stat = chromium.stat()
        digest.update(f"chromium {chromium} {stat.st_size} {stat.st_mtime_ns}\0".encode())
    except Exception as error:  # no Chromium: the browser tests will say so
        digest.update(f"chromium {error!r}\0".encode())
    return digest.hexdigest()[:16]


@cache
def code_of(module: str) -> str:
    """The fingerprint of what a test of ``module`` (a path from the project's folder) runs."""
    digest = hashlib.sha256(base().encode())
    try:
        digest.update((ROOT / module).read_bytes())
    except OSError as error:
        digest.update(repr(error).encode())
    return digest.hexdigest()[:16]


def _module(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class Progress:
    """The controlling process's side: the file begun or kept, and each pass written."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.said = ""
        header, passed = _read(path)
        if _resuming() and header.get("base") == base():
            self.kept = {test for test, code in passed.items() if code == code_of(_module(test))}
            self.said = f"{len(self.kept)} tests passed in earlier runs of this code ({path})"
            if len(self.kept) < len(passed):
                self.said += f"; {len(passed) - len(self.kept)} run again, their modules changed"
        else:
            if _resuming():
                why = "its code, tests or run seed differ" if header else "nothing to go on with"
                self.said = f"{path}: begun again ({why})"
            else:
                self.said = f"each pass written to {path} ({RESUME_VARIABLE}=1 goes on from them)"
            self.kept = set()
            path.parent.mkdir(parents=True, exist_ok=True)
            seed = rotation.run_seed()
            path.write_text(json.dumps({"base": base(), "seed": seed}) + "\n")
        kept_file(path).write_text(json.dumps(sorted(self.kept)))
        self._called: set[str] = set()

    def record(self, report: pytest.TestReport) -> None:
        if report.when == "call" and report.passed:
            self._called.add(report.nodeid)
        elif report.when == "teardown":
            if report.passed and report.nodeid in self._called:
                entry = {"passed": report.nodeid, "code": code_of(_module(report.nodeid))}
                with self.path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(entry) + "\n")
            self._called.discard(report.nodeid)


def kept_file(path: Path) -> Path:
    return path.with_name(path.name + ".kept")


def kept_ids() -> set[str]:
    """The tests this run does not run again (read by every process of the run)."""
    path = _path()
    if path is None:
        return set()
    try:
        return set(json.loads(kept_file(path).read_text(encoding="utf-8")))
    except FileNotFoundError:
        return set()


class Deselect:
    """Every process's side: the tests kept from the run gone on with are not run again."""

    @pytest.hookimpl(trylast=True)  # after pytest-xdist has named each test by its group
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]):
        kept = kept_ids()
        if kept:
            config.hook.pytest_deselected(items=[item for item in items if item.nodeid in kept])
            items[:] = [item for item in items if item.nodeid not in kept]


def start(config: pytest.Config) -> Progress | None:
    """In the process that controls the run (not in a pytest-xdist worker)."""
    path = _path()
    if path is None or hasattr(config, "workerinput"):
        return None
    return Progress(path)

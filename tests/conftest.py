"""Shared fixtures (one Chromium for the session, live worlds served on loopback) and the
suite's tiers.

Tiers, as markers that this file sets on every test (see the README's Tests section):

- ``unit``: needs no browser (Flask's test client, SQLite, parsing). A unit test that tries to
  launch Chromium fails and says to ask for the ``browser`` fixture.
- ``browser``: real Chromium: every test whose fixtures include ``browser``, and those that
  run Chromium in a thread or a process of their own, which mark themselves.
- ``suite``: the full matrix (every template on many fixed seeds and profiles), marked as such by
  the tests themselves; ``make test`` runs a slice of it chosen by the run seed
  (tests/rotation.py), ``make test-full`` all of it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page
from webenv.sites.common import Persona

import webenv.browser
from tests import progress, rotation
from webenv.browser import acquire_browser, release_browser
from webenv.perturb.base import TIME_SCALE_VARIABLE
from webenv.served import ServedWorld
from webenv.tasks import Task, templates
from webenv.world import World

progress.adopt_earlier_seed()  # a resumed run collects the tests of the run it goes on with
RUN_SEED = rotation.run_seed()  # here, before pytest-xdist starts its workers
#: The perturbations' delays at a hundredth of their pace (tests that need the real pace set
#: it back to 1: tests/tasks/test_kinds_everywhere.py).
os.environ.setdefault(TIME_SCALE_VARIABLE, "0.01")


#: Where this run writes its passes, and which it keeps (tests/progress.py); set in the
#: process that controls the run.
_progress: progress.Progress | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _progress
    _progress = progress.start(config)
    config.pluginmanager.register(progress.Deselect(), "webenv-test-progress")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _progress is not None:
        _progress.record(report)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # A resumed run with nothing left to run passes: every test it selects has passed.
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and _progress and _progress.kept:
        session.exitstatus = pytest.ExitCode.OK


def pytest_report_header(config: pytest.Config) -> str:
    return (
        f"webenv test seed: {RUN_SEED} (repeat this run with "
        f"{rotation.VARIABLE}={RUN_SEED}; its episode seeds: {rotation.pool()})"
    )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not any(item.get_closest_marker(tier) for tier in ("suite", "browser", "unit")):
            # A test that runs Chromium in a thread or process of its own marks itself.
            tier = "browser" if "browser" in getattr(item, "fixturenames", ()) else "unit"
            item.add_marker(tier)
        if _shares_a_fixture(item):
            # On one pytest-xdist worker (``--dist loadgroup``), or each worker would build
            # the module's fixture (some drive a browser for half a minute) once more.
            item.add_marker(pytest.mark.xdist_group(f"module:{item.module.__name__}"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    """With ``--dist loadgroup``: refuse a pytest on which grouped tests lose their group
    (a template's oracle episodes always have one), for each template's env and each
    module's shared fixture would then be built on every worker, silently."""
    grouped = [i for i in ids if "test_templates.py::test_oracle_earns_full_reward" in i]
    loadgroup = node.config.option.dist == "loadgroup"  # type: ignore[attr-defined]
    if loadgroup and grouped and not any("@" in i for i in grouped):
        pytest.exit(
            f"pytest-xdist's --dist loadgroup does not group tests on pytest "
            f"{pytest.__version__} (pytest-dev/pytest-xdist#1386): install the dev "
            "extras' pytest (pip install -e '.[dev]')",
            returncode=pytest.ExitCode.USAGE_ERROR,
        )


def _shares_a_fixture(item: pytest.Item) -> bool:
    """Whether ``item`` uses a module- or class-scoped fixture of its module and is not
    already grouped (a template's tests are: tests/tasks/conftest.py)."""
    names = getattr(item, "fixturenames", ())
    if "task_env" in names or item.get_closest_marker("xdist_group") is not None:
        return False
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.values() if info is not None else ()
    return any(d and d[-1].scope in ("module", "class") for d in defs)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if _progress is not None and _progress.said:
        terminalreporter.write_line(f"webenv test progress: {_progress.said}")
    if exitstatus not in (0, 5):
        terminalreporter.write_line(
            f"webenv test seed: {RUN_SEED}: {rotation.VARIABLE}={RUN_SEED} repeats this run"
        )


#: The test being run (its fixtures' set-up included), for the guard below.
_running: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.pop()


def _guarded_launch(launch: Callable[..., Browser]) -> Callable[..., Browser]:
    """Chromium's launch, refused to a unit test: it would be a browser test marked as one
    that needs no browser (``make test-unit`` would then launch Chromium)."""

    def guarded(*args: object, **kwargs: object) -> Browser:
        if _running and _running[-1].get_closest_marker("unit") is not None:
            raise AssertionError(
                f"{_running[-1].nodeid} is a unit test but launched Chromium: ask for the "
                "`browser` fixture (in the test or its fixture) to make it a browser test"
            )
        return launch(*args, **kwargs)

    return guarded


webenv.browser._launch = _guarded_launch(webenv.browser._launch)  # type: ignore[assignment]


@pytest.fixture
def display(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An X display of its own (Xvfb), for a headed browser; skips where Xvfb is missing."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        pytest.skip("Xvfb is not installed (make test installs it where apt-get exists)")
    read, write = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-nolisten", "tcp", "-screen", "0", "1280x800x24"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    try:
        with os.fdopen(read) as numbers:
            name = f":{numbers.readline().strip()}"
        assert name != ":", "Xvfb did not say which display it opened"
        monkeypatch.setenv("DISPLAY", name)
        yield name
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    chromium = acquire_browser()
    yield chromium
    release_browser(chromium)


class LiveWorld:
    """A world of some sites for one seed, served on loopback, with pages into it."""

    def __init__(self, browser: Browser, sites: tuple[str, ...], seed: int):
        self.served = ServedWorld(sites, seed=seed)
        self.world, self.server = self.served.world, self.served.server
        self.browser = browser
        self.contexts: list[BrowserContext] = []

    @property
    def persona(self) -> Persona:
        return self.world.persona

    def url(self, site: str) -> str:
        return self.server.url(site)

    def db_path(self, site: str) -> Path:
        return self.world.db_path(site)

    def app(self, site: str) -> Flask:
        return self.world.apps[site]

    def new_page(self, logged_in: bool = False) -> Page:
        context = self.browser.new_context(viewport={"width": 1280, "height": 720})
        self.contexts.append(context)
        if logged_in:
            context.add_cookies(self.served.sign_in_cookies())
        return context.new_page()

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.served.close()


@pytest.fixture
def live_world(browser: Browser) -> Iterator[Callable[..., LiveWorld]]:
    worlds: list[LiveWorld] = []

    def serve(*sites: str, seed: int = 0) -> LiveWorld:
        world = LiveWorld(browser, sites, seed)
        worlds.append(world)
        return world

    yield serve
    for world in worlds:
        world.close()


@pytest.fixture(scope="module")
def fresh_task() -> Iterator[Callable[[str, int], tuple[World, Task]]]:
    """``instance(name, seed)``: the template's task of ``seed`` on a world just restored, its
    start marked (no browser). One world per set of sites, kept for the module."""
    opened: dict[tuple[str, ...], World] = {}

    def instance(name: str, seed: int) -> tuple[World, Task]:
        template = templates()[name]
        if template.sites not in opened:
            opened[template.sites] = World(template.sites)
        world = opened[template.sites]
        world.restore(seed)
        task = template.instantiate(seed, world)
        world.mark_start()
        return world, task

    yield instance
    for world in opened.values():
        world.close()

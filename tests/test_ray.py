"""The Ray backend against a local Ray: episodes in actors, crashes re-run, hangs cut short."""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Ray binds to the machine's network address unless told it is no cluster; keep it on loopback.
# Read when Ray is imported, so set first.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")

from webenv.browser import find_chromium  # noqa: E402
from webenv.cli import main  # noqa: E402
from webenv.errors import WebEnvError  # noqa: E402
from webenv.ray import evaluate_ray, ray_options  # noqa: E402
from webenv.rollout import EpisodeResult  # noqa: E402
from webenv.scratch import PREFIX, sweep  # noqa: E402
from webenv.tasks import get_template  # noqa: E402

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

HERE = Path(__file__).parent
TEMPLATES = ("shop.cheapest_by_brand", "shop.order_date")
#: For the actors, which import ``ray_agents`` from this folder.
PYTHONPATH = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray for the module (starting one takes seconds); the actors, like this
    process, can import ``ray_agents`` from this folder."""
    sys.path.insert(0, str(HERE))
    ray.init(
        address="local",  # a new Ray, whatever else runs on the machine
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.WARNING,
        runtime_env={"env_vars": {"PYTHONPATH": PYTHONPATH}},
    )
    yield
    ray.shutdown()
    sys.path.remove(str(HERE))


def read_results(out: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_cli_runs_the_oracle_on_an_actor_of_two_envs(local_ray: None, tmp_path: Path) -> None:
    argv = ["eval", "--backend", "ray", "--workers", "1", "--seeds", "0,1", "--out", str(tmp_path)]
    with ray_options(envs_per_actor=2):
        code = main([*argv, "--tasks", *TEMPLATES, "--min-success", "1"])
    assert code == 0, read_results(tmp_path)
    results = read_results(tmp_path)
    assert sorted((r["task"], r["seed"]) for r in results) == [
        (t, s) for t in TEMPLATES for s in (0, 1)
    ]
    assert all(r["success"] and r["error"] is None for r in results)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["successes"] == 4
    assert summary["versions"]["chromium"] not in ("", "unknown")
    assert 'tests="4" failures="0" errors="0"' in (tmp_path / "junit.xml").read_text()


def test_crashed_and_hung_episodes_are_errors_and_the_rest_complete(
    local_ray: None, tmp_path: Path
) -> None:
    from ray_agents import CRASH_SEED, HANG_SEED

    seeds = [0, CRASH_SEED, HANG_SEED, 3]
    streamed: list[EpisodeResult] = []
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env_vars = {"TMPDIR": str(scratch), "PYTHONPATH": PYTHONPATH}
    # The bound finds the hung episode; the others, each the first on a new actor (a world
    # built, a context opened), must fit in it on a loaded machine (see the test below).
    summary = evaluate_ray(
        [get_template("shop.order_date")],
        "ray_agents:Saboteur",
        seeds,
        tmp_path,
        actors=2,
        step_timeout=30,
        max_steps=2,
        on_result=streamed.append,
        actor_options={"num_cpus": 1, "runtime_env": {"env_vars": env_vars}},
    )
    by_seed = {r["seed"]: r for r in read_results(tmp_path)}
    assert sorted(by_seed) == seeds
    assert sorted(r.seed for r in streamed) == seeds
    crashed, hung = by_seed.pop(CRASH_SEED), by_seed.pop(HANG_SEED)
    assert "its Ray actor died 2 times" in crashed["error"]
    assert "timed out: no step finished in 30 s" in hung["error"]
    for result in by_seed.values():  # ran to the step limit, unharmed by the others
        assert result["error"] is None
        assert result["steps"] == 2 and result["truncated"]
    assert summary["errors"] == 2
    # The actors kept their files in folders of their own: those of the closed actors are gone,
    # and those of the killed ones go as soon as no actor of theirs runs.
    assert [path.name for path in scratch.iterdir() if not path.name.startswith(PREFIX)] == []
    deadline = time.monotonic() + 30  # a killed actor's process may take a moment to end
    while sweep(scratch) or (any(scratch.iterdir()) and time.monotonic() < deadline):
        time.sleep(0.2)
    assert list(scratch.iterdir()) == []


def test_a_misconfigured_actor_stops_the_run_with_its_reason(
    local_ray: None, tmp_path: Path
) -> None:
    no_chromium = {"runtime_env": {"env_vars": {"WEBENV_CHROMIUM": "/nonexistent/chromium"}}}
    with pytest.raises(WebEnvError, match="WEBENV_CHROMIUM='/nonexistent/chromium'"):
        evaluate_ray(
            [get_template("shop.order_date")],
            "noop",
            [0],
            tmp_path,
            actors=1,
            actor_options=no_chromium,
        )


def test_an_actor_slow_to_start_is_waited_for_past_the_step_timeout(
    local_ray: None, tmp_path: Path
) -> None:
    # An actor's start (a process, imports, a Chromium) may outlast a short step bound on a
    # busy node: it is not a hung episode, and the run must not kill actors for it. The bound
    # leaves the first reset (a world, a context, a page) room on a loaded machine: at 6 s and
    # at 10 s it once ran out there (load 21 on 2 cores), after the actor had started.
    slow = tmp_path / "slow-chromium"
    slow.write_text(f'#!/bin/sh\nsleep 35\nexec "{find_chromium()}" "$@"\n')
    slow.chmod(0o755)
    summary = evaluate_ray(
        [get_template("shop.order_date")],
        "noop",
        [0],
        tmp_path,
        actors=1,
        step_timeout=30,
        max_steps=1,
        actor_options={"num_cpus": 1, "runtime_env": {"env_vars": {"WEBENV_CHROMIUM": str(slow)}}},
    )
    results = read_results(tmp_path)
    assert [r["error"] for r in results] == [None] and summary["errors"] == 0

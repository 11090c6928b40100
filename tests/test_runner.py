"""The evaluation runner: summaries, worker processes that die or hang, resuming, traces."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import zipfile
from xml.etree import ElementTree

import pytest
from rich.console import Console

from webenv.errors import WebEnvError
from webenv.progress import BarProgress, LineProgress, progress_for
from webenv.runner import (
    EpisodeResult,
    backend,
    evaluate,
    plan,
    read_results,
    summarise,
    write_junit,
)
from webenv.tasks import get_template

TASK = "mail.restore_from_trash"


def result(task="shop.a", seed=0, success=True, **fields) -> EpisodeResult:
    fields.setdefault("sites", [task.split(".")[0]])
    return EpisodeResult(task, seed, success, float(success), 3, 1.5, **fields)


# -- summaries (pure) ---------------------------------------------------------------------


def test_by_site_counts_a_workflow_for_each_site_it_touches():
    summary = summarise(
        [
            result("shop.a", 0, True),
            result("shop.a", 1, False),
            result("workflows.w", 0, True, sites=["shop", "mail"]),
            result("mail.m", 0, False),
        ]
    )
    assert summary["by_site"] == {
        "mail": {"episodes": 2, "successes": 1, "success_rate": 0.5},
        "shop": {"episodes": 3, "successes": 2, "success_rate": 2 / 3},
    }
    assert summary["episodes"] == 4 and summary["successes"] == 2
    assert summary["by_task"]["shop.a"] == {"episodes": 2, "successes": 1, "success_rate": 0.5}
    low, high = summary["success_rate_95ci"]
    assert 0.0 < low < 0.5 < high < 1.0


def test_clean_and_perturbed_are_compared_on_the_same_tasks_and_seeds():
    results = [
        result("shop.a", 0, True),
        result("shop.a", 1, True),
        result("shop.a", 2, False),  # clean only: not in the pairs
        result("shop.a", 0, True, perturb="heavy"),
        result("shop.a", 1, False, perturb="heavy"),
        result("shop.a", 5, False, perturb="heavy"),  # perturbed only: not in the pairs
    ]
    table = summarise(results)["by_perturbation"]
    assert table["none"] == {"episodes": 3, "successes": 2, "success_rate": 2 / 3}
    heavy = table["heavy"]
    assert (heavy["episodes"], heavy["successes"]) == (3, 1)
    assert heavy["paired"] == {
        "episodes": 2,
        "clean_success_rate": 1.0,
        "perturbed_success_rate": 0.5,
        "change": -0.5,
    }


def test_perturbation_events_give_distraction_rates_and_recovery_steps():
    popup = "popup.newsletter"
    results = [
        result(
            events=[
                {"kind": popup, "what": "shown", "step": 1},
                {"kind": popup, "what": "clicked", "step": 2},
                {"kind": popup, "what": "recovered", "step": 4},  # 3 steps after shown
                {"kind": popup, "what": "shown", "step": 6},
                {"kind": popup, "what": "dismissed", "step": 7},
                {"kind": popup, "what": "recovered", "step": 7},  # 1 step
                {"kind": "link.broken", "what": "shown", "step": 2},
            ]
        ),
        result(seed=1, events=[{"kind": popup, "what": "shown", "step": 0}]),
        result(seed=2, events=[]),
        result(seed=3, events=[{"kind": "link.broken", "what": "recovered", "step": 3}]),
    ]
    kinds = summarise(results)["perturbations"]
    assert kinds[popup] == {
        "episodes_shown": 2,
        "shown": 3,
        "dismissed": 1,
        "clicked": 1,
        "recovered": 2,
        "distraction_rate": 1 / 3,
        "mean_recovery_steps": 2.0,
    }
    # recovered without being shown in its episode: counted, but no recovery time
    assert kinds["link.broken"]["episodes_shown"] == 1
    assert kinds["link.broken"]["distraction_rate"] == 0.0
    assert kinds["link.broken"]["mean_recovery_steps"] is None


def test_errors_steps_and_timing_are_summarised():
    summary = summarise(
        [result(seed=0), result(seed=1, success=False, error="boom")], wall_seconds=2.0
    )
    assert summary["errors"] == 1 and summary["mean_steps"] == 3
    assert summary["timing"] == {
        "wall_seconds": 2.0,
        "episode_seconds": 3.0,
        "mean_episode_seconds": 1.5,
    }
    empty = summarise([])
    assert empty["episodes"] == 0 and empty["success_rate"] == 0.0


def test_junit_has_a_case_per_episode_with_the_check_breakdown(tmp_path):
    check = {
        "conditions": [
            {"name": "ordered", "passed": True, "message": "1 order"},
            {"name": "size", "passed": False, "message": "got L, not M"},
        ]
    }
    write_junit(
        [
            result(seed=0),
            result(seed=1, success=False, check=check, perturb="light"),
            result(seed=2, success=False, error="worker process died twice"),
        ],
        tmp_path / "junit.xml",
    )
    suite = ElementTree.parse(tmp_path / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "1")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == {"seed 0", "seed 1 [light]", "seed 2"}
    failure = cases["seed 1 [light]"].find("failure")
    assert failure.get("message") == "size: got L, not M"
    assert "[FAIL] size" in failure.text and "[pass] ordered" in failure.text
    assert cases["seed 2"].find("error").get("message") == "worker process died twice"


def test_results_lines_are_read_back_even_old_or_cut_short(tmp_path):
    path = tmp_path / "results.jsonl"
    old = {"task": "shop.a", "seed": 4, "success": True, "reward": 1.0, "steps": 2,
           "duration": 1.0, "goal": "g", "error": None, "check": {}}  # fmt: skip
    new = json.dumps({**old, "seed": 5, "perturb": "heavy", "events": [], "future_field": 1})
    path.write_text(json.dumps(old) + "\n" + new + "\n" + new[:30])
    results = read_results(path)
    assert [r.key for r in results] == [("shop.a", 4, "none"), ("shop.a", 5, "heavy")]
    path.write_text(json.dumps({**old, "task": TASK}) + "\n")
    assert read_results(path)[0].sites == ["mail"]  # from the template, for old lines


def test_plan_groups_episodes_by_task_and_profile():
    templates = [get_template("shop.fill_cart"), get_template(TASK)]
    episodes = plan(templates, [0, 1], ["none", "heavy"])
    assert [e.key for e in episodes[:4]] == [
        ("shop.fill_cart", 0, "none"),
        ("shop.fill_cart", 1, "none"),
        ("shop.fill_cart", 0, "heavy"),
        ("shop.fill_cart", 1, "heavy"),
    ]
    assert len(episodes) == 8


def test_the_ray_backend_says_how_to_get_it_when_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "webenv.ray", None)  # import fails
    with pytest.raises(WebEnvError, match="pip install 'webenv\\[ray\\]'"):
        backend("ray")
    with pytest.raises(WebEnvError, match="--backend must be one of local, ray"):
        backend("cloud")


# -- progress -------------------------------------------------------------------------------


def test_the_progress_bar_shows_done_success_and_eta():
    out = io.StringIO()
    bar = BarProgress(console=Console(file=out, force_terminal=True, width=140))
    bar.start(4, resumed=1)
    bar.advance(result(seed=0))
    bar.advance(result(seed=1, success=False, error="timed out: stuck"))
    bar.stop()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", out.getvalue())
    assert "1 episodes already done; running 4 more." in text
    assert "2/4" in text and "success 1/2 (50%)" in text and "ETA" in text
    assert "ERR shop.a seed=1: timed out: stuck" in text


def test_without_a_terminal_progress_is_one_line_per_episode():
    out = io.StringIO()
    progress = progress_for(out)
    assert isinstance(progress, LineProgress)
    progress.start(2, resumed=0)
    progress.advance(result(seed=7, perturb="heavy"))
    progress.advance(result(seed=8, success=False, error="worker process died twice"))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("[1/2] ok  shop.a seed=7 perturb=heavy steps=3")
    assert lines[1].startswith("[2/2] ERR shop.a seed=8") and "worker process died" in lines[1]


# -- real episodes --------------------------------------------------------------------------

FRAGILE_AGENT = """
import os, signal, time
from pathlib import Path

class Fragile:
    '''noop(), except: seed 1 kills its process every time, seed 2 the first time only,
    and seed 3 hangs.'''

    def reset(self, observation, info):
        self.seed = info["seed"]

    def act(self, observation):
        marks = Path(os.environ["FRAGILE_MARKS"])
        if self.seed == 1 or (self.seed == 2 and not (marks / "died").exists()):
            (marks / "died").touch()
            os.kill(os.getpid(), signal.SIGKILL)
        if self.seed == 3:
            time.sleep(3600)
        return "noop()"
"""


@pytest.mark.browser  # Chromium in a process or thread of its own
def test_dead_and_hung_workers_leave_a_complete_summary(tmp_path, monkeypatch):
    (tmp_path / "fragile_agent.py").write_text(textwrap.dedent(FRAGILE_AGENT))
    monkeypatch.syspath_prepend(str(tmp_path))  # spawned workers get the parent's sys.path
    monkeypatch.setenv("FRAGILE_MARKS", str(tmp_path))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out = tmp_path / "run"
    summary = evaluate(
        [get_template(TASK)],
        "fragile_agent:Fragile",
        [0, 1, 2, 3, 4],
        out,
        max_steps=2,
        workers=2,
        # Finds the hung episode; the others, the first of a worker (its env made, a world
        # built), must fit in it on a loaded machine.
        episode_timeout=30,
    )
    assert summary["episodes"] == 5 and summary["errors"] == 2
    results = {r.seed: r for r in read_results(out / "results.jsonl")}
    assert sorted(results) == [0, 1, 2, 3, 4]
    assert results[1].error == "worker process died twice running this episode (killed by SIGKILL)"
    assert results[3].error.startswith("timed out: the episode ran")
    for seed in (0, 2, 4):  # seed 2 ran again on a fresh worker, and finished
        assert results[seed].error is None and results[seed].steps == 2, results[seed]
        assert results[seed].truncated and results[seed].sites == ["mail"]
    assert results[1].sites == ["mail"]
    assert multiprocessing.active_children() == []
    # Killed, timed-out and finished workers alike leave no temporary files behind.
    assert sorted(path.name for path in scratch.iterdir()) == []
    suite = ElementTree.parse(out / "junit.xml").getroot()
    assert (suite.get("tests"), suite.get("errors")) == ("5", "2")
    assert summary["versions"]["chromium"][0].isdigit()
    assert json.loads((out / "summary.json").read_text())["episodes"] == 5
    assert (out / "report.html").is_file()


def test_resume_runs_only_the_missing_episodes(tmp_path, browser):
    out = tmp_path / "run"
    template = get_template(TASK)
    first = evaluate([template], "noop", [0, 1], out, max_steps=1, workers=0)
    assert first["episodes"] == 2 and first["resumed"] == 0
    with (out / "results.jsonl").open("a") as lines:
        lines.write('{"task": "mail.rest')  # a line cut short by a crash
    ran = []
    second = evaluate(
        [template], "noop", [0, 1, 2], out, max_steps=1, workers=0, resume=True,
        on_result=ran.append,
    )  # fmt: skip
    assert [r.seed for r in ran] == [2]
    assert second["episodes"] == 3 and second["resumed"] == 2
    assert sorted(r.seed for r in read_results(out / "results.jsonl")) == [0, 1, 2]
    assert second["versions"]["chromium"] == first["versions"]["chromium"]
    third = evaluate([template], "noop", [0, 1, 2], out, max_steps=1, workers=0, resume=True)
    assert third["episodes"] == 3 and third["resumed"] == 3


ONE_ARGUMENT_RESET = """
class Agent:
    def reset(self, observation):
        self.goal = observation["goal"]

    def act(self, observation):
        assert observation["goal"] == self.goal
        return "noop()"
"""


def test_an_agent_may_reset_with_the_observation_alone(tmp_path, browser, monkeypatch):
    (tmp_path / "one_argument_agent.py").write_text(ONE_ARGUMENT_RESET)
    monkeypatch.syspath_prepend(str(tmp_path))
    summary = evaluate(
        [get_template(TASK)], "one_argument_agent:Agent", [0], tmp_path, max_steps=1, workers=0
    )
    [line] = read_results(tmp_path / "results.jsonl")
    assert (summary["errors"], line.error, line.steps, line.truncated) == (0, None, 1, True)


@pytest.fixture(scope="module")
def traced(tmp_path_factory, browser):
    out = tmp_path_factory.mktemp("traced")
    summary = evaluate([get_template(TASK)], "oracle", [0], out, record="trace", workers=0)
    return out, summary


def test_a_traced_episode_keeps_a_playwright_trace_in_its_record(traced):
    out, summary = traced
    assert summary["successes"] == 1
    [line] = read_results(out / "results.jsonl")
    assert line.record == f"episodes/{TASK}-0"
    trace = out / line.record / "trace.zip"
    with zipfile.ZipFile(trace) as archive:
        names = archive.namelist()
        assert archive.testzip() is None
        assert "trace.trace" in names and "trace.network" in names
        events = archive.read("trace.trace").decode()
    assert any(name.startswith("resources/") for name in names)  # DOM snapshots, screenshots
    assert "check" in events and "click" in events.lower()
    assert (out / line.record / "episode.json").is_file()


def test_playwright_show_trace_opens_the_trace(traced, browser):
    out, _ = traced
    trace = out / "episodes" / f"{TASK}-0" / "trace.zip"
    viewer = subprocess.Popen(
        [sys.executable, "-m", "playwright", "show-trace", "--host", "127.0.0.1", "--port", "0",
         str(trace)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )  # fmt: skip
    context = browser.new_context()
    try:
        url = None
        while url is None:
            line = viewer.stdout.readline()
            assert line, "show-trace ended without serving the trace"
            url = re.search(r"http://127\.0\.0\.1:\d+", line)
        page = context.new_page()
        page.goto(url.group(0))
        # the viewer lists the episode's actions, the oracle's clicks among them
        page.get_by_text("Click").first.wait_for(timeout=30_000)
        assert "mail.localhost" in page.inner_text("body")
    finally:
        context.close()
        os.killpg(viewer.pid, signal.SIGTERM)  # the Python launcher and its Node server
        viewer.communicate(timeout=10)


def test_perturbed_episodes_are_run_and_recorded_apart(tmp_path, browser):
    summary = evaluate(
        [get_template(TASK)], "oracle", [0, 1], tmp_path, workers=0, record="steps",
        perturb=["none", "heavy"],
    )  # fmt: skip
    results = {r.key: r for r in read_results(tmp_path / "results.jsonl")}
    assert set(results) == {(TASK, seed, p) for seed in (0, 1) for p in ("none", "heavy")}
    assert results[(TASK, 0, "none")].record == f"episodes/{TASK}-0"
    assert results[(TASK, 0, "heavy")].record == f"episodes/{TASK}-0-heavy"
    assert all(not r.events for r in results.values() if r.perturb == "none")
    heavy = [r for r in results.values() if r.perturb == "heavy"]
    assert any(r.events for r in heavy)  # the heavy profile shows the agent something
    for result in heavy:
        folder = tmp_path / result.record
        episode = json.loads((folder / "episode.json").read_text())
        assert episode["perturbations"]["profile"] == "heavy"
        lines = (folder / "steps.jsonl").read_text().splitlines()
        stepped = [event for line in lines for event in json.loads(line)["events"]]
        assert result.events[len(result.events) - len(stepped) :] == stepped
    paired = summary["by_perturbation"]["heavy"]["paired"]
    assert paired["episodes"] == 2 and paired["clean_success_rate"] == 1.0
    assert set(summary["perturbations"]) == {e["kind"] for r in heavy for e in r.events}

"""The webenv command: listing tasks and evaluating agents, as a user runs it."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import gymnasium as gym
import pytest
from rich.console import Console

import webenv
from webenv.actions import from_tool_call
from webenv.cli import build_parser, main, print_summary
from webenv.errors import ActionError
from webenv.progress import BarProgress
from webenv.rollout import EpisodeResult
from webenv.site import sites as registered_sites
from webenv.summary import summarise

WEBENV = [sys.executable, "-m", "webenv.cli"]


def test_list_json_describes_every_template(capsys):
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ids = {row["id"] for row in rows}
    assert {"webenv/shop.buy_product-v0", "webenv/shop.fill_cart-v0"} <= ids
    for row in rows:
        assert row["sites"] and isinstance(row["tags"], list)


@pytest.mark.parametrize("command", ["eval", "validate", "demos"])
def test_tasks_takes_every_glob_however_it_is_repeated(command):
    parse = build_parser().parse_args
    assert parse([command]).tasks == ["*"]
    assert parse([command, "--tasks", "calendar.*", "help.*"]).tasks == ["calendar.*", "help.*"]
    repeated = parse([command, "--tasks", "calendar.*", "--tasks", "help.*", "mail.*"])
    assert repeated.tasks == ["calendar.*", "help.*", "mail.*"]
    assert parse([command]).tasks == ["*"]  # the default list is not grown by an earlier parse


def test_eval_writes_a_summary_and_prints_a_table(tmp_path, browser):
    out = tmp_path / "run"
    result = subprocess.run(
        [*WEBENV, "eval", "--agent", "oracle", "--tasks", "shop.fill_cart", "--episodes", "2",
         "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["episodes"] == 2 and summary["successes"] == 2
    assert summary["success_rate"] == 1.0
    assert summary["by_task"]["shop.fill_cart"] == {
        "episodes": 2, "successes": 2, "success_rate": 1.0
    }  # fmt: skip
    assert "shop.fill_cart" in result.stdout and "100%" in result.stdout
    assert len((out / "results.jsonl").read_text().splitlines()) == 2


def test_eval_min_success_fails_the_run_below_it(tmp_path, browser):
    code = main(
        ["eval", "--agent", "noop", "--tasks", "shop.cheapest_by_brand", "--episodes", "1",
         "--max-steps", "3", "--min-success", "0.5", "--out", str(tmp_path)]
    )  # fmt: skip
    assert code == 1
    assert json.loads((tmp_path / "summary.json").read_text())["successes"] == 0


def test_eval_loads_an_agent_from_a_module(tmp_path, browser, monkeypatch):
    (tmp_path / "my_agent.py").write_text(
        "def act(observation):\n    return 'send_msg_to_user(\"$1.00\")'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(
        ["eval", "--agent", "my_agent:act", "--tasks", "shop.cheapest_by_brand",
         "--episodes", "1", "--out", str(tmp_path / "run")]
    )  # fmt: skip
    assert code == 0
    lines = (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    results = [json.loads(line) for line in lines]
    assert results[0]["steps"] == 1 and results[0]["success"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "--tasks", "nothing.like.this"], "No task matches"),
        (["eval", "--agent", "nosuchmodule:act", "--tasks", "shop.fill_cart", "--episodes", "1"],
         "Cannot load agent"),
        (["eval", "--agent", "bogus", "--tasks", "shop.fill_cart", "--episodes", "1"],
         "Unknown agent"),
        (["eval", "--perturb", "none,wild", "--tasks", "shop.fill_cart"],
         "unknown profile(s) wild; choose from none, light, heavy, stale, adversarial"),
        (["eval", "--workers", "-1", "--tasks", "shop.fill_cart"], "--workers must be 0"),
    ],
)  # fmt: skip
def test_user_errors_are_one_line_without_a_traceback(tmp_path, args, message):
    result = subprocess.run(
        [*WEBENV, *args, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def source_tree(tmp_path: Path) -> Path:
    """A copy of the repository's sources to build from: setuptools writes ``build/`` beside
    the sources, and two builds of one tree at once (two workers) race in it."""
    root = Path(__file__).resolve().parents[1]
    copy = tmp_path / "source"
    skipped = (".*", "build", "dist", "runs", "*.egg-info", "__pycache__", "node_modules")
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(*skipped))
    return copy


@pytest.mark.slow
def test_a_regular_install_carries_sites_and_tasks(tmp_path):
    """``pip install .`` (not editable) must ship sites/, tasks/, templates, SQL and JS (the
    player's too)."""
    root = source_tree(tmp_path)
    target = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(root)],
        check=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    probe = (
        "import webenv, webenv.sites.shop as shop, webenv.session as s;"
        "from webenv.tasks import templates;"
        "import os; assert webenv.__file__.startswith(os.environ['TARGET']), webenv.__file__;"
        "assert s.OBSERVE_JS; assert len(templates()) >= 3;"
        "from webenv.world import generate_world; assert generate_world(0, ('shop',))['shop'];"
        "app = shop.create_app({'DATABASE': ':memory:'});"
        "assert app.jinja_env.get_template('base.html');"
        "import webenv.play.headed as headed, webenv.play.live as live;"
        "assert headed.CAPTURE_JS and live.create_live_app;"
        "assert (live.HERE / 'templates' / 'live.html').is_file();"
        "assert (live.HERE / 'static' / 'play.js').is_file()"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        env={"PYTHONPATH": str(target), "TARGET": str(target), "PATH": "/usr/bin:/bin",
             "HOME": str(tmp_path)},
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_show_prints_the_goal_params_and_the_oracles_trajectory(capsys, browser):
    assert main(["show", "shop.cheapest_by_brand", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "goal:" in out and '"brand"' in out
    assert "send_msg_to_user" in out
    assert "reward 1.0  success True" in out


@pytest.mark.browser  # Chromium in a process or thread of its own
def test_serve_lets_a_person_open_the_sites(tmp_path):
    import re
    import urllib.request

    server = subprocess.Popen(
        [*WEBENV, "serve", "--seed", "3", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        lines = []
        while not lines or not lines[-1].startswith("Sign in as"):
            line = server.stdout.readline()
            assert line, server.stderr.read()
            lines.append(line)
        urls = dict(re.findall(r"^\s+(\w+)\s+(http://\S+)", "".join(lines), re.MULTILINE))
        assert set(urls) == set(registered_sites())  # every site, the built-in ones
        for site, url in urls.items():
            host = url.split("/")[2]
            request = urllib.request.Request(
                url.replace(host, "127.0.0.1:" + host.split(":")[1]), headers={"Host": host}
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 200, site
        assert "Sign in as" in "".join(lines)
    finally:
        server.terminate()
        server.communicate(timeout=10)


# What a new user meets first: help, version, typos, the progress bar, the README's snippet.


def test_help_lists_every_command_in_plain_text_and_options_show_defaults(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "``" not in text
    for command in ("list", "eval", "serve", "show", "view", "play"):
        assert re.search(rf"^\s+{command}\s+\S", text, re.MULTILINE), command
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "episodes per task (default: 5)" in text
    assert "first seed (default: 0)" in text
    assert "output folder (default: runs/latest)" in text
    assert "(default: None)" not in text and "(default: False)" not in text


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"webenv {webenv.__version__}"


def test_a_mistyped_task_is_named_with_the_closest_ones(capsys, tmp_path):
    # One pattern of two matches nothing: the run does not go ahead without it.
    out = str(tmp_path / "run")
    assert main(["eval", "--tasks", "shop.fill_cart", "shop.buy_prodct", "--out", out]) == 2
    assert not (tmp_path / "run").exists()
    error = capsys.readouterr().err
    assert "No task matches 'shop.buy_prodct'. Did you mean shop.buy_product" in error
    assert "fill_cart" not in error


def test_a_mistyped_tool_call_is_refused_with_the_closest_action():
    expected = "'clik' is not an action. Did you mean click?"
    with pytest.raises(ActionError, match=re.escape(expected)):
        from_tool_call("clik", {"bid": "12"})
    assert from_tool_call("click", {"bid": "12"}) == 'click(bid="12")'


def test_the_progress_bar_keeps_its_estimate_between_episodes():
    from webenv.progress import SteadyTimeRemaining

    now = [0.0]
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    bar = BarProgress(console=console, clock=lambda: now[0])
    bar.start(total=4, resumed=0)
    try:
        now[0] = 40.0
        bar.advance(EpisodeResult("shop.fill_cart", 0, True, 1.0, 3, 40.0))
        now[0] = 100.0  # a minute since the last episode ended: 1 done in 100 s, 3 to go
        task = bar.bar.tasks[0]
        (eta,) = (column for column in bar.bar.columns if isinstance(column, SteadyTimeRemaining))
        assert eta.render(task).plain == "0:05:00"
    finally:
        bar.stop()


def test_paired_perturbation_counts_are_pairs_of_episodes(capsys):
    results = [
        EpisodeResult(task, seed, True, 1.0, 1, 1.0, perturb=profile, sites=["shop"])
        for task in ("shop.fill_cart", "shop.buy_product")
        for seed in (0, 1)
        for profile in ("none", "heavy")
    ]
    print_summary({**summarise(results), "agent": "oracle", "errors": 1})
    out = capsys.readouterr().out
    assert "perturb heavy: 100% vs 100% clean, over 4 pairs of episodes of the same task" in out
    assert "1 episode ended in an error" in out


def test_the_readme_snippet_shows_the_goal_seed_0_gives(browser):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    shown = re.search(r'print\(observation\["goal"\]\)  # (.*?) …', readme)
    assert shown is not None
    env = gym.make("webenv/shop.buy_product-v0")
    try:
        observation, _ = env.reset(seed=0)
    finally:
        env.close()
    assert observation["goal"].startswith(shown.group(1))
    assert "print(webenv.describe_actions())" in readme
    assert isinstance(webenv.describe_actions(), str)


def test_the_package_builds_without_setuptools_warnings(tmp_path):
    root = source_tree(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(tmp_path), str(root)],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    output = result.stdout + result.stderr
    assert "BuildBackendWarning" not in output and "SetuptoolsDeprecationWarning" not in output
    assert "absent from the `packages` configuration" not in output
    (wheel,) = tmp_path.glob("webenv-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for data in ("webenv/viewer/templates/report.html", "webenv/viewer/static/webenv.css",
                 "webenv/sites/shop/templates/account/wishlist.html", "webenv/js/observe.js",
                 "webenv/sites/shop/schema.sql", "webenv/play/static/play.js"):  # fmt: skip
        assert data in names, data


def test_eval_fails_when_episodes_error_unless_allowed(tmp_path, browser, monkeypatch, capsys):
    (tmp_path / "broken_agent.py").write_text(
        "def act(observation):\n    raise RuntimeError('the agent broke')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["eval", "--agent", "broken_agent:act", "--tasks", "shop.cheapest_by_brand",
            "--episodes", "1", "--workers", "0"]  # fmt: skip
    assert main([*args, "--out", str(tmp_path / "strict")]) == 1
    assert "1 episode ended in an error" in capsys.readouterr().err
    assert main([*args, "--allow-errors", "--out", str(tmp_path / "allowed")]) == 0
    summary = json.loads((tmp_path / "allowed" / "summary.json").read_text())
    assert summary["errors"] == 1

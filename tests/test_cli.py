"""The webenv command: listing tasks and evaluating agents, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from webenv.cli import main

WEBENV = [sys.executable, "-m", "webenv.cli"]


def test_list_json_describes_every_template(capsys):
    assert main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ids = {row["id"] for row in rows}
    assert {"webenv/shop.buy_product-v0", "webenv/shop.fill_cart-v0"} <= ids
    for row in rows:
        assert row["sites"] and isinstance(row["tags"], list)


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
         "unknown profile(s) wild; choose from none, light, heavy, adversarial"),
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


@pytest.mark.slow
def test_a_regular_install_carries_sites_and_tasks(tmp_path):
    """``pip install .`` (not editable) must ship sites/, tasks/, templates, SQL and JS (the
    player's too)."""
    root = Path(__file__).resolve().parents[1]
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
        assert set(urls) == {"shop", "mail", "forms"}
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


def test_eval_fails_when_episodes_error_unless_allowed(tmp_path, browser, monkeypatch, capsys):
    (tmp_path / "broken_agent.py").write_text(
        "def act(observation):\n    raise RuntimeError('the agent broke')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    args = ["eval", "--agent", "broken_agent:act", "--tasks", "shop.cheapest_by_brand",
            "--episodes", "1", "--workers", "0"]  # fmt: skip
    assert main([*args, "--out", str(tmp_path / "strict")]) == 1
    assert "1 episodes ended in an error" in capsys.readouterr().err
    assert main([*args, "--allow-errors", "--out", str(tmp_path / "allowed")]) == 0
    summary = json.loads((tmp_path / "allowed" / "summary.json").read_text())
    assert summary["errors"] == 1

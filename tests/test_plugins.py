"""Sites and task suites as plugins: the site registry, entry points, and the example plugin
(examples/webenv-example-plugin) installed as a user installs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import webenv.site
import webenv.tasks
from webenv import world as world_module
from webenv.errors import PluginError
from webenv.plugins import plugin_sites
from webenv.served import ServedWorld
from webenv.site import BUILTIN_SITES, get_site, mailbox, sites
from webenv.world import World, generate_world

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "webenv-example-plugin"
WEBENV = [sys.executable, "-m", "webenv.cli"]


def _distribution(folder: Path, name: str, entry_points: str) -> None:
    """A distribution's metadata in ``folder`` (on sys.path): its name and entry points."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(entry_points)


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The site registry and the world cache's fingerprint as they are before any plugin is
    read, put back afterwards."""
    monkeypatch.setattr(webenv.site, "_SITES", {site.name: site for site in BUILTIN_SITES})
    monkeypatch.setattr(webenv.site, "_plugins_loaded", False)
    world_module._fingerprint.cache_clear()
    yield
    world_module._fingerprint.cache_clear()


def test_the_builtin_sites_register_in_generation_order_with_what_they_exchange():
    assert list(sites())[:3] == ["shop", "mail", "forms"]
    assert mailbox(["shop", "forms"]) is None and mailbox(["forms", "mail"]) == "mail"
    assert get_site("shop").sends_mail and get_site("shop").sent_mail is not None
    assert get_site("mail").delivers_mail and not get_site("mail").sends_mail
    assert set(get_site("forms").user_data) >= {"drafts", "submissions"}


def test_a_served_world_wires_mail_through_the_registry():
    served = ServedWorld(("shop", "mail"), seed=1)
    try:
        assert served.apps["shop"].config["SEND_MAIL"] == served.world.deliver_mail
        assert "SEND_MAIL" not in served.apps["mail"].config
        host = served.url("shop").split("/")[2]
        request = urllib.request.Request(
            f"http://127.0.0.1:{served.server.port}/", headers={"Host": host}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
        cookies = served.sign_in_cookies()
        assert [cookie["url"] for cookie in cookies] == [served.url("shop"), served.url("mail")]
    finally:
        served.close()
    alone = World(("shop",))
    try:
        alone.create_apps({"shop": "http://shop.localhost:1"})
        assert alone.apps["shop"].config["SEND_MAIL"] is None  # no mailbox to send to
    finally:
        alone.close()


def test_a_plugin_site_joins_worlds_and_the_cache_fingerprint(
    tmp_path, monkeypatch, fresh_registry
):
    builtin_fingerprint = world_module._fingerprint()
    world_module._fingerprint.cache_clear()
    monkeypatch.setattr(webenv.site, "_plugins_loaded", False)  # read the entry points again
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    _distribution(tmp_path, "notes_plugin", "[webenv.sites]\nnotes = webenv_example:SITE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert list(sites()) == [*(site.name for site in BUILTIN_SITES), "notes"]
    assert world_module._fingerprint() != builtin_fingerprint
    snapshot = generate_world(4, ("notes",))
    assert snapshot == generate_world(4, ("notes",))
    world = World(("notes", "shop"))
    try:
        assert world.sites == ("shop", "notes") and world.mailbox is None
        world.restore(4)
        world.mark_start()
        assert world.query("notes", "SELECT COUNT(*) AS n FROM notes")[0]["n"] == 18
        assert world.changes() == []
    finally:
        world.close()


def test_a_broken_site_plugin_is_named_with_its_distribution(tmp_path, monkeypatch, fresh_registry):
    _distribution(tmp_path, "broken_sites", "[webenv.sites]\nnotes = no_such_module:SITE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as raised:
        plugin_sites()
    message = str(raised.value)
    assert "'notes'" in message and "'broken_sites'" in message and "no_such_module" in message
    assert "pip uninstall broken_sites" in message
    with pytest.raises(PluginError):  # asked again, it fails again: not cached as loaded
        get_site("shop")
    with pytest.raises(PluginError, match="broken_sites"):
        get_site("shop")


def test_a_site_plugin_that_gives_no_site_is_refused(tmp_path, monkeypatch, fresh_registry):
    _distribution(tmp_path, "odd_sites", "[webenv.sites]\nodd = json:dumps\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError, match=r"'odd' \(json:dumps\) of the distribution 'odd_sites'"):
        plugin_sites()


def test_a_broken_task_suite_is_named_with_its_distribution(tmp_path, monkeypatch):
    _distribution(tmp_path, "broken_tasks", "[webenv.tasks]\nsuite = no_such_suite.tasks\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(webenv.tasks, "_plugins_loaded", False)
    with pytest.raises(PluginError, match=r"'suite' \(no_such_suite.tasks\).*'broken_tasks'"):
        webenv.tasks.templates()


def _install_example(tmp_path: Path) -> dict[str, str]:
    """The example plugin installed (not editable) beside this webenv; the environment of a
    process that sees it."""
    source = tmp_path / "source"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    target = tmp_path / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--disable-pip-version-check", "--target", str(target), str(source)],
        check=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    return {
        **os.environ,
        "PYTHONPATH": str(target),
        "WEBENV_CACHE": str(tmp_path / "cache"),
        "HOME": str(tmp_path),
    }


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, env=env, cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.browser  # Chromium in processes of their own
def test_the_example_plugin_lists_validates_and_earns_its_reward(tmp_path):
    env = _install_example(tmp_path)
    listed = _run([*WEBENV, "list", "--json"], env, tmp_path)
    assert listed.returncode == 0, listed.stderr
    names = {row["name"]: row["sites"] for row in json.loads(listed.stdout)}
    assert names["example.archive_note"] == ["notes"]
    assert names["example.notebook_count"] == ["notes"]
    assert "shop.buy_product" in names

    probe = (
        "import gymnasium as gym, webenv; print('webenv/example.archive_note-v0' in gym.registry)"
    )
    registered = _run([sys.executable, "-c", probe], env, tmp_path)
    assert registered.stdout.strip() == "True", registered.stderr

    # One seed, one profile and short random episodes: what validate checks is tested in
    # tests/test_validate.py; here, that a plugin's templates go through all of it.
    validate = [*WEBENV, "validate", "--tasks", "example.*", "--seeds", "1"]
    validated = _run([*validate, "--profiles", "heavy", "--random-steps", "5"], env, tmp_path)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "2 of 2 templates passed every check." in validated.stdout

    out = tmp_path / "run"
    evaluated = _run(
        [*WEBENV, "eval", "--agent", "oracle", "--tasks", "example.*", "--episodes", "1",
         "--workers", "1", "--out", str(out)],
        env, tmp_path,
    )  # fmt: skip
    assert evaluated.returncode == 0, evaluated.stderr
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["task"] for r in results) == ["example.archive_note", "example.notebook_count"]
    assert all(r["reward"] == 1.0 and r["error"] is None for r in results), results


def test_webenv_list_names_a_broken_suite_without_a_traceback(tmp_path):
    _distribution(tmp_path, "broken_tasks", "[webenv.tasks]\nsuite = no_such_suite\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = _run([*WEBENV, "list"], env, tmp_path)
    assert result.returncode == 2
    assert "webenv: The webenv.tasks plugin 'suite' (no_such_suite)" in result.stderr
    assert "pip uninstall broken_tasks" in result.stderr and "Traceback" not in result.stderr

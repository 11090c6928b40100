"""Faults: a killed browser, and what close() leaves behind.

Each test drives its env in a thread of its own: Playwright's sync API gives every thread its
own Chromium, so killing this one leaves the session's shared browser alone.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym

import webenv  # noqa: F401


def in_thread(body: Callable[[], Any]) -> Any:
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = body()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(300)
    assert not worker.is_alive(), "the env hung"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def chromium_pids() -> set[int]:
    """Chromium browser processes descended from this process."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    def browser(command: str) -> bool:
        # The browser process, not its helpers (--type=…) nor a launcher script around it.
        program = command.split("\0", 1)[0]
        return (
            "remote-debugging-pipe" in command
            and "--type=" not in command
            and Path(program).name not in ("sh", "bash", "dash")
        )

    return {pid for pid, command in commands.items() if browser(command) and descends(pid)}


def test_a_killed_browser_ends_the_step_and_the_next_reset_recovers():
    def body() -> tuple[Any, ...]:
        before = chromium_pids()
        env = gym.make("webenv/shop.fill_cart-v0")
        try:
            env.reset(seed=0)
            for pid in chromium_pids() - before:
                os.kill(pid, signal.SIGKILL)
            observation, reward, _, truncated, info = env.step("scroll(0, 200)")
            crashed = (reward, truncated, info.get("error", ""), observation["last_action_error"])
            observation, _ = env.reset(seed=1)
            observation, *_ = env.step("noop()")
            return crashed, observation
        finally:
            env.close()

    (reward, truncated, error, last_error), observation = in_thread(body)
    assert reward == 0.0 and truncated is True
    assert "browser" in error and error == last_error
    assert observation["url"].startswith("http://shop.localhost:")
    assert observation["last_action_error"] == ""


def test_close_leaves_no_browser_or_server_behind():
    def body() -> tuple[set[int], int, set[int]]:
        before = chromium_pids()
        with gym.make("webenv/shop.fill_cart-v0") as env:
            env.reset(seed=0)
            port = env.unwrapped._server.port
            during = chromium_pids() - before
        env.close()  # twice is safe
        return during, port, chromium_pids() - before

    during, port, after = in_thread(body)
    assert len(during) == 1
    assert after == set()
    with socket.socket() as probe:
        assert probe.connect_ex(("127.0.0.1", port)) != 0

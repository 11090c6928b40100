"""Worker processes end with the command that started them: a ``webenv eval`` or ``webenv
validate`` killed mid-run (SIGKILL: no handler of its own runs) leaves no worker, Playwright
driver or Chromium of its own going on with work whose results nobody will read."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import descendants

WEBENV = [sys.executable, "-m", "webenv.cli"]
#: An agent that thinks for ten minutes before its first action, as a slow model may.
SLOW_AGENT = """
import time

class Slow:
    def reset(self, observation, info):
        pass

    def act(self, observation):
        time.sleep(600)
        return "noop()"
"""
#: Each command with a worker, at work well past the kill: an episode of the slow agent, an
#: audit of a template on thirty seeds.
COMMANDS = {
    "eval": ["eval", "--agent", "slow_agent:Slow", "--tasks", "shop.order_total"],
    "validate": ["validate", "--tasks", "shop.order_total", "--seeds", "30", "--profiles", "none"],
}


def _running(pids: set[int]) -> set[int]:
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.add(pid)
    return running


@pytest.mark.browser  # Chromium in processes of their own
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_workers_end_when_their_command_is_killed(tmp_path, command):
    (tmp_path / "slow_agent.py").write_text(SLOW_AGENT)
    args = [*COMMANDS[command], "--workers", "1"]
    process = subprocess.Popen(
        [*WEBENV, *args], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    left: set[int] = set()
    try:
        deadline = time.monotonic() + 180
        while not any(b"chromium" in line for line in descendants(process.pid).values()):
            assert process.poll() is None, f"webenv {command} ended before its worker worked"
            assert time.monotonic() < deadline, "no worker started a browser in 3 minutes"
            time.sleep(0.2)
        time.sleep(1)  # the worker at work
        left = set(descendants(process.pid))
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        deadline = time.monotonic() + 60
        while _running(left) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _running(left), f"still running after webenv {command} was killed"
    finally:
        if process.poll() is None:
            left |= set(descendants(process.pid))
            process.kill()
        for pid in _running(left):  # a failed test leaves nothing behind either
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

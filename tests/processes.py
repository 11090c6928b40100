"""Helpers for tests about processes and hangs: who descends from this process, and a call
run in a thread of its own so that a hang fails the test instead of stalling the suite."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any


def descendants(root: int | None = None) -> dict[int, bytes]:
    """``{pid: command line}`` of every process descended from ``root`` (this process)."""
    root = os.getpid() if root is None else root
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])

    def descends(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == root:
                return True
        return False

    return {pid: command for pid, command in commands.items() if descends(pid)}


def in_thread(body: Callable[[], Any], limit: float = 300) -> Any:
    """Run ``body`` in a daemon thread; fail (instead of hanging) if it is not back in time."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = body()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    assert not worker.is_alive(), "a browser call hung"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def chromium_pids() -> set[int]:
    """Chromium browser processes descended from this process: not its helpers (--type=…)
    nor a launcher script around it."""

    def browser(command: bytes) -> bool:
        program = command.split(b"\0", 1)[0]
        return (
            b"remote-debugging-pipe" in command
            and b"--type=" not in command
            and Path(program.decode(errors="replace")).name not in ("sh", "bash", "dash")
        )

    return {pid for pid, command in descendants().items() if browser(command)}

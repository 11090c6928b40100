"""What the kernel knows about a process tree: its members, their memory and CPU time.

Shared by the benchmarks; Linux only (reads ``/proc``).
"""

from __future__ import annotations

import os
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    """``/proc/<pid>/stat``'s fields after the command name (which may hold spaces)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def descendants(root: int) -> list[int]:
    """``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int(_stat(int(entry.name))[1])
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in kB, from ``smaps_rollup``; (0, 0) if it is gone."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return (0, 0)
    fields = {}
    for line in rollup.splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0])
    return (fields.get("Rss", 0), fields.get("Pss", 0))


def _cpu(pid: int) -> tuple[float, int]:
    """User and system CPU seconds of one process, and when it started (in clock ticks after
    boot: with the pid, it names the process even once the pid is reused); OSError if it is
    gone."""
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / _TICKS, int(fields[19])


def cpu_seconds(root: int) -> float:
    """User and system CPU time of ``root`` and every live process below it."""
    total = 0.0
    for pid in descendants(root):
        try:
            total += _cpu(pid)[0]
        except OSError:
            continue
    return total


def kind(pid: int, python: int) -> str:
    """What a process of an env's tree is: ``python`` (the pid given), Playwright's
    ``driver``, or a Chromium process by its ``--type`` (``renderer``, ``gpu``, ``utility``;
    ``browser`` for the main one and its zygotes)."""
    if pid == python:
        return "python"
    try:
        # Chromium rewrites its children's command lines into one string: split on spaces too.
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return "other"
    args = cmdline.replace("\0", " ").split() or [""]
    types = [arg.removeprefix("--type=") for arg in args if arg.startswith("--type=")]
    if types:
        return {"gpu-process": "gpu", "zygote": "browser"}.get(types[0], types[0])
    program = Path(args[0]).name
    if program == "node" or "playwright" in args[0]:
        return "driver"
    return "browser" if "chrom" in program else "other"


class CpuByKind:
    """CPU seconds of a process tree, summed by :func:`kind`, over every process seen.

    A process's CPU is read at each :meth:`sample`; one that has ended keeps the last value
    read, so what it spent after that sample is missed (sample often)."""

    def __init__(self, root: int):
        self.root = root
        self._seen: dict[tuple[int, int], tuple[str, float]] = {}

    def sample(self) -> None:
        for pid in descendants(self.root):
            try:
                cpu, started = _cpu(pid)
            except OSError:
                continue
            known = self._seen.get((pid, started))
            self._seen[pid, started] = (known[0] if known else kind(pid, self.root), cpu)

    def totals(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        for name, cpu in self._seen.values():
            totals[name] = totals.get(name, 0.0) + cpu
        return totals

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


def cpu_seconds(root: int) -> float:
    """User and system CPU time of ``root`` and every live process below it."""
    total = 0
    for pid in descendants(root):
        try:
            fields = _stat(pid)
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS

"""Temporary folders of processes that may be killed: each is removed by its own process, or,
once that process is gone, by the next one to make a folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from webenv.scratch import PREFIX, new_scratch, sweep

#: A process that makes its folder, fills it, says where it is, then waits to be killed.
OWNER = """
import sys, time
from pathlib import Path
from webenv.scratch import new_scratch
path = Path(new_scratch())
(path / "world.sqlite").write_bytes(b"x" * 1000)
print(path, flush=True)
time.sleep(600)
"""


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def start_owner() -> tuple[subprocess.Popen[str], Path]:
    process = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    return process, Path(process.stdout.readline().strip())


def end(process: subprocess.Popen[str]) -> None:
    process.wait()
    if process.stdout is not None:
        process.stdout.close()


def test_a_killed_process_folder_goes_when_the_next_is_made(root: Path) -> None:
    killed, left = start_owner()
    running, kept = start_owner()
    try:
        assert left.parent == root and left.name.startswith(f"{PREFIX}{killed.pid}-")
        os.kill(killed.pid, signal.SIGKILL)
        end(killed)
        assert (left / "world.sqlite").exists()  # nobody removed it
        mine = Path(new_scratch())
        assert not left.exists()
        assert (kept / "world.sqlite").exists()  # its process still runs
        assert sorted(p.name for p in root.iterdir()) == sorted([mine.name, kept.name])
    finally:
        running.kill()
        end(running)
        end(killed)
    assert sweep(root) == [kept]
    assert mine.exists()  # this process's own, for it to remove


def test_folders_not_of_the_scratch_kind_are_left_alone(root: Path) -> None:
    for name in ("webenv-world-abc", f"{PREFIX}notapid-x", "other"):
        (root / name).mkdir()
    assert sweep(root) == []
    assert len(list(root.iterdir())) == 3

"""Folders for the temporary files of the processes that run envs: worlds' databases,
Chromium's profile, the Playwright driver's files.

Each folder is named after the process that removes it when it is done. A process that is
killed cannot, so every new folder is made after removing those whose process no longer runs:
what a killed worker or Ray actor left on a machine goes when the next one starts there.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "webenv-scratch-"


def new_scratch() -> str:
    """A new folder for temporary files, for this process to remove (see :func:`sweep`)."""
    sweep()
    return tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")


def use_scratch(path: str) -> None:
    """Send this process's temporary files, and those of the processes it starts, to ``path``."""
    os.environ["TMPDIR"] = tempfile.tempdir = path


def sweep(root: str | Path | None = None) -> list[Path]:
    """Remove the folders in ``root`` (the temporary folder) whose process is gone; return them."""
    removed = []
    for path in Path(root or tempfile.gettempdir()).glob(f"{PREFIX}*-*"):
        pid = path.name[len(PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True

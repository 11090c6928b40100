"""Helpers for tests that run the ``webenv`` command as a person does: in a folder of their
own, in a process of its own, and look at the page it serves."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Page

#: ``python -m webenv.cli`` as a terminal starts it, with Ctrl-C's signal at its default. An
#: ignored signal is inherited: a suite started as a background job of a script (``make test
#: &``) has SIGINT and SIGQUIT ignored in every process, as POSIX shells start such jobs, and
#: the command then sat out the stop below for its 30 s.
AS_FROM_A_TERMINAL = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('webenv.cli', run_name='__main__', alter_sys=True)"
)


def start_command(args: list[str], cwd: Path, first_words: str) -> tuple[subprocess.Popen, str]:
    """``webenv ARGS`` run in ``cwd`` without a display; the process, and the URL of the first
    line of its output that starts with ``first_words``."""
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    process = subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, *args],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines = []
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        found = re.search(r"http://\S+/", line)
        if line.startswith(first_words) and found:
            return process, found.group(0)
    stop_command(process)
    raise AssertionError(f"webenv {' '.join(args)} stopped: {''.join(lines)}")


def stop_command(process: subprocess.Popen) -> None:
    """Stop it as Ctrl-C does; kill it if it does not stop in 30 s."""
    try:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    finally:
        if process.stdout is not None:
            process.stdout.close()


def image_sizes(page: Page) -> list[list[object]]:
    """``[src, naturalWidth]`` of every image of the page, once each has loaded or failed.

    The page's own load event is not enough: a page that sets an image's ``src`` after a step
    has long fired it, and until the new picture arrives its ``naturalWidth`` is 0.
    """
    page.wait_for_load_state("load")
    page.wait_for_function("() => Array.from(document.images).every(image => image.complete)")
    return page.locator("img").evaluate_all("images => images.map(i => [i.src, i.naturalWidth])")


def assert_images_loaded(page: Page) -> None:
    """The page has images, and every one of them loaded."""
    sizes = image_sizes(page)
    assert sizes and all(width for _, width in sizes), sizes

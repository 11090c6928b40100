"""``webenv play``: choose the mode, run the episode, and say how it went."""

from __future__ import annotations

import os
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from .headed import HeadedPlay
from .live import LivePlay, serve_live
from .session import PlaySession, format_action

MODES = ("headed", "live")

TERMINAL_HELP = (
    "Play in the browser window. Here, type an answer and Enter to send it "
    "(send_msg_to_user, which ends the episode); ':ACTION' runs any action, e.g. "
    ":report_infeasible(\"sold out\") or :go_back(); ':q' stops. Closing the window stops too."
)


def has_display() -> bool:
    """Whether a headed browser can show a window here."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def default_mode() -> str:
    """Headed where there is a display, else the live page."""
    return "headed" if has_display() else "live"


def play(
    task: str,
    seed: int,
    *,
    perturb: str = "none",
    out: str | Path = "runs/play",
    mode: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8766,
    stdout: TextIO = sys.stdout,
) -> dict[str, Any]:
    """Play ``task`` at ``seed`` in ``mode`` (default: :func:`default_mode`); the final state."""
    mode = mode or default_mode()
    if mode == "live":
        return play_live(task, seed, perturb=perturb, out=out, host=host, port=port, stdout=stdout)
    return play_headed(task, seed, perturb=perturb, out=out, stdout=stdout)


def play_live(
    task: str,
    seed: int,
    *,
    perturb: str,
    out: str | Path,
    host: str,
    port: int,
    stdout: TextIO,
) -> dict[str, Any]:
    """Serve the live page until the episode ends and the person stops the server (Ctrl-C)."""
    live = LivePlay(task, seed, perturb=perturb, out=out)
    try:
        server = serve_live(live, host, port)
        url = f"http://{host}:{server.server_port}/"
        print(f"Play {task} (seed {seed}) at {url}  (Ctrl-C stops)", file=stdout, flush=True)
        if has_display():
            webbrowser.open(url)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            live.finished.wait()
            state = live.call(live.session.state)
            report(state, out, stdout)
            print("The page stays up to replay the episode; Ctrl-C stops.", file=stdout, flush=True)
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
            server.server_close()
        state = live.call(live.session.state)
    finally:
        live.close()
    if not state["done"]:
        report(state, out, stdout)
    return state


def play_headed(
    task: str,
    seed: int,
    *,
    perturb: str,
    out: str | Path,
    stdout: TextIO,
    lines: Callable[[], str] = input,
) -> dict[str, Any]:
    """Open the task in a browser window and record what the person does there."""
    with PlaySession(task, seed, perturb=perturb, out=out, headless=False) as session:
        print(f"Goal: {session.state()['goal']}\n{TERMINAL_HELP}", file=stdout, flush=True)
        headed = HeadedPlay(session, on_step=lambda state: print_step(state, stdout))
        stop = threading.Event()
        threading.Thread(target=_read_terminal, args=(headed, lines, stop), daemon=True).start()
        try:
            while not stop.is_set() and headed.pump():
                pass
        except KeyboardInterrupt:
            pass
        state = session.state()
    report(state, out, stdout)
    return state


def _read_terminal(headed: HeadedPlay, lines: Callable[[], str], stop: threading.Event) -> None:
    """Answers and actions typed in the terminal, queued for the thread that owns the env."""
    while not stop.is_set():
        try:
            line = lines().strip()
        except (EOFError, OSError):
            return
        if line == ":q":
            stop.set()
        elif line.startswith(":"):
            headed.commands.put(line[1:])
        elif line:
            headed.commands.put(format_action("send_msg_to_user", line))


def print_step(state: dict[str, Any], stdout: TextIO) -> None:
    action = state.get("refused") or state.get("last_action", "")
    error = f"\n     error: {state['error']}" if state.get("error") else ""
    print(f"{state['step']:>3}. {action}\n     → {state['url']}{error}", file=stdout, flush=True)


def report(state: dict[str, Any], out: str | Path, stdout: TextIO) -> None:
    """The episode's outcome, the check's conditions, and how to replay it."""
    if state["done"]:
        print(f"reward {state['reward']}  success {state['success']}", file=stdout)
        for condition in state["check"]:
            mark = "✓" if condition["passed"] else "✗"
            print(f"  {mark} {condition['name']}: {condition['message']}", file=stdout)
    else:
        print(f"Stopped after {state['step']} steps, before the episode ended.", file=stdout)
    print(f"Recorded in {state['record']}; replay it with `webenv view {out}`.", file=stdout)
    stdout.flush()

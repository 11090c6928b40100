"""Sixteen independent clients of one env server, speaking only its documented protocol.

The server (``EnvServer`` under uvicorn, as ``webenv server`` runs it) serves eight templates
of every site; sixteen WebSocket clients each reset a chosen task and seed and play it at the
same time. Eight send noops and a wrong answer and must get reward 0 with no fault; eight are
given the oracle's actions (read on the trusted side of this process, ``grader_env``, which no
client can reach over the wire) and must get reward 1. Chromium is killed once mid-run: the
episodes it takes must end in a flagged fault (reward null, fault set); their clients reset
and play again, and the others go on untouched. Every frame but the page's own text is
searched for the episode's secrets (``tests/test_leaks.py``).

    nice python bench/server_clients.py      # from the repository root

Prints one line per episode and a summary; exits 1 if any expectation failed.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import webenv
from tests.processes import chromium_pids
from tests.servers import Served, serve
from tests.test_leaks import leaked, secrets
from webenv.agents import OracleAgent

TASKS = (
    "shop.order_total",
    "shop.tracking_number",
    "shop.add_to_wishlist",
    "mail.mark_unread",
    "mail.contact_phone",
    "mail.receipt_total",
    "forms.past_confirmation_number",
    "workflows.email_order_total",
)
#: The page's own text (it may show an order's total) and the agent's echoed action.
PAGE_KEYS = ("axtree", "dom", "tabs", "url", "focused", "dialog", "last_action")
#: Noop steps a wrong client takes before its answer (long enough to be caught by the kill).
NOOPS = 4
WRONG_ANSWERS = ("I could not find it.", "$0.01", "0", "It is 1999-01-01.")
#: Kill Chromium once this many episodes have ended.
KILL_AFTER = 3


def without_page(frame: Any) -> Any:
    frame = json.loads(json.dumps(frame))
    data = frame.get("data")
    observation = data.get("observation") if isinstance(data, dict) else None
    if isinstance(observation, dict):
        for key in PAGE_KEYS:
            observation.pop(key, None)
    return frame


class Client(threading.Thread):
    """One client: episodes of one task and seed until one ends without a fault (at most
    two), each over a WebSocket of its own."""

    def __init__(self, index: int, served: Served, ended: threading.Semaphore):
        super().__init__(daemon=True)
        self.index, self.served, self.ended = index, served, ended
        self.task = TASKS[index % len(TASKS)]
        self.correct = index < len(TASKS)
        self.seed = 1 + index // len(TASKS)
        self.episodes: list[dict[str, Any]] = []
        self.frames: list[Any] = []
        self.hidden: dict[str, str] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            for _ in range(2):
                # A connection per episode: a fault may close the session it ran in.
                with connect(self.served.ws, open_timeout=120, max_size=None) as socket:
                    episode = self.play(socket)
                    self.episodes.append(episode)
                    self.ended.release()
                    if episode["fault"] is None:
                        self.ask(socket, {"type": "state"})
                        break
        except BaseException as error:  # reported, not raised in the thread
            self.error = error
            self.ended.release()

    def ask(self, socket: Any, message: dict[str, Any]) -> dict[str, Any]:
        socket.send(json.dumps(message))
        frame = json.loads(socket.recv(timeout=300))
        self.frames.append(frame)
        if frame["type"] == "error":
            raise RuntimeError(f"error frame: {frame}")
        return frame["data"]

    def look(self, session_id: str) -> None:
        """The episode's secrets as the trusted side sees them now (the check's messages
        appear after a step)."""
        try:
            view = webenv.grader_view(self.served.server.grader_env(session_id))
        except Exception:  # the session is gone (after a fault)
            return
        self.hidden.update(secrets(view, view.task.goal))

    def play(self, socket: Any) -> dict[str, Any]:
        started = time.monotonic()
        data = self.ask(socket, {"type": "reset", "data": {"task": self.task, "seed": self.seed}})
        session_id = data["metadata"]["session_id"]
        steps = 0
        if data["observation"]["fault"] is None:
            self.look(session_id)
            agent = None
            if self.correct:
                agent = OracleAgent(self.served.server.grader_env(session_id))
                agent.reset(data["observation"], data["metadata"]["info"])
            while not data["done"]:
                if agent is not None:
                    action = agent.act(data["observation"])
                elif steps < NOOPS:
                    action = "noop(wait_ms=1500)"
                else:
                    answer = WRONG_ANSWERS[self.index % len(WRONG_ANSWERS)]
                    action = f"send_msg_to_user({json.dumps(answer)})"
                data = self.ask(socket, {"type": "step", "data": {"action": action}})
                steps += 1
                if data["observation"]["fault"] is None:
                    self.look(session_id)
        fault = data["observation"]["fault"]
        return {
            "reward": data["reward"],
            "done": data["done"],
            "fault": fault,
            "metadata_fault": data["metadata"].get("fault"),
            "steps": steps,
            "seconds": round(time.monotonic() - started, 1),
        }


def killer(served: Served, ended: threading.Semaphore, killed: list[int]) -> None:
    for _ in range(KILL_AFTER):
        ended.acquire()
    pids = chromium_pids() - served.chromium_before
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        except ProcessLookupError:
            pass


def main() -> int:
    started = time.monotonic()
    server = serve(TASKS, max_sessions=16, idle_timeout=600.0, seed=0)
    served = next(server)
    problems: list[str] = []
    try:
        ended = threading.Semaphore(0)
        clients = [Client(index, served, ended) for index in range(16)]
        killed: list[int] = []
        kill = threading.Thread(target=killer, args=(served, ended, killed), daemon=True)
        kill.start()
        for client in clients:
            client.start()
        for client in clients:
            client.join(1800)
        health = httpx.get(f"{served.http}/health", timeout=30).json()
    finally:
        server.close()  # stops the server; checks that no Chromium is left behind
    wall = time.monotonic() - started

    faults = leaks = 0
    for client in clients:
        kind = "correct" if client.correct else "wrong"
        label = f"#{client.index:2} {kind:7} {client.task}/{client.seed}"
        if client.error is not None or client.is_alive():
            problems.append(f"{label}: {client.error or 'did not finish'}")
            print(f"{label}: ERROR {client.error!r}")
            continue
        for number, episode in enumerate(client.episodes):
            fault = episode["fault"]
            print(
                f"{label} episode {number}: reward {episode['reward']} done {episode['done']} "
                f"fault {fault and fault['kind']} steps {episode['steps']} "
                f"({episode['seconds']} s)"
            )
            if fault is not None:
                faults += 1
                if not (
                    episode["reward"] is None
                    and episode["done"] is True
                    and fault.get("infrastructure_error") is True
                    and episode["metadata_fault"] == fault
                ):
                    problems.append(f"{label}: fault not flagged as one: {episode}")
            else:
                want = 1.0 if client.correct else 0.0
                if episode["reward"] != want or episode["done"] is not True:
                    problems.append(f"{label}: reward {episode['reward']}, expected {want}")
        if client.episodes and client.episodes[-1]["fault"] is not None:
            problems.append(f"{label}: its episode after the fault faulted too")
        found = {}
        for frame in client.frames:
            found.update(leaked(without_page(frame), client.hidden))
        if not client.hidden:
            problems.append(f"{label}: no secrets were read to look for")
        if found:
            leaks += len(found)
            problems.append(f"{label}: leaked {found}")
    affected = sum(any(e["fault"] for e in c.episodes) for c in clients)
    if not killed:
        problems.append("Chromium was not killed")
    if affected == 0 or affected == len(clients):
        problems.append(f"{affected} of {len(clients)} clients met the kill: expected some")
    print(
        f"\nwall time {wall:.1f} s; episodes {sum(len(c.episodes) for c in clients)}; "
        f"clients hit by the kill {affected}; faults {faults}; leaks {leaks}; "
        f"chromium pids killed {len(killed)}; browser launches {health['browser']['launches']}"
        f"; server faults {health['load']['faults']}"
    )
    for problem in problems:
        print("PROBLEM:", problem)
    print("OK" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

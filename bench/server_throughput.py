"""Steps/s of N clients of the env server against the in-process vector env of N.

``server``: ``webenv server`` in a process of its own (its Chromium shared by the sessions);
N clients (threads of this process), each with its own WebSocket session, reset on the same
task and seeds and step at once, as a trainer's rollout workers would. ``vector``: webenv's
own vector env of N in this process (``gym.make_vec``), stepped with one batched call per
step. Both take the same actions (scrolling down and up, which re-reads the axtree each
step), after a warm-up of three steps. Steps/s is summed over the envs; the latency is that
of one client's step (server) or of one batched step of all N (vector). Memory per session is
the PSS of the process tree (Python, Playwright's driver, Chromium) once warm, less the
same tree with Chromium (and its watchdog page) launched and no session, divided by N.

    python bench/server_throughput.py [--sizes 1,4,8] [--seconds 10] [--mode server,vector]
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx
from _cli import chosen_modes, machine, stepping_parser
from _proc import descendants, memory_kb
from websockets.sync.client import connect

TASK = "shop.fill_cart"
ACTIONS = ("scroll(0, 300)", "scroll(0, -300)")
WARMUP_STEPS = 3
Result = tuple[float, list[float], float]  # steps/s, latencies (s), PSS MB per session


def tree_pss_mb(root: int) -> float:
    return sum(memory_kb(pid)[1] for pid in descendants(root)) / 1024


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def running_server(n: int) -> Any:
    port = free_port()
    command = [sys.executable, "-m", "webenv.cli", "server", "--port", str(port)]
    command += ["--tasks", TASK, "--max-sessions", str(n)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/health").json()["browser"]["connected"]:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.2)
        yield process.pid, f"ws://127.0.0.1:{port}/ws"
    finally:
        process.terminate()
        process.wait(30)


class Signals:
    """The clients' meeting points: all warm, go, all done stepping, finish."""

    def __init__(self, n: int):
        self.warm, self.stepped = threading.Barrier(n + 1), threading.Barrier(n + 1)
        self.go, self.finish = threading.Event(), threading.Event()


def client(url: str, seed: int, signals: Signals, out: dict[Any, Any]) -> None:
    latencies: list[float] = []
    steps = 0
    with connect(url, open_timeout=60, max_size=2**26) as ws:

        def ask(message: dict[str, Any]) -> dict[str, Any]:
            ws.send(json.dumps(message))
            frame = json.loads(ws.recv(timeout=120))
            if frame["type"] == "error":
                raise RuntimeError(frame["data"]["message"])
            return dict(frame["data"])

        def reset() -> None:
            ask({"type": "reset", "data": {"task": TASK, "seed": seed}})

        reset()
        for i in range(WARMUP_STEPS):
            if ask({"type": "step", "data": {"action": ACTIONS[i % 2]}})["done"]:
                reset()
        signals.warm.wait()
        signals.go.wait()
        started = time.perf_counter()
        while time.perf_counter() - started < out["seconds"]:
            t0 = time.perf_counter()
            data = ask({"type": "step", "data": {"action": ACTIONS[steps % 2]}})
            latencies.append(time.perf_counter() - t0)
            steps += 1
            if data["done"]:
                reset()
        elapsed = time.perf_counter() - started
        out[seed] = (steps / elapsed, latencies)
        signals.stepped.wait()  # every client done stepping: memory is measured at rest
        signals.finish.wait()


def server(n: int, seconds: float) -> Result:
    with running_server(n) as (pid, url):
        idle = tree_pss_mb(pid)
        signals = Signals(n)
        out: dict[Any, Any] = {"seconds": seconds}
        threads = [
            threading.Thread(target=client, args=(url, seed, signals, out)) for seed in range(n)
        ]
        for thread in threads:
            thread.start()
        signals.warm.wait()
        signals.go.set()
        signals.stepped.wait()
        per_session = (tree_pss_mb(pid) - idle) / n
        signals.finish.set()
        for thread in threads:
            thread.join()
    rates = [out[seed][0] for seed in range(n)]
    latencies = [value for seed in range(n) for value in out[seed][1]]
    return sum(rates), latencies, per_session


# -- the vector env -------------------------------------------------------------------------------


def vector(n: int, seconds: float) -> Result:
    import gymnasium as gym

    import webenv  # noqa: F401
    from webenv.browser import acquire_browser, release_browser
    from webenv.watchdog import watchdog_for

    browser = acquire_browser(True)  # Chromium up, with its watchdog: the server's baseline
    watchdog_for(browser)
    try:
        idle = tree_pss_mb(os.getpid())
        envs = gym.make_vec(f"webenv/{TASK}-v0", num_envs=n)
        try:
            envs.reset(seed=0)
            for i in range(WARMUP_STEPS):
                envs.step([ACTIONS[i % 2]] * n)
            per_session = (tree_pss_mb(os.getpid()) - idle) / n
            latencies: list[float] = []
            started = time.perf_counter()
            while time.perf_counter() - started < seconds:
                t0 = time.perf_counter()
                envs.step([ACTIONS[len(latencies) % 2]] * n)
                latencies.append(time.perf_counter() - t0)
            rate = n * len(latencies) / (time.perf_counter() - started)
        finally:
            envs.close()
    finally:
        release_browser(browser)
    return rate, latencies, per_session


def main() -> None:
    parser = stepping_parser(__doc__.splitlines()[0], "1,4,8", "server,vector")
    args = parser.parse_args()
    runners = {"server": server, "vector": vector}
    modes = chosen_modes(parser, args.mode, runners)
    print(machine(args.seconds))
    print(f"{'N':>3} {'mode':<7} {'steps/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'MB/session':>10}")
    for n in map(int, args.sizes.split(",")):
        rates = {}
        for mode in modes:
            rate, latencies, per_session = runners[mode](n, args.seconds)
            rates[mode] = rate
            p50, p99 = percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000
            print(f"{n:>3} {mode:<7} {rate:>8.1f} {p50:>8.0f} {p99:>8.0f} {per_session:>10.0f}")
        if {"server", "vector"} <= set(rates):
            ratio = rates["server"] / rates["vector"]
            print(f"{n:>3} server/vector steps/s: {ratio:.2f}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C: the rows printed so far are the result
        sys.exit(130)

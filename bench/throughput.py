"""Aggregate steps per second of N concurrent envs, against one env, measured in one run.

Every env clicks back and forth between two shop pages (the home page and the cart, as
bench/step_overhead.py does), each click a real ``env.step`` with the axtree observation.
Two ways to run N envs at once:

- ``vector``: Gymnasium's async vector env (``gymnasium.make_vec(..., vectorization_mode=
  "async")``), N worker processes stepped in lockstep, as a training loop uses them;
- ``native``: webenv's own vector env (``gymnasium.make_vec(...)``), N envs of one process
  and one Chromium stepped at once, in lockstep too;
- ``processes``: N independent ``spawn`` processes, each stepping as fast as it can, as the
  evaluation workers do.

For each N, the envs are started and warmed up, then stepped for ``--seconds``; the table
shows steps/s summed over the envs, its ratio to N = 1 of the same mode and run, and the CPU
time (of every process involved: Python, Playwright's driver, Chromium) per step. A machine
of C cores cannot step faster than C / (CPU per step), whatever N: the last line gives that
ceiling as a ratio to one env, so that a shortfall can be told from a busy machine.

    python bench/throughput.py [--sizes 1,2,4,8] [--seconds 10] [--mode vector,native,processes]
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import time
from typing import Any

import gymnasium as gym
from _cli import chosen_modes, machine, stepping_parser
from _proc import cpu_seconds

import webenv  # noqa: F401  (registers the ids)
from webenv.axtree import AxTree

TASK = "webenv/shop.fill_cart-v0"
WARMUP_STEPS = 3
TARGET_RATIO = 2.0  # at N = 8 on 2 cores


def targets(axtree: str) -> list[str]:
    """The names of the two links clicked in turn: the shop's home and the cart."""
    return ["Northwind Market", AxTree(axtree).find("link", contains="Cart").name]


def click(axtree: str, name: str) -> str:
    return f'click("{AxTree(axtree).id("link", name)}")'


def clicks(observations: dict[str, Any], name: str) -> list[str]:
    """The click on link ``name`` in each env of a vector env."""
    return [click(tree, name) for tree in observations["axtree"]]


def run_vector(n: int, seconds: float, mode: str = "async") -> tuple[float, float]:
    """Steps/s of ``n`` envs in an async vector env (or webenv's own, ``mode="native"``),
    stepped together; CPU s per step."""
    if mode == "native":
        envs = gym.make_vec(TASK, num_envs=n, max_episode_steps=1_000_000)
    else:
        envs = gym.make_vec(
            TASK,
            num_envs=n,
            vectorization_mode="async",
            vector_kwargs={"shared_memory": False, "context": "spawn"},
            max_episode_steps=1_000_000,
        )
    try:
        observations, _ = envs.reset(seed=list(range(n)))
        names = targets(observations["axtree"][0])
        for step in range(WARMUP_STEPS):
            observations, *_ = envs.step(clicks(observations, names[step % 2]))
        steps, started, cpu = 0, time.perf_counter(), cpu_seconds(os.getpid())
        while (elapsed := time.perf_counter() - started) < seconds:
            observations, *_ = envs.step(clicks(observations, names[steps % 2]))
            steps += 1
        cpu = cpu_seconds(os.getpid()) - cpu
        return n * steps / elapsed, cpu / (n * steps)
    finally:
        envs.close()


def _stepper(seed: int, seconds: float, barrier: Any, results: Any) -> None:
    """One env in its own process: warm up, wait for the others, step until time is up."""
    env = gym.make(TASK, max_episode_steps=1_000_000)
    try:
        observation, _ = env.reset(seed=seed)
        names = targets(observation["axtree"])
        for step in range(WARMUP_STEPS):
            observation, *_ = env.step(click(observation["axtree"], names[step % 2]))
        barrier.wait()
        steps, started, cpu = 0, time.perf_counter(), cpu_seconds(os.getpid())
        while (elapsed := time.perf_counter() - started) < seconds:
            observation, *_ = env.step(click(observation["axtree"], names[steps % 2]))
            steps += 1
        results.put((steps / elapsed, cpu_seconds(os.getpid()) - cpu, steps))
    finally:
        env.close()


def run_processes(n: int, seconds: float) -> tuple[float, float]:
    """Steps/s of ``n`` envs, each in its own process, stepping independently; CPU s per
    step."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(n), context.Queue()
    workers = [
        context.Process(target=_stepper, args=(seed, seconds, barrier, results))
        for seed in range(n)
    ]
    for worker in workers:
        worker.start()
    reports = [results.get(timeout=300 + seconds) for _ in workers]
    for worker in workers:
        worker.join()
    rates, cpus, steps = zip(*reports, strict=True)
    return sum(rates), sum(cpus) / max(1, sum(steps))


def main() -> None:
    parser = stepping_parser(__doc__.splitlines()[0], "1,2,4,8", "vector")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    runners = {
        "vector": run_vector,
        "native": functools.partial(run_vector, mode="native"),
        "processes": run_processes,
    }
    modes = chosen_modes(parser, args.mode, runners)

    cores = len(os.sched_getaffinity(0))
    print(machine(args.seconds))
    for mode in modes:
        print(f"\n{mode}\n{'N':>3} {'steps/s':>9} {'per env':>9} {'vs N=1':>7} {'CPU s/step':>11}")
        base = base_cpu = None
        for n in sizes:
            rate, cpu = runners[mode](n, args.seconds)
            if n == 1:
                base, base_cpu = rate, cpu
            ratio = f"{rate / base:>6.2f}x" if base else "      -"
            print(f"{n:>3} {rate:>9.2f} {rate / n:>9.2f} {ratio} {cpu:>11.3f}", flush=True)
        if base and base_cpu:
            ceiling = cores / base_cpu
            print(
                f"CPU-bound ceiling: {cores} cores / {base_cpu:.3f} CPU s per step = "
                f"{ceiling:.1f} steps/s, {ceiling / base:.2f}x one env"
            )
        if base and sizes[-1] >= 8:
            verdict = "meets" if rate / base >= TARGET_RATIO else "misses"
            print(
                f"N={sizes[-1]}: {rate / base:.2f}x one env ({verdict} the target "
                f">= {TARGET_RATIO:g}x at N=8)"
            )


if __name__ == "__main__":
    main()

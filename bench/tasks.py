"""Resets and steps of the oracle on every template, where their CPU goes, in one run.

The other benchmarks measure one or two shop pages; this one runs the tasks themselves, so
that a site, a template or a perturbation that makes episodes slower shows up. For each
template, the oracle runs ``--seeds`` episodes (axtree observation, ``--perturb`` profile);
the table gives the median reset and step (``env.unwrapped.timings``, the time inside
``reset()`` and ``step()``), the CPU per step of every process of the env (Python with the
sites' server, Playwright's driver, Chromium's browser, renderer, GPU and utility
processes), and, as the same-run baseline, bare Playwright's reset of the template's start
page with the same cookies (the last context closed, a new one and a tab, the page loaded,
``aria_snapshot()``).

    python bench/tasks.py [--tasks 'shop.*'] [--seeds 2] [--perturb none]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
from _bare import bare_reset
from _proc import CpuByKind

import webenv  # noqa: F401  (registers the ids)
from webenv.agents import OracleAgent
from webenv.tasks import TaskTemplate, env_id, matching

#: Process kinds, in the order of the table's CPU columns.
KINDS = ("renderer", "browser", "gpu", "utility", "driver", "python")


@dataclass
class Row:
    """One template's episodes: wall times in seconds, CPU seconds by process kind."""

    name: str
    resets: list[float] = field(default_factory=list)
    steps: list[float] = field(default_factory=list)
    successes: int = 0
    bare_ms: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)


def run_template(template: TaskTemplate, seeds: range, perturb: str, cpu: CpuByKind) -> Row:
    """The oracle's episodes of ``template`` and the bare reset of its start page."""
    row = Row(template.name)
    env = gym.make(env_id(template), observe=("axtree",), perturb=perturb)
    inner: Any = env.unwrapped
    # Start the env (Chromium's context, the world, its server) outside the figures.
    observation, _ = env.reset(seed=seeds[0])
    start_url, cookies = observation["url"], inner._session.context.cookies()
    cpu.sample()
    before, sampling = cpu.totals(), 0.0
    try:
        for seed in seeds:
            observation, info = env.reset(seed=seed)
            row.resets.append(inner.timings["reset"])
            agent = OracleAgent(env)
            agent.reset(observation, info)
            done = False
            while not done:
                observation, _, terminated, truncated, info = env.step(agent.act(observation))
                row.steps.append(inner.timings["step"])
                done = terminated or truncated
                started = time.process_time()
                cpu.sample()  # renderers end with their context: read them while they run
                sampling += time.process_time() - started
            row.successes += bool(info.get("success"))
        cpu.sample()
        after = cpu.totals()
        row.cpu = {kind: after.get(kind, 0.0) - before.get(kind, 0.0) for kind in after}
        row.cpu["python"] = row.cpu.get("python", 0.0) - sampling  # not the env's work
        row.bare_ms = bare_reset(start_url, len(seeds), cookies)
    finally:
        env.close()
    return row


def print_row(row: Row, episodes: int) -> None:
    steps = max(1, len(row.steps))
    reset_ms = 1000 * statistics.median(row.resets)
    step_ms = 1000 * statistics.median(row.steps) if row.steps else 0.0
    per_step = sum(row.cpu.values()) / steps
    shares = " ".join(f"{100 * row.cpu.get(kind, 0.0) / steps / per_step:>8.0f}%" for kind in KINDS)
    print(
        f"{row.name:42} {row.successes:>2}/{episodes:<2} {len(row.steps) / episodes:>5.1f} "
        f"{reset_ms:>7.0f} {row.bare_ms:>7.0f} {row.bare_ms / reset_ms:>5.2f} {step_ms:>7.0f} "
        f"{per_step:>7.3f} {shares}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="*", help="template names or patterns, comma-separated")
    parser.add_argument("--seeds", type=int, default=2, help="episodes per template")
    parser.add_argument("--perturb", default="none", help="perturbation profile of every episode")
    args = parser.parse_args()
    chosen = matching(args.tasks.split(","))
    if not chosen:
        parser.error(f"no template matches {args.tasks!r}")

    cpu = CpuByKind(os.getpid())
    kinds = " ".join(f"{kind:>9}" for kind in KINDS)
    print(
        f"{'template':42} {'ok':>5} {'steps':>5} {'reset':>7} {'bare':>7} {'ratio':>5} "
        f"{'step':>7} {'CPU/step':>7} {kinds}"
    )
    print(f"{'':42} {'':>5} {'/ep':>5} {'ms':>7} {'ms':>7} {'':>5} {'ms':>7} {'s':>7}")
    rows = []
    for template in chosen:
        rows.append(run_template(template, range(args.seeds), args.perturb, cpu))
        print_row(rows[-1], args.seeds)

    total = Row("all", successes=sum(row.successes for row in rows))
    for row in rows:
        total.resets += row.resets
        total.steps += row.steps
        for kind, seconds in row.cpu.items():
            total.cpu[kind] = total.cpu.get(kind, 0.0) + seconds
    total.bare_ms = statistics.median(row.bare_ms for row in rows)
    print()
    print_row(total, args.seeds * len(rows))
    print(
        "\nreset, step: medians of the time inside reset() and step(); bare: bare Playwright's "
        "reset of the start page\n(median of the templates' medians on the last line); ratio: "
        "bare / reset; CPU/step: every process's\nCPU over the template's episodes (resets "
        "included) per step, split by process in the last columns."
    )


if __name__ == "__main__":
    main()

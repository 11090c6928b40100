"""Memory per env: N envs of webenv's vector env (one process, one Chromium), after a reset.

For each N, a fresh Python process makes a vector env of N envs on the shop
(``gym.make_vec``), resets them (one seed each), takes one step in each, and then sums the
memory of itself and every process below it (Playwright's node driver, Chromium's browser,
GPU, network and renderer processes). RSS counts a page
shared by several processes once per process, so N renderers of the same binary look far
bigger than they are; PSS (``/proc/<pid>/smaps_rollup``) splits each shared page between the
processes that share it, so its sum is what the envs really cost. Both are printed, divided
by N. Linux only (reads ``/proc``).

    python bench/memory.py [--sizes 1,4,16] [--task shop.fill_cart]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from _proc import descendants, memory_kb

TARGET_MB = 120.0  # per env at the largest N


def measure(n: int, task: str) -> dict[str, float]:
    """In this process: ``n`` envs reset and stepped once, then the tree's memory."""
    import gymnasium as gym

    import webenv  # noqa: F401  (registers the ids)

    envs = gym.make_vec(f"webenv/{task}-v0", num_envs=n)
    try:
        envs.reset(seed=0)
        envs.step(["scroll(0, 300)"] * n)
        pids = descendants(os.getpid())
        rss, pss = map(sum, zip(*(memory_kb(pid) for pid in pids), strict=True))
    finally:
        envs.close()
    return {"n": n, "processes": len(pids), "rss": rss, "pss": pss}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,4,16", help="numbers of envs, comma-separated")
    parser.add_argument("--task", default="shop.fill_cart", help="template of every env")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(measure(args.child, args.task)))
        return

    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"{'N':>3} {'procs':>6} {'RSS MB':>9} {'PSS MB':>9} {'RSS/env':>9} {'PSS/env':>9}")
    rows = []
    for n in sizes:
        run = [sys.executable, __file__, "--child", str(n), "--task", args.task]
        row = json.loads(subprocess.run(run, check=True, capture_output=True, text=True).stdout)
        rows.append(row)
        rss, pss = row["rss"] / 1024, row["pss"] / 1024
        print(
            f"{n:>3} {row['processes']:>6} {rss:>9.0f} {pss:>9.0f} {rss / n:>9.1f} {pss / n:>9.1f}"
        )
    first, last = rows[0], rows[-1]
    if last["n"] > first["n"]:
        extra = (last["pss"] - first["pss"]) / 1024 / (last["n"] - first["n"])
        print(f"each env past the first {first['n']} adds {extra:.1f} MB PSS")
    per_env = last["pss"] / 1024 / last["n"]
    verdict = "meets" if per_env <= TARGET_MB else "misses"
    print(
        f"PSS per env at N={last['n']}: {per_env:.1f} MB ({verdict} the target "
        f"<= {TARGET_MB:.0f} MB)"
    )


if __name__ == "__main__":
    main()

"""Overhead of env.step(click) with the axtree observation, against bare Playwright.

Both sides click the same link on the same shop page and then read the page: the env through
``step`` (parse, click, settle, observe, check), bare Playwright with ``locator.click()`` and
``page.locator("body").aria_snapshot()``. Both run in one process, interleaved, so that the
shared machine's noise falls on both; the ratio of medians is what counts.

    python bench/step_overhead.py [--rounds 30]
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium as gym

import webenv  # noqa: F401  (registers the ids)
from webenv.axtree import AxTree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds

    env = gym.make("webenv/shop.fill_cart-v0")
    observation, _ = env.reset(seed=0)
    inner = env.unwrapped
    home = observation["url"]
    page = inner._session.page  # the same browser context, for the bare side
    targets = ["Northwind Market", AxTree(observation["axtree"]).find("link", contains="Cart").name]

    ours, bare = [], []
    for round_ in range(rounds):
        name = targets[round_ % 2]
        bid = AxTree(observation["axtree"]).id("link", name)
        started = time.perf_counter()
        observation, *_ = env.step(f'click("{bid}")')
        ours.append(time.perf_counter() - started)

        page.goto(home)
        started = time.perf_counter()
        page.get_by_role("link", name=name, exact=True).first.click()
        page.locator("body").aria_snapshot()
        bare.append(time.perf_counter() - started)
        observation, *_ = env.step(f'goto("{home}")')
    env.close()

    ours_ms, bare_ms = 1000 * statistics.median(ours), 1000 * statistics.median(bare)
    print(f"env.step(click) + axtree   median {ours_ms:7.1f} ms")
    print(f"bare click + aria_snapshot median {bare_ms:7.1f} ms")
    print(f"ratio {ours_ms / bare_ms:.2f}  (target <= 1.5)")


if __name__ == "__main__":
    main()

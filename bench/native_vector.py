"""Steps/s, CPU and memory of N browser envs: one process driving N contexts, against N processes.

Each env has its own world and server of the shop and clicks between its home page and cart,
reading ``page.locator("body").aria_snapshot()`` after each load (bench/step_overhead.py's bare
Playwright step). ``native``: one process, Playwright's async API, one Chromium with N contexts,
N asyncio tasks stepping at once, the N servers in its threads. ``processes``: N ``spawn``
processes, each with the sync API, its own Chromium and server, as Gymnasium's async vector env
of webenv runs them. After warm-up every env steps for ``--seconds``: steps/s is summed over
the envs; CPU s/step counts the whole tree (Python, Playwright's driver, Chromium; in
``processes`` each child's tree, summed). PSS and RSS per env are summed over the same trees at
rest after warm-up, each child measuring its own once all are warm (a barrier), so pages shared
by the N Chromiums split N ways. PSS also splits with any other Chromium on the machine.

    python bench/native_vector.py [--sizes 1,4,8] [--seconds 10] [--mode native,processes]
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import queue
import re
import time
import traceback
from typing import Any

from _cli import chosen_modes, machine, stepping_parser
from _proc import cpu_seconds, descendants, memory_kb
from playwright.async_api import Browser, Page, ViewportSize, async_playwright
from playwright.sync_api import Page as SyncPage
from playwright.sync_api import sync_playwright

from webenv.browser import find_chromium, launch_args
from webenv.server import SiteServer
from webenv.world import World

HOME = "Northwind Market"
VIEWPORT: ViewportSize = {"width": 1280, "height": 720}
WARMUP_STEPS = 3
TIMEOUT = 300.0  # seconds for a child to start, warm up, or report
Result = tuple[float, float, int, int, int]  # steps/s, CPU s, steps, RSS kB, PSS kB


def serve(seed: int, stack: contextlib.ExitStack) -> str:
    """The start URL of a shop world of ``seed`` and its server, closed with ``stack``."""
    world = World(("shop",))
    stack.callback(world.close)
    server = SiteServer({})
    stack.callback(server.close)
    server.apps.update(world.create_apps({site: server.url(site) for site in world.sites}))
    world.restore(seed)
    return server.url("shop") + "/"


def launch_options(playwright: Any) -> dict[str, Any]:
    """Chromium's launch as in webenv/browser.py ``_launch``, headless, for either API."""
    path = find_chromium(playwright, headless=True)
    own = path == playwright.chromium.executable_path  # then let Playwright pick its shell
    options = {"headless": True, "args": launch_args(), "env": dict(os.environ)}
    return {**options, "executable_path": None if own else path}


def targets(snapshot: str) -> list[str]:
    """The names of the two links clicked in turn: the shop's home and the cart."""
    cart = re.search(r'- link "([^"]*Cart[^"]*)"', snapshot)
    if cart is None:
        raise RuntimeError(f"no cart link on the page:\n{snapshot}")
    return [HOME, cart.group(1)]


def tree_memory(root: int) -> tuple[int, int]:
    """(RSS, PSS) in kB of ``root`` and every process below it."""
    rss, pss = map(sum, zip(*(memory_kb(pid) for pid in descendants(root)), strict=True))
    return rss, pss


async def step(page: Page, name: str) -> str:
    """Click link ``name``, wait for the load, read the page."""
    await page.get_by_role("link", name=name, exact=True).first.click()
    await page.wait_for_load_state("load")
    return await page.locator("body").aria_snapshot()


async def drive(page: Page, names: list[str], count: int, seconds: float) -> tuple[float, int]:
    """Take ``count`` steps, or as many as fit in ``seconds``; steps/s and steps."""
    steps, started = 0, time.perf_counter()
    while steps < count and time.perf_counter() - started < seconds:
        await step(page, names[steps % 2])
        steps += 1
    return steps / (time.perf_counter() - started), steps


async def open_env(browser: Browser, url: str) -> tuple[Page, list[str]]:
    """A new context and tab at ``url``; the links to click there."""
    page = await (await browser.new_context(viewport=VIEWPORT)).new_page()
    await page.goto(url)
    return page, targets(await page.locator("body").aria_snapshot())


async def native(n: int, seconds: float) -> Result:
    """``n`` contexts of one Chromium, stepped by ``n`` asyncio tasks of this process."""
    with contextlib.ExitStack() as stack:
        urls = [serve(seed, stack) for seed in range(n)]
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(**launch_options(playwright))
            try:
                envs = await asyncio.gather(*(open_env(browser, url) for url in urls))
                await asyncio.gather(*(drive(*env, WARMUP_STEPS, TIMEOUT) for env in envs))
                rss, pss = tree_memory(os.getpid())
                cpu = cpu_seconds(os.getpid())
                runs = await asyncio.gather(*(drive(*env, 10**9, seconds) for env in envs))
                cpu = cpu_seconds(os.getpid()) - cpu
            finally:
                await browser.close()
    rates, steps = zip(*runs, strict=True)
    return sum(rates), cpu, sum(steps), rss, pss


def run_native(n: int, seconds: float) -> Result:
    """:func:`native`, in an event loop of its own."""
    return asyncio.run(native(n, seconds))


def sync_step(page: SyncPage, name: str) -> str:
    """:func:`step` with the sync API."""
    page.get_by_role("link", name=name, exact=True).first.click()
    page.wait_for_load_state("load")
    return page.locator("body").aria_snapshot()


def alone(seed: int, seconds: float, barrier: Any) -> Result:
    """One env with its own Chromium: warm up, measure memory and step with the others."""
    with contextlib.ExitStack() as stack, sync_playwright() as playwright:
        url = serve(seed, stack)
        browser = playwright.chromium.launch(**launch_options(playwright))
        try:
            page = browser.new_context(viewport=VIEWPORT).new_page()
            page.goto(url)
            names = targets(page.locator("body").aria_snapshot())
            for count in range(WARMUP_STEPS):
                sync_step(page, names[count % 2])
            barrier.wait(TIMEOUT)  # every Chromium is up: shared pages split N ways
            rss, pss = tree_memory(os.getpid())
            barrier.wait(TIMEOUT)
            steps, started, cpu = 0, time.perf_counter(), cpu_seconds(os.getpid())
            while (elapsed := time.perf_counter() - started) < seconds:
                sync_step(page, names[steps % 2])
                steps += 1
            return steps / elapsed, cpu_seconds(os.getpid()) - cpu, steps, rss, pss
        finally:
            browser.close()


def _stepper(seed: int, seconds: float, barrier: Any, results: Any) -> None:
    """A child's entry point: report ``alone``'s result, or its error, and let no one wait."""
    try:
        results.put((seed, alone(seed, seconds, barrier), None))
    except BaseException:
        barrier.abort()
        results.put((seed, None, traceback.format_exc()))


def run_processes(n: int, seconds: float) -> Result:
    """``n`` spawn processes, each with its own Chromium, stepping from a common start."""
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(n), context.Queue()
    workers = [
        context.Process(target=_stepper, args=(seed, seconds, barrier, results))
        for seed in range(n)
    ]
    try:
        for worker in workers:
            worker.start()
        reports = []
        for _ in workers:
            try:
                reports.append(results.get(timeout=TIMEOUT + seconds))
            except queue.Empty:
                codes = [worker.exitcode for worker in workers]
                raise RuntimeError(f"no report from a child in time; exit codes {codes}") from None
        errors = [error for _, _, error in reports if error]
        if errors:  # the first cause, not the others' broken barriers
            errors.sort(key=lambda error: "BrokenBarrierError" in error)
            raise RuntimeError(f"a child failed:\n{errors[0]}")
        for worker in workers:
            worker.join(TIMEOUT)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
                worker.join()
    rates, cpus, steps, rss, pss = zip(*(result for _, result, _ in reports), strict=True)
    return sum(rates), sum(cpus), sum(steps), sum(rss), sum(pss)


def main() -> None:
    parser = stepping_parser(__doc__.splitlines()[0], "1,4,8", "native,processes")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    runners = {"native": run_native, "processes": run_processes}
    modes = chosen_modes(parser, args.mode, runners)

    print(machine(args.seconds))
    table: dict[str, dict[int, Result]] = {}
    for mode in modes:
        print(f"\n{mode}\n  N   steps/s  vs N=1  CPU s/step  PSS/env MB  RSS/env MB")
        rows = table[mode] = {}
        for n in sizes:
            rate, cpu, steps, rss, pss = rows[n] = runners[mode](n, args.seconds)
            ratio = f"{rate / rows[1][0]:>6.2f}x" if 1 in rows else "      -"
            print(
                f"{n:>3} {rate:>9.2f} {ratio} {cpu / max(1, steps):>11.3f} {pss / 1024 / n:>11.1f} "
                f"{rss / 1024 / n:>11.1f}",
                flush=True,
            )
    if set(table) >= {"native", "processes"}:
        print()
        ratios = {}
        for n in sizes:
            one, many = table["native"][n], table["processes"][n]
            speed, weight = ratios[n] = one[0] / many[0], one[4] / many[4]
            print(f"N={n}: native/processes steps/s {speed:.2f}x, PSS per env {weight:.2f}x")
        speed, weight = ratios[max(sizes)]
        faster = "faster" if speed > 1.1 else "not faster"
        lighter = "lighter" if weight < 0.9 else "not lighter"
        print(f"verdict at N={max(sizes)}: native is {faster} (> 1.1x) and {lighter} (< 0.9x)")


if __name__ == "__main__":
    main()

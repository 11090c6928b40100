"""Cost of containment per page: the world's server as the context's proxy, against a route
guard (Playwright's ``context.route``, aborting other URLs) and against no containment.

Three browser contexts of one Chromium load the same shop pages of one world, interleaved
(so that the shared machine's noise falls on all three): each round clicks a link to the
next page and reads the page's accessibility snapshot, as a step does. The ratios of medians
are what count.

    python bench/containment.py [--rounds 40]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

from playwright.sync_api import BrowserContext, Page

from webenv.browser import acquire_browser, release_browser
from webenv.server import SiteServer
from webenv.world import World

#: Pages clicked through, one after the other (link names on the shop's pages).
LINKS = (re.compile(r"^Cart"), re.compile(r"^Northwind Market$"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    rounds = parser.parse_args().rounds

    world, server = World(("shop",)), SiteServer({})
    world.restore(0)
    server.apps.update(world.create_apps({"shop": server.url("shop")}))
    home = server.url("shop") + "/"
    browser = acquire_browser()
    contexts: dict[str, BrowserContext] = {
        "none": browser.new_context(),
        "route guard": browser.new_context(),
        "proxy": browser.new_context(proxy={"server": server.proxy, "bypass": "<-loopback>"}),
    }
    outside = re.escape(server.url("shop"))
    contexts["route guard"].route(re.compile(rf"^(?!{outside}(?:/|$))"), lambda r: r.abort())
    pages: dict[str, Page] = {}
    for name, context in contexts.items():
        pages[name] = context.new_page()
        pages[name].goto(home)
    times: dict[str, list[float]] = {name: [] for name in contexts}
    try:
        for round_ in range(rounds):
            link = LINKS[round_ % 2]
            for name, page in pages.items():
                started = time.perf_counter()
                page.get_by_role("link", name=link).first.click()
                page.wait_for_load_state("load")
                page.locator("body").aria_snapshot()
                times[name].append(time.perf_counter() - started)
    finally:
        for context in contexts.values():
            context.close()
        release_browser(browser)
        server.close()
        world.close()

    medians = {name: 1000 * statistics.median(values) for name, values in times.items()}
    for name, median in medians.items():
        print(f"{name:<12} click + load + aria_snapshot  median {median:7.1f} ms")
    print(f"proxy / route guard {medians['proxy'] / medians['route guard']:.3f}")
    print(f"proxy / none        {medians['proxy'] / medians['none']:.3f}")


if __name__ == "__main__":
    main()

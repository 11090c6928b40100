"""What the watchdog's armed clock costs a browser that waits, at its tick against a tick of 100 ms.

While armed (for a minute after any step), the watchdog's clock page logs a tick to the console
every ``TICK_MS``; each tick reaches Python as an event, through Chromium and Playwright's
driver. Here one browser waits on a blank page (as a blocked call does, with Playwright's event
loop running) while the clock ticks at ``webenv.watchdog.TICK_MS``, then at 100 ms, in
alternating windows, so that the shared machine's noise falls on both; each window's CPU is that
of the whole process tree (Python, driver, Chromium), per second waited.

    python bench/watchdog_ticks.py [--rounds 6] [--seconds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics

from _proc import cpu_seconds

from webenv.browser import acquire_browser, release_browser
from webenv.watchdog import _ARM_JS, ARM_SECONDS, TICK_MS, watchdog_for

BASELINE_TICK_MS = 100
#: Stops the clock, so that the watchdog's own arming starts it again at another pace.
STOP_JS = "() => { clearInterval(window.__ticking); window.__ticking = 0; }"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    browser = acquire_browser()
    try:
        watchdog = watchdog_for(browser)
        clock = watchdog._page
        assert clock is not None
        waiting = browser.new_context().new_page()
        per_tick: dict[int, list[float]] = {TICK_MS: [], BASELINE_TICK_MS: []}
        for _ in range(args.rounds):
            for tick in per_tick:
                clock.evaluate(STOP_JS)
                clock.evaluate(_ARM_JS, [tick, ARM_SECONDS * 1000])
                waiting.wait_for_timeout(500)  # past the switch
                before = cpu_seconds(os.getpid())
                waiting.wait_for_timeout(args.seconds * 1000)
                per_tick[tick].append((cpu_seconds(os.getpid()) - before) / args.seconds)
        clock.evaluate(STOP_JS)
    finally:
        release_browser(browser)

    ours = 1000 * statistics.median(per_tick[TICK_MS])
    base = 1000 * statistics.median(per_tick[BASELINE_TICK_MS])
    print(f"tick every {TICK_MS} ms: {ours:5.1f} ms of CPU per second waited (median)")
    print(f"tick every {BASELINE_TICK_MS} ms: {base:5.1f} ms of CPU per second waited (median)")
    print(f"ratio {ours / base:.2f}")


if __name__ == "__main__":
    main()

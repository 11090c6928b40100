"""Wall-clock time of ``webenv validate`` on the same templates and seeds in this process and in
N worker processes (``--workers N``), with the ratio to the in-process run of the same session.

The audit's episodes wait on Chromium and on the sites as well as compute, and the
perturbation profiles' delays are real waits: workers overlap them, even on few cores.

    python bench/validate_workers.py [--tasks shop.order_total mail.archive_from_sender …]
        [--seeds 2] [--profiles light] [--workers 2,3]
"""

from __future__ import annotations

import argparse
import os
import time

from webenv.cli import choose_tasks, parse_profiles
from webenv.validate import validate_templates

TASKS = [
    "shop.order_total",
    "mail.archive_from_sender",
    "forms.change_address",
    "calendar.create_meeting",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=TASKS, help="glob(s) of template names")
    parser.add_argument("--seeds", type=int, default=2, help="seeds per template")
    parser.add_argument("--profiles", type=parse_profiles, default="light")
    parser.add_argument("--workers", default="2,3", help="worker counts, comma-separated")
    args = parser.parse_args()
    chosen = choose_tasks(args.tasks)
    profiles = [p for p in args.profiles if p != "none"]
    cores = len(os.sched_getaffinity(0))
    print(
        f"{len(chosen)} templates × {args.seeds} seeds, profiles {','.join(profiles) or 'none'}; "
        f"{cores} CPUs, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'workers':>8}  {'seconds':>8}  {'× in-process':>12}  passed")
    baseline = None
    for workers in [0, *(int(n) for n in args.workers.split(","))]:
        began = time.monotonic()
        report = validate_templates(chosen, range(args.seeds), profiles, workers=workers)
        took = time.monotonic() - began
        baseline = baseline or took
        passed = sum(t.passed for t in report.templates)
        label = str(workers) if workers else "0 (here)"
        print(
            f"{label:>8}  {took:8.1f}  {baseline / took:12.2f}  {passed}/{len(chosen)}", flush=True
        )


if __name__ == "__main__":
    main()

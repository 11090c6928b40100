"""Command-line pieces shared by the benchmarks that step N envs in several modes."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any


def stepping_parser(description: str, sizes: str, modes: str) -> argparse.ArgumentParser:
    """A parser with ``--sizes`` (numbers of envs), ``--seconds`` and ``--mode``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", default=sizes, help="numbers of envs, comma-separated")
    parser.add_argument("--seconds", type=float, default=10.0, help="timed stepping per size")
    parser.add_argument("--mode", default=modes, help="one mode, or several: a,b")
    return parser


def chosen_modes(
    parser: argparse.ArgumentParser, value: str, runners: dict[str, Callable[..., Any]]
) -> list[str]:
    """The modes ``--mode`` names, each one of ``runners`` (else a usage error)."""
    modes = value.split(",")
    unknown = set(modes) - set(runners)
    if unknown:
        parser.error(f"unknown mode(s) {sorted(unknown)}; choose from {sorted(runners)}")
    return modes


def machine(seconds: float) -> str:
    """This machine's CPUs and load, for the top of a table."""
    cores = len(os.sched_getaffinity(0))
    return f"{cores} CPUs, load {os.getloadavg()[0]:.1f}; {seconds:g} s of stepping per size"

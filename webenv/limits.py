"""Bounds on what one episode may ask of the shared browser: tabs, dialogs, observation size.

A hostile or broken page (or agent) can open tabs without end, alert in a loop, or grow its
document past what any policy can read; with many episodes sharing one Chromium, that slows
every other episode down. Each bound, when reached, is not an exception: the step goes on and
its ``last_action_error`` says what was refused and what to do.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    """Per-episode bounds, passed at ``make`` (``gym.make(id, limits=Limits(tabs=4))``).

    ``tabs``: tabs (and pop-up windows) open at once. ``new_tab()`` past it is an error, and a
    tab a page opens past it is closed at once.

    ``dialogs_per_step`` and ``dialogs_per_page``: JavaScript dialogs (alert, confirm, prompt)
    one document may open in one step, and in all. Past either, the dialog is dismissed at
    once, and so is every later dialog of that document (its ``alert``, ``confirm`` and
    ``prompt`` no longer open one); the tab's next document starts afresh.

    ``observation_chars``: characters of each text observation. A longer ``axtree`` or ``dom``
    is cut at a line's end and ends with a line saying so; ``elements`` keeps the first
    elements that fit (a list still, with the axtree's marker saying the page was cut).

    ``field_chars``: characters a text field (an input or a textarea) holds where its page
    sets no ``maxlength`` of its own; typing, ``fill`` and pasting past it stop at it, as a
    browser stops them at a ``maxlength``.

    Downloads are always refused (the context does not accept them). Copy and paste use the
    episode's own clipboard, of at most 20,000 characters, empty at each reset.
    """

    tabs: int = 10
    dialogs_per_step: int = 5
    dialogs_per_page: int = 20
    observation_chars: int = 300_000
    field_chars: int = 10_000


DEFAULT_LIMITS = Limits()

#: Where a cut text observation ends.
CUT_MARKER = "\n[cut: this page's {key} has {size:,} characters; only the first {kept:,} are shown]"


def cut(key: str, text: str, limits: Limits) -> str:
    """``text`` within ``limits.observation_chars``, ending with a marker if it was cut."""
    if len(text) <= limits.observation_chars:
        return text
    kept = text.rfind("\n", 0, limits.observation_chars)
    kept = kept if kept > 0 else limits.observation_chars  # at a line's end: no node half shown
    return text[:kept] + CUT_MARKER.format(key=key, size=len(text), kept=kept)


def cut_elements(elements: list[Any], limits: Limits) -> str:
    """The JSON of the first ``elements`` that fit in ``limits.observation_chars``."""
    text = json.dumps(elements)
    count = len(elements)
    while len(text) > limits.observation_chars and count:
        count = min(count - 1, count * limits.observation_chars // len(text))
        text = json.dumps(elements[:count])
    return text

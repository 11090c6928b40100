"""Gymnasium spaces for text observations and action strings."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import CustomSpaceError
from gymnasium.vector.utils import create_shared_memory

from .actions import ACTIONS


class Unicode(spaces.Text):
    """Any string up to ``max_length`` characters (Gymnasium's Text limits the charset)."""

    def __init__(self, max_length: int = 10_000_000, seed: Any = None):
        super().__init__(max_length=max_length, min_length=0, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"Unicode({self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other.max_length == self.max_length


class ActionSpace(Unicode):
    """Action strings. Every string is accepted (a bad one earns an error message, not an
    exception); :meth:`sample` draws valid actions on element ids up to ``max_id``."""

    def __init__(self, max_id: int = 200, seed: Any = None):
        super().__init__(max_length=20_000, seed=seed)
        self.max_id = max_id

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        rng = self.np_random
        bid = f'"{int(rng.integers(1, self.max_id + 1))}"'
        word = str(rng.choice(["blue", "shirt", "42", "hello", "Large", "yes", ""]))
        choices = [
            f"click({bid})",
            f"click({bid})",
            f"hover({bid})",
            f'fill({bid}, "{word}")',
            f'select_option({bid}, "{word}")',
            f"check({bid})",
            f'press({bid}, "Enter")',
            f"scroll(0, {int(rng.integers(-600, 600))})",
            "go_back()",
            "noop()",
        ]
        return str(choices[int(rng.integers(len(choices)))])

    def __repr__(self) -> str:
        return f"ActionSpace({len(ACTIONS)} actions)"


@create_shared_memory.register(Unicode)
def _no_shared_memory(space: Unicode, n: int = 1, ctx: Any = None) -> Any:
    # Gymnasium turns this error into advice: pass vector_kwargs={"shared_memory": False}.
    raise CustomSpaceError(
        "webenv's text observations have no fixed size, so they cannot live in shared memory."
    )


def screenshot_space(width: int, height: int) -> spaces.Box:
    return spaces.Box(0, 255, shape=(height, width, 3), dtype=np.uint8)

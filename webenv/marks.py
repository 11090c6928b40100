"""Set-of-marks: the screenshot with every clickable element boxed and labelled by its id."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

#: Colours cycled over the marks, picked to stay readable on light and dark pages.
PALETTE = ((230, 25, 75), (0, 130, 200), (60, 180, 75), (245, 130, 48), (145, 30, 180))


def draw_marks(pixels: np.ndarray, elements: Iterable[Mapping[str, Any]]) -> np.ndarray:
    """A copy of ``pixels`` with a box and an id label on each visible, clickable element."""
    image = Image.fromarray(pixels)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    for index, element in enumerate(e for e in elements if e["clickable"] and e["visible"]):
        x, y, width, height = element["box"]
        colour = PALETTE[index % len(PALETTE)]
        draw.rectangle((x, y, x + width, y + height), outline=colour, width=2)
        label = str(element["id"])
        left, top, right, bottom = draw.textbbox((x, y), label, font=font)
        tag_top = max(0, y - (bottom - top) - 2)
        draw.rectangle((x, tag_top, x + (right - left) + 4, tag_top + (bottom - top) + 2),
                       fill=colour)  # fmt: skip
        draw.text((x + 2, tag_top), label, fill=(255, 255, 255), font=font)
    return np.asarray(image)

"""Product pictures drawn as inline SVG, so pages load nothing from outside the site.

A picture is the drawing of the product's kind (joggers look like joggers, a skillet like a
skillet: one line each of ``drawings.svg``) on a tinted tile. Its colours follow the product's
colour option (or its id), its accent colour and whether it faces left or right follow its id,
and a slim or compact product is drawn narrower, so neighbouring cards look different and a
product always looks the same.
"""

from __future__ import annotations

import re
from pathlib import Path

from markupsafe import Markup

from .vocab import DEPARTMENTS


def _load_drawings() -> dict[str, str]:
    """``drawings.svg`` as {noun: the SVG shapes of its drawing}."""
    text = (Path(__file__).parent / "drawings.svg").read_text(encoding="utf-8")
    return dict(re.findall(r'^<g data-noun="([^"]+)">(.*)</g>$', text, flags=re.MULTILINE))


#: Noun -> its drawing, in a 100x100 box: unfilled shapes take the product's colour, "W" marks
#: white details and "ACC" the accent colour.
DRAWINGS = _load_drawings()

#: Colour option -> (tile tint, drawing colour).
SWATCHES: dict[str, tuple[str, str]] = {
    "Black": ("#e7e8ea", "#23262b"),
    "White": ("#eef1f4", "#9aa3ad"),
    "Navy": ("#e3e9f5", "#1f3a68"),
    "Charcoal": ("#e8e9eb", "#41474f"),
    "Forest Green": ("#e2efe6", "#2d6a45"),
    "Burgundy": ("#f4e4e8", "#7a2338"),
    "Sand": ("#f6efe2", "#a88a5c"),
    "Sky Blue": ("#e4f1fa", "#3b86c2"),
    "Coral": ("#fce9e4", "#d8604a"),
    "Olive": ("#eef0e0", "#6b7330"),
    "Slate Gray": ("#e7ebef", "#5a6877"),
    "Mustard": ("#fbf1d9", "#b5871d"),
}
_PALETTE = tuple(SWATCHES.values())
#: Words of a product's name that make it narrower or wider than its kind's usual shape.
WIDTHS = {"Slim-Fit": 0.88, "Compact": 0.86, "Lite": 0.9, "Ultralight": 0.9, "Relaxed-Fit": 1.1,
          "Jumbo": 1.1, "Deluxe": 1.06, "Max": 1.08, "Heavy-Duty": 1.08}  # fmt: skip
#: Department slug -> the noun drawn for the department itself (its first).
_DEPARTMENT_NOUN = {department.slug: department.nouns[0].word for department in DEPARTMENTS}
#: Nouns, longest first, so a name ending in "Denim Jacket" is not read as some "Jacket".
_NOUNS = sorted(DRAWINGS, key=len, reverse=True)


def product_kind(category_slug: str, name: str = "") -> str:
    """The noun a product's ``name`` ends with (its kind), else its department's first."""
    for noun in _NOUNS:
        if name.endswith(noun):
            return noun
    return _DEPARTMENT_NOUN.get(category_slug, _NOUNS[0])


def product_art(
    category_slug: str, product_id: int, color: str | None = None, name: str = ""
) -> Markup:
    """The decorative picture of a product (hidden from assistive technology)."""
    tint, ink = SWATCHES.get(color or "", _PALETTE[product_id % len(_PALETTE)])
    accent = _PALETTE[(product_id * 5 + 3) % len(_PALETTE)][1]
    if accent == ink:
        accent = _PALETTE[(product_id * 5 + 4) % len(_PALETTE)][1]
    width = next((factor for word, factor in WIDTHS.items() if word in name.split()), 1.0)
    facing = -1 if (product_id // 2) % 2 else 1
    drawing = DRAWINGS[product_kind(category_slug, name)]
    drawing = drawing.replace('"W"', '"#fff"').replace('"ACC"', f'"{accent}"')
    return Markup(
        '<svg class="art" viewBox="0 0 100 100" preserveAspectRatio="xMidYMid slice"'
        ' aria-hidden="true" focusable="false">'
        f'<rect width="100" height="100" fill="{tint}"/>'
        f'<g fill="currentColor" color="{ink}" transform="translate(50 50) '
        f'scale({facing * width * 0.7:.3f} 0.7) translate(-50 -50)">'
        f"{drawing}</g></svg>"
    )

"""Product pictures drawn as inline SVG, so pages load nothing from outside the site.

A picture is a department glyph on a tinted tile; the tint follows the product's first colour
option (or its id), so neighbouring cards look different and a product always looks the same.
"""

from __future__ import annotations

from markupsafe import Markup

#: Department slug -> SVG shapes of its glyph, drawn in a 100x100 box with ``currentColor``.
GLYPHS: dict[str, str] = {
    "clothing": '<path d="M35 20 L20 30 L12 48 L25 53 L30 44 L30 82 L70 82 L70 44 L75 53 '
    'L88 48 L80 30 L65 20 Q50 32 35 20 Z"/>',
    "shoes": '<path d="M12 62 L14 40 Q24 42 30 38 L42 50 Q60 56 80 58 Q90 60 90 70 '
    'L90 74 L12 74 Z"/><rect x="12" y="74" width="78" height="6" rx="2" opacity=".6"/>',
    "electronics": '<path d="M22 58 Q22 24 50 24 Q78 24 78 58" fill="none" stroke="currentColor"'
    ' stroke-width="7"/><rect x="16" y="54" width="16" height="26" rx="6"/>'
    '<rect x="68" y="54" width="16" height="26" rx="6"/>',
    "home-kitchen": '<rect x="22" y="40" width="50" height="38" rx="8"/>'
    '<rect x="16" y="34" width="62" height="8" rx="4"/>'
    '<path d="M72 48 Q88 50 86 62 Q84 70 72 68" fill="none" stroke="currentColor" '
    'stroke-width="6"/>',
    "sports-outdoors": '<path d="M50 18 L86 80 L14 80 Z"/>'
    '<path d="M50 48 L62 80 L38 80 Z" fill="#fff" opacity=".55"/>',
    "books": '<rect x="24" y="18" width="52" height="66" rx="4"/>'
    '<rect x="32" y="28" width="36" height="6" fill="#fff" opacity=".6"/>'
    '<rect x="32" y="40" width="26" height="4" fill="#fff" opacity=".5"/>',
    "beauty": '<rect x="36" y="16" width="28" height="14" rx="3"/>'
    '<rect x="28" y="30" width="44" height="56" rx="12"/>'
    '<rect x="38" y="48" width="24" height="16" rx="3" fill="#fff" opacity=".55"/>',
    "toys-games": '<rect x="16" y="50" width="30" height="30" rx="4"/>'
    '<rect x="54" y="50" width="30" height="30" rx="4" opacity=".75"/>'
    '<rect x="35" y="18" width="30" height="30" rx="4" opacity=".9"/>',
    "garden": '<path d="M50 56 Q22 50 24 22 Q48 24 50 56 Z"/><path d="M50 56 Q78 46 76 24 '
    'Q54 28 50 56 Z" opacity=".8"/><path d="M32 58 L68 58 L62 86 L38 86 Z"/>',
    "pet-supplies": '<ellipse cx="50" cy="64" rx="18" ry="15"/><ellipse cx="28" cy="44" rx="8" '
    'ry="10"/><ellipse cx="42" cy="32" rx="8" ry="10"/><ellipse cx="58" cy="32" rx="8" '
    'ry="10"/><ellipse cx="72" cy="44" rx="8" ry="10"/>',
}

#: Colour option -> (tile tint, glyph colour).
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


def product_art(category_slug: str, product_id: int, color: str | None = None) -> Markup:
    """The decorative picture of a product (hidden from assistive technology)."""
    tint, ink = SWATCHES.get(color or "", _PALETTE[product_id % len(_PALETTE)])
    glyph = GLYPHS.get(category_slug, GLYPHS["toys-games"])
    return Markup(
        '<svg class="art" viewBox="0 0 100 100" preserveAspectRatio="xMidYMid slice"'
        ' aria-hidden="true" focusable="false">'
        f'<rect width="100" height="100" fill="{tint}"/>'
        f'<g fill="currentColor" color="{ink}" transform="translate(25 25) scale(.5)">'
        f"{glyph}</g></svg>"
    )

"""Jinja filters that present stored values the way a store shows them."""

from __future__ import annotations

from datetime import datetime

from flask import Flask

from .images import product_art


def money(cents: int) -> str:
    """``123456`` -> ``$1,234.56``."""
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) / 100:,.2f}"


def long_date(stamp: str) -> str:
    """``2026-05-14T09:30:00`` -> ``May 14, 2026``."""
    moment = datetime.fromisoformat(stamp)
    return f"{moment:%B} {moment.day}, {moment.year}"


def card_label(brand: str, last4: str) -> str:
    """How a card is named everywhere: ``Visa ending in 4242``."""
    return f"{brand} ending in {last4}"


def options_label(size: str | None, color: str | None) -> str:
    """``Size: M, Color: Navy`` for the chosen options of a line (empty when none)."""
    parts = [f"Size: {size}" if size else "", f"Color: {color}" if color else ""]
    return ", ".join(part for part in parts if part)


def line_label(name: str, size: str | None, color: str | None) -> str:
    """A line's name with its options, unique within a cart: ``Tee (Size: M, Color: Navy)``."""
    options = options_label(size, color)
    return f"{name} ({options})" if options else name


def register(app: Flask) -> None:
    app.jinja_env.filters.update(
        money=money, long_date=long_date, card_label=card_label, options_label=options_label
    )
    app.jinja_env.globals.update(line_label=line_label, product_art=product_art)

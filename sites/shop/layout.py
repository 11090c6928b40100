"""What every page's header and footer need: the category navigation, the cart count and the
world's free-shipping amount."""

from __future__ import annotations

from typing import Any

from flask import Flask, g

from .cart_model import item_count
from .db import get_db
from .pricing import free_shipping_from


def header_context() -> dict[str, Any]:
    categories = get_db().execute("SELECT slug, name FROM categories ORDER BY id").fetchall()
    return {
        "nav_categories": categories,
        "cart_count": item_count(),
        "user": g.get("user"),
        "free_shipping_from": free_shipping_from(get_db()),
    }


def init_app(app: Flask) -> None:
    app.context_processor(header_context)

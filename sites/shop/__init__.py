"""Northwind Market: a mock online store (catalog, cart, checkout, orders, returns).

Exports the site contract: :func:`create_app`, :func:`build_database`, and
:func:`order_confirmation`, the e-mail the store sends when an order is placed.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from importlib import resources
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from ..common import Persona, register_your_apps, use_row_ids
from . import (
    account,
    addresses,
    auth,
    cart,
    catalog,
    checkout,
    db,
    errors,
    formatting,
    layout,
    orders,
    returns,
    reviews,
    wishlist,
)
from .data import generate
from .mail import order_confirmation

__all__ = ["build_database", "create_app", "order_confirmation"]

#: Used only when an app is created without a world (e.g. to look at the pages by hand).
DEFAULT_NOW = "2026-05-14T09:30:00"

BLUEPRINTS = (auth, catalog, cart, checkout, account, orders, returns, addresses, wishlist, reviews)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The store's Flask app, serving the database named by the ``DATABASE`` config key."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY="dev",
        DATABASE=os.path.join(app.instance_path, "shop.sqlite"),
        NOW=DEFAULT_NOW,
        SITE_URLS={},
        SEND_MAIL=None,
        MAX_CONTENT_LENGTH=256 * 1024,  # a form's fields; no page uploads a file
    )
    if test_config is not None:
        app.config.update(test_config)
    register_your_apps(app, "shop")
    use_row_ids(app)
    CSRFProtect(app)
    db.init_app(app)
    formatting.register(app)
    layout.init_app(app)
    errors.init_app(app)

    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    return app


def build_database(path: str, seed: int, now: datetime, persona: Persona) -> None:
    """Write the store of world ``seed`` to ``path`` (same arguments, same bytes)."""
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    conn.executescript(resources.files(__package__).joinpath("schema.sql").read_text())
    with conn:
        generate(conn, seed, now, persona)
    if os.path.exists(path):
        os.remove(path)
    conn.execute("VACUUM INTO ?", (path,))
    conn.close()

"""Northwind Help Centre: the knowledge base of the shop and the forms portal.

Articles in topics, each with a "Last updated" date and its older revisions; search; and a
contact form that opens support tickets, listed under My tickets with their conversation.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from importlib import resources
from typing import Any

from flask import Flask
from flask_wtf import CSRFProtect

from ..common import Persona, register_your_apps, use_row_ids
from . import db
from .data import seed_database
from .formatting import register_filters


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The help centre's Flask app, serving the database named by ``DATABASE``."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY="help-centre-development",
        NOW="2026-05-14T09:30:00",
        SITE_URLS={},
        SEND_MAIL=None,
        WTF_CSRF_ENABLED=True,
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    if test_config:
        app.config.from_mapping(test_config)
    register_your_apps(app, "help")
    use_row_ids(app)
    CSRFProtect(app)
    db.init_app(app)
    register_filters(app)

    from . import auth, centre, errors, support

    for blueprint in (auth.bp, centre.bp, support.bp):
        app.register_blueprint(blueprint)
    errors.register(app)
    return app


def build_database(path: str, seed: int, now: datetime, persona: Persona) -> None:
    """Write the seeded database for ``seed`` to ``path`` (same arguments, same bytes)."""
    memory = sqlite3.connect(":memory:")
    memory.executescript(resources.files(__package__).joinpath("schema.sql").read_text())
    seed_database(memory, seed, now, persona)
    memory.commit()
    if os.path.exists(path):
        os.remove(path)
    memory.execute("VACUUM INTO ?", (path,))
    memory.close()

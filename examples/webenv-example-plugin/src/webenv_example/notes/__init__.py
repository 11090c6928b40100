"""Jotter: a small notes site (notebooks, notes to pin and archive), in the shape of webenv's
own sites: :func:`create_app` and :func:`build_database` (see webenv's ``sites/README.md``).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from importlib import resources
from typing import Any

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError, CSRFProtect
from webenv.sites.common import Persona, register_your_apps, use_row_ids
from werkzeug.exceptions import HTTPException

from . import db, views
from .data import generate

__all__ = ["build_database", "create_app"]


def _render_error(error: HTTPException) -> tuple[str, int]:
    detail = error.description
    if isinstance(error, CSRFError):
        detail = "This form has expired. Go back, reload the page and try again."
    code = error.code or 500
    return render_template("error.html", code=code, title=error.name, detail=detail), code


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Jotter's Flask app, serving the database named by the ``DATABASE`` config key."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY="dev", DATABASE=None, NOW="2026-05-14T09:30:00", SITE_URLS={},
        WTF_CSRF_TIME_LIMIT=None,
    )  # fmt: skip
    if test_config is not None:
        app.config.from_mapping(test_config)
    register_your_apps(app, "notes")
    use_row_ids(app)
    CSRFProtect(app)
    db.init_app(app)
    app.register_blueprint(views.bp)
    app.register_error_handler(HTTPException, _render_error)
    return app


def build_database(path: str, seed: int, now: datetime, persona: Persona) -> None:
    """Write the notes of world ``seed`` to ``path`` (same arguments, same bytes)."""
    conn = sqlite3.connect(":memory:")
    conn.executescript(resources.files(__package__).joinpath("schema.sql").read_text())
    with conn:
        generate(conn, seed, now, persona)
    if os.path.exists(path):
        os.remove(path)
    conn.execute("VACUUM INTO ?", (path,))
    conn.close()

"""Civic Forms: a public-services and HR forms portal with multi-step forms.

Applications, claims, expense reports, bookings, registration and changes of address are
filled in over several steps, saved as drafts, and stored as submissions a grader can read.
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
from .drafts import MAX_FILE_BYTES
from .templating import register_template_helpers


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The portal's Flask app, serving the database named by ``DATABASE``."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY="civic-forms-development",
        NOW="2026-05-14T09:30:00",
        SITE_URLS={},
        WTF_CSRF_ENABLED=True,
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=6 * MAX_FILE_BYTES,
    )
    if test_config:
        app.config.from_mapping(test_config)
    register_your_apps(app, "forms")
    use_row_ids(app)
    CSRFProtect(app)
    db.init_app(app)
    register_template_helpers(app)

    from .views import applications, auth, bookings, errors, outcome, portal, steps

    blueprints = (auth.bp, portal.bp, outcome.bp, bookings.bp, applications.bp, steps.bp)
    for blueprint in blueprints:
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

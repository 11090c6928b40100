"""Northwind Calendar: the persona's work calendar, with day, week and month views, events
with invitees and their replies, recurring meetings, time zones, conflicts and invitations
that arrive by e-mail.

Exports the site contract (:func:`create_app`, :func:`build_database`) and
:func:`invitations`, the invitation e-mails its seeded data has already sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from ..common import register_your_apps, use_row_ids
from . import auth, db, events, formatting, settings, views
from .data import build_database
from .mailing import invitations

__all__ = ["build_database", "create_app", "invitations"]

DEFAULT_NOW = "2026-03-02T09:30:00"


def _render_error(error: HTTPException) -> tuple[str, int]:
    """A styled error page that keeps the site's navigation."""
    detail = error.description
    if isinstance(error, CSRFError):
        detail = "This form has expired. Go back, reload the page and try again."
    code = error.code or 500
    return render_template("error.html", code=code, title=error.name, detail=detail), code


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The calendar, configured by ``test_config`` (``DATABASE``, ``SECRET_KEY``, ``NOW``…)."""
    app = Flask(__name__)
    app.config.from_mapping(
        SECRET_KEY="dev",
        DATABASE=None,
        NOW=DEFAULT_NOW,
        SITE_URLS={},
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=256 * 1024,  # a form's fields; no page uploads a file
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    register_your_apps(app, "calendar")
    use_row_ids(app)
    CSRFProtect(app)
    db.init_app(app)
    formatting.register(app)
    for blueprint in (auth.bp, views.bp, events.bp, settings.bp):
        app.register_blueprint(blueprint)
    app.register_error_handler(HTTPException, _render_error)
    return app

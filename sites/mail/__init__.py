"""A webmail client: the persona's mailbox, with folders, labels, threads, search and contacts.

Exports the site contract (:func:`create_app`, :func:`build_database`) and :func:`deliver`,
through which other sites' e-mail reaches the Inbox.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException

from ..common import register_your_apps, use_row_ids
from . import auth, compose, contacts, db, formatting, labels, mailbox, navigation, search, thread
from .data import build_database
from .delivery import deliver

__all__ = ["build_database", "create_app", "deliver"]

DEFAULT_NOW = "2026-05-14T09:30:00"


def _render_error(error: HTTPException) -> tuple[str, int]:
    """A styled error page that keeps the site's navigation."""
    detail = error.description
    if isinstance(error, CSRFError):
        detail = "This form has expired. Go back, reload the page and try again."
    code = error.code or 500
    return render_template("error.html", code=code, title=error.name, detail=detail), code


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The mail site, configured by ``test_config`` (``DATABASE``, ``SECRET_KEY``, ``NOW``…)."""
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
    register_your_apps(app, "mail")
    use_row_ids(app)
    CSRFProtect(app)
    db.init_app(app)
    formatting.register(app)
    navigation.register(app)
    for blueprint in (
        auth.bp,
        mailbox.bp,
        thread.bp,
        compose.bp,
        contacts.bp,
        labels.bp,
        search.bp,
    ):
        app.register_blueprint(blueprint)
    app.register_error_handler(HTTPException, _render_error)
    return app

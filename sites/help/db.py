"""The per-request SQLite connection, opened lazily and closed when the request ends."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g


def get_db() -> sqlite3.Connection:
    """The connection of the current request to the site's database file."""
    if "db" not in g:
        g.db = sqlite3.connect(current_app.config["DATABASE"])
        g.db.row_factory = sqlite3.Row
        g.db.execute("PRAGMA foreign_keys = ON")
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)

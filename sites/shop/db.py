"""The per-request database connection, opened on first use and closed on teardown."""

from __future__ import annotations

import sqlite3

from flask import Flask, current_app, g


def connect(path: str) -> sqlite3.Connection:
    """A connection that returns rows addressable by column name and enforces foreign keys."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def get_db() -> sqlite3.Connection:
    """This request's connection to the store database."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    """Close this request's connection, if one was opened."""
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)

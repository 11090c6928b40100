"""The per-request database connection, opened on the file named by the ``DATABASE`` config."""

from __future__ import annotations

import sqlite3
from importlib import resources

from flask import Flask, current_app, g


def connect(path: str) -> sqlite3.Connection:
    """Open the calendar's database with row access by name and foreign keys enforced."""
    connection = sqlite3.connect(path)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA foreign_keys = ON")
    return connection


def schema_sql() -> str:
    """The DDL that creates an empty calendar."""
    return resources.files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")


def get_db() -> sqlite3.Connection:
    """The connection of the current request, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, if one was opened."""
    connection = g.pop("db", None)
    if connection is not None:
        connection.close()


def init_app(app: Flask) -> None:
    """Close the connection at the end of every request."""
    app.teardown_appcontext(close_db)

"""Fixtures for the mail site: a freshly generated mailbox, its app and a signed-in client."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webenv.sites.common import Persona, make_persona
from webenv.sites.mail import build_database, create_app

NOW = datetime(2026, 5, 14, 9, 30)


@pytest.fixture
def now() -> datetime:
    """The world's fixed "now"."""
    return NOW


@pytest.fixture
def persona() -> Persona:
    return make_persona(0)


@pytest.fixture
def db_path(tmp_path: Path, persona: Persona) -> Path:
    path = tmp_path / "mail.sqlite"
    build_database(str(path), 0, NOW, persona)
    return path


@pytest.fixture
def app(db_path: Path) -> Flask:
    return create_app(
        {
            "DATABASE": str(db_path),
            "SECRET_KEY": "test",
            "NOW": NOW.isoformat(),
            "WTF_CSRF_ENABLED": False,
            "TESTING": True,
        }
    )


@pytest.fixture
def client(app: Flask, persona: Persona) -> FlaskClient:
    """A client signed in as the persona."""
    client = app.test_client()
    response = client.post("/login", data={"login": persona.username, "password": persona.password})
    assert response.status_code == 302
    return client


@pytest.fixture
def db(db_path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to read the site's state, as a grader would."""
    connection = sqlite3.connect(db_path)
    connection.row_factory = sqlite3.Row
    yield connection
    connection.close()

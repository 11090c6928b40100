"""Fixtures for the forms portal: a seeded database, the app, and a way to walk a form."""

from __future__ import annotations

import io
import json
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webenv.sites.common import Persona, make_persona
from webenv.sites.forms import build_database, create_app
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

NOW = datetime(2026, 5, 14, 9, 30)
SEED = 3


@pytest.fixture(scope="session")
def persona() -> Persona:
    return make_persona(SEED)


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory, persona: Persona) -> Path:
    path = tmp_path_factory.mktemp("forms") / "seeded.db"
    build_database(str(path), SEED, NOW, persona)
    return path


@pytest.fixture
def db_path(seeded_db: Path, tmp_path: Path) -> Path:
    """A fresh copy of the seeded database for one test."""
    path = tmp_path / "forms.db"
    path.write_bytes(seeded_db.read_bytes())
    return path


@pytest.fixture(scope="session")
def shared_app(seeded_db: Path) -> Flask:
    """One app for the session (its templates compile once); each test points it at its copy."""
    return create_app(
        {
            "DATABASE": str(seeded_db),
            "SECRET_KEY": "test",
            "NOW": NOW.isoformat(),
            "WTF_CSRF_ENABLED": False,
            "TESTING": True,
        }
    )


@pytest.fixture
def app(shared_app: Flask, db_path: Path) -> Flask:
    shared_app.config["DATABASE"] = str(db_path)
    return shared_app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def signed_in(app: Flask, persona: Persona) -> FlaskClient:
    client = app.test_client()
    response = client.post(
        "/login", data={"username": persona.username, "password": persona.password}
    )
    assert response.status_code == 302
    return client


@pytest.fixture
def query(db_path: Path) -> Callable[..., list[sqlite3.Row]]:
    """Read the site's database as a grader would."""

    def run(sql: str, *params: Any) -> list[sqlite3.Row]:
        with sqlite3.connect(db_path) as connection:
            connection.row_factory = sqlite3.Row
            return connection.execute(sql, params).fetchall()

    return run


def upload(name: str, content: bytes = b"%PDF-1.4 test document") -> FileStorage:
    return FileStorage(io.BytesIO(content), filename=name)


@dataclass
class Walker:
    """Fills a form step by step through the test client, as a browser without JS would."""

    client: FlaskClient

    def post_step(self, slug: str, step: str, answers: Mapping[str, Any], **query: str):
        url = f"/f/{slug}/{step}" + (
            f"?{'&'.join(f'{k}={v}' for k, v in query.items())}" if query else ""
        )
        boundary, body = encode_multipart(dict(answers))
        return self.client.post(
            url, data=body, content_type=f"multipart/form-data; boundary={boundary}"
        )

    def fill(self, slug: str, steps: list[tuple[str, Mapping[str, Any]]]) -> None:
        """Post each step; each must be accepted and lead to the next one, then to review."""
        for index, (step, answers) in enumerate(steps):
            response = self.post_step(slug, step, answers)
            assert response.status_code == 302, (step, errors_of(response))
            following = steps[index + 1][0] if index + 1 < len(steps) else "review"
            assert response.location.endswith(f"/f/{slug}/{following}"), response.location

    def submit(self, slug: str) -> str:
        """Submit from the review page; returns the confirmation number."""
        review = self.client.get(f"/f/{slug}/review")
        assert review.status_code == 200, review.location
        response = self.client.post(f"/f/{slug}/review")
        assert response.status_code == 302
        confirmation = response.location.rsplit("/", 1)[-1]
        page = self.client.get(response.location)
        assert page.status_code == 200 and confirmation in page.text
        return confirmation


def errors_of(response: Any) -> list[str]:
    """The messages of a page's error summary."""
    summary = re.search(r'class="error-summary".*?</ul>', response.text, re.S)
    return re.findall(r'<a href="#[^"]+">([^<]+)</a>', summary.group(0)) if summary else []


def submission(query: Callable[..., list[sqlite3.Row]], confirmation: str) -> dict[str, Any]:
    rows = query("SELECT * FROM submissions WHERE confirmation = ?", confirmation)
    assert len(rows) == 1
    return {**dict(rows[0]), "data": json.loads(rows[0]["data_json"])}


@pytest.fixture
def walker(client: FlaskClient) -> Walker:
    return Walker(client)


@pytest.fixture
def signed_in_walker(signed_in: FlaskClient) -> Walker:
    return Walker(signed_in)


@pytest.fixture
def helpers() -> Iterator[Any]:
    """The module's helper functions, for tests (they cannot import this conftest)."""

    class Helpers:
        upload = staticmethod(upload)
        errors_of = staticmethod(errors_of)
        submission = staticmethod(submission)

    yield Helpers

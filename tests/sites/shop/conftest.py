"""Fixtures for the shop's tests: a fresh copy of a seeded store and a client that shops in it."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webenv.sites import shop
from webenv.sites.common import Message, Persona, make_persona
from werkzeug.test import TestResponse

SEED = 7
NOW = datetime(2026, 5, 14, 9, 30)


@pytest.fixture(scope="session")
def persona() -> Persona:
    return make_persona(SEED)


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory, persona: Persona) -> Path:
    """The store of world SEED, built once; tests work on copies of it."""
    path = tmp_path_factory.mktemp("shop") / "seeded.sqlite"
    shop.build_database(str(path), SEED, NOW, persona)
    return path


class Shopper:
    """A test client in a fresh store, with the steps tests keep repeating."""

    def __init__(self, app: Flask, db_path: Path, persona: Persona, outbox: list[Message]):
        self.app = app
        self.db_path = db_path
        self.persona = persona
        self.outbox = outbox
        self.client: FlaskClient = app.test_client()

    def db(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db_path)
        conn.row_factory = sqlite3.Row
        return conn

    def one(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row:
        with self.db() as conn:
            row = conn.execute(sql, params).fetchone()
        assert row is not None, sql
        return row

    def all(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self.db() as conn:
            return conn.execute(sql, params).fetchall()

    def get(self, url: str, **kwargs: Any) -> TestResponse:
        return self.client.get(url, **kwargs)

    def post(self, url: str, data: dict[str, Any] | None = None, **kwargs: Any) -> TestResponse:
        return self.client.post(url, data=data or {}, **kwargs)

    def sign_in(self) -> TestResponse:
        response = self.post(
            "/login", {"login": self.persona.username, "password": self.persona.password}
        )
        assert response.status_code == 302, response.text
        return response

    def product(self, where: str = "1", params: tuple[Any, ...] = ()) -> sqlite3.Row:
        """The first product matching ``where`` (SQL over ``p``), lowest id first."""
        return self.one(f"SELECT p.* FROM products p WHERE {where} ORDER BY p.id", params)

    def options(self, product_id: int) -> dict[str, str]:
        """A valid choice for each option the product has."""
        rows = self.all(
            "SELECT kind, value FROM product_options WHERE product_id = ? ORDER BY position DESC",
            (product_id,),
        )
        return {row["kind"]: row["value"] for row in rows}

    def add(self, product_id: int, quantity: int = 1, **choices: str) -> TestResponse:
        data = {"product_id": product_id, "quantity": quantity, **self.options(product_id)}
        return self.post("/cart/add", {**data, **choices})

    def cart_rows(self) -> list[sqlite3.Row]:
        return self.all(
            "SELECT cart_items.* FROM cart_items JOIN carts ON carts.id = cart_items.cart_id"
            " WHERE carts.user_id = 1 ORDER BY cart_items.id"
        )

    def to_review(self) -> None:
        """Choose the default saved address and card, landing on the review step."""
        assert self.post("/checkout/shipping", {"address": "1"}).status_code == 302
        assert self.post("/checkout/payment", {"payment": "1"}).status_code == 302

    def place(self) -> str:
        """Place the order and return its number, read from the confirmation URL."""
        response = self.post("/checkout/place")
        assert response.status_code == 302, response.text
        match = re.search(r"/checkout/confirmation/(NM-\d{5}-\d)$", response.location)
        assert match, response.location
        return match[1]


@pytest.fixture
def shopper(tmp_path: Path, seeded_db: Path, persona: Persona) -> Iterator[Shopper]:
    db_path = tmp_path / "shop.sqlite"
    shutil.copyfile(seeded_db, db_path)
    outbox: list[Message] = []
    app = shop.create_app(
        {
            "DATABASE": str(db_path),
            "SECRET_KEY": "test",
            "NOW": NOW.isoformat(),
            "WTF_CSRF_ENABLED": False,
            "SEND_MAIL": outbox.append,
            "TESTING": True,
        }
    )
    yield Shopper(app, db_path, persona, outbox)


@pytest.fixture
def customer(shopper: Shopper) -> Shopper:
    """A shopper signed in as the persona."""
    shopper.sign_in()
    return shopper

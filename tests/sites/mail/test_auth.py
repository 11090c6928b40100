"""Signing in and out, and pages that require it."""

from __future__ import annotations

import pytest
from flask import Flask
from webenv.sites.common import Persona
from webenv.sites.mail import create_app


def test_pages_redirect_to_sign_in_and_back(app: Flask, persona: Persona) -> None:
    client = app.test_client()
    response = client.get("/folder/sent")
    assert response.status_code == 302
    assert response.location == "/login?next=/folder/sent"
    response = client.post(
        "/login?next=/folder/sent",
        data={"login": persona.email.upper(), "password": persona.password},
    )
    assert response.location == "/folder/sent"
    assert client.get("/folder/sent").status_code == 200


def test_sign_in_page_has_the_labelled_fields(app: Flask) -> None:
    page = app.test_client().get("/login").get_data(as_text=True)
    assert '<label for="login">Email or username</label>' in page
    assert '<label for="password">Password</label>' in page
    assert ">Sign in</button>" in page


@pytest.mark.parametrize(
    ("login", "password", "message"),
    [
        ("", "", "Enter your email or username and your password."),
        ("{username}", "", "Enter your email or username and your password."),
        ("{username}", "wrong", "Incorrect email, username or password."),
        ("nobody@example.com", "{password}", "Incorrect email, username or password."),
    ],
)
def test_bad_credentials_are_refused_with_a_message(
    app: Flask, persona: Persona, login: str, password: str, message: str
) -> None:
    client = app.test_client()
    data = {
        "login": login.format(username=persona.username),
        "password": password.format(password=persona.password),
    }
    response = client.post("/login", data=data)
    assert response.status_code == 401
    assert message in response.get_data(as_text=True)
    assert client.get("/").status_code == 302


def test_next_never_leaves_the_site(app: Flask, persona: Persona) -> None:
    response = app.test_client().post(
        "/login?next=//evil.example/",
        data={"login": persona.username, "password": persona.password},
    )
    assert response.location == "/"


def test_sign_out_ends_the_session(client) -> None:
    assert client.post("/logout").location == "/login"
    assert client.get("/").status_code == 302


def test_forms_require_a_csrf_token_when_protection_is_on(db_path, persona: Persona) -> None:
    app = create_app({"DATABASE": str(db_path), "SECRET_KEY": "test"})
    response = app.test_client().post(
        "/login", data={"login": persona.username, "password": persona.password}
    )
    assert response.status_code == 400
    assert "This form has expired" in response.get_data(as_text=True)

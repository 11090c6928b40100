"""Signing in and out, and pages that send visitors to sign in first."""

from __future__ import annotations

import re

import pytest
from webenv.sites import shop


@pytest.mark.parametrize("login_with", ["username", "email"])
def test_signing_in_with_username_or_email_greets_the_customer(shopper, login_with: str) -> None:
    login = getattr(shopper.persona, login_with)
    response = shopper.post("/login", {"login": login, "password": shopper.persona.password})
    assert response.status_code == 302 and response.location == "/"
    assert f"Hello, {shopper.persona.first_name}" in shopper.get("/").text


@pytest.mark.parametrize(
    ("login", "password"),
    [("nobody", "whatever"), ("persona", "wrong password"), ("", ""), ("persona", "")],
)
def test_wrong_credentials_are_refused_with_a_clear_message(
    shopper, login: str, password: str
) -> None:
    login = shopper.persona.username if login == "persona" else login
    response = shopper.post("/login", {"login": login, "password": password})
    assert response.status_code == 401
    assert "The username, email or password you entered is incorrect." in response.text
    assert "Sign in" in shopper.get("/").text


def test_account_pages_send_visitors_to_sign_in_and_back(shopper) -> None:
    response = shopper.get("/account/orders")
    assert response.status_code == 302
    assert response.location == "/login?next=/account/orders"
    signed_in = shopper.post(
        "/login?next=/account/orders",
        {"login": shopper.persona.username, "password": shopper.persona.password},
    )
    assert signed_in.location == "/account/orders"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil"])
def test_sign_in_never_redirects_off_site(shopper, target: str) -> None:
    response = shopper.post(
        "/login",
        {"login": shopper.persona.username, "password": shopper.persona.password, "next": target},
    )
    assert response.location == "/"


def test_checkout_requires_sign_in(shopper) -> None:
    response = shopper.get("/checkout/shipping")
    assert response.status_code == 302 and response.location.startswith("/login?next=")


def test_signing_out_ends_the_session(customer) -> None:
    assert customer.post("/logout").status_code == 302
    assert customer.get("/account").status_code == 302


def test_a_forged_session_user_id_is_ignored(shopper) -> None:
    with shopper.client.session_transaction() as session:
        session["user_id"] = "1"
    assert shopper.get("/account").status_code == 302


def test_forms_without_a_csrf_token_are_refused(shopper) -> None:
    app = shop.create_app({"DATABASE": str(shopper.db_path), "SECRET_KEY": "test"})
    client = app.test_client()
    login = {"login": shopper.persona.username, "password": shopper.persona.password}
    response = client.post("/login", data=login)
    assert response.status_code == 400 and "Please try again." in response.text
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/login").text)[1]
    assert client.post("/login", data={**login, "csrf_token": token}).status_code == 302

"""Create an account: the password rules and the other checks, and the account it opens."""

from __future__ import annotations

import pytest

SLUG = "register"
ACCOUNT = {
    "username": "river.song",
    "email": "river@example.org",
    "password": "Sp0ilers-galore",
    "password_confirm": "Sp0ilers-galore",
}
ABOUT = {
    "first_name": "River",
    "last_name": "Song",
    "phone": "555 555 0199",
    "date_of_birth": "03/14/1990",
}


def test_registering_opens_an_account_that_can_sign_in(walker, query, helpers, app):
    walker.fill(
        SLUG, [("account", ACCOUNT), ("about-you", ABOUT), ("terms", {"accept_terms": "yes"})]
    )
    values = helpers.submission(query, walker.submit(SLUG))["data"]
    assert values == {
        "username": "river.song",
        "email": "river@example.org",
        "first_name": "River",
        "last_name": "Song",
        "phone": "+15555550199",
        "date_of_birth": "1990-03-14",
        "accept_terms": True,
        "newsletter": False,
    }
    assert "Sp0ilers" not in str(query("SELECT * FROM drafts"))
    user = query("SELECT * FROM users WHERE username = 'river.song'")[0]
    assert user["birthdate"] == "1990-03-14" and user["password_hash"].startswith("pbkdf2:sha256")
    signed = app.test_client().post(
        "/login", data={"username": "river.song", "password": "Sp0ilers-galore"}
    )
    assert signed.status_code == 302


@pytest.mark.parametrize(
    ("change", "messages"),
    [
        ({"username": ""}, ["Enter a username"]),
        (
            {"username": "A"},
            [
                "Username must be 3 to 30 characters: lowercase letters, "
                "numbers, dots, dashes or underscores"
            ],
        ),
        (
            {"email": "river@"},
            ["Enter an email address in the correct format, like name@example.com"],
        ),
        (
            {"password": "short", "password_confirm": "short"},
            ["Password must be at least 10 characters"],
        ),
        (
            {"password": "alllowercase1", "password_confirm": "alllowercase1"},
            ["Password must include both lowercase and uppercase letters"],
        ),
        (
            {"password": "NoNumbersHere", "password_confirm": "NoNumbersHere"},
            ["Password must include at least one number"],
        ),
        ({"password_confirm": "Sp0ilers-galorE"}, ["Passwords do not match"]),
        (
            {"password": "River.Song-99", "password_confirm": "River.Song-99"},
            ["Password must not contain your username"],
        ),
        ({"email": "", "password": ""}, ["Enter your email address", "Enter a password"]),
    ],
)
def test_account_details_are_checked(walker, helpers, change, messages):
    response = walker.post_step(SLUG, "account", {**ACCOUNT, **change})
    assert response.status_code == 422
    assert helpers.errors_of(response) == messages


def test_a_taken_username_is_refused(walker, helpers, persona):
    response = walker.post_step(SLUG, "account", {**ACCOUNT, "username": persona.username})
    assert helpers.errors_of(response) == ["That username is taken. Choose another username"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"date_of_birth": "2015-01-01"}, "You must be at least 16 years old to create an account"),
        ({"date_of_birth": "2030-01-01"}, "Date of birth must be in the past"),
        ({"date_of_birth": "1990-02-30"}, "Date of birth must be a real date, like 2026-03-27"),
        ({"phone": "12345"}, "Enter a 10-digit phone number, like (555) 555-0123"),
        ({"phone": "call me"}, "Enter a phone number, like (555) 555-0123"),
        ({"first_name": " "}, "Enter your first name"),
    ],
)
def test_personal_details_are_checked(walker, helpers, change, message):
    response = walker.post_step(SLUG, "about-you", {**ABOUT, **change})
    assert helpers.errors_of(response) == [message]


def test_the_terms_must_be_accepted(walker, helpers):
    response = walker.post_step(SLUG, "terms", {"newsletter": "yes"})
    assert helpers.errors_of(response) == [
        "You must agree to the terms of use to create an account"
    ]
    assert 'name="newsletter" value="yes" checked' in response.text

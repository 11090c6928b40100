"""Create an account on the portal: username and password, personal details, terms."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Mapping
from datetime import date
from typing import Any

from ...common import hash_password
from ..drafts import stamp
from ..fields import Field, FormContext, FormSpec, Step
from ..values import age_on
from ..wizard import field_id
from .rules import date_window

MINIMUM_AGE = 16


def username_rules(value: str, ctx: FormContext) -> str | None:
    if not re.fullmatch(r"[a-z0-9._-]{3,30}", value):
        return ("Username must be 3 to 30 characters: lowercase letters, numbers, "
                "dots, dashes or underscores")  # fmt: skip
    if ctx.db.execute("SELECT 1 FROM users WHERE username = ?", (value,)).fetchone():
        return "That username is taken. Choose another username"
    return None


def password_rules(value: str, _ctx: FormContext) -> str | None:
    if len(value) < 10:
        return "Password must be at least 10 characters"
    if not (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value)):
        return "Password must include both lowercase and uppercase letters"
    if not re.search(r"\d", value):
        return "Password must include at least one number"
    return None


def old_enough(value: str, ctx: FormContext) -> str | None:
    if age_on(date.fromisoformat(value), ctx.now) < MINIMUM_AGE:
        return f"You must be at least {MINIMUM_AGE} years old to create an account"
    return None


def passwords_match(values: Mapping[str, Any], _ctx: FormContext) -> dict[str, str]:
    if values["password"] != values["password_confirm"]:
        return {field_id("password_confirm"): "Passwords do not match"}
    if values["username"] in values["password"].lower():
        return {field_id("password"): "Password must not contain your username"}
    return {}


def create_user(db: sqlite3.Connection, values: Mapping[str, Any], _submission_id: int,
                ctx: FormContext) -> None:  # fmt: skip
    """Open the account, with a salted hash of the chosen password."""
    salt = hashlib.sha256(f"salt|{values['username']}".encode()).hexdigest()[:16]
    db.execute(
        "INSERT INTO users (username, email, password_hash, first_name, last_name, phone,"
        " birthdate, street, city, state, zip, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, '', '', '', '', ?)",
        (
            values["username"], values["email"], hash_password(values["password"], salt),
            values["first_name"], values["last_name"], values["phone"],
            values["date_of_birth"], stamp(ctx.now),
        ),
    )  # fmt: skip


FORM = FormSpec(
    slug="register",
    code="REG",
    title="Create an account",
    summary="Create an account to save your forms, track your submissions and use services "
    "that need you to sign in.",
    minutes=5,
    submit_label="Create account",
    done_title="Account created",
    you_need=("an email address", "a phone number", "your date of birth"),
    declaration="I confirm that these details are mine and are correct.",
    next_steps="You can now sign in with your username and password.",
    email_field="email",
    secret_fields=("password", "password_confirm"),
    on_submit=create_user,
    steps=(
        Step(
            "account",
            "Choose your sign-in details",
            fields=(
                Field("username", "Username", width="w-medium", autocomplete="username",
                      hint="3 to 30 lowercase letters, numbers, dots, dashes or underscores.",
                      validators=(username_rules,), missing="Enter a username"),
                Field("email", "Email address", kind="email", autocomplete="email",
                      missing="Enter your email address"),
                Field("password", "Password", kind="password", width="w-medium",
                      autocomplete="new-password", max_length=128,
                      hint="At least 10 characters, with uppercase and lowercase letters "
                      "and a number.", validators=(password_rules,),
                      missing="Enter a password"),
                Field("password_confirm", "Confirm password", kind="password", width="w-medium",
                      autocomplete="new-password", max_length=128,
                      missing="Enter the password again"),
            ),
            check=passwords_match,
        ),
        Step(
            "about-you",
            "About you",
            fields=(
                Field("first_name", "First name", width="w-medium", autocomplete="given-name",
                      missing="Enter your first name"),
                Field("last_name", "Last name", width="w-medium", autocomplete="family-name",
                      missing="Enter your last name"),
                Field("phone", "Phone number", kind="tel", width="w-medium", autocomplete="tel",
                      hint="For example, (555) 555-0123.", missing="Enter your phone number"),
                Field("date_of_birth", "Date of birth", kind="date", width="w-short",
                      autocomplete="bday", missing="Enter your date of birth",
                      validators=(date_window(365 * 120, 0, "Date of birth must be a real "
                                  "date of birth", "Date of birth must be in the past"),
                                  old_enough)),
            ),
        ),
        Step(
            "terms",
            "Terms of use",
            intro="Our terms of use explain how you may use this service. Our privacy notice "
            "explains how we use and protect your personal information.",
            fields=(
                Field("accept_terms", "I agree to the terms of use and the privacy notice",
                      kind="checkbox",
                      missing="You must agree to the terms of use to create an account"),
                Field("newsletter", "Email me about new online services", kind="checkbox",
                      required=False),
            ),
        ),
    ),
)  # fmt: skip

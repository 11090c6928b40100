"""Checks on what customers type, each returning clean values and a message per bad field.

Messages say what to do ("Enter a 5-digit ZIP code."), and forms show each one next to its
field, so a customer (or an agent) can correct the form without guessing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .regions import STATES

Errors = dict[str, str]

_ZIP = re.compile(r"^\d{5}(-\d{4})?$", re.ASCII)
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

#: Address field -> (how to ask for it when missing, longest accepted value).
ADDRESS_FIELDS: dict[str, tuple[str, int]] = {
    "name": ("Enter the recipient's full name.", 80),
    "street": ("Enter a street address.", 120),
    "city": ("Enter a city.", 60),
    "state": ("Choose a state.", 2),
    "zip": ("Enter a 5-digit ZIP code.", 10),
    "phone": ("Enter a 10-digit phone number.", 30),
}


def parse_quantity(text: str, minimum: int, maximum: int) -> int | None:
    """A whole number typed into a quantity box, or None when outside minimum..maximum."""
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 4:
        return None
    value = int(text)
    return value if minimum <= value <= maximum else None


def parse_id(text: str) -> int | None:
    """A row id posted by a form, or None when it cannot be one (too long, not digits)."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def clean_text(
    form: Mapping[str, str], name: str, missing: str, max_length: int, errors: Errors
) -> str:
    """A required single-line field, trimmed; records a message in ``errors`` when unusable."""
    value = " ".join(form.get(name, "").split())
    if not value:
        errors[name] = missing
    elif len(value) > max_length:
        errors[name] = f"Use at most {max_length} characters."
    return value


def format_phone(text: str) -> str | None:
    """A US phone number as ``(555) 123-4567``, or None when it is not ten digits."""
    digits = re.sub(r"[\s().+-]", "", text)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10 or not digits.isascii() or not digits.isdigit():
        return None
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def validate_address(form: Mapping[str, str]) -> tuple[dict[str, str], Errors]:
    """A US shipping address: every field required, a real state, ZIP and phone number."""
    errors: Errors = {}
    address = {
        name: clean_text(form, name, missing, limit, errors)
        for name, (missing, limit) in ADDRESS_FIELDS.items()
    }
    if "state" not in errors and address["state"] not in STATES:
        errors["state"] = "Choose a US state."
    if "zip" not in errors and not _ZIP.match(address["zip"]):
        errors["zip"] = ADDRESS_FIELDS["zip"][0]
    if "phone" not in errors:
        phone = format_phone(address["phone"])
        if phone is None:
            errors["phone"] = ADDRESS_FIELDS["phone"][0]
        else:
            address["phone"] = phone
    return address, errors


def validate_email(value: str) -> str | None:
    """Why ``value`` is not an e-mail address, or None."""
    if not value:
        return "Enter your email address."
    if len(value) > 120 or not _EMAIL.match(value):
        return "Enter an email address like name@example.com."
    return None


def validate_profile(form: Mapping[str, str]) -> tuple[dict[str, str], Errors]:
    """Name, e-mail and phone from the account settings form."""
    errors: Errors = {}
    profile = {
        "first_name": clean_text(form, "first_name", "Enter your first name.", 40, errors),
        "last_name": clean_text(form, "last_name", "Enter your last name.", 40, errors),
        "email": form.get("email", "").strip(),
    }
    email_problem = validate_email(profile["email"])
    if email_problem:
        errors["email"] = email_problem
    phone = format_phone(form.get("phone", ""))
    if phone is None:
        errors["phone"] = ADDRESS_FIELDS["phone"][0]
    profile["phone"] = phone or form.get("phone", "").strip()
    return profile, errors

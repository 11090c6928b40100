"""Checks shared by the site's forms: required text, lengths and formats."""

from __future__ import annotations

import re

from .addresses import is_valid_address

_PHONE = re.compile(r"^\+?[0-9()./ -]{7,25}$")
_ID = re.compile(r"^[0-9]{1,12}$")


def parse_id(value: str | None) -> int | None:
    """A row id submitted in a form or URL, or None if ``value`` is not one."""
    return int(value) if value is not None and _ID.match(value) else None


def check_text(value: str, title: str, *, required: bool, max_length: int) -> str | None:
    """The error of a free-text field, or None."""
    if required and not value:
        return f"Enter {title}."
    if len(value) > max_length:
        return f"{title[0].upper()}{title[1:]} is too long: use at most {max_length} characters."
    return None


def check_email(value: str) -> str | None:
    """The error of a required e-mail address field, or None."""
    if not value:
        return "Enter an email address."
    if not is_valid_address(value):
        return "Enter a valid email address, like name@example.com."
    return None


def check_phone(value: str) -> str | None:
    """The error of an optional phone number field, or None."""
    digits = sum(char.isdigit() for char in value)
    if value and (not _PHONE.match(value) or digits < 7):
        return "Enter a valid phone number, like (555) 123-4567."
    return None


def normalize_phone(value: str) -> str:
    """A phone number in the site's one stored form: a ten-digit North American number (with
    or without ``+1``, spaces, dots, dashes or brackets) as ``(555) 123-4567``; any other
    number trimmed, as typed."""
    digits = "".join(char for char in value if char.isdigit())
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) == 10 and check_phone(value) is None:
        return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"
    return value.strip()

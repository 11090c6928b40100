"""Validators and choice lists shared by several forms."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from ..fields import Choice, Field, FormContext, Validator
from ..states import US_STATES

YES_NO = (Choice("yes", "Yes"), Choice("no", "No"))
STATE_CHOICES = tuple(Choice(code, name) for code, name in US_STATES)


def zip_code(value: str, _ctx: FormContext) -> str | None:
    if not re.fullmatch(r"\d{5}(-\d{4})?", value):
        return "Enter a ZIP code with 5 digits, like 30301"
    return None


def date_window(
    days_before: int | None, days_after: int | None, too_early: str, too_late: str
) -> Validator:
    """A date between ``days_before`` days before today and ``days_after`` days after it."""

    def check(value: str, ctx: FormContext) -> str | None:
        day, today = date.fromisoformat(value), ctx.now.date()
        if days_before is not None and day < today - timedelta(days=days_before):
            return too_early
        if days_after is not None and day > today + timedelta(days=days_after):
            return too_late
        return None

    return check


def user_column(column: str) -> Callable[[FormContext], str]:
    """A prefill taken from a column of the signed-in account."""
    return lambda ctx: str(ctx.user[column]) if ctx.user is not None else ""


def address_fields(prefix: str, prefill_from_user: bool = False) -> tuple[Field, ...]:
    """Street, city, state and ZIP fields named ``<prefix>_street`` and so on."""

    def from_user(column: str) -> Callable[[FormContext], str] | None:
        return user_column(column) if prefill_from_user else None

    return (
        Field(f"{prefix}_street", "Street address", autocomplete="address-line1",
              missing="Enter the street address", prefill=from_user("street")),
        Field(f"{prefix}_city", "City", autocomplete="address-level2", width="w-medium",
              missing="Enter the city", prefill=from_user("city")),
        Field(f"{prefix}_state", "State", kind="select", choices=STATE_CHOICES,
              autocomplete="address-level1", missing="Select the state",
              prefill=from_user("state")),
        Field(f"{prefix}_zip", "ZIP code", autocomplete="postal-code", width="w-short",
              validators=(zip_code,), missing="Enter the ZIP code", prefill=from_user("zip")),
    )  # fmt: skip


def person_fields() -> tuple[Field, ...]:
    """First name, last name, email and phone, prefilled from a signed-in account."""
    from_user = user_column
    return (
        Field("first_name", "First name", autocomplete="given-name", width="w-medium",
              missing="Enter your first name", prefill=from_user("first_name")),
        Field("last_name", "Last name", autocomplete="family-name", width="w-medium",
              missing="Enter your last name", prefill=from_user("last_name")),
        Field("email", "Email address", kind="email", autocomplete="email",
              hint="We will send your confirmation to this address.",
              missing="Enter your email address", prefill=from_user("email")),
        Field("phone", "Phone number", kind="tel", autocomplete="tel", width="w-medium",
              hint="For example, (555) 555-0123.", missing="Enter your phone number",
              prefill=from_user("phone")),
    )  # fmt: skip

"""Turning what an applicant typed into normalised values, and back into readable text.

Normalised values are what graders read: dates ISO (``2026-05-14``), times ``HH:MM``, money in
integer cents, phone numbers ``+`` and digits, checkboxes booleans, choices their value.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any

from .fields import Field, FormContext

EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
MONEY_PATTERN = re.compile(r"^\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$")
INTEGER_PATTERN = re.compile(r"^[+-]?\d+$")
US_DATE_PATTERN = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
TIME_PATTERN = re.compile(r"^(\d{1,2}):(\d{2})$")
#: Inputs longer than this are kept only up to it: no answer can sensibly be longer.
MAX_RAW_LENGTH = 20000


class Invalid(ValueError):
    """An answer that cannot be accepted; the message is shown to the applicant."""


def parse_value(spec: Field, raw: str, ctx: FormContext) -> Any:
    """The normalised value of ``raw`` for ``spec``, or :class:`Invalid` with a message.

    Empty optional answers are ``None`` (``False`` for a checkbox).
    """
    text = raw.strip()
    if spec.kind == "checkbox":
        checked = bool(text)
        if spec.required and not checked:
            raise Invalid(spec.missing_message())
        return checked
    if not text:
        if spec.required:
            raise Invalid(spec.missing_message())
        return None
    value = PARSERS[spec.kind](spec, text, ctx)
    for validator in spec.validators:
        message = validator(value, ctx)
        if message:
            raise Invalid(message)
    return value


def _text(spec: Field, text: str, _ctx: FormContext) -> str:
    if len(text) > spec.max_length:
        raise Invalid(f"{spec.short_label} must be {spec.max_length:,} characters or fewer")
    return text


def _email(spec: Field, text: str, _ctx: FormContext) -> str:
    if len(text) > 254 or not EMAIL_PATTERN.match(text):
        raise Invalid("Enter an email address in the correct format, like name@example.com")
    return text.lower()


def _tel(spec: Field, text: str, _ctx: FormContext) -> str:
    if not re.fullmatch(r"[\d\s()+.-]+", text):
        raise Invalid("Enter a phone number, like (555) 555-0123")
    digits = re.sub(r"\D", "", text)
    if text.startswith("+"):
        if not 8 <= len(digits) <= 15:
            raise Invalid("Enter a phone number, like (555) 555-0123")
        return f"+{digits}"
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10:
        raise Invalid("Enter a 10-digit phone number, like (555) 555-0123")
    return f"+1{digits}"


def _in_range(spec: Field, number: int) -> int:
    if spec.minimum is not None and number < spec.minimum:
        raise Invalid(f"{spec.short_label} must be at least {shown_limit(spec, spec.minimum)}")
    if spec.maximum is not None and number > spec.maximum:
        raise Invalid(f"{spec.short_label} must be {shown_limit(spec, spec.maximum)} or less")
    return number


def shown_limit(spec: Field, limit: int) -> str:
    return format_money(limit) if spec.kind == "money" else f"{limit:,}"


def _number(spec: Field, text: str, _ctx: FormContext) -> int:
    if not INTEGER_PATTERN.match(text.replace(",", "")) or len(text) > 15:
        raise Invalid(f"{spec.short_label} must be a whole number, like 2")
    return _in_range(spec, int(text.replace(",", "")))


def money_cents(text: str) -> int | None:
    """The cents in an amount typed like ``$1,234.5``, or None if it is not an amount."""
    text = text.strip()
    if len(text) > 20 or not MONEY_PATTERN.match(text):
        return None
    whole, _, fraction = text.lstrip("$").strip().replace(",", "").partition(".")
    return int(whole) * 100 + int(fraction.ljust(2, "0") or 0)


def _money(spec: Field, text: str, _ctx: FormContext) -> int:
    cents = money_cents(text)
    if cents is None:
        raise Invalid(f"{spec.short_label} must be an amount of money, like 125.50")
    return _in_range(spec, cents)


def parse_date(text: str) -> date | None:
    """A date typed as ``YYYY-MM-DD`` (what date inputs send) or ``MM/DD/YYYY``."""
    try:
        us_date = US_DATE_PATTERN.match(text)
        if us_date:
            month, day, year = (int(part) for part in us_date.groups())
            return date(year, month, day)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            return date.fromisoformat(text)
    except ValueError:
        return None
    return None


def _date(spec: Field, text: str, _ctx: FormContext) -> str:
    parsed = parse_date(text)
    if parsed is None or parsed.year < 1900:
        raise Invalid(f"{spec.short_label} must be a real date, like 2026-03-27")
    return parsed.isoformat()


def _time(spec: Field, text: str, _ctx: FormContext) -> str:
    match = TIME_PATTERN.match(text)
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise Invalid(f"{spec.short_label} must be a real time in 24-hour format, like 14:30")
    return f"{int(match[1]):02d}:{match[2]}"


def _choice(spec: Field, text: str, ctx: FormContext) -> str:
    for option in spec.options(ctx):
        if option.value == text:
            if option.disabled:
                raise Invalid(f"{option.label} is not available. {spec.missing_message()}")
            return text
    raise Invalid(spec.missing_message())


PARSERS = {
    "text": _text,
    "textarea": _text,
    "password": _text,
    "email": _email,
    "tel": _tel,
    "number": _number,
    "money": _money,
    "date": _date,
    "time": _time,
    "select": _choice,
    "radio": _choice,
    "calendar": _choice,
}


def format_money(cents: int) -> str:
    """Cents as dollars, like ``$1,234.50``."""
    return f"${cents / 100:,.2f}"


def format_date(iso: str) -> str:
    """An ISO date as people read it, like ``Thursday 14 May 2026``."""
    day = date.fromisoformat(iso)
    return f"{day:%A} {day.day} {day:%B %Y}"


def format_time(hhmm: str) -> str:
    """``14:30`` as ``2:30 PM``."""
    moment = time.fromisoformat(hhmm)
    return f"{moment.hour % 12 or 12}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"


def format_phone(number: str) -> str:
    if number.startswith("+1") and len(number) == 12:
        return f"({number[2:5]}) {number[5:8]}-{number[8:]}"
    return number


def display_value(spec: Field, value: Any, ctx: FormContext) -> str:
    """A normalised value as the review page shows it."""
    if value is None or value == "":
        return "Not provided"
    if spec.kind == "checkbox":
        return "Yes" if value else "No"
    if spec.kind == "money":
        return format_money(value)
    if spec.kind == "date":
        return format_date(value)
    if spec.kind == "time":
        return format_time(value)
    if spec.kind == "tel":
        return format_phone(value)
    if spec.kind == "password":
        return "••••••••••"
    if spec.kind in {"select", "radio", "calendar"}:
        return next((c.label for c in spec.options(ctx) if c.value == value), str(value))
    if spec.kind == "number":
        return f"{value:,}"
    return str(value)


def age_on(birthdate: date, day: datetime | date) -> int:
    """Whole years between a birthdate and a day."""
    day = day.date() if isinstance(day, datetime) else day
    return day.year - birthdate.year - ((day.month, day.day) < (birthdate.month, birthdate.day))

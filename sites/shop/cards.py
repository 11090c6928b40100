"""Payment cards typed at checkout: number, brand, expiry and security code.

Only the brand, the last four digits and the expiry are ever stored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from .validation import Errors, clean_text

_EXPIRY = re.compile(r"^(\d{1,2})\s*/\s*(\d{2}|\d{4})$", re.ASCII)


def luhn_valid(digits: str) -> bool:
    """Whether a card number passes the Luhn checksum every real card number passes."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def card_brand(digits: str) -> str | None:
    """The network of a card number from its leading digits, or None when not accepted."""
    if digits.startswith("4") and len(digits) in (13, 16, 19):
        return "Visa"
    if len(digits) == 16 and (51 <= int(digits[:2]) <= 55 or 2221 <= int(digits[:4]) <= 2720):
        return "Mastercard"
    if len(digits) == 15 and digits[:2] in ("34", "37"):
        return "American Express"
    if len(digits) == 16 and (digits.startswith("6011") or digits.startswith("65")):
        return "Discover"
    return None


def is_expired(month: int, year: int, now: datetime) -> bool:
    """Cards work through the last day of their expiry month."""
    return (year, month) < (now.year, now.month)


def validate_card(form: Mapping[str, str], now: datetime) -> tuple[dict[str, object], Errors]:
    """A new card: holder name, Luhn-valid number of an accepted brand, future expiry, CVV."""
    errors: Errors = {}
    clean_text(form, "card_name", "Enter the name on the card.", 80, errors)
    digits = re.sub(r"[\s-]", "", form.get("card_number", ""))
    brand = None
    if not digits:
        errors["card_number"] = "Enter the card number."
    elif not (digits.isascii() and digits.isdigit() and 13 <= len(digits) <= 19):
        errors["card_number"] = "Enter a valid card number."
    elif not luhn_valid(digits):
        errors["card_number"] = "That card number is not valid. Check it and try again."
    else:
        brand = card_brand(digits)
        if brand is None:
            errors["card_number"] = "We accept Visa, Mastercard, American Express and Discover."
    month = year = 0
    match = _EXPIRY.match(form.get("card_expiry", "").strip())
    if match is None or not 1 <= int(match[1]) <= 12:
        errors["card_expiry"] = "Enter the expiration date as MM/YY."
    else:
        month, year = int(match[1]), int(match[2]) % 100 + 2000
        if is_expired(month, year, now):
            errors["card_expiry"] = "This card has expired."
    cvv = form.get("card_cvv", "").strip()
    cvv_length = 4 if brand == "American Express" else 3
    if not (cvv.isascii() and cvv.isdigit() and len(cvv) == cvv_length):
        errors["card_cvv"] = f"Enter the {cvv_length}-digit security code."
    card = {"brand": brand, "last4": digits[-4:], "exp_month": month, "exp_year": year}
    return card, errors

"""Parsing and normalising the address lists typed into To, Cc and Bcc.

Stored lists are lower-cased bare addresses joined by ", ", in the order entered, without
duplicates, so a check can compare them exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ADDRESS = re.compile(
    r"^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
    r"(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$"
)
_NAMED_ADDRESS = re.compile(r"^(?P<name>.*)<(?P<address>[^<>]*)>$", re.DOTALL)
SEPARATOR = ", "


@dataclass(frozen=True)
class ParsedAddresses:
    """The valid addresses of a field and the pieces that are not addresses."""

    valid: tuple[str, ...]
    invalid: tuple[str, ...]


def is_valid_address(text: str) -> bool:
    """Whether ``text`` is one plain e-mail address (already lower-cased)."""
    return len(text) <= 254 and _ADDRESS.match(text) is not None


def _split_outside_quotes(text: str) -> list[str]:
    """Split on commas and semicolons that are not inside quotes or angle brackets."""
    pieces, current, quoted, bracketed = [], [], False, False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif char == "<" and not quoted:
            bracketed = True
        elif char == ">" and not quoted:
            bracketed = False
        if char in ",;" and not quoted and not bracketed:
            pieces.append("".join(current))
            current = []
        else:
            current.append(char)
    pieces.append("".join(current))
    return [piece.strip() for piece in pieces if piece.strip()]


def parse_addresses(text: str) -> ParsedAddresses:
    """Parse ``Name <a@b.c>, d@e.f; …`` into normalised addresses and invalid pieces."""
    valid: list[str] = []
    invalid: list[str] = []
    for piece in _split_outside_quotes(text):
        named = _NAMED_ADDRESS.match(piece)
        address = (named.group("address") if named else piece).strip().lower()
        if not is_valid_address(address):
            invalid.append(piece)
        elif address not in valid:
            valid.append(address)
    return ParsedAddresses(tuple(valid), tuple(invalid))


def join_addresses(addresses: list[str] | tuple[str, ...]) -> str:
    """The stored form of an address list."""
    return SEPARATOR.join(addresses)


def split_addresses(stored: str) -> list[str]:
    """The addresses of a stored list."""
    return [address for address in stored.split(SEPARATOR) if address]

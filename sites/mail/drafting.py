"""The starting text of replies and forwards: recipients, subject and quoted original."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from sqlite3 import Row
from typing import Any

from .addresses import join_addresses, split_addresses
from .formatting import long_date

_REPLY_PREFIX = re.compile(r"^\s*re\s*:", re.IGNORECASE)
_FORWARD_PREFIX = re.compile(r"^\s*fwd?\s*:", re.IGNORECASE)
FORWARD_MARKER = "---------- Forwarded message ----------"


@dataclass
class Draft:
    """The fields of the compose form."""

    to: str = ""
    cc: str = ""
    bcc: str = ""
    subject: str = ""
    body: str = ""


def _prefixed(prefix: str, pattern: re.Pattern[str], subject: str) -> str:
    return subject if pattern.match(subject) else f"{prefix} {subject}".rstrip()


def quoted(original: Row | Mapping[str, Any]) -> str:
    """The quote of ``original`` a reply starts with: a line naming its sender and date, then
    each line of its body after "> "."""
    quoted = "\n".join(f"> {line}" if line else ">" for line in original["body"].splitlines())
    header = f"On {long_date(original['sent_at'])}, {original['sender_name']} wrote:"
    return f"\n\n{header}\n{quoted}\n"


def reply_draft(original: Row, owner_email: str, reply_all: bool) -> Draft:
    """A reply to the sender (or, on one's own message, to its recipients); a reply to all
    also writes to every other recipient, never to oneself."""
    own_message = original["sender"] == owner_email
    to = split_addresses(original["recipients"]) if own_message else [original["sender"]]
    cc: list[str] = []
    if reply_all:
        others = [] if own_message else split_addresses(original["recipients"])
        to += [address for address in others if address != owner_email and address not in to]
        cc = [
            address
            for address in split_addresses(original["cc"])
            if address != owner_email and address not in to
        ]
    return Draft(
        to=join_addresses(to),
        cc=join_addresses(cc),
        subject=_prefixed("Re:", _REPLY_PREFIX, original["subject"]),
        body=quoted(original),
    )


def forward_draft(original: Row) -> Draft:
    """A forward: no recipients yet, the original below a forwarded-message header."""
    header = [
        FORWARD_MARKER,
        f"From: {original['sender_name']} <{original['sender']}>",
        f"Date: {long_date(original['sent_at'])}",
        f"Subject: {original['subject']}",
        f"To: {original['recipients']}",
    ]
    if original["cc"]:
        header.append(f"Cc: {original['cc']}")
    body = "\n\n" + "\n".join(header) + "\n\n" + original["body"] + "\n"
    return Draft(subject=_prefixed("Fwd:", _FORWARD_PREFIX, original["subject"]), body=body)


def saved_draft(row: Row) -> Draft:
    """The form fields of a saved draft."""
    return Draft(
        to=row["recipients"], cc=row["cc"], bcc=row["bcc"], subject=row["subject"], body=row["body"]
    )

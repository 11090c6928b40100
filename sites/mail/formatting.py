"""Jinja filters that show dates, sizes and snippets the way a mail client does."""

from __future__ import annotations

from datetime import datetime

from flask import Flask, current_app

from ..common import parse_now
from .addresses import split_addresses

SNIPPET_LENGTH = 110


def world_now() -> datetime:
    """The site's fixed "now"."""
    return parse_now(current_app.config["NOW"])


def clock(moment: datetime) -> str:
    """``9:05 AM``."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"


def short_date(value: str) -> str:
    """A list date: the time today, the day this year, the full date before."""
    moment, now = datetime.fromisoformat(value), world_now()
    if moment.date() == now.date():
        return clock(moment)
    if moment.year == now.year:
        return f"{moment:%b} {moment.day}"
    return f"{moment:%b} {moment.day}, {moment.year}"


def long_date(value: str) -> str:
    """A header date, e.g. ``Thu, May 14, 2026 at 9:12 AM``."""
    moment = datetime.fromisoformat(value)
    return f"{moment:%a, %b} {moment.day}, {moment.year} at {clock(moment)}"


def file_size(size: int) -> str:
    """A human-readable byte count."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def snippet(body: str) -> str:
    """The start of a body on one line, without quoted text."""
    lines = [line for line in body.splitlines() if not line.lstrip().startswith(">")]
    text = " ".join(" ".join(lines).split())
    return text if len(text) <= SNIPPET_LENGTH else text[: SNIPPET_LENGTH - 1].rstrip() + "…"


def display_subject(subject: str) -> str:
    """The subject, or a placeholder when it is empty."""
    return subject.strip() or "(no subject)"


def initials(name: str) -> str:
    """Up to two initials for an avatar."""
    letters = [word[0] for word in name.split() if word[:1].isalpha()]
    return "".join(letters[:1] + letters[-1:] if len(letters) > 1 else letters).upper() or "?"


def register(app: Flask) -> None:
    """Make the filters available to every template."""
    app.add_template_filter(split_addresses)
    for function in (short_date, long_date, file_size, snippet, display_subject, initials):
        app.add_template_filter(function)

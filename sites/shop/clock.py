"""The store's notion of "now": the world's fixed time, never the wall clock."""

from __future__ import annotations

from datetime import datetime

from flask import current_app

from ..common import parse_now


def now() -> datetime:
    """The world's current time for this app (naive UTC)."""
    return parse_now(current_app.config["NOW"])


def now_stamp() -> str:
    """``now()`` as stored in the database."""
    return now().isoformat(timespec="seconds")

"""Withdrawing a submitted job application, and filing one outside any request.

A withdrawn application keeps its submission and confirmation number, marked ``withdrawn``:
the recruitment team no longer considers it. :func:`add_submission` stores a submission of
any form for user 1 (a Python API, never a route), for a world whose user has already applied.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .definitions import FORMS
from .submissions import record_submission

#: The status of an application its applicant withdrew; a standing one is ``submitted``.
WITHDRAWN = "withdrawn"


def is_withdrawable(submission: sqlite3.Row) -> bool:
    """Whether a submission is a job application that still stands."""
    return submission["form_slug"] == "job-application" and submission["status"] == "submitted"


def withdraw_application(db: sqlite3.Connection, submission: sqlite3.Row) -> None:
    """Mark a standing job application withdrawn."""
    if not is_withdrawable(submission):
        raise ValueError("only a standing job application can be withdrawn")
    db.execute("UPDATE submissions SET status = ? WHERE id = ?", (WITHDRAWN, submission["id"]))


def add_submission(
    path: str | os.PathLike[str], slug: str, values: Mapping[str, Any], submitted_at: datetime
) -> tuple[int, str]:
    """Store a submission of form ``slug`` (its answers ``values``) for user 1 in the portal
    database at ``path``; returns its id and confirmation number."""
    db = sqlite3.connect(os.fspath(path))
    try:
        with db:
            stamp = submitted_at.replace(microsecond=0).isoformat()
            return record_submission(db, FORMS[slug], values, 1, stamp)
    finally:
        db.close()

"""Turning a complete draft into a submission that graders and the applicant can read."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from .drafts import Draft, attach_uploads, save_answers, stamp
from .fields import FormContext, FormSpec


def confirmation_number(form: FormSpec, submission_id: int, data_json: str) -> str:
    """A confirmation number like ``CLM-48213377``, derived from the stored submission."""
    digest = hashlib.sha256(f"{form.slug}|{submission_id}|{data_json}".encode()).hexdigest()
    return f"{form.code}-{int(digest[:12], 16) % 10**8:08d}"


def record_submission(
    db: sqlite3.Connection,
    form: FormSpec,
    values: Mapping[str, Any],
    user_id: int | None,
    submitted_at: str,
    status: str = "submitted",
) -> tuple[int, str]:
    """Store one submission; returns its id and confirmation number."""
    stored = {name: value for name, value in values.items() if name not in form.secret_fields}
    data_json = json.dumps(stored, ensure_ascii=False, sort_keys=True)
    cursor = db.execute(
        "INSERT INTO submissions (form_slug, confirmation, user_id, status, submitted_at,"
        " data_json) VALUES (?, '', ?, ?, ?, ?)",
        (form.slug, user_id, status, submitted_at, data_json),
    )
    submission_id = int(cursor.lastrowid or 0)
    confirmation = confirmation_number(form, submission_id, data_json)
    db.execute(
        "UPDATE submissions SET confirmation = ? WHERE id = ?", (confirmation, submission_id)
    )
    return submission_id, confirmation


def submit_draft(
    db: sqlite3.Connection, form: FormSpec, draft: Draft, values: Mapping[str, Any],
    ctx: FormContext,
) -> tuple[int, str, dict[str, Any]]:  # fmt: skip
    """Submit a validated draft: store it, move its files, apply the form's effects.

    Returns the submission's id, confirmation number and the values as stored.
    """
    complete = {**values, **(form.derive(values, ctx) if form.derive else {})}
    user_id = ctx.user["id"] if ctx.user is not None else None
    submission_id, confirmation = record_submission(db, form, complete, user_id, stamp(ctx.now))
    attach_uploads(db, draft.id, submission_id)
    if form.on_submit:
        form.on_submit(db, complete, submission_id, ctx)
    save_answers(db, draft.id, {}, stamp(ctx.now), status="submitted")
    return submission_id, confirmation, complete

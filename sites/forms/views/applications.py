"""Withdrawing a job application, from its confirmation page under My account."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from ..applications import is_withdrawable, withdraw_application
from ..db import get_db
from ..definitions import FORMS
from .auth import login_required
from .progress import form_context

bp = Blueprint("application", __name__, url_prefix="/f/job-application/confirmation/<confirmation>")


def own_application(confirmation: str) -> sqlite3.Row:
    """The signed-in user's standing job application with this confirmation number; else the
    portal's 404 (another account's, or one already withdrawn)."""
    row = (
        get_db()
        .execute(
            "SELECT * FROM submissions WHERE form_slug = 'job-application'"
            " AND confirmation = ? AND user_id = ?",
            (confirmation, g.user["id"]),
        )
        .fetchone()
    )
    if row is None or not is_withdrawable(row):
        abort(404)
    return row


@bp.route("/withdraw", methods=("GET", "POST"))
@login_required
def withdraw(confirmation: str) -> Any:
    """Ask to confirm, then withdraw the application."""
    row = own_application(confirmation)
    back = url_for("outcome.confirmation", slug="job-application", confirmation=confirmation)
    if request.method == "POST":
        db = get_db()
        withdraw_application(db, row)
        db.commit()
        flash("Your application has been withdrawn.")
        return redirect(back)
    form = FORMS["job-application"]
    values = json.loads(row["data_json"])
    highlights = form.highlights(values, form_context(values)) if form.highlights else []
    return render_template(
        "booking/withdraw.html", submission=row, highlights=highlights, back_url=back
    )


def withdraw_url(row: sqlite3.Row) -> str | None:
    """Where the confirmation page offers to withdraw a standing job application of the
    signed-in user; None for any other submission."""
    if g.user is None or row["user_id"] != g.user["id"] or not is_withdrawable(row):
        return None
    return url_for("application.withdraw", confirmation=row["confirmation"])

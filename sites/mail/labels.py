"""Managing labels: create and delete them (applying them is a toolbar action)."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .auth import login_required
from .db import get_db
from .listing import all_labels, find_label
from .navigation import FOLDER_TITLES, safe_next
from .validation import check_text

bp = Blueprint("labels", __name__, url_prefix="/labels")

MAX_NAME = 40
_NAME = re.compile(r"^[\w &'.+-]+$")


def name_error(name: str) -> str | None:
    """Why ``name`` cannot be a new label, or None."""
    error = check_text(name, "a label name", required=True, max_length=MAX_NAME)
    if error:
        return error
    if not _NAME.match(name):
        return "Use only letters, numbers, spaces and . & ' + - _ in a label name."
    if name.lower() in FOLDER_TITLES:
        return f"“{name}” is the name of a folder; choose another name."
    if find_label(get_db(), g.user["id"], name) is not None:
        return f"A label named “{name}” already exists."
    return None


def _page(name: str = "", error: str | None = None) -> tuple[str, int]:
    labels = all_labels(get_db(), g.user["id"])
    return render_template(
        "labels/index.html", labels=labels, name=name, error=error
    ), 400 if error else 200


@bp.route("")
@login_required
def index() -> tuple[str, int]:
    """The labels with their message counts, and the form to create one."""
    return _page()


@bp.route("", methods=("POST",))
@login_required
def create() -> tuple[str, int] | Response:
    """Create a label."""
    name = " ".join(request.form.get("name", "").split())
    error = name_error(name)
    if error:
        return _page(name, error)
    with get_db() as connection:
        connection.execute("INSERT INTO labels (user_id, name) VALUES (?, ?)", (g.user["id"], name))
    flash(f"Created the label “{name}”.", "info")
    return redirect(safe_next(request.form.get("next") or url_for("labels.index")))


@bp.route("/<int:label_id>/delete", methods=("POST",))
@login_required
def delete(label_id: int) -> Response:
    """Delete a label; its messages stay where they are."""
    connection = get_db()
    row = connection.execute(
        "SELECT name FROM labels WHERE id = ? AND user_id = ?", (label_id, g.user["id"])
    ).fetchone()
    if row is None:
        abort(404)
    with connection:
        connection.execute("DELETE FROM labels WHERE id = ?", (label_id,))
    flash(f"Deleted the label “{row['name']}”.", "info")
    return redirect(url_for("labels.index"))

"""Message lists (folders, labels) and the actions taken on the messages selected in them."""

from __future__ import annotations

from flask import Blueprint, abort, flash, g, redirect, render_template, request
from werkzeug.wrappers import Response

from . import operations
from .auth import login_required
from .db import get_db
from .listing import Filter, find_label, folder_filter, label_filter, list_messages
from .navigation import FOLDER_TITLES, safe_next
from .toolbar import apply_action
from .validation import parse_id

bp = Blueprint("mailbox", __name__)


def requested_page() -> int:
    """The ``page`` query argument, from 1."""
    number = request.args.get("page", default=1, type=int)
    return max(1, min(number or 1, 10_000))


def render_message_list(title: str, condition: Filter, view: str, **context: object) -> str:
    """A page of messages with the bulk-action toolbar; ``view`` is the folder shown, or
    ``label``/``search``, and decides which actions the toolbar offers."""
    page = list_messages(get_db(), condition, requested_page())
    return render_template("mailbox/list.html", title=title, page=page, view=view, **context)


@bp.route("/")
@login_required
def inbox() -> str:
    """The Inbox."""
    return folder(name="inbox")


@bp.route("/folder/<name>")
@login_required
def folder(name: str) -> str:
    """A folder, or the Starred view."""
    if name not in FOLDER_TITLES:
        abort(404)
    return render_message_list(FOLDER_TITLES[name], folder_filter(name), name)


@bp.route("/label/<name>")
@login_required
def label(name: str) -> str:
    """The messages carrying a label."""
    row = find_label(get_db(), g.user["id"], name)
    if row is None:
        abort(404)
    return render_message_list(row["name"], label_filter(row["id"]), "label", label=row)


def selected_ids(values: list[str]) -> list[int]:
    """The existing message ids among the submitted values."""
    ids = [message_id for message_id in map(parse_id, values) if message_id is not None]
    return operations.existing_ids(get_db(), ids)


@bp.route("/messages/bulk", methods=("POST",))
@login_required
def bulk() -> Response:
    """Apply a toolbar action to the selected messages, then go back to the list."""
    next_url = safe_next(request.form.get("next"))
    ids = selected_ids(request.form.getlist("ids"))
    action = request.form.get("action", "")
    if not ids:
        flash("Select at least one message first.", "error")
        return redirect(next_url)
    with get_db() as connection:
        summary = apply_action(connection, action, ids, request.form)
    if summary is None:
        flash("Choose what to do with the selected messages.", "error")
    else:
        flash(summary, "info")
    return redirect(next_url)


@bp.route("/message/<int:message_id>/star", methods=("POST",))
@login_required
def toggle_star(message_id: int) -> Response:
    """Star an unstarred message, or unstar a starred one."""
    connection = get_db()
    row = connection.execute(
        "SELECT is_starred FROM messages WHERE id = ?", (message_id,)
    ).fetchone()
    if row is None:
        abort(404)
    with connection:
        operations.set_starred(connection, [message_id], not row["is_starred"])
    return redirect(safe_next(request.form.get("next")))

"""Reading a thread, acting on it from its toolbar, and downloading attachments."""

from __future__ import annotations

import io
import re
from sqlite3 import Row

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from werkzeug.wrappers import Response

from .auth import login_required
from .db import get_db
from .formatting import world_now
from .listing import all_labels, attachments_of, get_thread, labels_of, thread_messages
from .navigation import safe_next
from .operations import MOVE_TARGETS, open_unread
from .toolbar import apply_action

bp = Blueprint("thread", __name__)

#: Toolbar actions after which the thread is no longer where the reader was: go back to the list.
LEAVING_ACTIONS = ("archive", "trash", "delete_forever", "unread", "move")


def _thread_or_404(thread_id: int) -> tuple[Row, list[Row], list[Row]]:
    """The thread, its sent or received messages and its drafts."""
    connection = get_db()
    thread = get_thread(connection, thread_id)
    messages = thread_messages(connection, thread_id) if thread else []
    if not messages:
        abort(404)
    shown = [message for message in messages if not message["is_draft"]]
    drafts = [message for message in messages if message["is_draft"]]
    return thread, shown, drafts


@bp.route("/thread/<int:thread_id>")
@login_required
def view(thread_id: int) -> str | Response:
    """All messages of a thread, oldest first; opening it marks them read."""
    thread, messages, drafts = _thread_or_404(thread_id)
    if not messages:
        return redirect(url_for("compose.compose", draft=drafts[-1]["id"]))
    connection = get_db()
    ids = [message["id"] for message in messages]
    unread_ids = [message["id"] for message in messages if not message["is_read"]]
    if unread_ids:
        with connection:
            open_unread(connection, unread_ids, world_now().isoformat())
    message_labels = labels_of(connection, ids)
    thread_labels = {row["id"]: row for rows in message_labels.values() for row in rows}
    folders = sorted({message["folder"] for message in messages})
    return render_template(
        "thread/view.html",
        thread=thread,
        messages=messages,
        drafts=drafts,
        unread_ids=set(unread_ids),
        attachments=attachments_of(connection, ids),
        thread_labels=sorted(thread_labels.values(), key=lambda row: row["name"].lower()),
        labels=all_labels(connection, g.user["id"]),
        folders=folders,
        can_restore=bool({"archive", "trash", "spam"} & set(folders)),
        starred=any(message["is_starred"] for message in messages),
        move_targets=MOVE_TARGETS,
        back_url=safe_next(request.args.get("back")),
        order_links=order_links(messages),
    )


#: The shop's order confirmations: who sends them, and how their subject names the order.
SHOP_SENDER = "orders@northwindmarket.example"
_ORDER_SUBJECT = re.compile(r"\border (NM-\d{5}-\d)\b")


def order_links(messages: list[Row]) -> dict[int, tuple[str, str]]:
    """For each order confirmation among ``messages``, ``(order number, address of its page on
    the shop)``, as a real shop's e-mail links to the order (when the world has the shop)."""
    shop = (current_app.config.get("SITE_URLS") or {}).get("shop")
    links = {}
    for message in messages:
        found = _ORDER_SUBJECT.search(message["subject"] or "")
        if shop and found and message["sender"] == SHOP_SENDER:
            links[message["id"]] = (found[1], f"{shop.rstrip('/')}/account/orders/{found[1]}")
    return links


@bp.route("/thread/<int:thread_id>/action", methods=("POST",))
@login_required
def act(thread_id: int) -> Response:
    """Apply a toolbar action to the thread's messages (starring marks only the latest)."""
    _thread, messages, _drafts = _thread_or_404(thread_id)
    if not messages:
        abort(404)
    action = request.form.get("action", "")
    ids = [message["id"] for message in messages]
    if action == "star":
        ids = ids[-1:]
    with get_db() as connection:
        summary = apply_action(connection, action, ids, request.form)
    if summary is None:
        flash("Choose what to do with this conversation.", "error")
    else:
        flash(summary, "info")
    if summary is not None and action in LEAVING_ACTIONS:
        return redirect(safe_next(request.form.get("next")))
    return redirect(url_for("thread.view", thread_id=thread_id))


@bp.route("/attachment/<int:attachment_id>")
@login_required
def attachment(attachment_id: int) -> Response:
    """Download an attachment under its own name and type."""
    row = (
        get_db()
        .execute(
            "SELECT filename, content_type, content FROM attachments WHERE id = ?", (attachment_id,)
        )
        .fetchone()
    )
    if row is None:
        abort(404)
    return send_file(
        io.BytesIO(row["content"]),
        mimetype=row["content_type"],
        as_attachment=True,
        download_name=row["filename"],
    )

"""Writing messages: new, reply, reply all, forward; sending and saving drafts."""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .addresses import join_addresses, parse_addresses
from .auth import login_required
from .db import get_db
from .drafting import Draft, forward_draft, reply_draft, saved_draft
from .formatting import world_now
from .listing import attachments_of, get_message
from .store import NewMessage, copy_attachments, create_thread, insert_message, sync_thread_subject
from .validation import parse_id

bp = Blueprint("compose", __name__)

MAX_SUBJECT = 250
MAX_BODY = 50_000
ADDRESS_FIELDS = {"to": "To", "cc": "Cc", "bcc": "Bcc"}


@dataclass
class Origin:
    """What the message being written belongs to: the draft it was saved as, the message it
    answers, the message it forwards (each a message id, or None)."""

    draft_id: int | None = None
    reply_to: int | None = None
    forward_of: int | None = None


def _message_id(value: str | None, *, draft: bool | None = None) -> int | None:
    """The id of an existing message (a draft, or not a draft, when ``draft`` says so)."""
    message_id = parse_id(value)
    if message_id is None:
        return None
    row = get_message(get_db(), message_id)
    if row is None or (draft is not None and bool(row["is_draft"]) != draft):
        return None
    return row["id"]


def _render(draft: Draft, origin: Origin, errors: dict[str, str] | None = None) -> tuple[str, int]:
    """The compose form; with errors, answered as a bad request."""
    connection = get_db()
    source = origin.draft_id or origin.forward_of
    contacts = connection.execute(
        "SELECT name, email FROM contacts WHERE user_id = ? ORDER BY name, id", (g.user["id"],)
    ).fetchall()
    return render_template(
        "compose/form.html",
        draft=draft,
        origin=origin,
        errors=errors or {},
        contacts=contacts,
        attachments=attachments_of(connection, [source]).get(source, []) if source else [],
    ), 400 if errors else 200


@bp.route("/compose")
@login_required
def compose() -> tuple[str, int]:
    """The compose form, empty or started from a draft, a reply, a reply to all or a forward."""
    connection = get_db()
    args = request.args
    origin = Origin()
    draft = Draft(to=args.get("to", ""), subject=args.get("subject", ""))
    if draft_id := _message_id(args.get("draft"), draft=True):
        row = get_message(connection, draft_id)
        origin = Origin(draft_id=draft_id, reply_to=row["in_reply_to"])
        draft = saved_draft(row)
    elif reply_to := _message_id(args.get("reply") or args.get("reply_all"), draft=False):
        reply_all = not args.get("reply") and bool(args.get("reply_all"))
        draft = reply_draft(get_message(connection, reply_to), g.user["email"], reply_all)
        origin = Origin(reply_to=reply_to)
    elif forward_of := _message_id(args.get("forward"), draft=False):
        draft = forward_draft(get_message(connection, forward_of))
        origin = Origin(forward_of=forward_of)
    return _render(draft, origin)


def validate(draft: Draft, sending: bool) -> tuple[dict[str, str], dict[str, str]]:
    """Normalised address lists and the errors of each field (keyed by field name)."""
    errors: dict[str, str] = {}
    addresses: dict[str, str] = {}
    for name, title in ADDRESS_FIELDS.items():
        parsed = parse_addresses(getattr(draft, name))
        addresses[name] = join_addresses(parsed.valid)
        if parsed.invalid:
            shown = (
                parsed.invalid[0] if len(parsed.invalid[0]) <= 60 else parsed.invalid[0][:57] + "…"
            )
            errors[name] = f"{title}: “{shown}” is not a valid email address."
    if sending and not any(addresses.values()) and not errors:
        errors["to"] = "Add at least one recipient."
    if len(draft.subject) > MAX_SUBJECT:
        errors["subject"] = f"The subject is too long: use at most {MAX_SUBJECT} characters."
    if len(draft.body) > MAX_BODY:
        errors["body"] = f"The message is too long: use at most {MAX_BODY:,} characters."
    return addresses, errors


def _store(
    connection: sqlite3.Connection,
    draft: Draft,
    addresses: dict[str, str],
    origin: Origin,
    sending: bool,
) -> tuple[int, int]:
    """Save the message as sent or as a draft; return its id and thread id."""
    now = world_now().replace(microsecond=0).isoformat()
    columns = {
        "folder": "sent" if sending else "drafts",
        "sender": g.user["email"],
        "sender_name": g.user["name"],
        "recipients": addresses["to"],
        "cc": addresses["cc"],
        "bcc": addresses["bcc"],
        "subject": draft.subject,
        "body": draft.body,
        "sent_at": now,
        "is_read": True,
        "is_draft": not sending,
    }
    if origin.draft_id is not None:
        assignments = ", ".join(f"{column} = ?" for column in columns)
        connection.execute(
            f"UPDATE messages SET {assignments} WHERE id = ?", [*columns.values(), origin.draft_id]
        )
        message_id = origin.draft_id
        thread_id = get_message(connection, message_id)["thread_id"]
        sync_thread_subject(connection, thread_id, draft.subject)
        return message_id, thread_id
    source = origin.reply_to or origin.forward_of
    if source is not None:
        thread_id = get_message(connection, source)["thread_id"]
    else:
        thread_id = create_thread(connection, draft.subject)
    message_id = insert_message(
        connection,
        NewMessage(thread_id=thread_id, in_reply_to=origin.reply_to, created_at=now, **columns),
    )
    if origin.forward_of is not None:
        copy_attachments(connection, origin.forward_of, message_id)
    return message_id, thread_id


@bp.route("/compose", methods=("POST",))
@login_required
def submit() -> tuple[str, int] | Response:
    """Send the message, save it as a draft, or discard the draft."""
    form = request.form
    draft = Draft(**{name: form.get(name, "") for name in asdict(Draft())})
    draft.body = draft.body.replace("\r\n", "\n")
    origin = Origin(
        draft_id=_message_id(form.get("draft_id"), draft=True),
        reply_to=_message_id(form.get("reply_to"), draft=False),
        forward_of=_message_id(form.get("forward_of"), draft=False),
    )
    action = form.get("action", "send")
    connection = get_db()
    if action == "discard":
        if origin.draft_id is not None:
            with connection:
                connection.execute("DELETE FROM messages WHERE id = ?", (origin.draft_id,))
        flash("Draft discarded.", "info")
        return redirect(url_for("mailbox.inbox"))
    sending = action != "save"
    addresses, errors = validate(draft, sending)
    if errors:
        return _render(draft, origin, errors)
    with connection:
        message_id, thread_id = _store(connection, draft, addresses, origin, sending)
    if not sending:
        flash("Draft saved.", "info")
        return redirect(url_for("compose.compose", draft=message_id))
    flash("Message sent.", "info")
    return redirect(url_for("thread.view", thread_id=thread_id, _anchor=f"message-{message_id}"))

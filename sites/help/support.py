"""Contacting support: the contact form, My tickets, a ticket's conversation and replies."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from ..common import Message, parse_now
from .auth import login_required
from .db import get_db
from .tickets import (
    MESSAGE_MAX,
    STATUS_LABELS,
    SUBJECT_MAX,
    TOPICS,
    add_reply,
    open_ticket,
    validate_reply,
    validate_ticket,
)

bp = Blueprint("support", __name__)

SENDER = "support@help.northwindmarket.example"


def now() -> Any:
    return parse_now(current_app.config["NOW"])


def own_ticket(number: str) -> sqlite3.Row:
    found = (
        get_db()
        .execute("SELECT * FROM tickets WHERE number = ? AND user_id = ?", (number, g.user["id"]))
        .fetchone()
    )
    if found is None:
        abort(404)
    return found


def author() -> str:
    return f"{g.user['first_name']} {g.user['last_name']}"


def render_contact(values: dict[str, str], errors: dict[str, str], status: int = 200) -> Any:
    page = render_template(
        "contact.html",
        topics=TOPICS,
        values=values,
        errors=errors,
        subject_max=SUBJECT_MAX,
        message_max=MESSAGE_MAX,
    )
    return page, status


@bp.route("/contact", methods=("GET", "POST"))
@login_required
def contact() -> Any:
    if request.method == "GET":
        topic = request.args.get("topic", "")
        return render_contact({"topic": topic if topic in TOPICS else ""}, {})
    values, errors = validate_ticket(request.form)
    if errors:
        return render_contact(values, errors, 400)
    number = open_ticket(get_db(), g.user["id"], values, author(), now())
    send_confirmation(number, values)
    flash(f"Thank you. Your request {number} has been sent to our support team.")
    return redirect(url_for("support.ticket", number=number))


def send_confirmation(number: str, values: dict[str, str]) -> None:
    """E-mail the customer that their request was received, if the world delivers mail."""
    deliver = current_app.config.get("SEND_MAIL")
    if deliver is None:
        return
    lines = [
        f"Hello {g.user['first_name']},",
        "",
        "We have received your request and a member of our support team will reply within "
        "one working day.",
        "",
        f"Request number: {number}",
        f"Topic: {values['topic']}",
    ]
    if values["reference"]:
        lines.append(f"Reference: {values['reference']}")
    lines += [
        f"Subject: {values['subject']}",
        "",
        "You can follow your request under My tickets in the help centre.",
        "",
        "Northwind Help Centre",
    ]
    deliver(
        Message(
            sender=SENDER,
            sender_name="Northwind Help Centre",
            to=g.user["email"],
            subject=f"We received your request {number}: {values['subject']}",
            body="\n".join(lines),
            date=now(),
        )
    )


@bp.route("/tickets")
@login_required
def tickets() -> str:
    rows = (
        get_db()
        .execute(
            "SELECT * FROM tickets WHERE user_id = ? ORDER BY created_at DESC, id DESC",
            (g.user["id"],),
        )
        .fetchall()
    )
    return render_template("tickets.html", tickets=rows, status_labels=STATUS_LABELS)


def render_ticket(found: sqlite3.Row, errors: dict[str, str], reply: str = "") -> str:
    messages = (
        get_db()
        .execute(
            "SELECT * FROM ticket_messages WHERE ticket_id = ? ORDER BY created_at, id",
            (found["id"],),
        )
        .fetchall()
    )
    return render_template(
        "ticket.html",
        ticket=found,
        messages=messages,
        status_labels=STATUS_LABELS,
        errors=errors,
        reply=reply,
    )


@bp.route("/tickets/<number>")
@login_required
def ticket(number: str) -> str:
    return render_ticket(own_ticket(number), {})


@bp.post("/tickets/<number>/reply")
@login_required
def reply(number: str) -> Response | tuple[str, int]:
    found = own_ticket(number)
    if found["status"] == "resolved":
        return render_ticket(found, {"message": "This request is resolved. Open a new one."}), 400
    message, errors = validate_reply(request.form)
    if errors:
        return render_ticket(found, errors, message), 400
    add_reply(get_db(), found, author(), message, now())
    flash("Your reply has been sent.")
    return redirect(url_for("support.ticket", number=number))

"""One event: its page, the form that creates or edits it (one occurrence or the whole
series), deleting or cancelling it, and answering an invitation."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from . import store
from .auth import login_required
from .clock import now_utc, stamp, to_local, zone_name
from .db import get_db
from .forms import EventForm, read_form
from .mailing import send_reply
from .views import shown, today, user_zone

bp = Blueprint("events", __name__)

RESPONSES = {"accepted": "Accepted", "declined": "Declined", "tentative": "Tentative"}
SCOPES = ("occurrence", "series")


def _event_or_404(event_id: int) -> sqlite3.Row:
    row = store.event(get_db(), event_id)
    if row is None:
        abort(404, description="There is no such event in your calendar.")
    me = g.user["email"]
    invited = any(guest["email"] == me for guest in store.invitees(get_db(), event_id))
    if row["organizer_email"] != me and not invited:
        abort(404, description="There is no such event in your calendar.")
    return row


def _own_or_403(row: sqlite3.Row) -> None:
    if row["organizer_email"] != g.user["email"]:
        abort(403, description="Only the organizer can change this event; reply to it instead.")


def _scope() -> str:
    scope = request.values.get("scope", "occurrence")
    if scope not in SCOPES:
        abort(400, description="Choose to change this occurrence or the whole series.")
    return scope


@bp.route("/event/<int:event_id>")
@login_required
def view(event_id: int) -> str:
    row = _event_or_404(event_id)
    zone, conn, me = user_zone(), get_db(), g.user["email"]
    event = shown(row, zone)
    guests = store.invitees(conn, event_id)
    my_response = next((guest["response"] for guest in guests if guest["email"] == me), None)
    overlapping = []
    if row["status"] == "confirmed" and my_response != "declined":
        overlapping = [
            shown(other, zone)
            for other in store.conflicts(conn, me, row["starts_at"], row["ends_at"], event_id)
        ]
    organizer = store.person(conn, row["organizer_email"])
    elsewhere = None
    if organizer is not None and organizer["timezone"] != zone:
        elsewhere = {
            "zone": zone_name(organizer["timezone"]),
            "start": to_local(row["starts_at"], organizer["timezone"]),
            "end": to_local(row["ends_at"], organizer["timezone"]),
        }
    return render_template(
        "event.html",
        event=event,
        guests=[guest for guest in guests if guest["email"] != me or not event["mine"]],
        organizer=organizer,
        my_response=my_response,
        overlapping=overlapping,
        elsewhere=elsewhere,
        responses=RESPONSES,
        zone=zone_name(zone),
    )


def _form_values(row: sqlite3.Row, zone: str) -> dict[str, str]:
    start, end = to_local(row["starts_at"], zone), to_local(row["ends_at"], zone)
    emails = [guest["email"] for guest in store.invitees(get_db(), row["id"])]
    return {
        "title": row["title"],
        "date": start.date().isoformat(),
        "start": start.strftime("%H:%M"),
        "end": end.strftime("%H:%M"),
        "location": row["location"],
        "description": row["description"],
        "invitees": ", ".join(emails),
    }


def _overlaps(form: EventForm, leave_out: list[int]) -> list[dict[str, Any]]:
    if form.errors:
        return []
    rows = store.conflicts(get_db(), g.user["email"], form.starts_at, form.ends_at)
    return [shown(row, user_zone()) for row in rows if row["id"] not in leave_out]


def _render_form(form: EventForm, overlapping: list[dict[str, Any]], **context: Any) -> Any:
    status = 422 if form.errors else 200
    page = render_template(
        "event_form.html",
        values=form.values,
        errors=form.errors,
        overlapping=overlapping,
        zone=zone_name(user_zone()),
        **context,
    )
    return page, status


@bp.route("/event/new", methods=("GET", "POST"))
@login_required
def new() -> Any:
    zone, conn, me = user_zone(), get_db(), g.user["email"]
    if request.method == "GET":
        day = request.args.get("date") or today().isoformat()
        values = {"title": "", "date": day, "start": "09:00", "end": "09:30"}
        values |= {"location": "", "description": "", "invitees": ""}
        return _render_form(EventForm(values), [], action="Create event", event=None)
    form = read_form(request.form, conn, zone, me)
    overlapping = _overlaps(form, [])
    if form.errors or (overlapping and not request.form.get("save_anyway")):
        return _render_form(form, overlapping, action="Create event", event=None)
    with conn:
        cursor = conn.execute(
            "INSERT INTO events (title, starts_at, ends_at, location, description,"
            " organizer_email, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                form.values["title"],
                form.starts_at,
                form.ends_at,
                form.values["location"],
                form.values["description"],
                me,
                stamp(now_utc()),
            ),
        )
        event_id = int(cursor.lastrowid or 0)
        conn.executemany(
            "INSERT INTO invitees (event_id, email, name) VALUES (?, ?, ?)",
            [(event_id, email, name) for email, name in form.guests],
        )
    flash(f"Created “{form.values['title']}”.")
    return redirect(url_for("events.view", event_id=event_id))


@bp.route("/event/<int:event_id>/edit", methods=("GET", "POST"))
@login_required
def edit(event_id: int) -> Any:
    row = _event_or_404(event_id)
    _own_or_403(row)
    scope = _scope() if row["series_id"] else "occurrence"
    zone, conn, me = user_zone(), get_db(), g.user["email"]
    context = {"action": "Save changes", "event": row, "scope": scope}
    if request.method == "GET":
        return _render_form(EventForm(_form_values(row, zone)), [], **context)
    form = read_form(request.form, conn, zone, me)
    targets = [row]
    if scope == "series":
        targets = [
            other
            for other in store.occurrences(conn, row["series_id"])
            if other["starts_at"] >= row["starts_at"]
            and not other["is_exception"]
            and other["status"] == "confirmed"
        ] or [row]
    shift = timedelta()
    if not form.errors:
        shift = datetime.fromisoformat(form.starts_at) - datetime.fromisoformat(row["starts_at"])
    overlapping = _overlaps(form, [other["id"] for other in targets])
    if form.errors or (overlapping and not request.form.get("save_anyway")):
        return _render_form(form, overlapping, **context)
    length = datetime.fromisoformat(form.ends_at) - datetime.fromisoformat(form.starts_at)
    with conn:
        for target in targets:
            start = datetime.fromisoformat(target["starts_at"]) + shift
            conn.execute(
                "UPDATE events SET title = ?, starts_at = ?, ends_at = ?, location = ?,"
                " description = ?, is_exception = ?, updated_at = ? WHERE id = ?",
                (
                    form.values["title"],
                    stamp(start),
                    stamp(start + length),
                    form.values["location"],
                    form.values["description"],
                    1 if row["series_id"] and scope == "occurrence" else target["is_exception"],
                    stamp(now_utc()),
                    target["id"],
                ),
            )
            _set_guests(conn, target["id"], form.guests)
    flash("Saved the whole series." if scope == "series" else "Saved your changes.")
    return redirect(url_for("events.view", event_id=event_id))


def _set_guests(conn: sqlite3.Connection, event_id: int, guests: list[tuple[str, str]]) -> None:
    """Keep the replies of invitees who stay; add the new ones; drop the others."""
    kept = {email for email, _name in guests}
    for guest in store.invitees(conn, event_id):
        if guest["email"] not in kept:
            conn.execute(
                "DELETE FROM invitees WHERE event_id = ? AND email = ?", (event_id, guest["email"])
            )
    conn.executemany(
        "INSERT OR IGNORE INTO invitees (event_id, email, name) VALUES (?, ?, ?)",
        [(event_id, email, name) for email, name in guests],
    )


@bp.route("/event/<int:event_id>/delete", methods=("POST",))
@login_required
def delete(event_id: int) -> Response:
    row = _event_or_404(event_id)
    _own_or_403(row)
    conn = get_db()
    with conn:
        if row["series_id"] is None:
            conn.execute("DELETE FROM events WHERE id = ?", (event_id,))
            message = f"Deleted “{row['title']}”."
        elif _scope() == "occurrence":
            conn.execute(
                "UPDATE events SET status = 'cancelled', is_exception = 1, updated_at = ?"
                " WHERE id = ?",
                (stamp(now_utc()), event_id),
            )
            message = "Cancelled this occurrence."
        else:
            conn.execute(
                "UPDATE events SET status = 'cancelled', updated_at = ? WHERE series_id = ?"
                " AND starts_at >= ?",
                (stamp(now_utc()), row["series_id"], row["starts_at"]),
            )
            message = "Cancelled this and every later occurrence of the series."
    flash(message)
    day = to_local(row["starts_at"], user_zone()).date()
    return redirect(url_for("views.week", date=day.isoformat()))


@bp.route("/event/<int:event_id>/respond", methods=("POST",))
@login_required
def respond(event_id: int) -> Response:
    row = _event_or_404(event_id)
    me = g.user["email"]
    response = request.form.get("response", "")
    if row["organizer_email"] == me:
        abort(400, description="You organize this event: there is no invitation to answer.")
    if response not in RESPONSES:
        abort(400, description="Answer the invitation with Yes, No or Maybe.")
    conn = get_db()
    with conn:
        conn.execute(
            "UPDATE invitees SET response = ? WHERE event_id = ? AND email = ?",
            (response, event_id, me),
        )
        conn.execute(
            "INSERT INTO replies (event_id, organizer_email, response, sent_at)"
            " VALUES (?, ?, ?, ?)",
            (event_id, row["organizer_email"], response, stamp(now_utc())),
        )
    send_reply(conn, row, g.user, response)
    flash(f"{RESPONSES[response]}: a reply was sent to the organizer.")
    return redirect(url_for("events.view", event_id=event_id))

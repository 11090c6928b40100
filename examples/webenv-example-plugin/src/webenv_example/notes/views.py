"""Jotter's pages: signing in, the notes, a notebook, one note (pin, archive) and the archive."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for
from webenv.sites.common import same_site_path
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from .db import get_db

bp = Blueprint("notes", __name__)


@bp.before_app_request
def load_signed_in_user() -> None:
    """Put the signed-in user (or None) on ``g.user``, and the sidebar's notebooks."""
    user_id = session.get("user_id")
    g.user, g.notebooks = None, []
    if isinstance(user_id, int):
        conn = get_db()
        g.user = conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        if g.user is not None:
            g.notebooks = conn.execute(
                "SELECT * FROM notebooks WHERE user_id = ? ORDER BY name", (user_id,)
            ).fetchall()


def login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Send visitors who are not signed in to the sign-in page, then back."""

    @functools.wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if g.user is None:
            return redirect(url_for("notes.login", next=request.full_path.rstrip("?")))
        return view(**kwargs)

    return wrapped


@bp.route("/login", methods=("GET", "POST"))
def login() -> Any:
    """The sign-in form: username or e-mail address, and password."""
    next_url = same_site_path(request.values.get("next"), url_for("notes.home"), request.host)
    error, login_name = None, request.form.get("login", "").strip()
    if request.method == "POST":
        user = (
            get_db()
            .execute(
                "SELECT * FROM users WHERE lower(username) = lower(?) OR lower(email) = lower(?)",
                (login_name, login_name),
            )
            .fetchone()
        )
        password = request.form.get("password", "")
        if not login_name or not password:
            error = "Enter your username or email and your password."
        elif user is None or not check_password_hash(user["password_hash"], password):
            error = "Incorrect username, email or password."
        else:
            session.clear()
            session["user_id"] = user["id"]
            return redirect(next_url)
    elif g.user is not None:
        return redirect(next_url)
    page = render_template("login.html", error=error, login_name=login_name, next_url=next_url)
    return page, 200 if error is None else 401


@bp.route("/logout", methods=("POST",))
def logout() -> Response:
    session.clear()
    return redirect(url_for("notes.login"))


def _notes(where: str, *params: Any) -> list[Any]:
    return (
        get_db()
        .execute(
            "SELECT notes.*, notebooks.name AS notebook FROM notes"
            " JOIN notebooks ON notebooks.id = notes.notebook_id"
            f" WHERE notes.user_id = ? AND {where} ORDER BY notes.pinned DESC, notes.title",
            (g.user["id"], *params),
        )
        .fetchall()
    )


@bp.route("/")
@login_required
def home() -> str:
    """Every note that is not archived, pinned ones first."""
    return render_template("list.html", heading="All notes", notes=_notes("archived = 0"))


@bp.route("/notebooks/<int:notebook_id>")
@login_required
def notebook(notebook_id: int) -> str:
    """One notebook's notes that are not archived."""
    found = (
        get_db()
        .execute(
            "SELECT * FROM notebooks WHERE id = ? AND user_id = ?", (notebook_id, g.user["id"])
        )
        .fetchone()
    )
    if found is None:
        abort(404, "There is no such notebook.")
    notes = _notes("archived = 0 AND notebook_id = ?", notebook_id)
    return render_template("list.html", heading=found["name"], notes=notes, current=notebook_id)


@bp.route("/archive")
@login_required
def archive() -> str:
    return render_template("list.html", heading="Archive", notes=_notes("archived = 1"))


def _own_note(note_id: int) -> Any:
    found = _notes("notes.id = ?", note_id)
    if not found:
        abort(404, "There is no such note.")
    return found[0]


@bp.route("/notes/<int:note_id>")
@login_required
def note(note_id: int) -> str:
    return render_template("note.html", note=_own_note(note_id))


@bp.route("/notes/<int:note_id>/pin", methods=("POST",))
@login_required
def pin(note_id: int) -> Response:
    """Pin the note, or unpin it."""
    found = _own_note(note_id)
    with get_db() as conn:
        conn.execute("UPDATE notes SET pinned = ? WHERE id = ?", (1 - found["pinned"], note_id))
    flash(f"{'Unpinned' if found['pinned'] else 'Pinned'} “{found['title']}”.")
    return redirect(url_for("notes.note", note_id=note_id))


@bp.route("/notes/<int:note_id>/archive", methods=("POST",))
@login_required
def archive_note(note_id: int) -> Response:
    """Archive the note (or restore it from the archive)."""
    found = _own_note(note_id)
    with get_db() as conn:
        conn.execute("UPDATE notes SET archived = ? WHERE id = ?", (1 - found["archived"], note_id))
    flash(f"{'Restored' if found['archived'] else 'Archived'} “{found['title']}”.")
    return redirect(url_for("notes.home"))

"""The address book: list, add, edit and delete contacts."""

from __future__ import annotations

from sqlite3 import Row

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ..common import like_pattern
from .auth import login_required
from .db import get_db
from .validation import check_email, check_phone, check_text, normalize_phone

bp = Blueprint("contacts", __name__, url_prefix="/contacts")

FIELDS = ("name", "email", "phone", "company", "notes")


def _contact_or_404(contact_id: int) -> Row:
    row = (
        get_db()
        .execute("SELECT * FROM contacts WHERE id = ? AND user_id = ?", (contact_id, g.user["id"]))
        .fetchone()
    )
    if row is None:
        abort(404)
    return row


def read_form() -> dict[str, str]:
    """The submitted contact fields, trimmed; the e-mail address lower-cased, the phone number
    in the site's one form (``(555) 123-4567``)."""
    values = {name: request.form.get(name, "").strip() for name in FIELDS}
    values["email"] = values["email"].lower()
    values["phone"] = normalize_phone(values["phone"])
    values["notes"] = values["notes"].replace("\r\n", "\n")
    return values


def validate(values: dict[str, str], contact_id: int | None) -> dict[str, str]:
    """The errors of each field (keyed by field name)."""
    errors = {
        "name": check_text(values["name"], "a name", required=True, max_length=100),
        "email": check_email(values["email"]),
        "phone": check_phone(values["phone"]),
        "company": check_text(values["company"], "the company", required=False, max_length=100),
        "notes": check_text(values["notes"], "the notes", required=False, max_length=2000),
    }
    if errors["email"] is None:
        duplicate = (
            get_db()
            .execute(
                "SELECT name FROM contacts WHERE user_id = ? AND email = ? AND id IS NOT ?",
                (g.user["id"], values["email"], contact_id),
            )
            .fetchone()
        )
        if duplicate is not None:
            errors["email"] = f"{duplicate['name']} already has this email address."
    return {name: error for name, error in errors.items() if error}


@bp.route("")
@login_required
def index() -> str:
    """All contacts by name, optionally filtered by name, e-mail or company."""
    query = request.args.get("q", "").strip()[:200]
    pattern = like_pattern(query)
    contacts = (
        get_db()
        .execute(
            "SELECT * FROM contacts WHERE user_id = ? AND"
            " (name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR company LIKE ? ESCAPE '\\')"
            " ORDER BY name COLLATE NOCASE, id",
            (g.user["id"], pattern, pattern, pattern),
        )
        .fetchall()
    )
    return render_template("contacts/index.html", contacts=contacts, query=query)


def _form(values: dict[str, str], errors: dict[str, str], contact: Row | None) -> tuple[str, int]:
    return render_template(
        "contacts/form.html", values=values, errors=errors, contact=contact
    ), 400 if errors else 200


@bp.route("/new", methods=("GET", "POST"))
@login_required
def create() -> tuple[str, int] | Response:
    """Add a contact."""
    if request.method == "GET":
        return _form(dict.fromkeys(FIELDS, ""), {}, None)
    values = read_form()
    errors = validate(values, None)
    if errors:
        return _form(values, errors, None)
    with get_db() as connection:
        connection.execute(
            "INSERT INTO contacts (user_id, name, email, phone, company, notes)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (g.user["id"], *(values[name] for name in FIELDS)),
        )
    flash(f"Added {values['name']} to your contacts.", "info")
    return redirect(url_for("contacts.index"))


@bp.route("/<int:contact_id>/edit", methods=("GET", "POST"))
@login_required
def edit(contact_id: int) -> tuple[str, int] | Response:
    """Change a contact's details."""
    contact = _contact_or_404(contact_id)
    if request.method == "GET":
        return _form({name: contact[name] for name in FIELDS}, {}, contact)
    values = read_form()
    errors = validate(values, contact_id)
    if errors:
        return _form(values, errors, contact)
    with get_db() as connection:
        connection.execute(
            "UPDATE contacts SET name = ?, email = ?, phone = ?, company = ?, notes = ?"
            " WHERE id = ?",
            (*(values[name] for name in FIELDS), contact_id),
        )
    flash(f"Saved {values['name']}.", "info")
    return redirect(url_for("contacts.index"))


@bp.route("/<int:contact_id>/delete", methods=("POST",))
@login_required
def delete(contact_id: int) -> Response:
    """Remove a contact from the address book (their messages stay)."""
    contact = _contact_or_404(contact_id)
    with get_db() as connection:
        connection.execute("DELETE FROM contacts WHERE id = ?", (contact_id,))
    flash(f"Deleted {contact['name']} from your contacts.", "info")
    return redirect(url_for("contacts.index"))

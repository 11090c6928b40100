"""The address book: add, edit, delete addresses and choose the default one."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .auth import login_required
from .db import get_db
from .regions import COUNTRY, STATES
from .validation import Errors, clean_text, validate_address

bp = Blueprint("addresses", __name__, url_prefix="/account/addresses")


def own_address(address_id: int) -> sqlite3.Row:
    address = (
        get_db()
        .execute("SELECT * FROM addresses WHERE id = ? AND user_id = ?", (address_id, g.user["id"]))
        .fetchone()
    )
    if address is None:
        abort(404)
    return address


@bp.route("")
@login_required
def book() -> str:
    addresses = (
        get_db()
        .execute(
            "SELECT * FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id",
            (g.user["id"],),
        )
        .fetchall()
    )
    return render_template("account/addresses.html", addresses=addresses)


def render_form(
    address: sqlite3.Row | None, values: dict[str, str], errors: Errors, status: int = 200
) -> tuple[str, int]:
    page = render_template(
        "account/address_form.html", address=address, values=values, errors=errors, states=STATES
    )
    return page, status


def read_form() -> tuple[dict[str, str], Errors]:
    address, errors = validate_address(request.form)
    address["label"] = clean_text(request.form, "label", "Enter a label, like Home.", 30, errors)
    return address, errors


def make_default(conn: sqlite3.Connection, address_id: int) -> None:
    conn.execute(
        "UPDATE addresses SET is_default = (id = ?) WHERE user_id = ?", (address_id, g.user["id"])
    )


@bp.route("/new", methods=("GET", "POST"))
@login_required
def add() -> Response | tuple[str, int]:
    if request.method == "GET":
        return render_form(None, {}, {})
    address, errors = read_form()
    if errors:
        return render_form(None, request.form.to_dict(), errors, 400)
    conn = get_db()
    address_id = conn.execute(
        "INSERT INTO addresses (user_id, label, name, street, city, state, zip, country, phone)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            g.user["id"],
            address["label"],
            address["name"],
            address["street"],
            address["city"],
            address["state"],
            address["zip"],
            COUNTRY,
            address["phone"],
        ),
    ).lastrowid
    has_default = conn.execute(
        "SELECT 1 FROM addresses WHERE user_id = ? AND is_default = 1", (g.user["id"],)
    ).fetchone()
    if request.form.get("is_default") == "1" or not has_default:
        make_default(conn, address_id)
    conn.commit()
    flash(f"Address “{address['label']}” added.")
    return redirect(url_for("addresses.book"))


@bp.route("/<int(max=999999999):address_id>/edit", methods=("GET", "POST"))
@login_required
def edit(address_id: int) -> Response | tuple[str, int]:
    existing = own_address(address_id)
    if request.method == "GET":
        return render_form(existing, dict(existing), {})
    address, errors = read_form()
    if errors:
        return render_form(existing, request.form.to_dict(), errors, 400)
    conn = get_db()
    conn.execute(
        "UPDATE addresses SET label = ?, name = ?, street = ?, city = ?, state = ?, zip = ?,"
        " phone = ? WHERE id = ?",
        (
            address["label"],
            address["name"],
            address["street"],
            address["city"],
            address["state"],
            address["zip"],
            address["phone"],
            address_id,
        ),
    )
    if request.form.get("is_default") == "1":
        make_default(conn, address_id)
    conn.commit()
    flash(f"Address “{address['label']}” updated.")
    return redirect(url_for("addresses.book"))


@bp.post("/<int(max=999999999):address_id>/delete")
@login_required
def delete(address_id: int) -> Response:
    address = own_address(address_id)
    conn = get_db()
    conn.execute("DELETE FROM addresses WHERE id = ?", (address_id,))
    if address["is_default"]:
        successor = conn.execute(
            "SELECT id FROM addresses WHERE user_id = ? ORDER BY id LIMIT 1", (g.user["id"],)
        ).fetchone()
        if successor is not None:
            make_default(conn, successor["id"])
    conn.commit()
    flash(f"Address “{address['label']}” deleted.")
    return redirect(url_for("addresses.book"))


@bp.post("/<int(max=999999999):address_id>/default")
@login_required
def set_default(address_id: int) -> Response:
    address = own_address(address_id)
    conn = get_db()
    make_default(conn, address_id)
    conn.commit()
    flash(f"“{address['label']}” is now your default address.")
    return redirect(url_for("addresses.book"))

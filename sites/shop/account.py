"""The customer's account: overview, profile and newsletter settings, password change."""

from __future__ import annotations

from flask import Blueprint, flash, g, redirect, render_template, request, url_for
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from .auth import login_required
from .cards import is_expired
from .clock import now
from .db import get_db
from .validation import Errors, validate_profile

bp = Blueprint("account", __name__, url_prefix="/account")

MIN_PASSWORD_LENGTH = 8


@bp.route("")
@login_required
def overview() -> str:
    conn = get_db()
    user_id = g.user["id"]
    cards = conn.execute(
        "SELECT * FROM payment_methods WHERE user_id = ? ORDER BY is_default DESC, id", (user_id,)
    ).fetchall()
    address = conn.execute(
        "SELECT * FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id LIMIT 1",
        (user_id,),
    ).fetchone()
    counts = conn.execute(
        "SELECT (SELECT COUNT(*) FROM orders WHERE user_id = :u) AS orders,"
        " (SELECT COUNT(*) FROM wishlist_items WHERE user_id = :u) AS wishlist",
        {"u": user_id},
    ).fetchone()
    expired = {
        card["id"] for card in cards if is_expired(card["exp_month"], card["exp_year"], now())
    }
    return render_template(
        "account/overview.html", cards=cards, address=address, counts=counts, expired=expired
    )


def render_settings(
    profile_errors: Errors | None = None,
    password_errors: Errors | None = None,
    values: dict[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    page = render_template(
        "account/settings.html",
        profile_errors=profile_errors or {},
        password_errors=password_errors or {},
        values=values if values is not None else dict(g.user),
    )
    return page, status


@bp.route("/settings", methods=("GET", "POST"))
@login_required
def settings() -> Response | tuple[str, int]:
    if request.method == "GET":
        return render_settings()
    profile, errors = validate_profile(request.form)
    newsletter = int(request.form.get("newsletter") == "1")
    if errors:
        return render_settings(
            errors, values={**request.form.to_dict(), "newsletter": newsletter}, status=400
        )
    conn = get_db()
    conn.execute(
        "UPDATE users SET first_name = ?, last_name = ?, email = ?, phone = ?, newsletter = ?"
        " WHERE id = ?",
        (
            profile["first_name"],
            profile["last_name"],
            profile["email"],
            profile["phone"],
            newsletter,
            g.user["id"],
        ),
    )
    conn.commit()
    flash("Your account settings have been saved.")
    return redirect(url_for("account.settings"))


@bp.post("/password")
@login_required
def change_password() -> Response | tuple[str, int]:
    current = request.form.get("current_password", "")
    new = request.form.get("new_password", "")
    errors: Errors = {}
    if not check_password_hash(g.user["password_hash"], current):
        errors["current_password"] = "Your current password is incorrect."
    if len(new) < MIN_PASSWORD_LENGTH:
        errors["new_password"] = f"Use at least {MIN_PASSWORD_LENGTH} characters."
    elif len(new) > 200:
        errors["new_password"] = "Use at most 200 characters."
    elif new != request.form.get("confirm_password", ""):
        errors["confirm_password"] = "The new passwords do not match."
    if errors:
        return render_settings(password_errors=errors, status=400)
    conn = get_db()
    conn.execute(
        "UPDATE users SET password_hash = ? WHERE id = ?",
        (generate_password_hash(new), g.user["id"]),
    )
    conn.commit()
    flash("Your password has been changed.")
    return redirect(url_for("account.settings"))

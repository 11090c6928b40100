"""Signing in and out; every other page requires a signed-in user."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, g, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from .db import get_db
from .navigation import safe_next

bp = Blueprint("auth", __name__)


@bp.before_app_request
def load_signed_in_user() -> None:
    """Put the signed-in user (or None) on ``g.user``."""
    user_id = session.get("user_id")
    g.user = None
    if isinstance(user_id, int):
        g.user = get_db().execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()


def login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """Send visitors who are not signed in to the sign-in page, then back."""

    @functools.wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if g.user is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(**kwargs)

    return wrapped


@bp.route("/login", methods=("GET", "POST"))
def login() -> str | Response:
    """The sign-in form: e-mail address or username, and password."""
    next_url = safe_next(request.values.get("next"))
    if g.user is not None and request.method == "GET":
        return redirect(next_url)
    error = None
    login_name = request.form.get("login", "").strip()
    if request.method == "POST":
        password = request.form.get("password", "")
        user = (
            get_db()
            .execute(
                "SELECT * FROM users WHERE lower(username) = lower(?) OR lower(email) = lower(?)",
                (login_name, login_name),
            )
            .fetchone()
        )
        if not login_name or not password:
            error = "Enter your email or username and your password."
        elif user is None or not check_password_hash(user["password_hash"], password):
            error = "Incorrect email, username or password."
        else:
            session.clear()
            session["user_id"] = user["id"]
            return redirect(next_url)
    status = 200 if error is None else 401
    return render_template(
        "auth/login.html", error=error, login_name=login_name, next_url=next_url
    ), status


@bp.route("/logout", methods=("POST",))
def logout() -> Response:
    """Sign out and return to the sign-in page."""
    session.clear()
    return redirect(url_for("auth.login"))

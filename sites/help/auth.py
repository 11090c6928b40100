"""Signing in and out of the help centre, and knowing who is signed in."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, g, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from ..common import same_site_path
from .db import get_db

bp = Blueprint("auth", __name__)


@bp.before_app_request
def load_signed_in_user() -> None:
    user_id = session.get("user_id")
    g.user = (
        get_db().execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        if isinstance(user_id, int)
        else None
    )


def login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if g.user is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(**kwargs)

    return wrapped


@bp.route("/login", methods=("GET", "POST"))
def login() -> Any:
    errors: dict[str, str] = {}
    username = ""
    if request.method == "POST":
        username = request.form.get("username", "").strip()[:200]
        password = request.form.get("password", "")[:200]
        if not username:
            errors["username"] = "Enter your username."
        if not password:
            errors["password"] = "Enter your password."
        if not errors:
            user = (
                get_db()
                .execute("SELECT * FROM users WHERE username = ?", (username.lower(),))
                .fetchone()
            )
            if user is None or not check_password_hash(user["password_hash"], password):
                errors["username"] = "Incorrect username or password."
            else:
                session.clear()
                session["user_id"] = user["id"]
                target = request.args.get("next")
                return redirect(same_site_path(target, url_for("centre.home"), request.host))
    status = 422 if errors else 200
    return render_template("login.html", errors=errors, username=username), status


@bp.post("/logout")
def logout() -> Response:
    session.clear()
    return redirect(url_for("centre.home"))

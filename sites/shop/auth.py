"""Signing in and out, the signed-in customer of each request, and pages that need one."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from flask import (
    Blueprint,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from ..common import same_site_path
from .cart_model import merge_guest_cart
from .db import get_db

bp = Blueprint("auth", __name__)

View = TypeVar("View", bound=Callable[..., Any])

LOGIN_ERROR = "The username, email or password you entered is incorrect."


@bp.before_app_request
def load_signed_in_user() -> None:
    """Put the signed-in customer (or None) on ``g.user`` for the rest of the request."""
    user_id = session.get("user_id")
    g.user = None
    if isinstance(user_id, int):
        g.user = get_db().execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()


def login_required(view: View) -> View:
    """Send visitors who are not signed in to the sign-in page, then back here."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if g.user is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapped  # type: ignore[return-value]


def safe_next(target: str | None) -> str:
    """Where to go after signing in: a path on this site only, never another origin."""
    return same_site_path(target, url_for("catalog.home"), request.host)


def find_user(login: str) -> Any:
    return (
        get_db()
        .execute(
            "SELECT * FROM users WHERE username = ? OR lower(email) = lower(?)",
            (login, login),
        )
        .fetchone()
    )


@bp.route("/login", methods=("GET", "POST"))
def login() -> str | Response | tuple[str, int]:
    next_url = request.values.get("next", "")
    if g.user is not None and request.method == "GET":
        return redirect(safe_next(next_url))
    if request.method == "GET":
        return render_template("auth/login.html", next_url=next_url, login="", error=None)
    login_name = request.form.get("login", "").strip()
    password = request.form.get("password", "")
    user = find_user(login_name) if login_name else None
    if user is None or not check_password_hash(user["password_hash"], password):
        page = render_template(
            "auth/login.html", next_url=next_url, login=login_name, error=LOGIN_ERROR
        )
        return page, 401
    guest_token = session.get("cart_token")
    session.clear()
    session["user_id"] = user["id"]
    if isinstance(guest_token, str):
        merge_guest_cart(get_db(), guest_token, user["id"])
    return redirect(safe_next(next_url))


@bp.route("/logout", methods=("GET", "POST"))
def logout() -> Response:
    session.clear()
    return redirect(url_for("catalog.home"))

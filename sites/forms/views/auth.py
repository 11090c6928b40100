"""Signing in and out, and knowing who is signed in."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from flask import Blueprint, g, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash
from werkzeug.wrappers import Response

from ...common import same_site_path
from ..db import get_db
from ..drafts import claim_draft

bp = Blueprint("auth", __name__)


@bp.before_app_request
def load_signed_in_user() -> None:
    user_id = session.get("user_id")
    g.user = (
        get_db().execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
        if isinstance(user_id, int)
        else None
    )


def safe_next(target: str | None) -> str:
    """Where to go after signing in: a path on this site only."""
    return same_site_path(target, url_for("portal.account"), request.host)


def login_redirect() -> Response:
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


def login_required(view: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(view)
    def wrapped(**kwargs: Any) -> Any:
        if g.user is None:
            return login_redirect()
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
            errors["field-username"] = "Enter your username"
        if not password:
            errors["field-password"] = "Enter your password"
        if not errors:
            user = (
                get_db()
                .execute("SELECT * FROM users WHERE username = ?", (username.lower(),))
                .fetchone()
            )
            if user is None or not check_password_hash(user["password_hash"], password):
                errors["field-username"] = "Incorrect username or password"
            else:
                drafts = dict(session.get("drafts", {}))
                session.clear()
                session["user_id"] = user["id"]
                for draft_id in drafts.values():
                    claim_draft(get_db(), int(draft_id), user["id"])
                get_db().commit()
                session["drafts"] = drafts
                return redirect(safe_next(request.args.get("next")))
    status = 422 if errors else 200
    return render_template("login.html", errors=errors, username=username), status


@bp.route("/logout", methods=("POST",))
def logout() -> Response:
    session.clear()
    return redirect(url_for("portal.home"))

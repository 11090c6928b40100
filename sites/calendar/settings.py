"""The user's settings: the time zone every time is shown in."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, g, redirect, render_template, request, url_for

from .auth import login_required
from .clock import ZONES
from .db import get_db

bp = Blueprint("settings", __name__)


@bp.route("/settings", methods=("GET", "POST"))
@login_required
def settings() -> Any:
    error = ""
    if request.method == "POST":
        zone = request.form.get("timezone", "")
        if zone in ZONES:
            with get_db() as conn:
                conn.execute("UPDATE users SET timezone = ? WHERE id = ?", (zone, g.user["id"]))
            flash(f"Times are now shown in {ZONES[zone]}.")
            return redirect(url_for("settings.settings"))
        error = "Choose one of the time zones in the list."
    page = render_template("settings.html", zones=ZONES, current=g.user["timezone"], error=error)
    return page, 422 if error else 200

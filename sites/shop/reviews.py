"""Writing a product review; the product's rating and review count follow its reviews."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, flash, g, redirect, request, url_for
from werkzeug.wrappers import Response

from .auth import login_required
from .catalog import find_product, render_product
from .clock import now_stamp
from .db import get_db
from .validation import Errors, clean_text

bp = Blueprint("reviews", __name__)


def refresh_rating(conn: sqlite3.Connection, product_id: int) -> None:
    """Set a product's rating to the mean of its reviews (1 decimal) and count them."""
    conn.execute(
        "UPDATE products SET"
        " rating = COALESCE((SELECT ROUND(AVG(rating), 1) FROM reviews WHERE product_id = :p), 0),"
        " review_count = (SELECT COUNT(*) FROM reviews WHERE product_id = :p) WHERE id = :p",
        {"p": product_id},
    )


@bp.post("/p/<slug>/reviews")
@login_required
def write(slug: str) -> Response | tuple[str, int]:
    conn = get_db()
    product = find_product(slug)
    errors: Errors = {}
    rating = request.form.get("rating", "")
    if rating not in {"1", "2", "3", "4", "5"}:
        errors["rating"] = "Choose a rating from 1 to 5 stars."
    title = clean_text(request.form, "title", "Enter a title for your review.", 100, errors)
    body = request.form.get("body", "").strip()
    if not body:
        errors["body"] = "Write a few words about the product."
    elif len(body) > 2000:
        errors["body"] = "Use at most 2000 characters."
    already = conn.execute(
        "SELECT 1 FROM reviews WHERE product_id = ? AND user_id = ?",
        (product["id"], g.user["id"]),
    ).fetchone()
    if already:
        errors["rating"] = "You have already reviewed this product."
    if errors:
        return render_product(slug, review_errors=errors, values=request.form, status=400)
    author = f"{g.user['first_name']} {g.user['last_name'][:1]}.".strip()
    conn.execute(
        "INSERT INTO reviews (product_id, user_id, author, rating, title, body, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (product["id"], g.user["id"], author, int(rating), title, body, now_stamp()),
    )
    refresh_rating(conn, product["id"])
    conn.commit()
    flash("Thank you! Your review has been posted.")
    return redirect(url_for("catalog.product", slug=slug) + "#reviews")

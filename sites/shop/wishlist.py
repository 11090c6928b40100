"""The wishlist: products a customer saved for later."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, abort, flash, g, redirect, render_template, request
from werkzeug.wrappers import Response

from .auth import login_required, safe_next
from .clock import now_stamp
from .db import get_db
from .validation import parse_id

bp = Blueprint("wishlist", __name__)


@bp.route("/account/wishlist")
@login_required
def view() -> str:
    products = (
        get_db()
        .execute(
            "SELECT p.*, c.slug AS category_slug FROM wishlist_items w"
            " JOIN products p ON p.id = w.product_id JOIN categories c ON c.id = p.category_id"
            " WHERE w.user_id = ? ORDER BY w.created_at DESC, p.id",
            (g.user["id"],),
        )
        .fetchall()
    )
    return render_template("account/wishlist.html", products=products)


def posted_product() -> tuple[int, str]:
    product_id = parse_id(request.form.get("product_id", ""))
    product = (
        get_db().execute("SELECT id, name FROM products WHERE id = ?", (product_id,)).fetchone()
    )
    if product is None:
        abort(404)
    return product["id"], product["name"]


def save_product(conn: sqlite3.Connection, user_id: int, product_id: int, saved_at: str) -> None:
    """Save a product to a customer's wishlist (once: saving it again changes nothing)."""
    conn.execute(
        "INSERT OR IGNORE INTO wishlist_items (user_id, product_id, created_at) VALUES (?, ?, ?)",
        (user_id, product_id, saved_at),
    )


@bp.post("/wishlist/add")
@login_required
def add() -> Response:
    product_id, name = posted_product()
    conn = get_db()
    save_product(conn, g.user["id"], product_id, now_stamp())
    conn.commit()
    flash(f"Saved {name} to your wishlist.")
    return redirect(safe_next(request.form.get("next")))


@bp.post("/wishlist/remove")
@login_required
def remove() -> Response:
    product_id, name = posted_product()
    conn = get_db()
    conn.execute(
        "DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?",
        (g.user["id"], product_id),
    )
    conn.commit()
    flash(f"Removed {name} from your wishlist.")
    return redirect(safe_next(request.form.get("next")))

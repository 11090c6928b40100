"""Order history: the list of past orders, one order's details, and cancelling it."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, abort, flash, g, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .auth import login_required
from .clock import now
from .db import get_db
from .order_model import cancel_order, find_order, order_items
from .returns_model import return_deadline, returnable_quantities, within_window

bp = Blueprint("orders", __name__, url_prefix="/account/orders")

STATUS_LABELS = {
    "placed": "Order placed",
    "shipped": "Shipped",
    "delivered": "Delivered",
    "cancelled": "Cancelled",
    "returned": "Returned",
}


def own_order(number: str) -> sqlite3.Row:
    """The signed-in customer's order with this number, or a 404."""
    order = find_order(get_db(), g.user["id"], number)
    if order is None:
        abort(404)
    return order


@bp.route("")
@login_required
def history() -> str:
    orders = (
        get_db()
        .execute(
            "SELECT orders.*, (SELECT SUM(quantity) FROM order_items WHERE order_id = orders.id)"
            " AS item_count FROM orders WHERE user_id = ? ORDER BY created_at DESC, id DESC",
            (g.user["id"],),
        )
        .fetchall()
    )
    return render_template("orders/history.html", orders=orders, status_labels=STATUS_LABELS)


@bp.route("/<number>")
@login_required
def detail(number: str) -> str:
    conn = get_db()
    order = own_order(number)
    returns = conn.execute(
        "SELECT * FROM returns WHERE order_id = ? ORDER BY id", (order["id"],)
    ).fetchall()
    can_return = any(returnable_quantities(conn, order).values()) and within_window(order, now())
    return render_template(
        "orders/detail.html",
        order=order,
        items=order_items(conn, order["id"]),
        returns=returns,
        status_labels=STATUS_LABELS,
        can_return=can_return,
        return_deadline=return_deadline(order),
    )


@bp.post("/<number>/cancel")
@login_required
def cancel(number: str) -> Response:
    order = own_order(number)
    if cancel_order(get_db(), order):
        flash(f"Order {number} has been cancelled. You have not been charged.")
    else:
        flash(f"Order {number} has already shipped and can no longer be cancelled.")
    return redirect(url_for("orders.detail", number=number))

"""Returning items of a delivered order: the return form and the return's confirmation."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .auth import login_required
from .clock import now
from .db import get_db
from .order_model import order_items
from .orders import own_order
from .returns_model import (
    REASONS,
    REFUND_METHODS,
    cancel_return,
    record_return,
    return_deadline,
    returnable_quantities,
    within_window,
)
from .validation import Errors, parse_quantity

bp = Blueprint("returns", __name__)


def render_return_form(
    order: Any, errors: Errors, values: dict[str, str], status: int = 200
) -> tuple[str, int]:
    conn = get_db()
    page = render_template(
        "orders/return.html",
        order=order,
        items=order_items(conn, order["id"]),
        left=returnable_quantities(conn, order),
        open_window=within_window(order, now()),
        deadline=return_deadline(order),
        reasons=REASONS,
        refund_methods=REFUND_METHODS,
        errors=errors,
        values=values,
    )
    return page, status


def read_quantities(left: dict[int, int], errors: Errors) -> dict[int, int]:
    """Item id -> count chosen on the form; records a message for each impossible count."""
    chosen = {}
    for item_id, most in left.items():
        count = parse_quantity(request.form.get(f"return-{item_id}", "0") or "0", 0, most)
        if count is None:
            errors[f"return-{item_id}"] = f"You can return at most {most} of this item."
        else:
            chosen[item_id] = count
    if not errors and not any(chosen.values()):
        errors["items"] = "Choose at least one item to return."
    return chosen


@bp.route("/account/orders/<number>/return", methods=("GET", "POST"))
@login_required
def start(number: str) -> Response | tuple[str, int]:
    order = own_order(number)
    values = request.form.to_dict()
    if request.method == "GET":
        return render_return_form(order, {}, values)
    left = returnable_quantities(get_db(), order)
    if not within_window(order, now()) or not any(left.values()):
        return render_return_form(order, {}, values, 400)
    errors: Errors = {}
    quantities = read_quantities(left, errors)
    reason = request.form.get("reason", "")
    if reason not in REASONS:
        errors["reason"] = "Choose a reason for the return."
    refund_method = request.form.get("refund_method", "")
    if refund_method not in REFUND_METHODS:
        errors["refund_method"] = "Choose how you would like to be refunded."
    if errors:
        return render_return_form(order, errors, values, 400)
    return_number = record_return(get_db(), order, quantities, reason, refund_method, now())
    return redirect(url_for("returns.confirmation", number=return_number))


def own_return(number: str) -> Any:
    """The signed-in customer's return with this number (and its order's), or a 404."""
    found = (
        get_db()
        .execute(
            "SELECT returns.*, orders.number AS order_number, orders.payment_brand,"
            " orders.payment_last4 FROM returns JOIN orders ON orders.id = returns.order_id"
            " WHERE returns.number = ? AND orders.user_id = ?",
            (number, g.user["id"]),
        )
        .fetchone()
    )
    if found is None:
        abort(404)
    return found


@bp.post("/account/returns/<number>/cancel")
@login_required
def cancel(number: str) -> Response:
    if cancel_return(get_db(), own_return(number)):
        flash(f"Return {number} has been cancelled. Keep the items; nothing will be refunded.")
    else:
        flash(f"Return {number} can no longer be cancelled.")
    return redirect(url_for("returns.confirmation", number=number))


@bp.route("/account/returns/<number>")
@login_required
def confirmation(number: str) -> str:
    conn = get_db()
    found = own_return(number)
    items = conn.execute(
        "SELECT order_items.name, order_items.size, order_items.color, return_items.quantity"
        " FROM return_items JOIN order_items ON order_items.id = return_items.order_item_id"
        " WHERE return_items.return_id = ? ORDER BY return_items.id",
        (found["id"],),
    ).fetchall()
    return render_template(
        "orders/return_done.html", found=found, items=items, refund_methods=REFUND_METHODS
    )

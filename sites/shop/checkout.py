"""Checkout: shipping address, payment, review with coupon, then the placed order.

The choices made so far live in the session under ``checkout`` until the order is placed.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from .auth import login_required
from .cards import is_expired, validate_card
from .cart_model import cart_lines, find_cart
from .clock import now
from .db import get_db
from .mail import order_confirmation
from .order_model import basket_totals, find_order, order_items, place_order, stock_problems
from .regions import STATES
from .validation import Errors, validate_address

bp = Blueprint("checkout", __name__, url_prefix="/checkout")

STEPS = (("shipping", "Shipping"), ("payment", "Payment"), ("review", "Review"))


def progress() -> dict[str, Any]:
    return session.get("checkout") or {}


def remember(**choices: Any) -> None:
    session["checkout"] = {**progress(), **choices}


def current_lines() -> list[sqlite3.Row]:
    cart = find_cart()
    return cart_lines(get_db(), cart["id"]) if cart else []


def saved_addresses() -> list[sqlite3.Row]:
    return (
        get_db()
        .execute(
            "SELECT * FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id",
            (g.user["id"],),
        )
        .fetchall()
    )


def saved_cards() -> list[sqlite3.Row]:
    return (
        get_db()
        .execute(
            "SELECT * FROM payment_methods WHERE user_id = ? ORDER BY is_default DESC, id",
            (g.user["id"],),
        )
        .fetchall()
    )


def render_step(step: str, status: int = 200, **context: Any) -> tuple[str, int]:
    lines = current_lines()
    address = progress().get("address") or {}
    totals, coupon, _ = basket_totals(
        get_db(), lines, address.get("state"), progress().get("coupon"), now()
    )
    page = render_template(
        f"checkout/{step}.html",
        steps=STEPS,
        step=step,
        lines=lines,
        totals=totals,
        coupon=coupon,
        progress=progress(),
        **context,
    )
    return page, status


def require_cart() -> Response | None:
    """Send a shopper with an empty cart back to the cart page."""
    if not current_lines():
        flash("Your cart is empty.")
        return redirect(url_for("cart.view"))
    return None


@bp.route("")
@login_required
def start() -> Response:
    return redirect(url_for("checkout.shipping"))


def render_shipping(errors: Errors, values: dict[str, str], status: int = 200) -> tuple[str, int]:
    addresses = saved_addresses()
    chosen = values.get("address") or str(progress().get("address_id") or "")
    if not chosen:
        chosen = str(addresses[0]["id"]) if addresses else "new"
    return render_step(
        "shipping",
        status,
        addresses=addresses,
        chosen=chosen,
        errors=errors,
        values=values,
        states=STATES,
    )


@bp.route("/shipping", methods=("GET", "POST"))
@login_required
def shipping() -> Response | tuple[str, int]:
    if (back := require_cart()) is not None:
        return back
    if request.method == "GET":
        return render_shipping({}, {})
    choice = request.form.get("address", "")
    values = request.form.to_dict()
    if choice == "new":
        address, errors = validate_address(request.form)
        if errors:
            return render_shipping(errors, values, 400)
        address_id = None
        if request.form.get("save_address") == "1":
            address_id = save_address(address)
        remember(address=address, address_id=address_id)
        return redirect(url_for("checkout.payment"))
    saved = next((row for row in saved_addresses() if str(row["id"]) == choice), None)
    if saved is None:
        return render_shipping({"address": "Choose a shipping address."}, values, 400)
    fields = ("name", "street", "city", "state", "zip", "phone")
    remember(address={name: saved[name] for name in fields}, address_id=saved["id"])
    return redirect(url_for("checkout.payment"))


def save_address(address: dict[str, str]) -> int:
    conn = get_db()
    is_first = not saved_addresses()
    address_id = conn.execute(
        "INSERT INTO addresses (user_id, label, name, street, city, state, zip, country, phone,"
        " is_default) VALUES (?, 'Other', ?, ?, ?, ?, ?, 'United States', ?, ?)",
        (
            g.user["id"],
            address["name"],
            address["street"],
            address["city"],
            address["state"],
            address["zip"],
            address["phone"],
            int(is_first),
        ),
    ).lastrowid
    conn.commit()
    return address_id


def render_payment(errors: Errors, values: dict[str, str], status: int = 200) -> tuple[str, int]:
    cards = saved_cards()
    usable = [card for card in cards if not is_expired(card["exp_month"], card["exp_year"], now())]
    chosen = values.get("payment") or str(progress().get("card_id") or "")
    if not chosen:
        chosen = str(usable[0]["id"]) if usable else "new"
    return render_step(
        "payment",
        status,
        cards=cards,
        chosen=chosen,
        errors=errors,
        values=values,
        expired={card["id"] for card in cards if card not in usable},
    )


@bp.route("/payment", methods=("GET", "POST"))
@login_required
def payment() -> Response | tuple[str, int]:
    if (back := require_cart()) is not None:
        return back
    if "address" not in progress():
        return redirect(url_for("checkout.shipping"))
    if request.method == "GET":
        return render_payment({}, {})
    choice = request.form.get("payment", "")
    values = {k: v for k, v in request.form.items() if k in ("payment", "card_name", "save_card")}
    if choice == "new":
        card, errors = validate_card(request.form, now())
        if errors:
            return render_payment(errors, values, 400)
        card_id = save_card(card) if request.form.get("save_card") == "1" else None
        remember(card=card, card_id=card_id)
        return redirect(url_for("checkout.review"))
    saved = next((row for row in saved_cards() if str(row["id"]) == choice), None)
    if saved is None:
        return render_payment({"payment": "Choose a payment method."}, values, 400)
    if is_expired(saved["exp_month"], saved["exp_year"], now()):
        message = "This card has expired. Choose another card or add a new one."
        return render_payment({"payment": message}, values, 400)
    card = {"brand": saved["brand"], "last4": saved["last4"]}
    remember(card=card, card_id=saved["id"])
    return redirect(url_for("checkout.review"))


def save_card(card: dict[str, object]) -> int:
    conn = get_db()
    card_id = conn.execute(
        "INSERT INTO payment_methods (user_id, brand, last4, exp_month, exp_year, is_default)"
        " VALUES (?, ?, ?, ?, ?, 0)",
        (g.user["id"], card["brand"], card["last4"], card["exp_month"], card["exp_year"]),
    ).lastrowid
    conn.commit()
    return card_id


def review_ready() -> Response | None:
    """Send the shopper back to the first step they have not completed."""
    if (back := require_cart()) is not None:
        return back
    for key, step in (("address", "shipping"), ("card", "payment")):
        if key not in progress():
            return redirect(url_for(f"checkout.{step}"))
    return None


def render_review(
    errors: Errors | None = None, problems: list[str] | None = None, status: int = 200
) -> tuple[str, int]:
    return render_step(
        "review", status, errors=errors or {}, problems=problems or stock_problems(current_lines())
    )


@bp.route("/review")
@login_required
def review() -> Response | tuple[str, int]:
    if (back := review_ready()) is not None:
        return back
    return render_review()


@bp.post("/coupon")
@login_required
def coupon() -> Response | tuple[str, int]:
    if (back := review_ready()) is not None:
        return back
    if request.form.get("action") == "remove":
        remember(coupon=None)
        flash("Coupon removed.")
        return redirect(url_for("checkout.review"))
    code = request.form.get("coupon", "").strip().upper()[:40]
    address = progress()["address"]
    _, applied, problem = basket_totals(get_db(), current_lines(), address["state"], code, now())
    if applied is None:
        return render_review({"coupon": problem or "Enter a coupon code."}, status=400)
    remember(coupon=applied["code"])
    flash(f"Coupon {applied['code']} applied.")
    return redirect(url_for("checkout.review"))


@bp.post("/place")
@login_required
def place() -> Response | tuple[str, int]:
    if (back := review_ready()) is not None:
        return back
    conn = get_db()
    cart = find_cart()
    choices = progress()
    order_id, problems = place_order(
        conn,
        g.user["id"],
        cart["id"],
        choices["address"],
        choices["card"],
        choices.get("coupon"),
        now(),
        choices.get("card_id"),
    )
    if order_id is None:
        if choices.get("coupon"):
            remember(coupon=None)
        return render_review(problems=problems, status=409)
    session.pop("checkout", None)
    send_mail = current_app.config.get("SEND_MAIL")
    if send_mail:
        send_mail(order_confirmation(conn, order_id))
    number = conn.execute("SELECT number FROM orders WHERE id = ?", (order_id,)).fetchone()[0]
    return redirect(url_for("checkout.confirmation", number=number))


@bp.route("/confirmation/<number>")
@login_required
def confirmation(number: str) -> str:
    conn = get_db()
    order = find_order(conn, g.user["id"], number)
    if order is None:
        abort(404)
    return render_template(
        "checkout/confirmation.html", order=order, items=order_items(conn, order["id"])
    )

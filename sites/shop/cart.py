"""The cart page and the forms that add, change and remove its lines."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from .cart_model import (
    MAX_LINE_QUANTITY,
    add_line,
    cart_lines,
    ensure_cart,
    find_cart,
    quantity_in_cart,
)
from .catalog import product_options, render_product
from .db import get_db
from .formatting import line_label
from .pricing import free_shipping_from
from .validation import parse_id, parse_quantity

bp = Blueprint("cart", __name__)


def quantity_problem(stock: int, already: int, adding: int) -> str | None:
    """Why a line cannot hold ``already + adding`` items, or None when it can."""
    total = already + adding
    if total > stock:
        problem = "This item is out of stock." if stock <= 0 else f"Only {stock} left in stock."
    elif total > MAX_LINE_QUANTITY:
        problem = f"You can buy at most {MAX_LINE_QUANTITY} of this item."
    else:
        return None
    return f"{problem} You already have {already} in your cart." if already else problem


def render_cart(errors: dict[int, str] | None = None, status: int = 200) -> tuple[str, int]:
    cart = find_cart()
    lines = cart_lines(get_db(), cart["id"]) if cart else []
    subtotal = sum(line["price_cents"] * line["quantity"] for line in lines)
    page = render_template(
        "cart/cart.html",
        lines=lines,
        subtotal=subtotal,
        errors=errors or {},
        free_shipping_min=free_shipping_from(get_db()),
        max_quantity=MAX_LINE_QUANTITY,
    )
    return page, status


@bp.route("/cart")
def view() -> tuple[str, int]:
    return render_cart()


@bp.post("/cart/add")
def add() -> Response | tuple[str, int]:
    conn = get_db()
    product_id = parse_id(request.form.get("product_id", ""))
    product = conn.execute("SELECT * FROM products WHERE id = ?", (product_id,)).fetchone()
    if product is None:
        abort(404)
    options = product_options(conn, product["id"])
    chosen = {kind: request.form.get(kind, "") for kind in ("size", "color")}
    errors = {
        kind: f"Choose a {kind}."
        for kind in ("size", "color")
        if options[kind] and chosen[kind] not in options[kind]
    }
    size, color = (chosen[kind] if options[kind] else None for kind in ("size", "color"))
    quantity = parse_quantity(request.form.get("quantity", "1"), 1, MAX_LINE_QUANTITY)
    if quantity is None:
        errors["quantity"] = f"Enter a quantity from 1 to {MAX_LINE_QUANTITY}."
    elif not errors:
        cart = find_cart()
        already = quantity_in_cart(conn, cart["id"], product["id"], size, color) if cart else 0
        problem = quantity_problem(product["stock"], already, quantity)
        if problem:
            errors["quantity"] = problem
    if errors or quantity is None:
        return render_product(product["slug"], cart_errors=errors, values=request.form, status=400)
    cart_id = ensure_cart()
    add_line(conn, cart_id, product["id"], size, color, quantity)
    conn.commit()
    flash(f"Added {quantity} × {line_label(product['name'], size, color)} to your cart.")
    return redirect(url_for("catalog.product", slug=product["slug"]))


@bp.post("/cart/update")
def update() -> Response | tuple[str, int]:
    cart = find_cart()
    if cart is None:
        return redirect(url_for("cart.view"))
    conn = get_db()
    lines = cart_lines(conn, cart["id"])
    wanted: dict[int, int] = {}
    errors: dict[int, str] = {}
    for line in lines:
        field = request.form.get(f"quantity-{line['id']}", str(line["quantity"]))
        quantity = parse_quantity(field, 0, MAX_LINE_QUANTITY)
        problem = quantity_problem(line["stock"], 0, quantity) if quantity else None
        if quantity is None:
            errors[line["id"]] = f"Enter a quantity from 0 to {MAX_LINE_QUANTITY}."
        elif problem:
            errors[line["id"]] = problem
        else:
            wanted[line["id"]] = quantity
    if errors:
        return render_cart(errors, status=400)
    for item_id, quantity in wanted.items():
        if quantity:
            conn.execute("UPDATE cart_items SET quantity = ? WHERE id = ?", (quantity, item_id))
        else:
            conn.execute("DELETE FROM cart_items WHERE id = ?", (item_id,))
    conn.commit()
    flash("Your cart has been updated.")
    return redirect(url_for("cart.view"))


@bp.post("/cart/remove")
def remove() -> Response:
    cart = find_cart()
    item_id = parse_id(request.form.get("item_id", ""))
    if cart is not None and item_id is not None:
        conn = get_db()
        line = conn.execute(
            "SELECT cart_items.*, products.name FROM cart_items"
            " JOIN products ON products.id = cart_items.product_id"
            " WHERE cart_items.id = ? AND cart_id = ?",
            (item_id, cart["id"]),
        ).fetchone()
        if line is not None:
            conn.execute("DELETE FROM cart_items WHERE id = ?", (line["id"],))
            conn.commit()
            flash(
                f"Removed {line_label(line['name'], line['size'], line['color'])} from your cart."
            )
    return redirect(url_for("cart.view"))

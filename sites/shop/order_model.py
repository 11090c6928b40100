"""Orders in the database: placing one from a cart, looking one up, cancelling one."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import datetime

from .cart_model import cart_lines
from .numbering import next_id, order_number
from .pricing import Totals, compute_totals, coupon_discount, find_coupon, free_shipping_from
from .regions import COUNTRY


def basket_totals(
    conn: sqlite3.Connection,
    lines: list[sqlite3.Row],
    state: str | None,
    coupon_code: str | None,
    now: datetime,
) -> tuple[Totals, sqlite3.Row | None, str | None]:
    """Totals of cart ``lines`` with the coupon applied when it is still usable.

    Returns the totals, the coupon applied (or None) and why a given code was refused.
    """
    subtotal = sum(line["price_cents"] * line["quantity"] for line in lines)
    coupon, problem = find_coupon(conn, coupon_code, subtotal, now) if coupon_code else (None, None)
    discount = coupon_discount(coupon, subtotal) if coupon else 0
    return compute_totals(subtotal, discount, state, free_shipping_from(conn)), coupon, problem


def stock_problems(lines: list[sqlite3.Row]) -> list[str]:
    """One message per line that the store can no longer supply in full."""
    return [
        f"{line['name']}: only {line['stock']} left in stock."
        if line["stock"]
        else f"{line['name']} is out of stock."
        for line in lines
        if line["quantity"] > line["stock"]
    ]


def place_order(
    conn: sqlite3.Connection,
    user_id: int,
    cart_id: int,
    address: Mapping[str, str],
    card: Mapping[str, object],
    coupon_code: str | None,
    now: datetime,
    card_id: int | None = None,
) -> tuple[int | None, list[str]]:
    """Turn the cart into an order: stock goes down, the cart empties. Returns the new id.
    ``card_id``: the saved card ``card`` is, when it is one.

    When the order cannot be placed, returns None and the reasons, and changes nothing.
    """
    lines = cart_lines(conn, cart_id)
    if not lines:
        return None, ["Your cart is empty."]
    problems = stock_problems(lines)
    totals, coupon, coupon_problem = basket_totals(conn, lines, address["state"], coupon_code, now)
    if coupon_problem:
        problems.append(coupon_problem)
    if problems:
        return None, problems
    order_id = next_id(conn, "orders")
    with conn:
        conn.execute(
            "INSERT INTO orders (id, number, user_id, status, created_at, ship_name, ship_street,"
            " ship_city, ship_state, ship_zip, ship_country, ship_phone, payment_brand,"
            " payment_last4, payment_method_id, subtotal_cents, shipping_cents, tax_cents,"
            " discount_cents, total_cents, coupon_code)"
            " VALUES (?, ?, ?, 'placed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                order_id,
                order_number(conn, order_id),
                user_id,
                now.isoformat(timespec="seconds"),
                address["name"],
                address["street"],
                address["city"],
                address["state"],
                address["zip"],
                COUNTRY,
                address["phone"],
                card["brand"],
                card["last4"],
                card_id,
                totals.subtotal_cents,
                totals.shipping_cents,
                totals.tax_cents,
                totals.discount_cents,
                totals.total_cents,
                coupon["code"] if coupon else None,
            ),
        )
        for line in lines:
            conn.execute(
                "INSERT INTO order_items (order_id, product_id, name, size, color, quantity,"
                " unit_price_cents) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    order_id,
                    line["product_id"],
                    line["name"],
                    line["size"],
                    line["color"],
                    line["quantity"],
                    line["price_cents"],
                ),
            )
            conn.execute(
                "UPDATE products SET stock = stock - ? WHERE id = ?",
                (line["quantity"], line["product_id"]),
            )
        conn.execute("DELETE FROM cart_items WHERE cart_id = ?", (cart_id,))
    return order_id, []


def find_order(conn: sqlite3.Connection, user_id: int, number: str) -> sqlite3.Row | None:
    """The customer's order with this number (None for someone else's order)."""
    return conn.execute(
        "SELECT * FROM orders WHERE number = ? AND user_id = ?", (number, user_id)
    ).fetchone()


def order_items(conn: sqlite3.Connection, order_id: int) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT order_items.*, products.slug, categories.slug AS category_slug"
        " FROM order_items JOIN products ON products.id = order_items.product_id"
        " JOIN categories ON categories.id = products.category_id"
        " WHERE order_id = ? ORDER BY order_items.id",
        (order_id,),
    ).fetchall()


def cancel_order(conn: sqlite3.Connection, order: sqlite3.Row) -> bool:
    """Cancel an order that has not shipped and put its items back in stock."""
    if order["status"] != "placed":
        return False
    with conn:
        conn.execute("UPDATE orders SET status = 'cancelled' WHERE id = ?", (order["id"],))
        conn.execute(
            "UPDATE products SET stock = stock + (SELECT SUM(quantity) FROM order_items"
            " WHERE order_id = ? AND product_id = products.id)"
            " WHERE id IN (SELECT product_id FROM order_items WHERE order_id = ?)",
            (order["id"], order["id"]),
        )
    return True

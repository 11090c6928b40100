"""The order confirmation e-mail, built from the database so past orders can be replayed."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ..common import Message
from .formatting import card_label, line_label, money

SENDER = "orders@northwindmarket.example"
SENDER_NAME = "Northwind Market"


def order_confirmation(conn: sqlite3.Connection, order_id: int) -> Message:
    """The confirmation of order ``order_id``, addressed to the customer who placed it."""
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row
    order = cursor.execute(
        "SELECT orders.*, users.email, users.first_name FROM orders"
        " JOIN users ON users.id = orders.user_id WHERE orders.id = ?",
        (order_id,),
    ).fetchone()
    if order is None:
        raise LookupError(f"no order with id {order_id}")
    items = cursor.execute(
        "SELECT * FROM order_items WHERE order_id = ? ORDER BY id", (order_id,)
    ).fetchall()
    lines = [
        f"  {item['quantity']} x {line_label(item['name'], item['size'], item['color'])}"
        f"  {money(item['quantity'] * item['unit_price_cents'])}"
        for item in items
    ]
    totals = [f"Subtotal: {money(order['subtotal_cents'])}"]
    if order["discount_cents"]:
        totals.append(f"Discount ({order['coupon_code']}): -{money(order['discount_cents'])}")
    totals += [
        f"Shipping: {money(order['shipping_cents'])}",
        f"Tax: {money(order['tax_cents'])}",
        f"Order total: {money(order['total_cents'])}",
    ]
    body = "\n".join(
        [
            f"Hi {order['first_name']},",
            "",
            f"Thank you for shopping with Northwind Market. Your order {order['number']} "
            "has been placed.",
            "",
            "Items:",
            *lines,
            "",
            *totals,
            "",
            "Shipping to:",
            f"  {order['ship_name']}",
            f"  {order['ship_street']}",
            f"  {order['ship_city']}, {order['ship_state']} {order['ship_zip']}",
            "",
            f"Paid with {card_label(order['payment_brand'], order['payment_last4'])}.",
            "",
            "You can follow your order under Account > Your orders.",
            "",
            "Northwind Market",
        ]
    )
    return Message(
        sender=SENDER,
        sender_name=SENDER_NAME,
        to=order["email"],
        subject=f"Your Northwind Market order {order['number']}",
        body=body,
        date=datetime.fromisoformat(order["created_at"]),
    )

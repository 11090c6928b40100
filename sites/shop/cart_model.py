"""Carts in the database: a guest's cart lives by a token in the session, a customer's by id.

A guest cart merges into the customer's cart on sign-in; adding a product with the same
options again raises that line's quantity instead of adding a second line.
"""

from __future__ import annotations

import secrets
import sqlite3

from flask import g, session

from .db import get_db

#: The most of one product (with one set of options) a single order line may hold.
MAX_LINE_QUANTITY = 10


def find_cart() -> sqlite3.Row | None:
    """This visitor's cart, if they have one."""
    conn = get_db()
    if g.get("user") is not None:
        return conn.execute("SELECT * FROM carts WHERE user_id = ?", (g.user["id"],)).fetchone()
    token = session.get("cart_token")
    if not isinstance(token, str):
        return None
    return conn.execute(
        "SELECT * FROM carts WHERE token = ? AND user_id IS NULL", (token,)
    ).fetchone()


def ensure_cart() -> int:
    """The id of this visitor's cart, creating it on first use."""
    cart = find_cart()
    if cart is not None:
        return cart["id"]
    conn = get_db()
    if g.get("user") is not None:
        return user_cart_id(conn, g.user["id"])
    token = secrets.token_urlsafe(16)
    cart_id = conn.execute("INSERT INTO carts (token) VALUES (?)", (token,)).lastrowid
    conn.commit()
    session["cart_token"] = token
    return cart_id


def user_cart_id(conn: sqlite3.Connection, user_id: int) -> int:
    row = conn.execute("SELECT id FROM carts WHERE user_id = ?", (user_id,)).fetchone()
    if row is not None:
        return row["id"]
    cart_id = conn.execute(
        "INSERT INTO carts (user_id, token) VALUES (?, ?)", (user_id, f"user-{user_id}")
    ).lastrowid
    conn.commit()
    return cart_id


def cart_lines(conn: sqlite3.Connection, cart_id: int) -> list[sqlite3.Row]:
    """The cart's lines with what the cart page needs of each product, oldest first."""
    return conn.execute(
        "SELECT cart_items.id, cart_items.product_id, cart_items.size, cart_items.color,"
        " cart_items.quantity, products.name, products.slug, products.brand,"
        " products.price_cents, products.stock, categories.slug AS category_slug"
        " FROM cart_items JOIN products ON products.id = cart_items.product_id"
        " JOIN categories ON categories.id = products.category_id"
        " WHERE cart_items.cart_id = ? ORDER BY cart_items.id",
        (cart_id,),
    ).fetchall()


def quantity_in_cart(
    conn: sqlite3.Connection, cart_id: int, product_id: int, size: str | None, color: str | None
) -> int:
    row = conn.execute(
        "SELECT quantity FROM cart_items WHERE cart_id = ? AND product_id = ?"
        " AND size IS ? AND color IS ?",
        (cart_id, product_id, size, color),
    ).fetchone()
    return row["quantity"] if row else 0


def add_line(
    conn: sqlite3.Connection,
    cart_id: int,
    product_id: int,
    size: str | None,
    color: str | None,
    quantity: int,
) -> None:
    """Add ``quantity`` of a product with these options, merging with an identical line."""
    existing = quantity_in_cart(conn, cart_id, product_id, size, color)
    if existing:
        conn.execute(
            "UPDATE cart_items SET quantity = ? WHERE cart_id = ? AND product_id = ?"
            " AND size IS ? AND color IS ?",
            (existing + quantity, cart_id, product_id, size, color),
        )
    else:
        conn.execute(
            "INSERT INTO cart_items (cart_id, product_id, size, color, quantity)"
            " VALUES (?, ?, ?, ?, ?)",
            (cart_id, product_id, size, color, quantity),
        )


def merge_guest_cart(conn: sqlite3.Connection, token: str, user_id: int) -> None:
    """Move a guest cart's lines into the customer's cart, then drop the guest cart."""
    guest = conn.execute(
        "SELECT id FROM carts WHERE token = ? AND user_id IS NULL", (token,)
    ).fetchone()
    if guest is None:
        return
    lines = conn.execute(
        "SELECT cart_items.*, products.stock FROM cart_items"
        " JOIN products ON products.id = cart_items.product_id WHERE cart_id = ?",
        (guest["id"],),
    ).fetchall()
    cart_id = user_cart_id(conn, user_id) if lines else 0
    for line in lines:
        key = (line["product_id"], line["size"], line["color"])
        room = min(MAX_LINE_QUANTITY, line["stock"]) - quantity_in_cart(conn, cart_id, *key)
        if room > 0:
            add_line(conn, cart_id, *key, min(room, line["quantity"]))
    conn.execute("DELETE FROM cart_items WHERE cart_id = ?", (guest["id"],))
    conn.execute("DELETE FROM carts WHERE id = ?", (guest["id"],))
    conn.commit()


def item_count() -> int:
    """How many items (sum of quantities) this visitor's cart holds."""
    cart = find_cart()
    if cart is None:
        return 0
    row = (
        get_db()
        .execute(
            "SELECT COALESCE(SUM(quantity), 0) AS n FROM cart_items WHERE cart_id = ?",
            (cart["id"],),
        )
        .fetchone()
    )
    return row["n"]

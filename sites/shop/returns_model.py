"""Returns: which items of a delivered order can still go back, and recording a return."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import datetime, timedelta

from .numbering import next_id, return_number

#: Delivered orders can be returned for this many days after they were placed.
RETURN_WINDOW_DAYS = 30

REASONS = (
    "Doesn't fit",
    "Changed my mind",
    "Arrived damaged",
    "Not as described",
    "Wrong item sent",
    "Found a better price",
)

#: Refund method stored in ``returns.refund_method`` -> how the form names it.
REFUND_METHODS = {"original": "Original payment method", "store_credit": "Store credit"}


def return_deadline(order: sqlite3.Row) -> datetime:
    return datetime.fromisoformat(order["created_at"]) + timedelta(days=RETURN_WINDOW_DAYS)


def returnable_quantities(conn: sqlite3.Connection, order: sqlite3.Row) -> dict[int, int]:
    """Order item id -> how many of it can still be returned (all zero when not returnable);
    a cancelled return gives its items back."""
    rows = conn.execute(
        "SELECT order_items.id, order_items.quantity - COALESCE(SUM(sent.quantity), 0)"
        " AS left_over FROM order_items"
        " LEFT JOIN (SELECT return_items.* FROM return_items JOIN returns"
        " ON returns.id = return_items.return_id AND returns.status != 'cancelled') AS sent"
        " ON sent.order_item_id = order_items.id"
        " WHERE order_items.order_id = ? GROUP BY order_items.id ORDER BY order_items.id",
        (order["id"],),
    ).fetchall()
    return {row["id"]: row["left_over"] if order["status"] == "delivered" else 0 for row in rows}


def within_window(order: sqlite3.Row, now: datetime) -> bool:
    return now <= return_deadline(order)


def record_return(
    conn: sqlite3.Connection,
    order: sqlite3.Row,
    quantities: Mapping[int, int],
    reason: str,
    refund_method: str,
    now: datetime,
) -> str:
    """Store a return of ``quantities`` (order item id -> count) and give its number.

    The order becomes 'returned' once every item of it has been sent back.
    """
    return_id = next_id(conn, "returns")
    number = return_number(conn, return_id)
    with conn:
        conn.execute(
            "INSERT INTO returns (id, number, order_id, reason, refund_method, status,"
            " created_at) VALUES (?, ?, ?, ?, ?, 'requested', ?)",
            (
                return_id,
                number,
                order["id"],
                reason,
                refund_method,
                now.isoformat(timespec="seconds"),
            ),
        )
        conn.executemany(
            "INSERT INTO return_items (return_id, order_item_id, quantity) VALUES (?, ?, ?)",
            [(return_id, item_id, count) for item_id, count in quantities.items() if count],
        )
        if not any(returnable_quantities(conn, order).values()):
            conn.execute("UPDATE orders SET status = 'returned' WHERE id = ?", (order["id"],))
    return number


def cancel_return(conn: sqlite3.Connection, found: sqlite3.Row) -> bool:
    """Cancel a return not yet received; its order, if it had gone back whole, is delivered
    again. False if the return is past cancelling (received, refunded, or cancelled)."""
    if found["status"] != "requested":
        return False
    with conn:
        conn.execute("UPDATE returns SET status = 'cancelled' WHERE id = ?", (found["id"],))
        conn.execute(
            "UPDATE orders SET status = 'delivered' WHERE id = ? AND status = 'returned'",
            (found["order_id"],),
        )
    return True

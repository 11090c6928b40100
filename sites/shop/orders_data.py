"""The seeded order history of the persona, and the store's coupon codes."""

from __future__ import annotations

import random
import sqlite3
import string
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .numbering import order_number, return_number
from .pricing import compute_totals, free_shipping_from
from .returns_model import REASONS
from .seeding import Seeder, insert, stamp
from .vocab import noun_of

#: Age range in days of a past order in each status: the newest have not shipped yet.
ORDER_AGES = {
    "placed": (0.2, 2.5),
    "shipped": (3, 8),
    "delivered": (10, 240),
    "cancelled": (15, 200),
    "returned": (40, 300),
}


#: How long after it was ordered a returned order's return was requested.
RETURN_AFTER_DAYS = 14


def seed_coupons(seeder: Seeder) -> None:
    """Live, expired and disabled codes; one seasonal code differs between worlds."""
    now = seeder.now
    season = ("WINTER", "SPRING", "SUMMER", "FALL")[(now.month % 12) // 3]
    seasonal = seeder.rng.choice((15, 20, 25))
    later, earlier = stamp(now + timedelta(days=45)), stamp(now - timedelta(days=9))
    rows = [
        ("WELCOME10", "percent", 10, 0, None, 1),
        (f"{season}{seasonal}", "percent", seasonal, 5000, later, 1),
        ("SAVE20", "fixed", 2000, 10000, later, 1),
        ("TAKE5", "fixed", 500, 2500, None, 1),
        ("FLASH30", "percent", 30, 0, earlier, 1),
        ("HOLIDAY15", "percent", 15, 0, stamp(now - timedelta(days=140)), 1),
        ("VIP25", "percent", 25, 0, None, 0),
    ]
    columns = ("code", "kind", "value", "min_subtotal_cents", "expires_at", "active")
    insert(seeder.conn, "coupons", [dict(zip(columns, row, strict=True)) for row in rows])


def seed_past_orders(seeder: Seeder) -> None:
    """5-8 orders of the persona in every status, and the history of :func:`repeat_history`
    (a product bought again and again, a return last month), numbered in date order."""
    rng = seeder.rng
    statuses = ["placed", "shipped", "delivered", "delivered", "cancelled"]
    statuses += rng.choices(("delivered", "returned", "shipped"), k=rng.randint(0, 3))
    dated = [(seeder.ago(*ORDER_AGES[status]), status) for status in statuses]
    # One delivered order can still be returned, one is past the return window.
    dated[2] = (seeder.ago(10, 25), "delivered")
    dated[3] = (seeder.ago(45, 240), "delivered")
    conn = seeder.conn
    addresses = conn.execute("SELECT * FROM addresses WHERE user_id = 1 ORDER BY id").fetchall()
    card = conn.execute(
        "SELECT brand, last4 FROM payment_methods WHERE user_id = 1 AND is_default = 1"
    ).fetchone()
    products = conn.execute("SELECT id, name, price_cents FROM products ORDER BY id").fetchall()
    orders = []
    for created_at, status in sorted(dated):
        address = addresses[0] if rng.random() < 0.7 else rng.choice(addresses)
        lines = [
            {
                "product_id": product["id"],
                "name": product["name"],
                "size": pick_option(seeder, product["id"], "size"),
                "color": pick_option(seeder, product["id"], "color"),
                "quantity": rng.choice((1, 1, 1, 2)),
                "unit_price_cents": product["price_cents"],
            }
            for product in rng.sample(products, k=rng.randint(1, 3))
        ]
        tracking = None
        if status in ("shipped", "delivered", "returned"):
            tracking = "1Z" + "".join(rng.choices(string.ascii_uppercase + string.digits, k=16))
        orders.append(PastOrder(created_at, status, address, tracking, lines))
    orders += repeat_history(seeder, orders, addresses[0])
    for order_id, order in enumerate(sorted(orders, key=lambda o: o.created_at), start=1):
        lines = [{"order_id": order_id, **line} for line in order.lines]
        seed_order(
            seeder, order_id, order.created_at, order.status, order.address, card,
            order.tracking, lines,
        )  # fmt: skip
    spread_addresses(seeder, addresses)


@dataclass
class PastOrder:
    """An order of the history before it is numbered: orders are numbered in date order."""

    created_at: str
    status: str
    address: sqlite3.Row
    tracking: str | None
    lines: list[dict[str, Any]]


def repeat_history(seeder: Seeder, orders: list[PastOrder], home: sqlite3.Row) -> list[PastOrder]:
    """What a regular customer's history has besides: a product in one size bought in two or
    three received orders (the customer's usual), and an order of last calendar month whose
    sized item went back. Each is the only product of its kind in the whole history, so "my
    usual hiking jacket" and "the joggers I returned last month" name one product.

    Adds the usual product's line to ``orders``; returns the order that was returned. Drawn
    from randomness of its own, so that the rest of the store is the same as without it.
    """
    rng = random.Random(f"shop-history-{seeder.seed}")
    conn = seeder.conn
    kinds = {noun_of(line["name"]) for order in orders for line in order.lines}
    sized = [
        row
        for row in conn.execute(
            "SELECT id, name, price_cents FROM products WHERE stock >= 6 AND id IN"
            " (SELECT product_id FROM product_options WHERE kind = 'size'"
            " GROUP BY product_id HAVING COUNT(*) >= 3) ORDER BY id"
        )
        if noun_of(row["name"]) not in kinds
    ]
    usual, returned = rng.sample(sized, k=2)
    if all(noun_of(row["name"]) == noun_of(usual["name"]) for row in sized):
        raise RuntimeError(
            f"The shop's world of seed {seeder.seed} has no sized product of another kind than "
            f"{usual['name']!r} (one in stock, in three sizes or more, of a kind no order "
            "holds) to have been returned."
        )
    while noun_of(returned["name"]) == noun_of(usual["name"]):
        returned = rng.choice(sized)
    usual_line = sized_line(seeder, rng, usual)
    received = [order for order in orders if order.status in ("shipped", "delivered")]
    for order in rng.sample(received, k=min(len(received), rng.choice((2, 2, 3)))):
        order.lines.append(dict(usual_line))
    # Sent back in the calendar month before now's, two weeks after it was ordered.
    month_start = seeder.now.replace(day=1, hour=0, minute=0, second=0)
    last_month = (month_start - timedelta(days=1)).replace(day=1)
    span = (month_start - last_month).total_seconds()
    sent_back = last_month + timedelta(seconds=rng.uniform(0.05, 0.95) * span)
    ordered = stamp(sent_back - timedelta(days=RETURN_AFTER_DAYS))
    tracking = "1Z" + "".join(rng.choices(string.ascii_uppercase + string.digits, k=16))
    line = sized_line(seeder, rng, returned)
    return [PastOrder(ordered, "returned", home, tracking, [line])]


def sized_line(seeder: Seeder, rng: random.Random, product: sqlite3.Row) -> dict[str, Any]:
    """One of ``product`` in a size (and colour) drawn from ``rng``."""
    options: dict[str, list[str]] = {"size": [], "color": []}
    for row in seeder.conn.execute(
        "SELECT kind, value FROM product_options WHERE product_id = ? ORDER BY position",
        (product["id"],),
    ):
        options[row["kind"]].append(row["value"])
    return {
        "product_id": product["id"],
        "name": product["name"],
        "size": rng.choice(options["size"]),
        "color": rng.choice(options["color"]) if options["color"] else None,
        "quantity": 1,
        "unit_price_cents": product["price_cents"],
    }


def spread_addresses(seeder: Seeder, addresses: list[sqlite3.Row]) -> None:
    """Send the newest order to any address of the book, and at least one order to an address
    other than the default: the history of someone who ships to work or family too.

    Drawn from randomness of its own, so that the rest of the store is the same as without it.
    """
    rng = random.Random(f"shop-addresses-{seeder.seed}")
    conn = seeder.conn
    order_ids = [row[0] for row in conn.execute("SELECT id FROM orders WHERE user_id = 1")]
    moves = {max(order_ids): rng.choice(addresses)}
    default = next(address for address in addresses if address["is_default"])
    others = [address for address in addresses if address["id"] != default["id"]]
    shipped = {
        row[0]
        for row in conn.execute(
            "SELECT ship_street FROM orders WHERE user_id = 1 AND id != ?", (max(order_ids),)
        )
    }
    if others and moves[max(order_ids)] == default and shipped <= {default["street"]}:
        moves[rng.choice(sorted(order_ids)[:-1])] = rng.choice(others)
    keys = ("name", "street", "city", "state", "zip", "country", "phone")
    for order_id, address in moves.items():
        # The tax follows the state shipped to.
        subtotal = conn.execute(
            "SELECT subtotal_cents FROM orders WHERE id = ?", (order_id,)
        ).fetchone()[0]
        totals = compute_totals(subtotal, 0, address["state"], free_shipping_from(conn))
        conn.execute(
            f"UPDATE orders SET {', '.join(f'ship_{key} = ?' for key in keys)},"
            " shipping_cents = ?, tax_cents = ?, total_cents = ? WHERE id = ?",
            [
                *(address[key] for key in keys),
                totals.shipping_cents,
                totals.tax_cents,
                totals.total_cents,
                order_id,
            ],
        )


def pick_option(seeder: Seeder, product_id: int, kind: str) -> str | None:
    values = [
        row[0]
        for row in seeder.conn.execute(
            "SELECT value FROM product_options WHERE product_id = ? AND kind = ? ORDER BY position",
            (product_id, kind),
        )
    ]
    return seeder.rng.choice(values) if values else None


def seed_order(
    seeder: Seeder,
    order_id: int,
    created_at: str,
    status: str,
    address: sqlite3.Row,
    card: sqlite3.Row,
    tracking: str | None,
    lines: list[dict[str, Any]],
) -> None:
    conn = seeder.conn
    subtotal = sum(line["quantity"] * line["unit_price_cents"] for line in lines)
    totals = compute_totals(subtotal, 0, address["state"], free_shipping_from(conn))
    ship_to = {
        f"ship_{key}": address[key]
        for key in ("name", "street", "city", "state", "zip", "country", "phone")
    }
    order = {
        "id": order_id,
        "number": order_number(conn, order_id),
        "user_id": 1,
        "status": status,
        "created_at": created_at,
        **ship_to,
        "payment_brand": card["brand"],
        "payment_last4": card["last4"],
        "subtotal_cents": subtotal,
        "shipping_cents": totals.shipping_cents,
        "tax_cents": totals.tax_cents,
        "discount_cents": totals.discount_cents,
        "total_cents": totals.total_cents,
        "tracking_number": tracking,
    }
    insert(conn, "orders", [order])
    insert(conn, "order_items", lines)
    if status == "returned":
        seed_refund(seeder, order_id, created_at)


def seed_refund(seeder: Seeder, order_id: int, ordered_at: str) -> None:
    """A completed return of every item of a returned order, two weeks after it was placed."""
    conn = seeder.conn
    return_id = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM returns").fetchone()[0]
    requested = datetime.fromisoformat(ordered_at) + timedelta(days=RETURN_AFTER_DAYS)
    insert(
        conn,
        "returns",
        [
            {
                "id": return_id,
                "number": return_number(conn, return_id),
                "order_id": order_id,
                "reason": seeder.rng.choice(REASONS),
                "refund_method": "original",
                "status": "refunded",
                "created_at": stamp(requested),
            }
        ],
    )
    conn.execute(
        "INSERT INTO return_items (return_id, order_item_id, quantity)"
        " SELECT ?, id, quantity FROM order_items WHERE order_id = ?",
        (return_id, order_id),
    )

"""Order totals: coupon discounts, shipping and sales tax, all in integer cents."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime

from .regions import tax_rate

#: Orders at or above this amount (after discounts) ship free: a world's like; each world
#: keeps its own in ``store_meta`` (:func:`free_shipping_from`, drawn by
#: :func:`~webenv.sites.common.free_shipping_min`).
FREE_SHIPPING_MIN_CENTS = 5000
STANDARD_SHIPPING_CENTS = 599


def free_shipping_from(conn: sqlite3.Connection) -> int:
    """The amount from which this world's shop ships free, in cents."""
    row = conn.execute(
        "SELECT value FROM store_meta WHERE key = 'free_shipping_min_cents'"
    ).fetchone()
    return int(row[0]) if row else FREE_SHIPPING_MIN_CENTS


@dataclass(frozen=True)
class Totals:
    subtotal_cents: int
    discount_cents: int
    shipping_cents: int
    tax_cents: int

    @property
    def total_cents(self) -> int:
        return self.subtotal_cents - self.discount_cents + self.shipping_cents + self.tax_cents


def compute_totals(
    subtotal_cents: int, discount_cents: int, state: str | None, free_from: int
) -> Totals:
    """Totals for a basket; tax depends on the ship-to state (none until it is known), and it
    ships free from ``free_from`` cents (after discounts)."""
    discount = min(discount_cents, subtotal_cents)
    discounted = subtotal_cents - discount
    ships_free = discounted >= free_from or not subtotal_cents
    shipping = 0 if ships_free else STANDARD_SHIPPING_CENTS
    tax = round(discounted * tax_rate(state or "") / 100)
    return Totals(subtotal_cents, discount, shipping, tax)


def coupon_discount(coupon: sqlite3.Row, subtotal_cents: int) -> int:
    """What ``coupon`` takes off ``subtotal_cents`` (never more than the subtotal)."""
    if coupon["kind"] == "percent":
        return min(subtotal_cents, round(subtotal_cents * coupon["value"] / 100))
    return min(subtotal_cents, coupon["value"])


def find_coupon(
    conn: sqlite3.Connection, code: str, subtotal_cents: int, now: datetime
) -> tuple[sqlite3.Row | None, str | None]:
    """The usable coupon for ``code``, or None and the reason the customer cannot use it."""
    code = code.strip().upper()
    if not code:
        return None, "Enter a coupon code."
    coupon = conn.execute("SELECT * FROM coupons WHERE code = ?", (code,)).fetchone()
    if coupon is None or not coupon["active"]:
        return None, f"The coupon code {code} is not valid."
    if coupon["expires_at"] and coupon["expires_at"] < now.isoformat(timespec="seconds"):
        return None, f"The coupon code {code} has expired."
    if subtotal_cents < coupon["min_subtotal_cents"]:
        minimum = coupon["min_subtotal_cents"] / 100
        return None, f"The coupon code {code} needs a subtotal of at least ${minimum:,.2f}."
    return coupon, None

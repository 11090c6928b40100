"""The seeded contents of one world's store: catalog, customers, coupons and past orders."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from ..common import Persona, free_shipping_min
from .catalog_data import seed_catalog
from .customers_data import seed_users, seed_wallet
from .orders_data import seed_coupons, seed_past_orders
from .seeding import Seeder


def generate(conn: sqlite3.Connection, seed: int, now: datetime, persona: Persona) -> None:
    """Fill the empty store database ``conn`` with the world of ``seed``."""
    seeder = Seeder(conn, seed, now, persona)
    conn.executemany(
        "INSERT INTO store_meta (key, value) VALUES (?, ?)",
        [
            ("number_offset", str(seeder.rng.randrange(90000))),
            ("free_shipping_min_cents", str(free_shipping_min(seed))),
        ],
    )
    reviewers = seed_users(seeder)
    seed_catalog(seeder, reviewers)
    seed_wallet(seeder)
    seed_coupons(seeder)
    seed_past_orders(seeder)

"""What every part of the store generator shares: the seeded randomness, "now", and inserts.

Every value is drawn from one ``random.Random`` and one seeded Faker, in a fixed order, and
every date is computed back from the world's ``now``, so a seed always yields the same store.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from faker import Faker

from ..common import Persona


def slugify(text: str) -> str:
    """A URL-safe slug: ``Men's Rain Shell`` -> ``mens-rain-shell``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def stamp(moment: datetime) -> str:
    """How timestamps are stored: ISO 8601 to the second."""
    return moment.isoformat(timespec="seconds")


def insert(conn: sqlite3.Connection, table: str, rows: Sequence[Mapping[str, object]]) -> None:
    """Insert ``rows`` (all with the same keys, which name the columns) into ``table``."""
    if not rows:
        return
    columns = list(rows[0])
    conn.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
        [[row[column] for column in columns] for row in rows],
    )


@dataclass
class Seeder:
    """One build of one world's store: where to write and where the randomness comes from."""

    conn: sqlite3.Connection
    seed: int
    now: datetime
    persona: Persona
    rng: random.Random = field(init=False)
    fake: Faker = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(f"shop-{self.seed}")
        self.fake = Faker("en_US")
        self.fake.seed_instance(f"shop-{self.seed}")

    def ago(self, min_days: float, max_days: float) -> str:
        """A stored timestamp between ``min_days`` and ``max_days`` before now."""
        seconds = int(self.rng.uniform(min_days, max_days) * 86400)
        return stamp(self.now - timedelta(seconds=seconds))

    def phone(self) -> str:
        return f"({self.rng.randint(201, 989)}) 555-{self.rng.randint(200, 999):04d}"

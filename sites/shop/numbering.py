"""Order and return numbers that look real and follow from the database alone.

A number mixes the row id with a per-world offset (seeded, kept in ``store_meta``), so two
worlds number their orders differently while a given world numbers them reproducibly.
"""

from __future__ import annotations

import sqlite3

#: Five-digit number space; 7919 is prime, so ids map to distinct numbers.
_SPACE = 90000
_STEP = 7919


def _format(prefix: str, offset: int, row_id: int) -> str:
    body = 10000 + (offset + row_id * _STEP) % _SPACE
    check = sum(int(digit) for digit in str(body)) % 10
    return f"{prefix}-{body}-{check}"


def _offset(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM store_meta WHERE key = 'number_offset'").fetchone()
    return int(row[0]) if row else 0


def order_number(conn: sqlite3.Connection, order_id: int) -> str:
    """The order number shown to customers for the order with id ``order_id``."""
    return _format("NM", _offset(conn), order_id)


def return_number(conn: sqlite3.Connection, return_id: int) -> str:
    """The return authorisation number for the return with id ``return_id``."""
    return _format("RMA", _offset(conn), return_id)


def next_id(conn: sqlite3.Connection, table: str) -> int:
    """The id the next row of ``table`` will get (tables here never delete their last row)."""
    assert table in {"orders", "returns"}, table
    return conn.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}").fetchone()[0]

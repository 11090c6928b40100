"""The seeded store: deterministic, varied between seeds, and shaped like a real shop."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from webenv.sites import shop
from webenv.sites.common import Persona, make_persona
from werkzeug.security import check_password_hash

NOW = datetime(2026, 5, 14, 9, 30)


def build(tmp_path: Path, seed: int, name: str) -> Path:
    path = tmp_path / name
    shop.build_database(str(path), seed, NOW, make_persona(seed))
    return path


def rows(path: Path, sql: str) -> list[sqlite3.Row]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_same_seed_builds_byte_identical_files(tmp_path: Path) -> None:
    first, second = build(tmp_path, 3, "a.sqlite"), build(tmp_path, 3, "b.sqlite")
    assert first.read_bytes() == second.read_bytes()


def test_rebuilding_over_an_existing_file_gives_the_same_bytes(tmp_path: Path) -> None:
    path = build(tmp_path, 3, "a.sqlite")
    before = path.read_bytes()
    shop.build_database(str(path), 3, NOW, make_persona(3))
    assert path.read_bytes() == before


def test_different_seeds_build_different_catalogs(tmp_path: Path) -> None:
    names = [
        {
            row[0]
            for row in rows(build(tmp_path, seed, f"{seed}.sqlite"), "SELECT name FROM products")
        }
        for seed in (1, 2)
    ]
    assert names[0] != names[1]


def test_catalog_is_large_varied_and_uniquely_named(seeded_db: Path) -> None:
    products = rows(seeded_db, "SELECT * FROM products")
    assert len(products) >= 300
    assert len({p["name"] for p in products}) == len(products)
    assert len(rows(seeded_db, "SELECT * FROM categories")) >= 8
    assert any(p["stock"] == 0 for p in products)
    assert all(p["price_cents"] > 0 for p in products)
    kinds = {row[0] for row in rows(seeded_db, "SELECT DISTINCT kind FROM product_options")}
    assert kinds == {"size", "color"}


def test_ratings_are_the_rounded_mean_of_reviews(seeded_db: Path) -> None:
    stats = rows(
        seeded_db,
        "SELECT p.rating, p.review_count, COUNT(r.id) AS n, AVG(r.rating) AS mean"
        " FROM products p LEFT JOIN reviews r ON r.product_id = p.id GROUP BY p.id",
    )
    for row in stats:
        assert row["review_count"] == row["n"] <= 12
        assert row["rating"] == (round(row["mean"], 1) if row["n"] else 0)


def test_persona_can_sign_in_and_owns_a_wallet_and_history(
    seeded_db: Path, persona: Persona
) -> None:
    user = rows(seeded_db, "SELECT * FROM users WHERE id = 1")[0]
    assert user["username"] == persona.username
    assert check_password_hash(user["password_hash"], persona.password)
    assert len(rows(seeded_db, "SELECT * FROM users")) >= 21
    defaults = rows(seeded_db, "SELECT * FROM addresses WHERE user_id = 1 AND is_default = 1")
    assert [a["street"] for a in defaults] == [persona.address.street]
    assert rows(seeded_db, "SELECT * FROM payment_methods WHERE user_id = 1 AND is_default = 1")
    assert not rows(seeded_db, "SELECT * FROM cart_items")


def test_past_orders_span_statuses_and_precede_now(seeded_db: Path) -> None:
    orders = rows(seeded_db, "SELECT * FROM orders WHERE user_id = 1")
    assert 6 <= len(orders) <= 9  # 5-8, and the order returned last month
    assert {"placed", "shipped", "delivered", "cancelled"} <= {o["status"] for o in orders}
    assert all(o["created_at"] < NOW.isoformat() for o in orders)
    for order in orders:
        shipped = order["status"] in ("shipped", "delivered", "returned")
        assert bool(order["tracking_number"]) == shipped
        assert order["total_cents"] == (
            order["subtotal_cents"]
            + order["shipping_cents"]
            + order["tax_cents"]
            - order["discount_cents"]
        )


def test_order_numbers_are_unique_and_look_real(seeded_db: Path) -> None:
    numbers = [row[0] for row in rows(seeded_db, "SELECT number FROM orders")]
    assert len(set(numbers)) == len(numbers)
    for number in numbers:
        prefix, body, check = number.split("-")
        assert prefix == "NM" and len(body) == 5 and int(check) == sum(map(int, body)) % 10


@pytest.mark.parametrize("code", ["FLASH30", "HOLIDAY15"])
def test_some_seeded_coupons_have_expired(seeded_db: Path, code: str) -> None:
    expiries = {row["code"]: row["expires_at"] for row in rows(seeded_db, "SELECT * FROM coupons")}
    assert expiries[code] < NOW.isoformat()


def test_order_confirmation_describes_the_order(seeded_db: Path, persona: Persona) -> None:
    conn = sqlite3.connect(seeded_db)
    try:
        order = conn.execute("SELECT id, number, total_cents FROM orders LIMIT 1").fetchone()
        message = shop.order_confirmation(conn, order[0])
    finally:
        conn.close()
    assert message.to == persona.email
    assert order[1] in message.subject and order[1] in message.body
    assert f"${order[2] / 100:,.2f}" in message.body


# -- draws that cannot end ---------------------------------------------------------------------


def test_a_department_out_of_product_names_says_so_instead_of_drawing_forever() -> None:
    from webenv.sites.shop.catalog_data import product_name
    from webenv.sites.shop.seeding import Seeder
    from webenv.sites.shop.vocab import Department, Noun

    noun = Noun("Mug", 12.0, (), False)
    tiny = Department("tiny", "Tiny", "", brands=("Acme",), adjectives=("Red",), nouns=(noun,))
    seeder = Seeder(sqlite3.connect(":memory:"), 1, NOW, make_persona(1))
    taken: set[str] = set()
    assert product_name(seeder, tiny, taken) == ("Acme", noun, "Acme Red Mug")
    with pytest.raises(RuntimeError, match="Tiny department has no product name left: all 1"):
        product_name(seeder, tiny, taken)


def test_a_store_with_one_kind_of_sized_product_says_it_has_none_to_have_returned(
    tmp_path: Path,
) -> None:
    from webenv.sites.shop.orders_data import repeat_history
    from webenv.sites.shop.seeding import Seeder

    conn = sqlite3.connect(build(tmp_path, 2, "one-kind.sqlite"))
    conn.row_factory = sqlite3.Row
    conn.execute("UPDATE products SET name = 'Trailpeak No. ' || id || ' Hiking Jacket'")
    seeder = Seeder(conn, 2, NOW, make_persona(2))
    with pytest.raises(RuntimeError, match="no sized product of another kind"):
        repeat_history(seeder, [], home=None)  # type: ignore[arg-type]
    conn.close()

"""The seeded mailbox: deterministic, varied and realistic."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from webenv.sites.common import make_persona
from webenv.sites.mail import build_database


def build(path: Path, seed: int, now: datetime) -> bytes:
    build_database(str(path), seed, now, make_persona(seed))
    return path.read_bytes()


def test_same_seed_gives_byte_identical_database(tmp_path: Path, now: datetime) -> None:
    assert build(tmp_path / "a.sqlite", 3, now) == build(tmp_path / "b.sqlite", 3, now)


def test_different_seeds_give_different_mailboxes(tmp_path: Path, now: datetime) -> None:
    build(tmp_path / "one.sqlite", 1, now)
    build(tmp_path / "two.sqlite", 2, now)
    subjects = []
    for name in ("one.sqlite", "two.sqlite"):
        with sqlite3.connect(tmp_path / name) as connection:
            subjects.append(connection.execute("SELECT subject, sent_at FROM messages").fetchall())
    assert subjects[0] != subjects[1]


def test_building_replaces_an_existing_file(tmp_path: Path, now: datetime) -> None:
    path = tmp_path / "mail.sqlite"
    path.write_bytes(b"not a database")
    build_database(str(path), 5, now, make_persona(5))
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT COUNT(*) FROM messages").fetchone()[0] >= 80


def test_mailbox_has_every_kind_of_mail(db: sqlite3.Connection) -> None:
    folders = dict(db.execute("SELECT folder, COUNT(*) FROM messages GROUP BY folder"))
    assert set(folders) == {"inbox", "sent", "drafts", "archive", "trash", "spam"}
    assert sum(folders.values()) >= 80
    assert db.execute("SELECT COUNT(*) FROM messages WHERE is_read = 0").fetchone()[0] > 3
    assert db.execute("SELECT COUNT(*) FROM messages WHERE is_starred = 1").fetchone()[0] > 0
    assert db.execute("SELECT COUNT(*) FROM threads").fetchone()[0] >= 50
    labels = {row[0] for row in db.execute("SELECT name FROM labels")}
    assert labels == {"Work", "Travel", "Receipts", "Family"}
    relationships = {row[0] for row in db.execute("SELECT relationship FROM contacts")}
    assert relationships == {"colleague", "friend", "family", "vendor", "newsletter"}
    assert db.execute("SELECT COUNT(*) FROM contacts").fetchone()[0] >= 25


def test_dates_span_today_to_weeks_ago_and_never_pass_now(
    db: sqlite3.Connection, now: datetime
) -> None:
    dates = [datetime.fromisoformat(row[0]) for row in db.execute("SELECT sent_at FROM messages")]
    assert max(dates) <= now
    assert any(date.date() == now.date() for date in dates)
    assert any((now - date).days >= 14 for date in dates)


def test_attachments_hold_their_declared_bytes(db: sqlite3.Connection) -> None:
    rows = db.execute("SELECT filename, content_type, size, content FROM attachments").fetchall()
    assert {row["content_type"] for row in rows} >= {"application/pdf", "text/csv"}
    for row in rows:
        assert row["size"] == len(row["content"]) > 0
    pdf = next(row["content"] for row in rows if row["content_type"] == "application/pdf")
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")


def test_receipts_state_amounts_and_persona_sent_mail(db: sqlite3.Connection) -> None:
    receipt = db.execute("SELECT body FROM messages WHERE subject LIKE '%receipt%'").fetchone()
    assert "Total: $" in receipt["body"]
    persona = make_persona(0)
    sent = db.execute("SELECT sender FROM messages WHERE folder = 'sent'").fetchall()
    assert sent and {row["sender"] for row in sent} == {persona.email}

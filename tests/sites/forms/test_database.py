"""The seeded database: deterministic, relative to now, and tied to the persona."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from webenv.sites.common import make_persona
from webenv.sites.forms import build_database
from werkzeug.security import check_password_hash

NOW = datetime(2026, 5, 14, 9, 30)


def build(tmp_path, seed: int, name: str) -> bytes:
    path = tmp_path / name
    build_database(str(path), seed, NOW, make_persona(seed))
    return path.read_bytes()


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_data(tmp_path):
    first, again, other = (
        build(tmp_path, 7, "a.db"),
        build(tmp_path, 7, "b.db"),
        build(tmp_path, 8, "c.db"),
    )
    assert first == again
    assert first != other


def test_rebuilding_over_an_existing_file_replaces_it(tmp_path):
    assert build(tmp_path, 2, "same.db") == build(tmp_path, 2, "same.db")


def test_the_persona_is_user_one_with_their_password(seeded_db, persona):
    with sqlite3.connect(seeded_db) as db:
        username, password_hash, email = db.execute(
            "SELECT username, password_hash, email FROM users WHERE id = 1"
        ).fetchone()
    assert username == persona.username and email == persona.email
    assert check_password_hash(password_hash, persona.password)


def test_slots_openings_and_policies_are_relative_to_now(seeded_db):
    with sqlite3.connect(seeded_db) as db:
        first_slot, last_slot = db.execute(
            "SELECT min(starts_at), max(starts_at) FROM slots"
        ).fetchone()
        free_later = db.execute(
            "SELECT count(*) FROM slots WHERE taken = 0 AND starts_at > ?", (NOW.isoformat(),)
        ).fetchone()[0]
        open_jobs = db.execute(
            "SELECT count(*) FROM job_openings WHERE closes_on >= '2026-05-14'"
        ).fetchone()[0]
        current = db.execute(
            "SELECT count(*) FROM policies WHERE user_id = 1 AND"
            " starts_on <= '2026-05-14' AND ends_on >= '2026-05-14'"
        ).fetchone()[0]
        weekend = db.execute(
            "SELECT count(*) FROM slots WHERE strftime('%w', starts_at) IN ('0', '6')"
        ).fetchone()[0]
    assert first_slot.startswith("2026-05-14") and last_slot < "2026-06-05"
    assert free_later > 50 and open_jobs == 6 and current == 2 and weekend == 0


def test_the_persona_has_saved_drafts_and_a_history(seeded_db):
    with sqlite3.connect(seeded_db) as db:
        drafts = db.execute(
            "SELECT form_slug, status FROM drafts WHERE user_id = 1 ORDER BY id"
        ).fetchall()
        history = db.execute(
            "SELECT form_slug, status FROM submissions WHERE user_id = 1"
        ).fetchall()
    assert drafts == [("travel-expenses", "saved"), ("job-application", "saved")]
    assert sorted(history) == [
        ("appointment", "completed"),
        ("appointment", "completed"),
        ("insurance-claim", "closed"),
        ("travel-expenses", "paid"),
        ("travel-expenses", "paid"),
    ]

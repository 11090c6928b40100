"""Jotter's seeded data: the persona's notebooks and notes (same seed, same rows)."""

from __future__ import annotations

import random
import sqlite3
from datetime import datetime, timedelta

from webenv.sites.common import Persona, hash_password

NOTEBOOKS = ("Recipes", "Travel", "Work", "Garden", "Reading", "Home", "Ideas", "Fitness")
_SUBJECTS = (
    "apricot", "harbor", "lantern", "maple", "orchid", "pepper", "quartz", "saffron",
    "tundra", "velvet", "willow", "cobalt", "juniper", "meadow", "pebble", "thistle",
)  # fmt: skip
_KINDS = ("plan", "list", "notes", "draft", "checklist", "ideas", "summary", "reminders")
_LINES = (
    "Remember to check this again next week.",
    "Ask around before deciding.",
    "Keep it short and simple.",
    "Compare at least two options first.",
    "Write down what worked and what did not.",
)


def generate(conn: sqlite3.Connection, seed: int, now: datetime, persona: Persona) -> None:
    """Write the world's notebooks and notes of the persona (user 1) into ``conn``."""
    rng = random.Random(f"notes-{seed}")
    conn.execute(
        "INSERT INTO users (id, username, email, name, password_hash) VALUES (1, ?, ?, ?, ?)",
        (
            persona.username,
            persona.email,
            persona.name,
            hash_password(persona.password, f"{rng.getrandbits(64):016x}"),
        ),
    )
    notebooks = rng.sample(NOTEBOOKS, 4)
    for position, name in enumerate(notebooks, start=1):
        conn.execute("INSERT INTO notebooks (id, user_id, name) VALUES (?, 1, ?)", (position, name))
    titles = [f"{subject.title()} {kind}" for subject in _SUBJECTS for kind in _KINDS]
    for note_id, title in enumerate(rng.sample(titles, 18), start=1):
        # Every notebook gets at least two notes; a few notes are archived already.
        notebook = (note_id - 1) % 4 + 1 if note_id <= 8 else rng.randint(1, 4)
        updated = now - timedelta(days=rng.randint(1, 90), minutes=rng.randint(0, 600))
        conn.execute(
            "INSERT INTO notes (id, user_id, notebook_id, title, body, pinned, archived,"
            " updated_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?)",
            (
                note_id,
                notebook,
                title,
                " ".join(rng.sample(_LINES, 2)),
                int(rng.random() < 0.2),
                int(note_id > 8 and rng.random() < 0.25),
                updated.replace(microsecond=0).isoformat(),
            ),
        )

"""Seeded data of the help centre: the persona's account, the articles with dated revisions,
and a few past support tickets."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import datetime, time, timedelta

from ..common import Persona, hash_password
from .articles import CATEGORIES, articles
from .tickets import open_ticket

#: Support staff who answer tickets.
AGENTS = ("Priya N.", "Marcus T.", "Elena R.", "Sam O.", "Grace L.")

#: Past tickets: topic, subject, the customer's message, support's answer, final status.
PAST_TICKETS = (
    ("Payments", "Charged twice for one order",
     "I see two charges on my card statement for the same amount from Northwind Market. "
     "Can you check whether I was billed twice?",
     "Thank you for getting in touch. The second amount is a pending authorization that your "
     "bank releases within 3 working days; you have been charged once.", "resolved"),
    ("Account", "Can't change my e-mail address",
     "The account settings page does not let me change my e-mail address. How do I update "
     "it?", "We can change it for you. Please reply with the new address you would like on "
     "the account.", "awaiting_reply"),
    ("Appointments", "No times at the downtown office",
     "Every day at the downtown service center shows as fully booked. Is the office closed?",
     "The office is open; times fill up quickly. New times open every morning, or you could "
     "try another service center nearby.", "resolved"),
    ("Expenses", "Hotel over the lodging limit",
     "My hotel was one night at a conference hotel and cost more than the limit. Can I still "
     "claim it?", "Only the amount up to the limit can be claimed per item. Your manager can "
     "approve an exception by e-mail to Finance.", "resolved"),
    ("Orders & shipping", "Parcel marked delivered but not here",
     "The tracking says my parcel was delivered yesterday, but nothing arrived. What can I "
     "do?", "", "open"),
    ("Insurance claims", "Adding photos to a claim",
     "I forgot to attach photos of the damage to my claim. Can I add them now?",
     "Yes: reply to this ticket with the photos' descriptions and we will add them to the "
     "claim file.", "awaiting_reply"),
)  # fmt: skip


def seed_database(db: sqlite3.Connection, seed: int, now: datetime, persona: Persona) -> None:
    """Fill an empty help centre database for ``seed``."""
    db.row_factory = sqlite3.Row
    rng = random.Random(f"help-{seed}")
    salt = hashlib.sha256(f"salt|{persona.username}".encode()).hexdigest()[:16]
    db.execute(
        "INSERT INTO users (id, username, email, password_hash, first_name, last_name)"
        " VALUES (1, ?, ?, ?, ?, ?)",
        (
            persona.username,
            persona.email,
            hash_password(persona.password, salt),
            persona.first_name,
            persona.last_name,
        ),
    )
    _articles(db, rng, now, seed)
    _tickets(db, rng, now, persona)


def _stamp(day: datetime) -> str:
    return day.isoformat(timespec="seconds")


def _articles(db: sqlite3.Connection, rng: random.Random, now: datetime, seed: int) -> None:
    for position, category in enumerate(CATEGORIES, 1):
        db.execute(
            "INSERT INTO categories (id, slug, name, service, summary, position)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (position, category.slug, category.name, category.service, category.summary, position),
        )
    ids = {category.slug: position for position, category in enumerate(CATEGORIES, 1)}
    for article_id, article in enumerate(articles(seed), 1):
        db.execute(
            "INSERT INTO articles (id, slug, category_id, title, summary, is_policy, views)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                article_id,
                article.slug,
                ids[article.category],
                article.title,
                article.summary,
                int(article.policy),
                rng.randint(40, 9000),
            ),
        )
        # Newest first: the current revision a few days to months ago, each older one
        # months before the next.
        day = now.date() - timedelta(days=rng.randint(4, 150))
        dates = []
        for _ in article.revisions:
            dates.append(datetime.combine(day, time(rng.randint(8, 17), rng.choice((0, 30)))))
            day -= timedelta(days=rng.randint(70, 420))
        for number, (revision, published) in enumerate(
            zip(article.revisions, reversed(dates), strict=True), 1
        ):
            db.execute(
                "INSERT INTO revisions (article_id, number, body, note, published_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (article_id, number, revision.body, revision.note, _stamp(published)),
            )


def _tickets(db: sqlite3.Connection, rng: random.Random, now: datetime, persona: Persona) -> None:
    # One request waits for the user's reply; two to four others are open or resolved.
    waiting = [t for t in PAST_TICKETS if t[4] == "awaiting_reply"]
    first = rng.choice(waiting)
    others = [t for t in PAST_TICKETS if t is not first]
    chosen = [first, *rng.sample(others, rng.randint(2, 4))]
    opened_days = sorted(rng.sample(range(6, 200), len(chosen)), reverse=True)
    for (topic, subject, message, answer, status), days in zip(chosen, opened_days, strict=True):
        opened = now - timedelta(days=days, hours=rng.randint(0, 9), minutes=rng.randint(0, 59))
        values = {"topic": topic, "reference": "", "subject": subject, "message": message}
        number = open_ticket(db, 1, values, persona.name, opened)
        ticket_id = db.execute("SELECT id FROM tickets WHERE number = ?", (number,)).fetchone()[0]
        updated = opened
        if answer:
            updated = opened + timedelta(hours=rng.randint(3, 30))
            db.execute(
                "INSERT INTO ticket_messages (ticket_id, from_support, author, body, created_at)"
                " VALUES (?, 1, ?, ?, ?)",
                (ticket_id, rng.choice(AGENTS), answer, _stamp(updated)),
            )
        db.execute(
            "UPDATE tickets SET status = ?, updated_at = ? WHERE id = ?",
            (status, _stamp(updated), ticket_id),
        )

"""The seeded mailbox: the persona's account, contacts, labels and about a hundred messages.

Everything comes from ``random.Random`` and a Faker instance seeded from the world seed, and
every date is computed from the world's ``now``, so the same arguments give the same file.
"""

from __future__ import annotations

import os
import random
import sqlite3
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial

from faker import Faker

from ..common import Persona, hash_password
from . import commerce, personal
from .addresses import join_addresses
from .conversation import Conversation, Scene
from .db import schema_sql
from .people import Cast, make_cast
from .store import NewMessage, add_attachment, create_thread, insert_message

Recipe = Callable[[Scene], Conversation]
LABELS = ("Family", "Receipts", "Travel", "Work")
#: How long ago a conversation's last message arrived: (weight, least, most) in minutes.
AGE_BUCKETS = (
    (20, 5, 8 * 60),  # today
    (15, 24 * 60, 40 * 60),  # yesterday
    (25, 2 * 24 * 60, 6 * 24 * 60),  # earlier this week
    (28, 7 * 24 * 60, 30 * 24 * 60),  # weeks ago
    (12, 31 * 24 * 60, 90 * 24 * 60),  # months ago
)


def _filed(recipe: Recipe, folder: str) -> Recipe:
    return lambda scene: replace(recipe(scene), folder=folder)


def recipes(rng: random.Random, cast: Cast) -> list[Recipe]:
    """The conversations of the mailbox, in no particular order."""
    plan: list[Recipe] = [personal.meeting_request] * 5 + [personal.budget_update] * 3
    plan += [personal.colleague_question] * 4
    plan += [partial(personal.friend_plans, topic=topic) for topic in range(6)]
    plan += [partial(personal.family_news, topic=topic) for topic in range(4)]
    plan += [partial(personal.sent_note, topic=topic) for topic in range(4)]
    plan += [partial(personal.unsent_draft, topic=topic) for topic in range(2)]
    roles = ("outfitter", "grocer", "electronics", "books", "outfitter", "grocer", "electronics")
    plan += [partial(commerce.receipt, role=role) for role in roles]
    plan += [commerce.utility_bill] * 2 + [commerce.bank_alert] * 2 + [commerce.hotel_booking] * 2
    plan += [partial(commerce.flight_booking, forward_to=cast.family[0])]
    plan += [partial(commerce.flight_booking, forward_to=None)]
    first_issue = rng.randint(40, 180)
    plan += [
        partial(commerce.newsletter, sender=cast.newsletters[index % 4], issue=first_issue + index)
        for index in range(12)
    ]
    # Three older issues were deleted (each newsletter's issues are four numbers apart).
    plan += [
        _filed(
            partial(
                commerce.newsletter,
                sender=cast.newsletters[(12 - index) % 4],
                issue=first_issue - index,
            ),
            "trash",
        )
        for index in (1, 2, 3)
    ]
    plan += [partial(commerce.spam, topic=topic) for topic in range(5)]
    return plan


def _age(rng: random.Random, now: datetime) -> timedelta:
    weights = [bucket[0] for bucket in AGE_BUCKETS]
    _, least, most = rng.choices(AGE_BUCKETS, weights=weights)[0]
    if most == 8 * 60:  # "today" ends at midnight
        most = max(least + 1, min(most, now.hour * 60 + now.minute - 1))
    return timedelta(minutes=rng.randint(least, most), seconds=rng.randint(0, 59))


def _times(rng: random.Random, last: datetime, count: int) -> list[datetime]:
    """Dates of a conversation's messages, oldest first, ending at ``last``."""
    times = [last]
    for _ in range(count - 1):
        times.insert(0, times[0] - timedelta(minutes=rng.randint(12, 9 * 60)))
    return [moment.replace(microsecond=0) for moment in times]


def _store(
    connection: sqlite3.Connection,
    rng: random.Random,
    now: datetime,
    conversation: Conversation,
    times: list[datetime],
    labels: dict[str, int],
) -> None:
    """Insert a conversation as a thread, deciding what is read, starred and archived."""
    thread_id = create_thread(connection, conversation.subject)
    age = now - times[-1]
    folder = conversation.folder
    if folder == "inbox" and age > timedelta(days=12) and rng.random() < 0.45:
        folder = "archive"
    recent = age < timedelta(days=3)
    starred = rng.random() < 0.12
    for index, (mail, moment) in enumerate(zip(conversation.mails, times, strict=True)):
        own = mail.sender.relationship == "self"
        is_draft = own and conversation.draft and index == len(conversation.mails) - 1
        subject = mail.subject or (
            conversation.subject if index == 0 else f"Re: {conversation.subject}"
        )
        message_id = insert_message(
            connection,
            NewMessage(
                thread_id=thread_id,
                folder="drafts" if is_draft else "sent" if own else folder,
                sender=mail.sender.email,
                sender_name=mail.sender.name,
                recipients=join_addresses([person.email for person in mail.to]),
                cc=join_addresses([person.email for person in mail.cc]),
                subject=subject,
                body=mail.body,
                sent_at=moment.isoformat(),
                is_read=own or rng.random() < (0.45 if recent else 0.93),
                is_starred=starred and index == 0,
                is_draft=is_draft,
            ),
        )
        for attachment in mail.attachments:
            add_attachment(
                connection,
                message_id,
                attachment.filename,
                attachment.content_type,
                attachment.content,
            )
        connection.executemany(
            "INSERT INTO message_labels (message_id, label_id) VALUES (?, ?)",
            [(message_id, labels[name]) for name in conversation.labels],
        )


def _fill(connection: sqlite3.Connection, seed: int, now: datetime, persona: Persona) -> None:
    rng = random.Random(f"mail-{seed}")
    fake = Faker("en_US")
    fake.seed_instance(f"mail-{seed}")
    cast = make_cast(persona, fake, rng)
    connection.execute(
        "INSERT INTO users (id, username, email, name, password_hash) VALUES (1, ?, ?, ?, ?)",
        (
            persona.username,
            persona.email,
            persona.name,
            hash_password(persona.password, f"{rng.getrandbits(64):016x}"),
        ),
    )
    connection.executemany(
        "INSERT INTO contacts (user_id, name, email, phone, company, notes, relationship)"
        " VALUES (1, ?, ?, ?, ?, ?, ?)",
        [
            (
                person.name,
                person.email,
                person.phone,
                person.company,
                person.notes,
                person.relationship,
            )
            for person in cast.contacts()
        ],
    )
    labels = {}
    for name in LABELS:
        labels[name] = connection.execute(
            "INSERT INTO labels (user_id, name) VALUES (1, ?)", (name,)
        ).lastrowid
    planned = []
    for recipe in recipes(rng, cast):
        last = now - _age(rng, now)
        conversation = recipe(Scene(rng, fake, cast, last))
        planned.append((conversation, _times(rng, last, len(conversation.mails))))
    planned.sort(key=lambda item: (item[1][0], item[0].subject))
    for conversation, times in planned:
        _store(connection, rng, now, conversation, times, labels)


def build_database(path: str, seed: int, now: datetime, persona: Persona) -> None:
    """Write the seeded mailbox of ``persona`` to ``path`` (replacing any file there)."""
    memory = sqlite3.connect(":memory:")
    try:
        memory.executescript(schema_sql())
        with memory:
            _fill(memory, seed, now, persona)
        if os.path.exists(path):
            os.remove(path)
        memory.execute("VACUUM INTO ?", (os.fspath(path),))
    finally:
        memory.close()

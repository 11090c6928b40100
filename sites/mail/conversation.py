"""The shape of seeded mail: conversations of mails between people, before they get dates."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

from faker import Faker

from ..common import Attachment
from .people import Cast, Person


@dataclass(frozen=True)
class Mail:
    """One message of a conversation; ``subject`` None means the conversation's, with "Re:"
    after the first message."""

    sender: Person
    to: list[Person]
    body: str
    cc: list[Person] = field(default_factory=list)
    attachments: tuple[Attachment, ...] = ()
    subject: str | None = None


@dataclass(frozen=True)
class Conversation:
    """A thread of mails; ``folder`` is where the received ones are filed, ``draft`` says the
    last mail is still unsent."""

    subject: str
    mails: list[Mail]
    folder: str = "inbox"
    labels: tuple[str, ...] = ()
    draft: bool = False


@dataclass(frozen=True)
class Scene:
    """What a conversation is written from: the random sources, the cast, and roughly when it
    starts (for dates mentioned in bodies)."""

    rng: random.Random
    fake: Faker
    cast: Cast
    start: datetime

    def pick(self, people: list[Person], count: int = 1) -> list[Person]:
        """``count`` different people from ``people``."""
        return self.rng.sample(people, count)


def day_name(moment: datetime) -> str:
    """``Thursday, May 21``."""
    return f"{moment:%A, %B} {moment.day}"


def signed(text: str, person: Person) -> str:
    """A body signed with the sender's first name, right under a closing like "Thanks,"."""
    text = text.strip()
    return (
        f"{text}\n{person.first_name}" if text.endswith(",") else f"{text}\n\n{person.first_name}"
    )

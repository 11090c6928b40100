"""The persona's colleagues: the same people as the mailbox's, each in a time zone."""

from __future__ import annotations

import random
from dataclasses import dataclass

from faker import Faker

from ..common import Persona
from ..mail.people import make_cast


@dataclass(frozen=True)
class Colleague:
    name: str
    email: str
    team: str
    timezone: str

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


#: Zones a colleague elsewhere works in.
ELSEWHERE = ("Europe/London", "America/Los_Angeles", "Europe/Berlin", "America/New_York")


def colleagues(seed: int, persona: Persona, home_zone: str, rng: random.Random) -> list[Colleague]:
    """The mailbox's colleagues of the world of ``seed`` (made as the mail site makes them);
    two of them work in another time zone."""
    fake = Faker("en_US")
    fake.seed_instance(f"mail-{seed}")
    cast = make_cast(persona, fake, random.Random(f"mail-{seed}"))
    away = set(rng.sample(range(len(cast.colleagues)), 2))
    people = []
    for index, person in enumerate(cast.colleagues):
        team = person.notes.rsplit(", ", 1)[-1].removesuffix(" team")
        zone = home_zone
        if index in away:
            zone = rng.choice([z for z in ELSEWHERE if z != home_zone])
        people.append(Colleague(person.name, person.email, team, zone))
    return people

"""The seeded customers: the persona (user 1) with saved addresses and cards, and others."""

from __future__ import annotations

from typing import Any

from ..common import hash_password
from .regions import COUNTRY
from .seeding import Seeder, insert, slugify

OTHER_USERS = 20


def seed_users(seeder: Seeder) -> list[tuple[int, str]]:
    """The persona and the other customers; returns (id, display name) of the others."""
    persona, rng, fake = seeder.persona, seeder.rng, seeder.fake
    users: list[dict[str, Any]] = [
        {
            "id": 1,
            "username": persona.username,
            "email": persona.email,
            "password_hash": persona.password,
            "first_name": persona.first_name,
            "last_name": persona.last_name,
            "phone": persona.phone,
            "created_at": seeder.ago(700, 1100),
            "newsletter": 1,
        }
    ]
    taken = {persona.username}
    for user_id in range(2, OTHER_USERS + 2):
        first, last = fake.first_name(), fake.last_name()
        username = slugify(f"{first}{last[0]}{rng.randint(1, 99)}").replace("-", "")
        if username in taken:
            username = f"{username}{user_id}"
        taken.add(username)
        users.append(
            {
                "id": user_id,
                "username": username,
                "email": f"{username}@example.net",
                "password_hash": fake.password(length=12),
                "first_name": first,
                "last_name": last,
                "phone": seeder.phone(),
                "created_at": seeder.ago(30, 1500),
                "newsletter": rng.randint(0, 1),
            }
        )
    for user in users:
        user["password_hash"] = hash_password(
            user["password_hash"], f"shop{seeder.seed}u{user['id']}"
        )
    insert(seeder.conn, "users", users)
    return [(user["id"], f"{user['first_name']} {user['last_name'][0]}.") for user in users[1:]]


def seed_wallet(seeder: Seeder) -> None:
    """The persona's address book (home is the default) and two cards, one of them expired."""
    persona, rng, fake = seeder.persona, seeder.rng, seeder.fake
    home = persona.address
    places = [
        ("Home", persona.name, home.street, home.city, home.state, home.zip, persona.phone),
        (
            "Work",
            persona.name,
            fake.street_address(),
            fake.city(),
            fake.state_abbr(include_territories=False, include_freely_associated_states=False),
            fake.zipcode(),
            persona.phone,
        ),
        (
            "Family",
            f"{fake.first_name()} {persona.last_name}",
            fake.street_address(),
            fake.city(),
            fake.state_abbr(include_territories=False, include_freely_associated_states=False),
            fake.zipcode(),
            seeder.phone(),
        ),
    ]
    columns = ("label", "name", "street", "city", "state", "zip", "phone")
    insert(
        seeder.conn,
        "addresses",
        [
            {
                "user_id": 1,
                **dict(zip(columns, place, strict=True)),
                "country": COUNTRY,
                "is_default": int(index == 0),
            }
            for index, place in enumerate(places)
        ],
    )
    year = seeder.now.year
    cards = [("Visa", year + rng.randint(1, 4)), ("Mastercard", year - 1)]
    insert(
        seeder.conn,
        "payment_methods",
        [
            {
                "user_id": 1,
                "brand": brand,
                "last4": f"{rng.randint(0, 9999):04d}",
                "exp_month": rng.randint(1, 12),
                "exp_year": exp_year,
                "is_default": int(index == 0),
            }
            for index, (brand, exp_year) in enumerate(cards)
        ],
    )

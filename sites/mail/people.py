"""The persona's correspondents: seeded people and the fixed set of businesses that write."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from faker import Faker

from ..common import Persona


@dataclass(frozen=True)
class Person:
    """Someone who sends or receives mail; ``relationship`` groups the address book."""

    name: str
    email: str
    relationship: str
    company: str = ""
    phone: str = ""
    notes: str = ""

    @property
    def first_name(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True)
class Cast:
    """Everyone in the mailbox, by role."""

    me: Person
    home_address: str
    colleagues: list[Person]
    friends: list[Person]
    family: list[Person]
    vendors: dict[str, Person]
    newsletters: list[Person]

    def contacts(self) -> list[Person]:
        """The people and businesses saved in the address book."""
        return [
            *self.colleagues,
            *self.friends,
            *self.family,
            *self.vendors.values(),
            *self.newsletters,
        ]


#: Businesses that e-mail the persona, by role in the scenarios.
VENDORS = {
    "outfitter": ("Northwind Outfitters", "orders@northwindoutfitters.com"),
    "grocer": ("Pantry & Co.", "receipts@pantryandco.com"),
    "electronics": ("Brightline Electronics", "orders@brightline-electronics.com"),
    "books": ("Corner Page Books", "hello@cornerpagebooks.com"),
    "airline": ("Skyline Airways", "reservations@skylineairways.com"),
    "hotel": ("Harborview Hotels", "stay@harborviewhotels.com"),
    "bank": ("First Harbor Bank", "alerts@firstharborbank.com"),
    "utility": ("Brightside Energy", "billing@brightside-energy.com"),
}
NEWSLETTERS = [
    ("The Morning Dispatch", "newsletter@morningdispatch.com"),
    ("Frontend Weekly", "digest@frontendweekly.dev"),
    ("Trailhead Outdoor Club", "news@trailheadclub.org"),
    ("City Parks & Recreation", "updates@cityparksrec.org"),
]
PERSONAL_DOMAINS = ("example.net", "example.org", "mailbox.example")
FAMILY_ROLES = ("Sister", "Brother", "Mom", "Dad", "Cousin", "Aunt")
#: Team -> the job titles people on it hold.
TITLES = {
    "Platform": ("Software Engineer", "Senior Software Engineer", "Engineering Manager",
                 "Site Reliability Engineer"),
    "Design": ("Product Designer", "UX Researcher", "Design Lead", "Content Designer"),
    "Finance": ("Financial Analyst", "Controller", "Accounts Payable Specialist",
                "Finance Manager"),
    "Marketing": ("Marketing Manager", "Content Strategist", "Brand Designer",
                  "Growth Marketer"),
    "Data": ("Data Analyst", "Data Engineer", "Data Scientist", "Analytics Manager"),
    "Operations": ("Operations Manager", "Office Manager", "Program Coordinator",
                   "Procurement Specialist"),
    "Sales": ("Account Executive", "Sales Manager", "Customer Success Manager",
              "Sales Engineer"),
    "Legal": ("Corporate Counsel", "Paralegal", "Contracts Manager", "Compliance Officer"),
}  # fmt: skip
TEAMS = tuple(TITLES)


def _phone(rng: random.Random) -> str:
    return f"({rng.randint(201, 989)}) 555-{rng.randint(100, 9999):04d}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _unique(email: str, taken: set[str]) -> str:
    local, domain = email.split("@")
    candidate, number = email, 2
    while candidate in taken:
        candidate, number = f"{local}{number}@{domain}", number + 1
    taken.add(candidate)
    return candidate


def make_cast(persona: Persona, fake: Faker, rng: random.Random) -> Cast:
    """Eight colleagues, six friends, four relatives, the businesses and newsletters."""
    employer = fake.company().replace(",", "")
    work_domain = f"{_slug(employer.split()[0])}.com"
    taken = {persona.email}
    me = Person(persona.name, persona.email, "self", employer, persona.phone)

    def colleague(team: str) -> Person:
        first, last = fake.first_name(), fake.last_name()
        email = _unique(f"{_slug(first)}.{_slug(last)}@{work_domain}", taken)
        notes = f"{rng.choice(TITLES[team])}, {team} team"
        return Person(f"{first} {last}", email, "colleague", employer, _phone(rng), notes)

    def friend() -> Person:
        first, last = fake.first_name(), fake.last_name()
        email = (
            f"{_slug(first)}{_slug(last)[:1]}{rng.randint(1, 99)}@{rng.choice(PERSONAL_DOMAINS)}"
        )
        place = rng.choice(("college", "the climbing gym", "book club", "an old job", "the park"))
        return Person(
            f"{first} {last}", _unique(email, taken), "friend", "", _phone(rng), f"Met at {place}."
        )

    def relative(role: str) -> Person:
        first = fake.first_name()
        email = f"{_slug(first)}.{_slug(persona.last_name)}@{rng.choice(PERSONAL_DOMAINS)}"
        return Person(
            f"{first} {persona.last_name}", _unique(email, taken), "family", "", _phone(rng), role
        )

    vendors = {
        role: Person(name, email, "vendor", name, notes="Customer account")
        for role, (name, email) in VENDORS.items()
    }
    return Cast(
        me=me,
        home_address=persona.address.one_line(),
        colleagues=[colleague(rng.choice(TEAMS)) for _ in range(8)],
        friends=[friend() for _ in range(6)],
        family=[relative(role) for role in rng.sample(FAMILY_ROLES, 4)],
        vendors=vendors,
        newsletters=[Person(name, email, "newsletter", name) for name, email in NEWSLETTERS],
    )

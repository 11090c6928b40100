"""The seeded world of the portal: accounts, offices and free slots, job openings, expense
categories, the persona's insurance policies, past submissions and saved drafts.

Everything is derived from the seed and the world's "now", never from the wall clock.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import date, datetime, time, timedelta
from typing import Any

from faker import Faker

from ..common import Persona, expense_caps, hash_password
from .definitions import FORMS
from .drafts import create_draft, save_answers, stamp
from .submissions import record_submission

SLOT_TIMES = ("09:00", "09:30", "10:00", "10:30", "11:00", "11:30",
              "13:00", "13:30", "14:00", "14:30", "15:00", "15:30")  # fmt: skip
#: Days ahead (from today) for which appointment slots exist.
SLOT_DAYS = 22
OFFICES = (
    ("central", "Central Service Center"),
    ("northside", "Northside Service Center"),
    ("riverside", "Riverside Service Center"),
    ("eastgate", "Eastgate Service Center"),
    ("westfield", "Westfield Service Center"),
)
#: Code, name and limit per item in cents (None: no limit); Meals' and Lodging's limits are
#: each world's own (:func:`~webenv.sites.common.expense_caps`).
EXPENSE_CATEGORIES = (
    ("airfare", "Airfare", None),
    ("lodging", "Lodging", 30000),
    ("meals", "Meals", 7500),
    ("ground", "Taxi, rideshare or transit", 15000),
    ("car-rental", "Car rental", None),
    ("mileage", "Mileage", 50000),
    ("registration", "Conference registration", None),
    ("parking", "Parking and tolls", 10000),
    ("other", "Other", 20000),
)
JOBS = (
    ("Senior Data Analyst", "Information Technology", 82000, 104000),
    ("IT Support Specialist", "Information Technology", 52000, 66000),
    ("Civil Engineer", "Public Works", 78000, 98000),
    ("Building Inspector", "Community Development", 61000, 76000),
    ("Park Ranger", "Parks and Recreation", 44000, 55000),
    ("Librarian", "Public Library", 52000, 64000),
    ("Accountant", "Finance", 63000, 79000),
    ("Communications Officer", "City Manager's Office", 58000, 72000),
    ("Social Worker", "Human Services", 54000, 68000),
    ("Customer Service Representative", "Customer Services", 38000, 46000),
    ("Urban Planner", "Community Development", 70000, 88000),
    ("Payroll Coordinator", "Human Resources", 50000, 61000),
)
#: What each job does, for its opening's summary.
DUTIES = {
    "Senior Data Analyst": "turn the city's service data into reports that guide budget decisions.",
    "IT Support Specialist": "keep staff laptops, phones and printers running across city offices.",
    "Civil Engineer": "design and oversee road, bridge and drainage projects.",
    "Building Inspector": "inspect new construction and renovations for code compliance.",
    "Park Ranger": "patrol the city's parks and trails and lead nature programs.",
    "Librarian": "help patrons find what they need and run reading programs for all ages.",
    "Accountant": "prepare the city's financial statements and reconcile its accounts.",
    "Communications Officer": "write press releases, manage social media and brief reporters.",
    "Social Worker": "connect residents with housing, food and health services.",
    "Customer Service Representative": "answer residents' questions by phone, e-mail and in "
    "person.",
    "Urban Planner": "review development proposals and help update the city's zoning code.",
    "Payroll Coordinator": "process payroll for city employees and answer questions about pay.",
}
VEHICLES = (
    ("Toyota", "Corolla"), ("Honda", "Civic"), ("Ford", "Escape"), ("Subaru", "Outback"),
    ("Chevrolet", "Malibu"), ("Hyundai", "Tucson"), ("Mazda", "CX-5"), ("Kia", "Soul"),
)  # fmt: skip


def seed_database(db: sqlite3.Connection, seed: int, now: datetime, persona: Persona) -> None:
    """Fill an empty portal database for ``seed``."""
    db.row_factory = sqlite3.Row
    rng = random.Random(f"forms-{seed}")
    fake = Faker("en_US")
    fake.seed_instance(f"forms-{seed}")
    _users(db, fake, now, persona)
    _offices_and_slots(db, rng, fake, now, persona)
    caps = expense_caps(seed)
    db.executemany(
        "INSERT INTO expense_categories (code, name, limit_cents) VALUES (?, ?, ?)",
        [
            (code, name, caps[name][0] if name in caps else cap)
            for code, name, cap in EXPENSE_CATEGORIES
        ],
    )
    _job_openings(db, rng, now, persona)
    _policies(db, rng, fake, now, persona)
    _past_submissions(db, rng, fake, now)
    _saved_drafts(db, rng, fake, now)


def _article(noun: str) -> str:
    """The article before ``noun``, by its sound: "an IT Support Specialist", "a Librarian"."""
    return "an" if noun[0] in "AEIOU" or noun.startswith("IT ") else "a"


def _password_hash(username: str, password: str) -> str:
    salt = hashlib.sha256(f"salt|{username}".encode()).hexdigest()[:16]
    return hash_password(password, salt)


def _phone(rng: random.Random) -> str:
    return f"+1{rng.randint(201, 989)}555{rng.randint(100, 199):04d}"


def _users(db: sqlite3.Connection, fake: Faker, now: datetime, persona: Persona) -> None:
    digits = "".join(c for c in persona.phone if c.isdigit())
    address = persona.address
    people = [(persona.username, persona.email, persona.password, persona.first_name,
               persona.last_name, f"+1{digits[-10:]}", persona.birthdate.isoformat(),
               address.street, address.city, address.state, address.zip)]  # fmt: skip
    for _ in range(6):
        first, last = fake.first_name(), fake.last_name()
        username = f"{first[0]}{last}{fake.random_int(1, 99)}".lower().replace("'", "")
        birthdate = fake.date_between_dates(date(1950, 1, 1), date(2004, 12, 31))
        contact = (f"{username}@example.net", fake.password(length=14), first, last)
        home = (
            fake.street_address(),
            fake.city(),
            fake.state_abbr(include_territories=False, include_freely_associated_states=False),
            fake.zipcode(),
        )
        phone = f"+1{fake.numerify('##########')}"
        people.append((username, *contact, phone, birthdate.isoformat(), *home))
    created = stamp(now - timedelta(days=400))
    db.executemany(
        "INSERT INTO users (username, email, password_hash, first_name, last_name, phone,"
        " birthdate, street, city, state, zip, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(p[0], p[1], _password_hash(p[0], p[2]), *p[3:], created) for p in people],
    )


def _offices_and_slots(
    db: sqlite3.Connection, rng: random.Random, fake: Faker, now: datetime, persona: Persona
) -> None:
    """Four offices in the persona's city, each with slots over the coming weeks.

    Days close to now are busier; one day per office is fully booked.
    """
    for code, name in sorted(rng.sample(OFFICES, 4)):
        cursor = db.execute(
            "INSERT INTO offices (code, name, street, city, state, zip, phone)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (code, name, fake.street_address(), persona.address.city, persona.address.state,
             persona.address.zip, _phone(rng)),
        )  # fmt: skip
        full_day = rng.randint(2, 12)
        slots = []
        for offset in range(SLOT_DAYS):
            day = now.date() + timedelta(days=offset)
            if day.weekday() >= 5:
                continue
            busy = 1.0 if offset == full_day else 0.8 if offset <= 3 else 0.4
            for hhmm in SLOT_TIMES:
                starts = datetime.combine(day, time.fromisoformat(hhmm))
                slots.append((cursor.lastrowid, starts.isoformat(), int(rng.random() < busy)))
        db.executemany("INSERT INTO slots (office_id, starts_at, taken) VALUES (?, ?, ?)", slots)


def _job_openings(
    db: sqlite3.Connection, rng: random.Random, now: datetime, persona: Persona
) -> None:
    """Eight openings, two of which have already closed."""
    chosen = rng.sample(JOBS, 8)
    references = rng.sample(range(1000, 9999), len(chosen))
    for index, (title, department, low, high) in enumerate(chosen):
        closes = now.date() + timedelta(
            days=-rng.randint(2, 20) if index < 2 else rng.randint(5, 45)
        )
        location = rng.choice((persona.address.city, persona.address.city, "Remote"))
        db.execute(
            "INSERT INTO job_openings (reference, title, department, location, salary_min_cents,"
            " salary_max_cents, closes_on, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (f"REQ-{references[index]}", title, department, location, low * 100, high * 100,
             closes.isoformat(), f"Join the {department} team as {_article(title)} {title}."
             f" You will {DUTIES[title]}"),
        )  # fmt: skip


def _policies(
    db: sqlite3.Connection, rng: random.Random, fake: Faker, now: datetime, persona: Persona
) -> None:
    """The persona's current vehicle and home policies, and a lapsed vehicle policy."""
    current, lapsed = rng.sample(VEHICLES, 2)
    start = now.date() - timedelta(days=rng.randint(100, 300))
    old_start = start - timedelta(days=730)
    policies = []
    for (make, model), starts in ((current, start), (lapsed, old_start)):
        plate = fake.bothify("???-####").upper()
        year = rng.randint(2012, 2024)
        policies.append(("vehicle", f"{year} {make} {model} ({plate})", plate, starts))
    policies.append(("property", f"Home at {persona.address.one_line()}", None, start))
    for kind, item, plate, starts in policies:
        prefix = "AU" if kind == "vehicle" else "HO"
        db.execute(
            "INSERT INTO policies (user_id, policy_number, kind, insured_item, registration,"
            " starts_on, ends_on) VALUES (1, ?, ?, ?, ?, ?, ?)",
            (f"{prefix}-{rng.randint(1000000, 9999999)}", kind, item, plate, starts.isoformat(),
             (starts + timedelta(days=364)).isoformat()),
        )  # fmt: skip


def _day(now: datetime, days_ago: int) -> str:
    return (now.date() - timedelta(days=days_ago)).isoformat()


def _past_submissions(
    db: sqlite3.Connection, rng: random.Random, fake: Faker, now: datetime
) -> None:
    """The persona's history: two paid expense reports, a closed claim and two past
    appointments (so that a question about one of them must tell it from the other)."""
    history = [
        _past_expenses(rng, fake, now, trip_end, purpose)
        for trip_end, purpose in zip(
            (rng.randint(45, 60), rng.randint(95, 130)),
            rng.sample(PAST_TRIP_PURPOSES, 2),
            strict=True,
        )
    ]
    policy = db.execute(
        "SELECT * FROM policies WHERE kind = 'vehicle' ORDER BY starts_on DESC"
    ).fetchone()
    claim_day = _day(now, 80)
    claim: dict[str, Any] = {
        "policy": policy["policy_number"], "claim_type": "vehicle", "incident_date": claim_day,
        "incident_time": f"{rng.randint(7, 19):02d}:{rng.choice(('05', '20', '40'))}",
        "incident_location": f"Parking lot at {fake.street_address()}",
        "description": "Another car reversed into my rear bumper while I was parked.",
        "vehicle_drivable": "yes", "other_vehicle_involved": "yes",
        "other_driver": fake.name(), "police_report": None,
        "estimated_amount": rng.randint(40000, 180000), "photos": [],
    }  # fmt: skip
    offices = db.execute("SELECT * FROM offices ORDER BY code").fetchall()
    person = db.execute("SELECT * FROM users WHERE id = 1").fetchone()
    history.append(("insurance-claim", claim, 78, "closed"))
    for days_ago, service in ((rng.randint(15, 25), "drivers-license"), (140, "id-card")):
        seen = _day(now, days_ago)
        time = rng.choice(("09:00", "10:30", "13:15", "15:45"))
        appointment: dict[str, Any] = {
            "service": service, "office": rng.choice(offices)["code"], "appointment_date": seen,
            "appointment_time": time, "appointment_at": f"{seen}T{time}:00",
            "first_name": None, "last_name": None, "email": None, "phone": None,
            "text_reminder": True, "notes": None,
        }  # fmt: skip
        for key in ("first_name", "last_name", "email", "phone"):
            appointment[key] = person[key]
        history.append(("appointment", appointment, days_ago + 10, "completed"))
    for slug, values, days_ago, status in sorted(history, key=lambda entry: -entry[2]):
        submitted = stamp(now - timedelta(days=days_ago, hours=rng.randint(1, 8)))
        record_submission(db, FORMS[slug], values, 1, submitted, status)


#: What the persona's past business trips were for.
PAST_TRIP_PURPOSES = (
    "State municipal finance workshop", "Public records training", "Budget hearing in the capital",
    "Grant writing seminar", "Emergency management drill", "Water utility site inspection",
    "League of Cities annual meeting", "Transit authority board visit",
)  # fmt: skip
#: What the saved, unfinished expense report is for.
DRAFT_PURPOSES = (
    "Regional planning conference", "Housing policy forum", "Smart cities expo",
    "Stormwater management course", "Library directors' retreat", "Zoning code workshop",
    "Parks and trails summit", "Fleet electrification briefing",
)  # fmt: skip


def _past_expenses(
    rng: random.Random, fake: Faker, now: datetime, trip_end: int, purpose: str
) -> tuple[str, dict[str, Any], int, str]:
    """One paid expense report of a past trip that ended ``trip_end`` days ago."""
    items = [
        {"date": _day(now, trip_end + 2), "category": "airfare",
         "description": "Round-trip flight", "amount": rng.randint(18000, 52000)},
        {"date": _day(now, trip_end + 1), "category": "lodging",
         "description": "Hotel, 2 nights", "amount": rng.randint(16000, 22000)},
        {"date": _day(now, trip_end), "category": "meals",
         "description": "Dinner with workshop speakers", "amount": rng.randint(2500, 6000)},
    ]  # fmt: skip
    expenses: dict[str, Any] = {
        "trip_purpose": purpose, "destination": fake.city(),
        "departure_date": _day(now, trip_end + 2), "return_date": _day(now, trip_end),
        "cost_center": rng.choice(("CC-220", "CC-110", "CC-530")), "items": items,
        "receipts": [], "notes": None, "total_cents": sum(item["amount"] for item in items),
    }  # fmt: skip
    return ("travel-expenses", expenses, trip_end - 3, "paid")


def _saved_drafts(db: sqlite3.Connection, rng: random.Random, fake: Faker, now: datetime) -> None:
    """Two forms the persona started and saved: an expense report and a job application."""
    saved_at = stamp(now - timedelta(days=rng.randint(1, 4), hours=rng.randint(1, 6)))
    trip_start = rng.randint(6, 12)
    expense_draft = {
        "trip_purpose": rng.choice(DRAFT_PURPOSES), "destination": fake.city(),
        "departure_date": _day(now, trip_start), "return_date": _day(now, trip_start - 2),
        "cost_center": rng.choice(("CC-310", "CC-640")),
        "items": [
            {"date": _day(now, trip_start), "category": "registration",
             "description": "Conference pass", "amount": f"{rng.randint(150, 450)}.00"},
            {"date": _day(now, trip_start - 1), "category": "lodging",
             "description": "Hotel", "amount": f"{rng.randint(120, 240)}.{rng.randint(0, 99):02d}"},
        ],
    }  # fmt: skip
    opening = db.execute(
        "SELECT reference FROM job_openings WHERE closes_on >= ? ORDER BY reference",
        (now.date().isoformat(),),
    ).fetchone()
    job_draft = {
        "opening": opening["reference"], "available_from": _day(now, -30),
        "salary_expectation": "", "work_arrangement": "hybrid",
    }  # fmt: skip
    for slug, answers in (("travel-expenses", expense_draft), ("job-application", job_draft)):
        draft_id = create_draft(db, slug, 1, saved_at)
        save_answers(db, draft_id, answers, saved_at, status="saved")

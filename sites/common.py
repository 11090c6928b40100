"""What the sites of one world share: the person who uses them, messages between sites, and
where a redirect-after parameter may lead.

A world is generated from one seed. Every site's generator receives the same :class:`Persona`,
so the shop account, the mailbox and the forms portal belong to one coherent person.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from faker import Faker
from werkzeug.routing import IntegerConverter

#: The longest path a redirect-after parameter may name; a longer one is no page of ours.
MAX_NEXT_LENGTH = 2000
#: Characters a path keeps as they are; any other (a space, a quote, non-ASCII) is %-encoded.
_PATH_SAFE = "!#$%&'()*+,/:;=?@[]~"

#: The largest row id SQLite stores (a signed 64-bit integer): a larger number names no row.
MAX_ROW_ID = 2**63 - 1
_ROW_ID_DIGITS = len(str(MAX_ROW_ID))

#: Iterations of the password hash. Seeded data must be cheap to generate, and only agents log in.
PASSWORD_ITERATIONS = 1000


@dataclass(frozen=True)
class Address:
    street: str
    city: str
    state: str
    zip: str
    country: str = "United States"

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


@dataclass(frozen=True)
class Persona:
    """The world's user: the same person on every site."""

    first_name: str
    last_name: str
    username: str
    email: str
    password: str
    phone: str
    birthdate: date
    address: Address

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str
    content: bytes


@dataclass(frozen=True)
class Message:
    """An e-mail that one site sends to the world's mailbox (an order confirmation, a code)."""

    sender: str
    sender_name: str
    to: str
    subject: str
    body: str
    date: datetime
    attachments: tuple[Attachment, ...] = field(default=())


def make_persona(seed: int) -> Persona:
    """The world's user for ``seed``: same seed, same person."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(f"persona-{seed}")
    first, last = fake.first_name(), fake.last_name()
    username = f"{first}.{last}".lower().replace("'", "").replace(" ", "")
    password = f"{fake.word().capitalize()}-{rng.randint(1000, 9999)}-{fake.word()}"
    return Persona(
        first_name=first,
        last_name=last,
        username=username,
        email=f"{username}@example.com",
        password=password,
        phone=f"({rng.randint(201, 989)}) 555-{rng.randint(100, 199):04d}",
        birthdate=date(rng.randint(1958, 2002), rng.randint(1, 12), rng.randint(1, 28)),
        address=Address(
            street=fake.street_address(),
            city=fake.city(),
            state=fake.state_abbr(
                include_territories=False, include_freely_associated_states=False
            ),
            zip=fake.zipcode(),
        ),
    )


def hash_password(password: str, salt: str) -> str:
    """A werkzeug-compatible PBKDF2 hash with a given salt, so that seeded data is deterministic.

    ``werkzeug.security.check_password_hash`` verifies it.
    """
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), PASSWORD_ITERATIONS)
    return f"pbkdf2:sha256:{PASSWORD_ITERATIONS}${salt}${digest.hex()}"


def parse_now(value: str | datetime) -> datetime:
    """The world's fixed "now" from a site's ``NOW`` config value (naive, UTC)."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


def same_site_path(target: str | None, fallback: str, host: str = "") -> str:
    """Where a redirect-after parameter (``next``, ``back``) may send the browser: ``target``
    if it is a path on this site, else ``fallback`` (no open redirects).

    A path starts with one ``/`` and holds only printable characters and no backslash, even
    once %-decoded: browsers drop tabs and newlines from a URL and read ``\\`` as ``/``, so
    ``/<TAB>/host`` or ``/\\host`` would lead to another host. ``host`` is this site's own
    ``host:port`` (``request.host``): an absolute URL of this site counts as its path.
    Characters a URL may not carry as they are (non-ASCII, spaces) come back %-encoded.
    """
    if not isinstance(target, str) or not target or len(target) > MAX_NEXT_LENGTH:
        return fallback
    if host and target.lower().startswith(("http://", "https://")):
        parts = urlsplit(target)
        if parts.netloc.lower() != host.lower():
            return fallback
        target = urlunsplit(("", "", parts.path or "/", parts.query, parts.fragment))
    for form in (target, unquote(target)):
        if not form.startswith("/") or form.startswith("//") or "\\" in form:
            return fallback
        if not form.isprintable():
            return fallback
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return fallback
    return quote(target, safe=_PATH_SAFE)


class RowIdConverter(IntegerConverter):
    """``<int:...>`` in a site's routes: a row id, at most :data:`MAX_ROW_ID`.

    Werkzeug's own converter takes any number of any script's digits (``/thread/١٢`` was
    thread 12), and SQLite refuses with a 500 a number that does not fit 64 bits. This one
    matches at most 19 ASCII digits, and a number beyond the bound, like a negative or
    malformed one, is no route: the site's 404.
    """

    def __init__(
        self,
        map: Any,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = None,
        signed: bool = False,
    ) -> None:
        bound = MAX_ROW_ID if max is None or max > MAX_ROW_ID else max
        super().__init__(map, fixed_digits, min, bound, signed)
        self.regex = rf"{'-?' if signed else ''}[0-9]{{1,{_ROW_ID_DIGITS}}}"


def use_row_ids(app: Any) -> None:
    """Make ``<int:...>`` in ``app``'s routes a :class:`RowIdConverter`; call it before the
    blueprints are registered (a rule reads its converter when it is added)."""
    app.url_map.converters["int"] = RowIdConverter


def like_pattern(text: str) -> str:
    """A SQL ``LIKE ? ESCAPE '\\'`` pattern that finds ``text`` anywhere, its ``%`` and ``_``
    taken as themselves (a search for "%" finds a percent sign, not every row)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def parse_row_id(text: str | None) -> int | None:
    """A row id posted by a form (ASCII digits, at most :data:`MAX_ROW_ID`), else None."""
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > _ROW_ID_DIGITS:
        return None
    value = int(text)
    return value if value <= MAX_ROW_ID else None


#: Each site's name as its pages show it.
APP_NAMES = {
    "shop": "Northwind Market",
    "mail": "Lettermail",
    "forms": "Civic Forms",
    "calendar": "Northwind Calendar",
    "help": "Northwind Help Centre",
}


def register_your_apps(app: Any, site: str) -> None:
    """Give ``app``'s templates ``your_apps``: the persona's other sites of this world, each
    ``{"name", "url"}`` from the ``SITE_URLS`` config, for the header menu that links them
    as a real user's bookmarks would."""

    def your_apps() -> dict[str, list[dict[str, str]]]:
        urls = app.config.get("SITE_URLS") or {}
        apps = [
            {"name": APP_NAMES.get(other, other), "url": url}
            for other, url in sorted(urls.items())
            if other != site
        ]
        return {"your_apps": apps}

    app.context_processor(your_apps)


#: The per-item limits, in cents, a world's travel expense rules may set for its two capped
#: categories (lowest first): each world draws its own, so that only reading them tells.
EXPENSE_CAP_CHOICES = {
    "Meals": (6000, 6500, 7000, 7500, 8000, 8500, 9000),
    "Lodging": (22500, 25000, 27500, 30000, 32500, 35000, 37500),
}


def expense_caps(seed: int) -> dict[str, tuple[int, int]]:
    """The per-item limits of the capped travel expense categories in the world of ``seed``:
    ``{category: (current, older)}``, the older one lower (the rules raised it since). The
    forms portal enforces the current limits; the help centre states them, and the older ones
    in a superseded revision of the article."""
    rng = random.Random(f"expense-caps-{seed}")
    caps = {}
    for category, choices in EXPENSE_CAP_CHOICES.items():
        current = rng.choice(choices[1:])
        caps[category] = (current, rng.choice([cap for cap in choices if cap < current]))
    return caps


#: Amounts, in cents, from which a world's shop may ship an order free (the help centre's
#: older revisions state others: 35 and 75 dollars): each world draws its own.
FREE_SHIPPING_CHOICES = (4000, 4500, 5000, 5500, 6000, 6500)


def free_shipping_min(seed: int) -> int:
    """The order amount, in cents, from which the shop of the world of ``seed`` ships free;
    the help centre's current shipping article states it."""
    return random.Random(f"free-shipping-{seed}").choice(FREE_SHIPPING_CHOICES)

"""The registry of sites: each site of a world declares itself once, as a :class:`Site`.

A site is a Python module in the shape of ``webenv.sites.shop``: it exposes
``create_app(config) -> Flask`` and ``build_database(path, seed, now, persona)`` (see
``sites/README.md``). Its :class:`Site` says what else the world must know of it: which of its
tables are the user's data (for the episode's diff), whether it sends e-mail through
``SEND_MAIL``, whether it is the mailbox that receives it, and what mail its seeded data has
already sent. The world, the env and the perturbations ask the registry instead of naming
sites.

The built-in sites are declared here; other distributions add theirs through the
``webenv.sites`` entry point group (:mod:`webenv.plugins`), loaded the first time the registry
is read.
"""

from __future__ import annotations

import importlib
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType, ModuleType

from webenv.sites.common import Message

from .changes import USER_DATA, Tracked
from .errors import WorldError

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


@dataclass(frozen=True)
class Site:
    """One site of the worlds: where its code lives and what it exchanges with other sites.

    Args:
        name: the site's name, which is also its host (``http://<name>.localhost:<port>``):
            lowercase letters and digits, starting with a letter.
        module: the dotted name of the module exposing ``create_app`` and
            ``build_database``. Its package's sources (``.py``, ``.sql``) are part of the
            world cache's fingerprint.
        user_data: the tables of the user's data and how the episode's diff reads them
            (:class:`webenv.changes.Tracked`); a table not named is not the user's. A
            template's ``may_change`` names what of them it may change.
        sends_mail: the site sends e-mail (an order confirmation) through its ``SEND_MAIL``
            config, when the world has a mailbox.
        delivers_mail: the site is the mailbox: its module exposes
            ``deliver(path, message) -> message id``, through which other sites' mail (and the
            perturbations' one-time codes) reach the user.
        sent_mail: for a world with a mailbox, the e-mail the site's seeded data has already
            sent (the shop's past order confirmations), read from its freshly built database at
            ``path``; it is delivered into the mailbox when the world is generated.
    """

    name: str
    module: str
    user_data: Mapping[str, Tracked] = field(default_factory=dict, hash=False)
    sends_mail: bool = False
    delivers_mail: bool = False
    sent_mail: Callable[[str], Iterable[Message]] | None = None

    def __post_init__(self) -> None:
        if not (self.name[:1].isalpha() and set(self.name) <= _NAME_CHARS):
            raise WorldError(
                f"Site name {self.name!r} is not a host name webenv can serve: use lowercase "
                "letters and digits, starting with a letter (e.g. 'notes')."
            )
        object.__setattr__(self, "user_data", MappingProxyType(dict(self.user_data)))

    def load(self) -> ModuleType:
        """The site's module (``create_app``, ``build_database`` …)."""
        try:
            return importlib.import_module(self.module)
        except ImportError as error:
            raise WorldError(
                f"Site {self.name!r}: its module {self.module!r} cannot be imported ({error}). "
                "Install the distribution that provides it."
            ) from error

    def source_root(self) -> Path:
        """The folder (a package's) or file (a plain module's) whose sources shape its data."""
        path = Path(self.load().__file__ or "")
        return path.parent if path.name == "__init__.py" else path


def _shop_sent_mail(path: str) -> list[Message]:
    """The confirmations of the persona's past orders, oldest id first."""
    shop = importlib.import_module("webenv.sites.shop")
    with sqlite3.connect(path) as conn:
        order_ids = [row[0] for row in conn.execute("SELECT id FROM orders WHERE user_id = 1")]
        return [shop.order_confirmation(conn, order_id) for order_id in order_ids]


def _calendar_sent_mail(path: str) -> list[Message]:
    """The invitations waiting in the persona's calendar, as their organizers e-mailed them."""
    return list(importlib.import_module("webenv.sites.calendar").invitations(path))


#: The built-in sites, in the order their data is generated.
BUILTIN_SITES = (
    Site(
        "shop",
        "webenv.sites.shop",
        USER_DATA["shop"],
        sends_mail=True,
        sent_mail=_shop_sent_mail,
    ),
    Site("mail", "webenv.sites.mail", USER_DATA["mail"], delivers_mail=True),
    Site("forms", "webenv.sites.forms", USER_DATA["forms"], sends_mail=True),
    Site(
        "calendar",
        "webenv.sites.calendar",
        USER_DATA["calendar"],
        sends_mail=True,
        sent_mail=_calendar_sent_mail,
    ),
    Site("help", "webenv.sites.help", USER_DATA["help"], sends_mail=True),
)

_SITES: dict[str, Site] = {site.name: site for site in BUILTIN_SITES}
_plugins_loaded = False


def register_site(site: Site) -> Site:
    """Add ``site`` to the registry (again-safe for the same declaration); returns it."""
    if not isinstance(site, Site):
        raise WorldError(f"register_site() takes a webenv.site.Site, not {site!r}.")
    known = _SITES.get(site.name)
    if known is not None and known != site:
        raise WorldError(
            f"Two sites are named {site.name!r} ({known.module} and {site.module}); "
            "uninstall one of the distributions that declare them."
        )
    _SITES[site.name] = site
    return site


def sites() -> dict[str, Site]:
    """Every registered site by name: the built-in ones first (shop, mail, forms), then the
    plugins' in the order their entry points are found. Worlds generate data in this order."""
    _load_plugin_sites()
    return dict(_SITES)


def get_site(name: str) -> Site:
    """The registered site called ``name``."""
    known = sites()
    if name not in known:
        raise WorldError(
            f"Unknown site {name!r}; the sites are: {', '.join(known)}. A site of another "
            "distribution is found once that distribution is installed."
        )
    return known[name]


def mailbox(names: Iterable[str]) -> str | None:
    """The site of ``names`` that delivers mail, if any (the world's mailbox)."""
    return next((name for name in names if get_site(name).delivers_mail), None)


def _load_plugin_sites() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    from .plugins import plugin_sites

    _plugins_loaded = True  # set first: a plugin's own import may read the registry
    try:
        for site in plugin_sites():
            register_site(site)
    except BaseException:
        _plugins_loaded = False  # the next look-up says what is wrong again
        raise

"""Per-episode world state: the sites' seeded SQLite databases, restored from cached snapshots.

A world is generated from one seed: the persona, the fixed "now" and every site's data. The
first episode of a seed generates it (well under a second per site) and caches the database
bytes in memory and on disk (at most ``WEBENV_CACHE_MAX_MB``, the least recently used worlds
removed past it); every reset then writes fresh copies of those bytes, so episodes never share
mutable state and parallel envs never see each other.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import secrets
import shutil
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from functools import cache
from importlib import metadata
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

from flask import Flask

from webenv.sites.common import Message, Persona, make_persona

from .changes import RowChange, SiteRows, Tracked, delivered_rows, diff_rows, read_rows
from .errors import WorldError
from .site import BUILTIN_SITES, get_site, mailbox
from .site import sites as registered_sites

#: The earliest "now" of a world; each seed's is a day within the year from it.
BASE_NOW = datetime(2026, 3, 2, 9, 30)

_MEMORY_CACHE_SIZE = 32

#: The environment variable that bounds the on-disk cache of worlds, in megabytes; the least
#: recently used worlds are removed past it.
CACHE_MAX_MB_VAR = "WEBENV_CACHE_MAX_MB"
DEFAULT_CACHE_MAX_MB = 1024.0


def site_module(site: str) -> ModuleType:
    """The module of the registered site ``site`` (:mod:`webenv.site`)."""
    return get_site(site).load()


def world_now(seed: int) -> datetime:
    """The fixed "now" of the world of ``seed``: a day of the year from :data:`BASE_NOW` drawn
    from a hash of the seed, so that the seed (which a trainer may log or hand to its policy)
    gives no arithmetic on dates: a goal's date minus the day a seed's number implies says
    nothing about how old a thing is."""
    digest = hashlib.sha256(f"webenv now {seed}".encode()).digest()
    return BASE_NOW + timedelta(days=int.from_bytes(digest[:8], "big") % 365)


@cache
def _fingerprint() -> str:
    """Changes whenever anything that shapes generated data changes (sources, Faker): the
    built-in sites' (``webenv.sites``) and every plugin site's (:meth:`Site.source_root`)."""
    digest = hashlib.sha256(metadata.version("faker").encode())
    _hash_sources(digest, Path(importlib.import_module("webenv.sites").__file__ or "").parent)
    _hash_sources(digest, Path(__file__))  # the worlds' "now" (world_now) and their assembly
    for site in registered_sites().values():
        if site not in BUILTIN_SITES:
            digest.update(f"\0site {site.name} {site.module}\0".encode())
            _hash_sources(digest, site.source_root())
    return digest.hexdigest()[:16]


def _hash_sources(digest: Any, root: Path) -> None:
    paths = sorted(root.rglob("*")) if root.is_dir() else [root]
    for path in paths:
        if path.suffix in {".py", ".sql"}:
            digest.update(
                path.relative_to(root if root.is_dir() else root.parent).as_posix().encode()
            )
            digest.update(path.read_bytes())


def cache_dir() -> Path:
    base = os.environ.get("WEBENV_CACHE") or Path.home() / ".cache" / "webenv"
    return Path(base) / "worlds" / _fingerprint()


def cache_limit() -> int:
    """The most the on-disk cache may hold, in bytes (``WEBENV_CACHE_MAX_MB``)."""
    raw = os.environ.get(CACHE_MAX_MB_VAR, "").strip()
    try:
        megabytes = float(raw) if raw else DEFAULT_CACHE_MAX_MB
    except ValueError:
        megabytes = -1.0
    if not megabytes >= 0:
        raise WorldError(
            f"{CACHE_MAX_MB_VAR}={raw!r} is not a size; give the cache's bound in megabytes, "
            f"e.g. {CACHE_MAX_MB_VAR}=2048."
        )
    return int(megabytes * 2**20)


def evict_worlds(limit: int, keep: Path | None = None) -> None:
    """Remove the least recently used cached worlds (of any version of the sites) until the
    cache holds at most ``limit`` bytes; ``keep`` (the world just saved) stays."""
    entries = []
    for folder in cache_dir().parent.glob("*/*"):
        try:
            size = sum(path.stat().st_size for path in folder.iterdir())
            entries.append((folder.stat().st_mtime, size, folder))
        except OSError:  # removed meanwhile, by another process
            continue
    total = sum(size for _, size, _ in entries)
    for _, size, folder in sorted(entries, key=lambda entry: entry[0]):
        if total <= limit:
            break
        if folder != keep:
            shutil.rmtree(folder, ignore_errors=True)
            total -= size
            with contextlib.suppress(OSError):
                folder.parent.rmdir()  # a version of the sites with no world left


Key = tuple[int, tuple[str, ...]]


class SnapshotStore:
    """Seeded world snapshots (``{site: database bytes}``), cached in memory and on disk."""

    def __init__(self, use_disk: bool = True):
        self.use_disk = use_disk
        self._memory: OrderedDict[Key, dict[str, bytes]] = OrderedDict()
        # Re-entrant: a world of several sites is made from each site's own, got from here.
        self._lock = threading.RLock()

    def get(self, seed: int, sites: tuple[str, ...]) -> dict[str, bytes]:
        key = (seed, sites)
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                return self._memory[key]
            snapshot = self._load(key) if self.use_disk else None
            if snapshot is None:
                # A world of several sites starts from each site's world of its own (the
                # shop's, the costliest, is then generated once a seed, not once per world
                # it is part of).
                parts = {s: self.get(seed, (s,))[s] for s in sites} if len(sites) > 1 else {}
                snapshot = generate_world(seed, sites, parts)
                if self.use_disk:
                    self._save(key, snapshot)
            self._memory[key] = snapshot
            if len(self._memory) > _MEMORY_CACHE_SIZE:
                self._memory.popitem(last=False)
            return snapshot

    @staticmethod
    def _folder(key: Key) -> Path:
        seed, sites = key
        return cache_dir() / f"{seed}-{'+'.join(sites)}"

    def _load(self, key: Key) -> dict[str, bytes] | None:
        folder = self._folder(key)
        try:
            snapshot = {site: (folder / f"{site}.sqlite").read_bytes() for site in key[1]}
            os.utime(folder)  # used now: the last to be evicted
        except OSError:
            return None
        return snapshot

    def _save(self, key: Key, snapshot: Mapping[str, bytes]) -> None:
        folder = self._folder(key)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for site, data in snapshot.items():
                # Written under a unique name and renamed, so that concurrent
                # processes never read a half-written snapshot.
                fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.replace(tmp, folder / f"{site}.sqlite")
            evict_worlds(cache_limit(), keep=folder)
        except OSError:
            pass  # a read-only or full cache only costs speed


#: Shared by every env of the process, so that each seed is generated once.
snapshots = SnapshotStore()


def generate_world(
    seed: int, sites: tuple[str, ...], parts: Mapping[str, bytes] = MappingProxyType({})
) -> dict[str, bytes]:
    """Generate the databases of ``sites`` for ``seed``: same seed, same bytes. ``parts``:
    databases of some of the sites as each one's world of its own has them (generated for
    the same seed), used instead of generating them again; the sites are then linked."""
    persona, now = make_persona(seed), world_now(seed)
    with tempfile.TemporaryDirectory(prefix="webenv-gen-") as tmp:
        paths = {site: os.path.join(tmp, f"{site}.sqlite") for site in sites}
        for site, path in paths.items():
            if site in parts:
                Path(path).write_bytes(parts[site])
            else:
                site_module(site).build_database(path, seed, now, persona)
        _link_sites(paths)
        return {site: Path(path).read_bytes() for site, path in paths.items()}


def _link_sites(paths: Mapping[str, str]) -> None:
    """Seed what crosses sites: the mail the sites' seeded data has already sent (the shop's
    past order confirmations) lands in the world's mailbox, if it has one."""
    box = mailbox(paths)
    if box is None:
        return
    deliver = site_module(box).deliver
    for site in paths:
        sent_mail = get_site(site).sent_mail
        if sent_mail is not None and site != box:
            for message in list(sent_mail(paths[site])):
                deliver(paths[box], message)


class World:
    """One env's sites and their state; :meth:`restore` starts a new episode in it."""

    def __init__(self, sites: Iterable[str] | None = None, store: SnapshotStore | None = None):
        known = registered_sites()
        self.sites = tuple(site for site in known if site in set(sites or known))
        #: The site that delivers the world's mail (the mailbox), if any.
        self.mailbox = mailbox(self.sites)
        self.store = store or snapshots
        # A request thread the server let go may still touch a journal file while we clean up.
        self._tmp = tempfile.TemporaryDirectory(prefix="webenv-world-", ignore_cleanup_errors=True)
        self.root = Path(self._tmp.name)
        self.files_dir = self.root / "files"
        self.files_dir.mkdir()
        self.seed: int | None = None
        self.now = world_now(0)
        self.persona: Persona | None = None
        self.apps: dict[str, Flask] = {}
        self._snapshot: Mapping[str, bytes] = {}
        self._initial: dict[str, sqlite3.Connection] = {}
        # The episode's diff (see ``changes``): tracked rows at the start, per site; the rows
        # now, per site, with the file change counter they were read at; mail the world
        # delivered itself (other sites' confirmations, perturbations' codes) since the start,
        # and their rows as delivered (the diff compares them with those).
        self._start_rows: dict[str, SiteRows] = {}
        self._rows_now: dict[str, tuple[bytes, SiteRows]] = {}
        self._delivered: set[int] = set()
        self._delivered_rows: list[SiteRows] = []

    def db_path(self, site: str) -> Path:
        return self.root / f"{site}.sqlite"

    def create_apps(self, site_urls: Mapping[str, str]) -> dict[str, Flask]:
        """One Flask app per site, reading this world's databases."""
        for site in self.sites:
            config: dict[str, Any] = {
                "DATABASE": str(self.db_path(site)),
                "SECRET_KEY": secrets.token_hex(16),
                "NOW": self.now.isoformat(),
                "SITE_URLS": dict(site_urls),
            }
            if self.mailbox is not None and get_site(site).sends_mail:
                config["SEND_MAIL"] = self.deliver_mail
            self.apps[site] = site_module(site).create_app(config)
        return self.apps

    def restore(self, seed: int) -> None:
        """Replace every site's state with a fresh copy of the world of ``seed``."""
        self._forget_start()
        snapshot = self._snapshot = self.store.get(seed, self.sites)
        for site in self.sites:
            self.db_path(site).write_bytes(snapshot[site])
        for path in self.files_dir.iterdir():
            path.unlink()
        self.seed, self.now, self.persona = seed, world_now(seed), make_persona(seed)
        for app in self.apps.values():
            # A new key per episode: no cookie of an earlier episode is valid any more.
            app.secret_key = secrets.token_hex(16)
            app.config["SECRET_KEY"] = app.secret_key
            app.config["NOW"] = self.now.isoformat()

    def mark_start(self) -> None:
        """Take the sites' current state as the episode's start, which ``initial_query`` reads:
        a task may set its world up in ``sample`` (deliver an e-mail) before the agent acts."""
        self._forget_start()
        self._snapshot = {site: self.db_path(site).read_bytes() for site in self.sites}

    def _forget_start(self) -> None:
        for conn in self._initial.values():
            conn.close()
        self._initial.clear()
        self._start_rows.clear()
        self._rows_now.clear()
        self._delivered.clear()
        self._delivered_rows.clear()

    def changes(self) -> list[RowChange]:
        """Every row of the user's data (each site's :attr:`~webenv.site.Site.user_data`) added,
        removed or changed on any site since the episode's start. Mail the world delivered
        itself is compared with itself as delivered: its arrival is no change (a site's
        confirmation follows from a change on that site, which is listed), nor is reading it,
        but deleting, moving or labelling it is."""
        found = []
        for site in self.sites:
            if site not in self._start_rows:
                self.initial_query(site, "SELECT 1")  # loads the start connection
                self._start_rows[site] = read_rows(self._initial[site], self._tracked(site))
            found += diff_rows(
                site,
                self._tracked(site),
                self._baseline(site),
                self._current_rows(site),
                self._delivered,
            )
        return found

    def _baseline(self, site: str) -> SiteRows:
        """``site``'s rows at the start, with the mail delivered since as it was delivered."""
        start = self._start_rows[site]
        if site != self.mailbox or not self._delivered_rows:
            return start
        merged = {table: (columns, dict(rows)) for table, (columns, rows) in start.items()}
        for delivered in self._delivered_rows:
            for table, (_, rows) in delivered.items():
                merged[table][1].update(rows)
        return merged

    @staticmethod
    def _tracked(site: str) -> Mapping[str, Tracked]:
        return get_site(site).user_data

    def _current_rows(self, site: str) -> SiteRows:
        # Checks run after every step, and most steps write nothing: the rows are read again
        # only when the database changed. The sites use SQLite's rollback journal, in which
        # every committed write bumps the header's file change counter (bytes 24-27).
        with open(self.db_path(site), "rb") as file:
            stamp = file.read(28)[24:]
        cached = self._rows_now.get(site)
        if cached is None and stamp == self._snapshot[site][24:28]:
            cached = self._rows_now[site] = (stamp, self._start_rows[site])  # nothing written
        if cached is None or cached[0] != stamp:
            conn = self.connect(site)
            try:
                cached = self._rows_now[site] = (stamp, read_rows(conn, self._tracked(site)))
            finally:
                conn.close()
        return cached[1]

    def connect(self, site: str) -> sqlite3.Connection:
        """A read-only connection to a site's database, for tasks and graders."""
        conn = sqlite3.connect(f"file:{self.db_path(site)}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        return conn

    def query(
        self, site: str, sql: str, params: Iterable[Any] | Mapping[str, Any] = ()
    ) -> list[sqlite3.Row]:
        """Rows of a read-only query on a site's current database."""
        return _fetch(self.connect(site), sql, params)

    def initial_query(self, site: str, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Rows of a query on a site's database as the episode started, for diffs."""
        # Checks run after every step: the episode's start state is loaded once per episode.
        conn = self._initial.get(site)
        if conn is None:
            conn = self._initial[site] = sqlite3.connect(":memory:")
            conn.deserialize(self._snapshot[site])
            conn.row_factory = sqlite3.Row
        bound = params if isinstance(params, Mapping) else tuple(params)
        return conn.execute(sql, bound).fetchall()

    def deliver_mail(self, message: Message) -> None:
        """Put a site's e-mail into the mailbox; the episode's diff takes it as delivered."""
        if self.mailbox is None:
            raise WorldError("This world has no mailbox (a site that delivers mail) to put it in.")
        box = self.mailbox
        message_id = site_module(box).deliver(str(self.db_path(box)), message)
        self._delivered.add(message_id)
        conn = self.connect(box)
        try:
            self._delivered_rows.append(delivered_rows(conn, self._tracked(box), message_id))
        finally:
            conn.close()

    def session_cookie(self, site: str, user_id: int = 1) -> str:
        """A signed session cookie value that logs ``user_id`` in on ``site``."""
        app = self.apps[site]
        serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        return str(serializer.dumps({"user_id": user_id}))

    def close(self) -> None:
        self._forget_start()
        self._tmp.cleanup()


def _fetch(
    conn: sqlite3.Connection, sql: str, params: Iterable[Any] | Mapping[str, Any]
) -> list[sqlite3.Row]:
    """Rows of ``sql``; ``params`` positional (a sequence) or named (a mapping)."""
    bound = params if isinstance(params, Mapping) else tuple(params)
    try:
        return conn.execute(sql, bound).fetchall()
    finally:
        conn.close()

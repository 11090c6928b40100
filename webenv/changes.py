"""What changed in the user's data during an episode: a row-level diff of every site.

The diff compares, table by table, the rows of the user's data at the episode's start with the
rows now, and names every row added, removed or changed. Which tables are the user's data, and
which columns of them count, is declared once per site (:attr:`webenv.site.Site.user_data`;
the built-in sites' are :data:`USER_DATA`); the
catalogue (products, offices, job openings …) and what only mirrors other rows are left out, so
that the diff lists what a person would call "my things".
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Tracked:
    """How the diff reads one table of the user's data."""

    #: The columns that name a row across the episode.
    key: tuple[str, ...] = ("id",)
    #: Columns left out of the comparison (say why where the table is declared).
    ignore: frozenset[str] = frozenset()
    #: Which rows are the user's (an SQL condition on the table).
    where: str = "1"
    #: The column holding the id of a mail message, when rows that belong to mail the world
    #: delivered itself (another site's confirmation, a perturbation's one-time code) are the
    #: world's doing: they are compared with the rows as delivered, not as at the start.
    delivered: str | None = None
    #: Columns that change as the user reads a message (a delivered one's do not count: mail
    #: that arrives is there to be read; deleting, moving or labelling it counts).
    reading: frozenset[str] = frozenset()


#: The user's data of the built-in sites, per site and table (:mod:`webenv.site` declares each
#: site with its own; another site declares its tables in its :class:`~webenv.site.Site`).
#: Tables not named here are not the user's: the shop's
#: catalogue (``store_meta``, ``categories``, ``products`` — whose stock and ratings move with
#: orders and reviews, which are tracked —, ``product_options``, ``coupons``), the mail's
#: ``threads`` (a thread is only the index of its messages, created and named by them), the
#: forms portal's reference data (``offices``, ``expense_categories``, ``job_openings``) and its
#: ``slots`` (a slot is taken only by an appointment's submission, which is tracked). No site
#: keeps sessions or CSRF tokens in its database (they live in signed cookies).
USER_DATA: Mapping[str, Mapping[str, Tracked]] = {
    "shop": {
        "users": Tracked(),
        "addresses": Tracked(),
        "payment_methods": Tracked(),
        # A cart without a user is a signed-out visitor's, as on any shop: not the account's.
        "carts": Tracked(where="user_id IS NOT NULL"),
        "cart_items": Tracked(where="cart_id IN (SELECT id FROM carts WHERE user_id IS NOT NULL)"),
        "orders": Tracked(),
        "order_items": Tracked(),
        "returns": Tracked(),
        "return_items": Tracked(),
        # Other customers' reviews are the catalogue's (no page edits them, and reading their
        # 1,700 rows at every step would cost more than the rest together): the persona's
        # (user 1 on every site) are the user's.
        "reviews": Tracked(where="user_id = 1"),
        "wishlist_items": Tracked(key=("user_id", "product_id")),
    },
    "mail": {
        "users": Tracked(),
        "contacts": Tracked(),
        # ``is_read`` counts: opening a message is a change only templates that read mail
        # allow (``webenv.suite``'s mail allowances); marking as read is a task of its own.
        "messages": Tracked(delivered="id", reading=frozenset({"is_read", "opened_at"})),
        "labels": Tracked(),
        "message_labels": Tracked(key=("message_id", "label_id"), delivered="message_id"),
        # An attachment never changes once stored: its size stands for its bytes, which are
        # not read at every step.
        "attachments": Tracked(ignore=frozenset({"content"}), delivered="message_id"),
        # What the user sent, kept when the message is deleted: mail that went out is a change
        # even if the mailbox no longer shows it.
        "sent_log": Tracked(),
    },
    "forms": {
        "users": Tracked(),
        "policies": Tracked(),
        "drafts": Tracked(),
        "submissions": Tracked(),
        "uploads": Tracked(ignore=frozenset({"content"})),
    },
    "calendar": {
        "users": Tracked(),
        # The colleagues are the address book of the calendar: no page edits them, but a
        # diff that named them would catch a site bug that did.
        "people": Tracked(),
        "events": Tracked(),
        "invitees": Tracked(),
        # What the user answered organizers, kept when the event goes.
        "replies": Tracked(),
    },
    # The help centre's articles and revisions are its catalogue; the user's are the account,
    # the support tickets and their messages.
    "help": {
        "users": Tracked(),
        "tickets": Tracked(),
        "ticket_messages": Tracked(),
    },
}

Rows = dict[tuple[Any, ...], tuple[Any, ...]]
#: A site's tracked rows: ``{table: (columns, {key: row})}``.
SiteRows = dict[str, tuple[tuple[str, ...], Rows]]


@dataclass(frozen=True)
class RowChange:
    """One row of the user's data that was added, removed or changed since the start."""

    site: str
    table: str
    key: tuple[Any, ...]
    kind: str  # "added", "removed" or "changed"
    #: For a changed row, the columns whose values differ.
    columns: tuple[str, ...] = ()
    #: For a changed row, the new values of those columns (in the same order).
    values: tuple[Any, ...] = ()
    #: For an added row, its columns and values (what kind of row it is: a draft of which form).
    row: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        """``shop.orders 12 changed (status)``: how a check's message names it."""
        key = "/".join(str(part) for part in self.key)
        what = f"{self.kind} ({', '.join(self.columns)})" if self.columns else self.kind
        return f"{self.site}.{self.table} {key} {what}"


def read_rows(conn: sqlite3.Connection, tables: Mapping[str, Tracked]) -> SiteRows:
    """Every tracked row of the ``tables`` (a site's user data) of the database behind
    ``conn``."""
    found: SiteRows = {}
    for table, tracked in tables.items():
        names = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        columns = tuple(name for name in names if name not in tracked.ignore)
        at = [columns.index(name) for name in tracked.key]
        select = ", ".join(f'"{name}"' for name in columns)
        rows: Rows = {}
        for row in conn.execute(f"SELECT {select} FROM {table} WHERE {tracked.where}"):
            values = tuple(row)
            rows[tuple(values[i] for i in at)] = values
        found[table] = (columns, rows)
    return found


def diff_rows(
    site: str,
    tables: Mapping[str, Tracked],
    before: SiteRows,
    after: SiteRows,
    delivered: Iterable[int] = (),
) -> list[RowChange]:
    """The rows of ``site``'s ``tables`` added, removed or changed from ``before`` to
    ``after``. ``before`` holds the rows of the mail messages the world ``delivered`` itself
    as they were delivered; reading one (its :attr:`Tracked.reading` columns) is no change."""
    skip = set(delivered)
    changes = []
    for table, tracked in tables.items():
        columns, old = before[table]
        _, new = after[table]
        of_delivered = _of_delivered(columns, tracked, skip)
        for key in sorted(old.keys() | new.keys(), key=repr):
            was, now = old.get(key), new.get(key)
            if was == now:
                continue
            if was is None:
                assert now is not None  # not both None: the key is in one of them
                row = tuple(zip(columns, now, strict=True))
                changes.append(RowChange(site, table, key, "added", row=row))
            elif now is None:
                changes.append(RowChange(site, table, key, "removed"))
            else:
                differ = [(c, b) for c, a, b in zip(columns, was, now, strict=True) if a != b]
                if of_delivered(now):
                    differ = [(c, b) for c, b in differ if c not in tracked.reading]
                    if not differ:
                        continue
                changes.append(
                    RowChange(
                        site,
                        table,
                        key,
                        "changed",
                        tuple(c for c, _ in differ),
                        tuple(b for _, b in differ),
                    )
                )
    return changes


def _of_delivered(columns: tuple[str, ...], tracked: Tracked, skip: set[int]) -> Any:
    """Whether a row of the table is of a message the world delivered."""
    if tracked.delivered is None or not skip:
        return lambda row: False
    at = columns.index(tracked.delivered)
    return lambda row: row[at] in skip


def delivered_rows(
    conn: sqlite3.Connection, tables: Mapping[str, Tracked], message_id: int
) -> SiteRows:
    """The tracked rows of the message ``message_id`` (of the tables that name one)."""
    return read_rows(
        conn,
        {
            table: dataclasses.replace(
                tracked, where=f"({tracked.where}) AND {tracked.delivered} = {int(message_id)}"
            )
            for table, tracked in tables.items()
            if tracked.delivered is not None
        },
    )

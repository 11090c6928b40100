"""A task about one row of a table of many may change that row only: changing another row the
same way (cancelling another order, archiving another message, another contact's phone) fails
the check, on a real world without a browser."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from typing import Any

import pytest

from webenv.changes import RowChange
from webenv.tasks import NOTHING_ELSE, Task, allowed
from webenv.world import World

SEED = 0

#: Per template: the table its task edits one row of, the column, the key naming the task's own
#: row(s) in its parameters, a query for another row of the user's, and a value to give it.
CASES: dict[str, tuple[str, str, str, str, Any]] = {
    "workflows.return_from_confirmation": (
        "shop",
        "orders",
        "order_id",
        "SELECT id FROM orders WHERE user_id = 1 AND status != 'cancelled' AND id != ?",
        "cancelled",
    ),
    "shop.request_return": (
        "shop",
        "orders",
        "order_id",
        "SELECT id FROM orders WHERE user_id = 1 AND status != 'cancelled' AND id != ?",
        "cancelled",
    ),
    "shop.cancel_order": (
        "shop",
        "orders",
        "order_id",
        "SELECT id FROM orders WHERE user_id = 1 AND status != 'cancelled' AND id != ?",
        "cancelled",
    ),
    "mail.archive_from_sender": (
        "mail",
        "messages",
        "ids",
        "SELECT id FROM messages WHERE folder = 'inbox' AND id NOT IN (SELECT value FROM"
        " json_each(?))",
        "archive",
    ),
    "mail.update_contact_phone": (
        "mail",
        "contacts",
        "id",
        "SELECT id FROM contacts WHERE id != ?",
        "(555) 010-0199",
    ),
}
COLUMNS = {"orders": "status", "messages": "folder", "contacts": "phone"}


@pytest.fixture(scope="module")
def fresh(
    fresh_task: Callable[[str, int], tuple[World, Task]],
) -> Callable[[str], tuple[World, Task]]:
    """A template's task of this module's seed on a world just restored (see conftest)."""
    return lambda name: fresh_task(name, SEED)


def _own(task: Task, param: str) -> Any:
    value = task.params[param]
    return json_list(value) if isinstance(value, list) else value


def json_list(values: list[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


@pytest.mark.parametrize("name", sorted(CASES))
def test_changing_another_row_than_the_tasks_fails(fresh, name):
    site, table, param, others, value = CASES[name]
    world, task = fresh(name)
    other = world.query(site, others, (_own(task, param),))[0]["id"]
    column = COLUMNS[table]
    with closing(sqlite3.connect(world.db_path(site))) as conn, conn:
        conn.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (value, other))
    result = task.check(world, None)
    failed = {c.name: c.message for c in result.conditions if not c.passed}
    assert NOTHING_ELSE in failed, result.to_dict()
    assert f"{site}.{table} {other} changed ({column})" in failed[NOTHING_ELSE], failed


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tasks_own_row_may_change(fresh, name):
    site, table, param, _others, value = CASES[name]
    _world, task = fresh(name)
    allowance = task.template.allowance(task.params)
    own = task.params[param]
    own_id = own[0] if isinstance(own, list) else own
    change = RowChange(site, table, (own_id,), "changed", (COLUMNS[table],), (value,))
    assert allowed(change, allowance)
    other = RowChange(site, table, (-1,), "changed", (COLUMNS[table],), (value,))
    assert not allowed(other, allowance)


def _label(world: World, name: str, ids: list[int], new: bool) -> None:
    """Put the user's label ``name`` (made first, when ``new``) on the messages ``ids``."""
    with closing(sqlite3.connect(world.db_path("mail"))) as conn, conn:
        if new:
            conn.execute("INSERT INTO labels (user_id, name) VALUES (1, ?)", (name,))
        (label,) = conn.execute("SELECT id FROM labels WHERE name = ?", (name,)).fetchone()
        conn.executemany(
            "INSERT OR IGNORE INTO message_labels (message_id, label_id) VALUES (?, ?)",
            [(message, label) for message in ids],
        )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_labelling_the_tasks_messages_with_a_label_the_user_had_too_fails(fresh_task, seed):
    # The task's messages may gain the new label, not another one (not even on them alone).
    world, task = fresh_task("mail.label_from_sender", seed)
    ids, label = task.params["ids"], task.params["label"]
    _label(world, label, ids, new=True)
    assert task.check(world, None).success, task.check(world, None).to_dict()
    had = world.query("mail", "SELECT name FROM labels WHERE user_id = 1 ORDER BY id")[0]["name"]
    unlabelled = [
        message
        for message in ids
        if not world.query(
            "mail",
            "SELECT 1 FROM message_labels JOIN labels ON labels.id = label_id"
            " WHERE message_id = ? AND labels.name = ?",
            (message, had),
        )
    ]
    assert unlabelled, f"every message already has {had!r} on seed {seed}"
    _label(world, had, unlabelled, new=False)
    result = task.check(world, None)
    failed = {c.name: c.message for c in result.conditions if not c.passed}
    assert NOTHING_ELSE in failed and "mail.message_labels" in failed[NOTHING_ELSE], failed

"""mail.archive_old_issues on states written straight into the database (no browser): the
backlog spans pages of the Inbox, look-alikes surround it, and only exactly the older issues
archived passes."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date, datetime

import pytest
from webenv.sites.mail.listing import PAGE_SIZE
from webenv.suite.mail.bulk import spoken_day

from webenv.tasks import Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]
NAME = "mail.archive_old_issues"


def _archive(world: World, ids: list[int]) -> None:
    marks = ", ".join("?" * len(ids))
    with sqlite3.connect(world.db_path("mail")) as connection:
        connection.execute(f"UPDATE messages SET folder = 'archive' WHERE id IN ({marks})", ids)


def _inbox(world: World) -> list[tuple[int, str, str]]:
    """The Inbox as its list shows it, newest first: (id, sender name, sent_at)."""
    rows = world.query(
        "mail",
        "SELECT id, sender_name, sent_at FROM messages WHERE folder = 'inbox'"
        " ORDER BY sent_at DESC, id DESC",
    )
    return [(row["id"], row["sender_name"], row["sent_at"]) for row in rows]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_backlog_spans_inbox_pages_beside_look_alikes(fresh_task: Fresh, seed: int) -> None:
    world, task = fresh_task(NAME, seed)
    params, inbox = task.params, _inbox(world)
    ids = set(params["ids"])
    assert 10 <= len(ids) <= 25
    pages = {index // PAGE_SIZE for index, row in enumerate(inbox) if row[0] in ids}
    assert len(pages) >= 2, "the issues to archive all sit on one page of the Inbox"
    newer = [row for row in inbox if row[1] == params["name"] and row[0] not in ids]
    assert newer and all(row[2] >= params["before"] for row in newer)
    assert all(row[2] < params["before"] for row in inbox if row[0] in ids)
    older_other = [r for r in inbox if r[1] == params["decoy"] and r[2] < params["before"]]
    assert len(older_other) >= 3


def test_only_exactly_the_older_issues_archived_passes(fresh_task: Fresh) -> None:
    world, task = fresh_task(NAME, 3)
    params, inbox = task.params, _inbox(world)
    newer = [row[0] for row in inbox if row[1] == params["name"] and row[0] not in params["ids"]]
    other = [row[0] for row in inbox if row[1] == params["decoy"]]
    assert not task.check(world, None).success
    _archive(world, params["ids"][1:])
    assert not task.check(world, None).success  # one left behind
    _archive(world, params["ids"])
    assert task.check(world, None).success
    _archive(world, newer[:1])
    assert not task.check(world, None).success  # a newer issue too
    world.restore(3)
    task = task.template.instantiate(3, world)
    world.mark_start()
    _archive(world, [*task.params["ids"], other[0]])
    assert not task.check(world, None).success  # another newsletter's issue too


@pytest.mark.parametrize("seed", [0, 1])
def test_reading_issues_that_stay_is_no_collateral_damage(fresh_task: Fresh, seed: int) -> None:
    # Opening a newer issue (or the other newsletter's) to see its date reads it: it stays.
    world, task = fresh_task(NAME, seed)
    params = task.params
    kept = [
        row[0]
        for row in _inbox(world)
        if row[1] in (params["name"], params["decoy"]) and row[0] not in params["ids"]
    ]
    _archive(world, params["ids"])
    marks = ", ".join("?" * len(kept))
    with sqlite3.connect(world.db_path("mail")) as connection:
        connection.execute(
            f"UPDATE messages SET is_read = 1, opened_at = ? WHERE id IN ({marks})",
            [world.now.isoformat(), *kept],
        )
    result = task.check(world, None)
    assert result.success, result.to_dict()


def test_the_goal_states_the_day_with_its_year_only_when_another() -> None:
    now = datetime(2026, 3, 2, 9, 30)
    assert spoken_day(date(2026, 2, 17), now) == "February 17"
    assert spoken_day(date(2025, 12, 28), now) == "December 28, 2025"

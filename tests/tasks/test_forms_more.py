"""forms.reschedule_appointment, forms.cancel_appointment and forms.withdraw_application on
states written through the portal's own functions (no browser): the asked change passes;
another time, the other appointment or application, or a new booking in place of the move,
fails."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from webenv.sites.forms.applications import withdraw_application
from webenv.sites.forms.bookings import add_appointment, cancel_appointment, move_appointment

from webenv.tasks import Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]


@contextmanager
def _portal(world: World) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(world.db_path("forms"))
    db.row_factory = sqlite3.Row
    try:
        with db:
            yield db
    finally:
        db.close()


def _row(db: sqlite3.Connection, submission_id: int) -> sqlite3.Row:
    return db.execute("SELECT * FROM submissions WHERE id = ?", (submission_id,)).fetchone()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_upcoming_appointments_are_booked_on_different_days(fresh_task: Fresh, seed: int):
    world, task = fresh_task("forms.reschedule_appointment", seed)
    params, other = task.params, task.params["other"]
    assert params["day"] != other["day"] and params["service"] != other["service"]
    assert params["day"] > world.now.date().isoformat()
    assert params["new_day"] != params["day"] and params["decoy_time"] != params["new_time"]
    held = world.query(
        "forms",
        "SELECT submission_id FROM slots WHERE taken = 1 AND submission_id IN (?, ?)",
        (params["submission_id"], other["submission_id"]),
    )
    assert len(held) == 2


def test_moving_it_to_the_asked_time_passes_and_other_ways_fail(fresh_task: Fresh):
    name, seed = "forms.reschedule_appointment", 4
    world, task = fresh_task(name, seed)
    params = task.params
    assert not task.check(world, None).success
    with _portal(world) as db:
        move_appointment(
            db, _row(db, params["submission_id"]), params["new_day"], params["decoy_time"],
            world.now,
        )  # fmt: skip
    assert not task.check(world, None).success  # another time that day
    with _portal(world) as db:
        move_appointment(
            db, _row(db, params["submission_id"]), params["new_day"], params["new_time"],
            world.now,
        )  # fmt: skip
    assert task.check(world, None).success
    with _portal(world) as db:
        cancel_appointment(db, _row(db, params["other"]["submission_id"]), world.now)
    assert not task.check(world, None).success  # the other one cancelled too

    world, task = fresh_task(name, seed)  # cancelled, and booked anew at the asked time
    params = task.params
    with _portal(world) as db:
        row = _row(db, params["submission_id"])
        cancel_appointment(db, row, world.now)
        values = json.loads(row["data_json"])
    values.update(appointment_date=params["new_day"], appointment_time=params["new_time"])
    add_appointment(world.db_path("forms"), values, world.now)
    assert not task.check(world, None).success


def test_cancelling_the_named_appointment_passes_and_the_other_fails(fresh_task: Fresh):
    name, seed = "forms.cancel_appointment", 2
    world, task = fresh_task(name, seed)
    params = task.params
    assert not task.check(world, None).success
    with _portal(world) as db:
        cancel_appointment(db, _row(db, params["other"]["submission_id"]), world.now)
    assert not task.check(world, None).success
    world, task = fresh_task(name, seed)
    with _portal(world) as db:
        cancel_appointment(db, _row(db, params["submission_id"]), world.now)
    assert task.check(world, None).success
    with _portal(world) as db:  # and moved the other one
        other = params["other"]
        free = world.query(
            "forms",
            "SELECT substr(s.starts_at, 1, 10) AS day, substr(s.starts_at, 12, 5) AS hhmm"
            " FROM slots s JOIN offices o ON o.id = s.office_id WHERE o.code = ?"
            " AND s.taken = 0 AND s.starts_at > ? AND s.starts_at < ? ORDER BY s.starts_at",
            (other["office"], world.now.isoformat(), (world.now + timedelta(days=20)).isoformat()),
        )
        slot = next(f for f in free if f["day"] != other["day"])
        move_appointment(db, _row(db, other["submission_id"]), slot["day"], slot["hhmm"], world.now)
    assert not task.check(world, None).success


def test_withdrawing_the_named_application_passes_and_the_other_fails(fresh_task: Fresh):
    name, seed = "forms.withdraw_application", 1
    world, task = fresh_task(name, seed)
    params = task.params
    assert params["title"] != params["other"]["title"]
    assert not task.check(world, None).success
    with _portal(world) as db:
        withdraw_application(db, _row(db, params["other"]["submission_id"]))
    assert not task.check(world, None).success
    world, task = fresh_task(name, seed)
    with _portal(world) as db:
        withdraw_application(db, _row(db, params["submission_id"]))
    assert task.check(world, None).success
    with _portal(world) as db:
        withdraw_application(db, _row(db, params["other"]["submission_id"]))
    assert not task.check(world, None).success

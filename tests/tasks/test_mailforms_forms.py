"""Checks of the forms templates for edits of saved state, refusals and indirect references,
on states written straight into the database (no browser)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import date
from typing import Any

from webenv.tasks import Answer, Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]
REFUSED = Answer("infeasible", "That time is already booked.")


def _write(world: World, sql: str, params: tuple[Any, ...] = ()) -> None:
    with sqlite3.connect(world.db_path("forms")) as connection:
        connection.execute(sql, params)


def _submit(world: World, slug: str) -> None:
    """A submission of form ``slug``, as if one went through during the episode."""
    _write(
        world,
        "INSERT INTO submissions (form_slug, confirmation, user_id, status, submitted_at,"
        " data_json) VALUES (?, 'X-1', 1, 'received', '2026-03-02T09:40:00', '{}')",
        (slug,),
    )


def test_a_booked_time_is_refused_and_booking_another_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task("forms.book_at_time", 3)
    params = task.params
    assert not params["feasible"]
    assert params["time"] not in params["free"] and params["free"]
    taken = world.query(
        "forms",
        "SELECT s.taken FROM slots s JOIN offices o ON o.id = s.office_id"
        " WHERE o.code = ? AND s.starts_at = ?",
        (params["office"], f"{params['day']}T{params['time']}:00"),
    )
    assert taken[0]["taken"] == 1
    assert task.check(world, REFUSED).success
    assert not task.check(world, Answer("message", "Done.")).success
    _submit(world, "appointment")
    assert not task.check(world, REFUSED).success


def test_a_free_time_is_booked_and_refusing_it_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task("forms.book_at_time", 0)
    params = task.params
    assert params["feasible"] and params["time"] in params["free"]
    assert not task.check(world, REFUSED).success
    assert not task.check(world, Answer("message", "Done.")).success


def test_the_car_policy_was_active_on_the_incident_only_when_it_can_be_claimed_on(
    fresh_task: Fresh,
) -> None:
    for seed, feasible in ((0, False), (6, False), (1, True), (4, True)):
        world, task = fresh_task("forms.claim_for_car_damage", seed)
        params = task.params
        assert params["feasible"] is feasible
        assert params["date"] <= world.now.date().isoformat()
        assert (params["date"] <= params["ended"]) is feasible
        assert params["policy"] != params["other_car"]["policy"]
        assert task.check(world, REFUSED).success is not feasible
        _submit(world, "insurance-claim")
        assert not task.check(world, REFUSED).success


def _draft_answers(world: World, draft_id: int) -> dict[str, Any]:
    row = world.query("forms", "SELECT data_json FROM drafts WHERE id = ?", (draft_id,))
    return dict(json.loads(row[0]["data_json"]))


def _save_draft(world: World, draft_id: int, answers: dict[str, Any], status: str) -> None:
    _write(
        world,
        "UPDATE drafts SET data_json = ?, status = ? WHERE id = ?",
        (json.dumps(answers), status, draft_id),
    )


def test_the_saved_report_changes_its_cost_center_only(fresh_task: Fresh) -> None:
    world, task = fresh_task("forms.change_saved_cost_center", 1)
    draft_id, code = task.params["draft_id"], task.params["code"]
    answers = _draft_answers(world, draft_id)
    assert not task.check(world, None).success
    _save_draft(world, draft_id, {**answers, "cost_center": code}, "saved")
    assert task.check(world, None).success
    _save_draft(world, draft_id, {**answers, "cost_center": code}, "active")
    assert not task.check(world, None).success  # no longer saved for later
    moved = {**answers, "cost_center": code, "destination": "Elsewhere"}
    _save_draft(world, draft_id, moved, "saved")
    assert not task.check(world, None).success


def _month(iso: str) -> str:
    return f"{date.fromisoformat(iso):%B %Y}"


def test_the_past_office_is_the_one_of_the_visit_the_goal_names(fresh_task: Fresh) -> None:
    seen = set()
    for seed in (5, 6, 8):
        world, task = fresh_task("forms.book_at_past_office", seed)
        params = task.params
        visits = sorted(
            (
                json.loads(row["data_json"])
                for row in world.query(
                    "forms", "SELECT data_json FROM submissions WHERE form_slug = 'appointment'"
                )
            ),
            key=lambda data: data["appointment_date"],
        )
        if params["which"] == "last":
            assert params["office"] == visits[-1]["office"]
        else:
            (visit,) = [v for v in visits if _month(v["appointment_date"]) == params["which"]]
            assert params["office"] == visit["office"]
        assert params["other_office"]["office"] != params["office"]
        assert not task.check(world, None).success
        seen.add(params["which"])
    assert "last" in seen and len(seen) > 1

"""Saved drafts are the user's: a forms task may start its own draft, never overwrite or delete
one the user saved before (unless it is the draft the task is about).

The allowance of every template that touches the portal is checked against the world's saved
drafts without a browser; the collateral near-miss that overwrites one runs in the real one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing

import pytest
from webenv.sites.forms.drafts import create_draft

from webenv.changes import RowChange
from webenv.tasks import NOTHING_ELSE, allowed, templates
from webenv.world import World

SEEDS = (0, 1)
DAMAGE = "overwrote the saved job application"
FORMS_TEMPLATES = sorted(name for name, t in templates().items() if "forms" in t.sites)
#: The portal's forms, and the one each template that fills a form fills.
FORMS = (
    "appointment",
    "change-of-address",
    "insurance-claim",
    "job-application",
    "register",
    "travel-expenses",
)
OWN_FORM = {
    "forms.apply_for_job": "job-application",
    "forms.apply_to_opening": "job-application",
    "forms.book_at_past_office": "appointment",
    "forms.book_earliest_slot": "appointment",
    "forms.book_for_someone_else": "appointment",
    "forms.book_on_day": "appointment",
    "forms.book_at_time": "appointment",
    "forms.change_saved_cost_center": "travel-expenses",
    "forms.claim_for_car_damage": "insurance-claim",
    "forms.change_address": "change-of-address",
    "forms.file_expense_report": "travel-expenses",
    "forms.finish_saved_expense_report": "travel-expenses",
    "forms.free_times_on_day": "appointment",
    "forms.register_account": "register",
    "forms.vehicle_claim": "insurance-claim",
    "workflows.book_proposed_appointment": "appointment",
    "workflows.help_expense_limits": "travel-expenses",
}


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(
        tuple(sorted({site for name in FORMS_TEMPLATES for site in templates()[name].sites}))
    )
    yield world
    world.close()


def saved_drafts(world: World) -> list[int]:
    rows = world.query("forms", "SELECT id FROM drafts WHERE status = 'saved' ORDER BY id")
    assert len(rows) >= 2, "the world has saved drafts to protect"
    return [row["id"] for row in rows]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", FORMS_TEMPLATES)
def test_no_template_may_change_a_saved_draft_that_is_not_its_own(world, name, seed):
    template = templates()[name]
    world.restore(seed)
    task = template.instantiate(seed, world)
    allowance = template.allowance(task.params)
    own = task.params.get("draft_id")
    for draft in saved_drafts(world):
        changes = [
            RowChange("forms", "drafts", (draft,), "changed", ("data_json",), ("{}",)),
            RowChange("forms", "drafts", (draft,), "changed", ("status",), ("submitted",)),
            RowChange("forms", "drafts", (draft,), "removed"),
        ]
        for change in changes:
            assert allowed(change, allowance) == (draft == own), (change, own)
    # A draft of its own form, started in the episode, stays allowed where the template fills
    # one; a new draft of another form never is.
    if "drafts" in allowance.get("forms", {}):
        for form in FORMS:
            row = (("id", 10**6), ("form_slug", form), ("status", "saved"))
            added = RowChange("forms", "drafts", (10**6,), "added", row=row)
            assert allowed(added, allowance) == (form == OWN_FORM[name]), (form, name)


@pytest.mark.parametrize("name", sorted(OWN_FORM))
def test_a_new_draft_of_another_form_fails_the_task(world, name):
    # Saving another form "to finish later" on the way leaves the user a draft they did not
    # ask for: the diff names it, and the template's allowance does not cover it.
    world.restore(SEEDS[0])
    task = templates()[name].instantiate(SEEDS[0], world)
    world.mark_start()
    other = next(form for form in FORMS if form != OWN_FORM[name])
    with closing(sqlite3.connect(world.db_path("forms"))) as conn, conn:
        draft = create_draft(conn, other, 1, world.now.isoformat())
        conn.execute("UPDATE drafts SET status = 'saved' WHERE id = ?", (draft,))
    result = task.check(world, None)
    failed = {c.name: c.message for c in result.conditions if not c.passed}
    assert f"forms.drafts {draft} added" in failed.get(NOTHING_ELSE, ""), result.to_dict()


def test_the_damage_is_a_near_miss_of_every_template_that_fills_a_form():
    fills = [
        name
        for name in FORMS_TEMPLATES
        if "drafts" in (templates()[name].may_change or {}).get("forms", {})
    ]
    assert fills
    for name in fills:
        labels = templates()[name].near_misses()
        assert f"{DAMAGE}, then the task" in labels, name


def test_overwriting_another_forms_draft_earns_nothing(task_env, run_policy):
    name = "forms.finish_saved_expense_report"
    policy = templates()[name].near_misses()[f"{DAMAGE}, then the task"]
    reward, info = run_policy(task_env(name), SEEDS[0], policy)
    assert reward == 0.0, info["check"]
    failed = {c["name"]: c["message"] for c in info["check"]["conditions"] if not c["passed"]}
    assert set(failed) == {NOTHING_ELSE}, (failed, info["trail"])
    assert "forms.drafts" in failed[NOTHING_ELSE] and "(data_json" in failed[NOTHING_ELSE]

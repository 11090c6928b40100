"""Checks of the workflows that carry a booking into the calendar, a help centre rule into a
form, and a colleague's request across the calendar, the shop and the mailbox, on real worlds
(no browser): what each task sets up, and what an agent's work looks like in the databases."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from webenv.suite.calendar._calendar import invitations, me, to_utc
from webenv.suite.workflows.calendar_from_appointment import title_names
from webenv.suite.workflows.help_expense_limits import CAPPED, limits
from webenv.suite.workflows.meeting_supplies import SUBJECT as SUPPLIES_SUBJECT

from tests.tasks.test_calendar_templates import reply, send
from webenv.tasks import Answer, Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]
DONE = Answer("message", "Done.")
APPOINTMENT = "workflows.calendar_from_appointment"
EXPENSES = "workflows.help_expense_limits"


def write(world: World, site: str, sql: str, params: tuple[object, ...] = ()) -> int:
    with sqlite3.connect(world.db_path(site)) as conn:
        return int(conn.execute(sql, params).lastrowid or 0)


def add_event(
    world: World, task: Task, title: str, shift: int = 0, minutes: int | None = None
) -> int:
    """An event as the calendar's form stores it: at the task's start (moved by ``shift``
    minutes), in the calendar's time zone."""
    zone = task.params["zone"]
    start = datetime.fromisoformat(task.params["start"]) + timedelta(minutes=shift)
    end = start + timedelta(minutes=minutes or task.params["minutes"])
    return write(
        world,
        "calendar",
        "INSERT INTO events (title, starts_at, ends_at, organizer_email, updated_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (title, to_utc(start, zone), to_utc(end, zone), me(world), world.now.isoformat()),
    )


def test_two_upcoming_appointments_are_booked_and_mailed(fresh_task: Fresh) -> None:
    for seed in range(3):
        world, task = fresh_task(APPOINTMENT, seed)
        params = task.params
        rows = world.query(
            "forms",
            "SELECT s.data_json, s.confirmation FROM submissions s WHERE s.form_slug ="
            " 'appointment' AND s.status = 'submitted' ORDER BY s.id",
        )
        booked = {json.loads(r["data_json"])["appointment_at"][:16] for r in rows}
        assert booked == {params["start"], params["decoy"]["start"]}
        taken = world.query(
            "forms",
            "SELECT COUNT(*) FROM slots WHERE taken = 1 AND submission_id IN (SELECT id FROM"
            " submissions WHERE status = 'submitted')",
        )[0][0]
        assert taken == 2
        mails = world.query(
            "mail", "SELECT body FROM messages WHERE sender = 'no-reply@civicforms.example'"
        )
        ours = [m["body"] for m in mails if params["confirmation"] in m["body"]]
        assert len(mails) == 2 and len(ours) == 1
        start = datetime.fromisoformat(params["start"])
        assert f"at {start.hour % 12 or 12}:{start:%M %p}" in ours[0]
        assert f"Where: {params['office_name']}," in ours[0]
        assert params["decoy"]["office_name"] != params["office_name"]


def test_the_event_at_the_booked_time_passes(fresh_task: Fresh) -> None:
    world, task = fresh_task(APPOINTMENT, 4)
    assert not task.check(world, DONE).success
    office = task.params["office_name"].split()[0]
    add_event(world, task, f"{office} service center visit")
    result = task.check(world, DONE)
    assert result.success, result.to_dict()


@pytest.mark.parametrize(
    ("title", "shift", "minutes"),
    [
        ("Appointment", 0, None),  # names neither the service nor the center
        ("Service center appointment", 0, None),
        ("OFFICE appointment", 60, None),  # at the time read as another zone's
        ("OFFICE appointment", 0, 15),
    ],
)
def test_a_wrong_event_fails(fresh_task: Fresh, title: str, shift: int, minutes: int) -> None:
    world, task = fresh_task(APPOINTMENT, 5)
    office = task.params["office_name"].split()[0]
    add_event(world, task, title.replace("OFFICE", office), shift, minutes)
    assert not task.check(world, DONE).success


def test_inviting_someone_to_the_appointment_fails(fresh_task: Fresh) -> None:
    world, task = fresh_task(APPOINTMENT, 6)
    event = add_event(world, task, f"{task.params['service_name']} appointment")
    assert task.check(world, DONE).success
    write(
        world,
        "calendar",
        "INSERT INTO invitees (event_id, email, name) VALUES (?, 'pat@example.com', 'Pat')",
        (event,),
    )
    assert not task.check(world, DONE).success


def test_a_title_names_the_service_or_the_center_in_whole_words() -> None:
    center = "Riverside Service Center"
    assert title_names("Passport renewal", "passport", center)
    assert title_names("DMV: driver's license", "drivers-license", center)
    assert title_names("State ID card", "id-card", center)
    assert title_names("riverside appt", "passport", center)
    assert title_names("State identification card", "id-card", center)
    assert title_names("DMV appointment", "drivers-license", center)
    assert title_names("Wedding licence", "marriage-license", center)
    assert title_names("Passports", "passport", center)
    assert not title_names("Driver's license", "marriage-license", center)
    assert not title_names("Appointment", "passport", center)
    assert not title_names("Rider meeting", "id-card", center)  # "id" inside a word
    assert not title_names("Passport renewal", "marriage-license", "Eastgate Service Center")
    # What to bring may name another service or two; a list of them all is a hedge.
    bring = "Vehicle registration: bring driver's license and ID"
    assert title_names(bring, "vehicle-registration", center)
    assert not title_names("Passport / driver's license / ID / birth certificate / vehicle / "
                           "marriage appointment", "passport", center)  # fmt: skip
    assert not title_names("Passport, ID, vehicle or birth certificate", "id-card", center)


def test_every_report_has_an_item_over_its_cap_and_one_the_old_cap_would_cut(
    fresh_task: Fresh,
) -> None:
    for seed in range(8):
        _world, task = fresh_task(EXPENSES, seed)
        items, current, old = task.params["items"], limits(seed), limits(seed, older=True)
        capped = [i for i in items if i["category"] in CAPPED]
        over = [i for i in capped if i["spent"] > current[i["category"]]]
        between = [i for i in capped if old[i["category"]] < i["spent"] <= current[i["category"]]]
        assert over and between, items
        assert task.params["claimed"] != task.params["old_claimed"]


def test_the_current_revision_states_the_limits_the_check_uses(fresh_task: Fresh) -> None:
    world, _task = fresh_task(EXPENSES, 0)
    bodies = [
        r["body"]
        for r in world.query(
            "help",
            "SELECT r.body FROM revisions r JOIN articles a ON a.id = r.article_id"
            " WHERE a.title = 'Travel expense limits' ORDER BY r.number",
        )
    ]
    assert len(bodies) >= 2
    current, old = limits(0), limits(0, older=True)
    for code, name in CAPPED.items():
        assert f"{name}: up to ${old[code] / 100:,.2f} per item" in bodies[0]
        assert f"{name}: up to ${current[code] / 100:,.2f}" in bodies[-1]
    # The forms portal enforces the current limits, not the old ones.
    caps = dict(world.query("forms", "SELECT code, limit_cents FROM expense_categories"))
    assert all(caps[code] == current[code] for code in CAPPED)


def _submit(world: World, task: Task, items: list[dict[str, object]]) -> None:
    params = task.params
    name, digest = params["receipts"]
    data = {
        "trip_purpose": params["purpose"], "destination": params["destination"],
        "departure_date": params["departure"], "return_date": params["return"],
        "cost_center": params["cost_center"], "items": items, "notes": None,
        "receipts": [{"filename": name, "sha256": digest}],
        "total_cents": sum(int(i["amount"]) for i in items),  # type: ignore[call-overload]
    }  # fmt: skip
    write(
        world,
        "forms",
        "INSERT INTO submissions (form_slug, confirmation, user_id, status, submitted_at,"
        " data_json) VALUES ('travel-expenses', 'EXP-1', 1, 'submitted', ?, ?)",
        (world.now.isoformat(), json.dumps(data)),
    )


def test_claiming_at_the_current_limits_passes_and_at_the_old_ones_fails(
    fresh_task: Fresh,
) -> None:
    world, task = fresh_task(EXPENSES, 3)
    _submit(world, task, task.params["old_claimed"])
    failed = task.check(world, DONE)
    assert not failed.success
    assert any(
        c.name == "each item claimed up to its current limit" and not c.passed
        for c in failed.conditions
    )
    world, task = fresh_task(EXPENSES, 3)
    _submit(world, task, list(reversed(task.params["claimed"])))  # in any order
    result = task.check(world, DONE)
    assert result.success, result.to_dict()


def test_the_goal_states_what_was_spent_not_what_to_claim(fresh_task: Fresh) -> None:
    for seed in range(4):
        _world, task = fresh_task(EXPENSES, seed)
        stated = set(re.findall(r"\$[\d,]+\.\d\d", task.goal))
        spent = {f"${i['spent'] / 100:,.2f}" for i in task.params["items"]}
        assert stated == spent
        capped = {f"${i['amount'] / 100:,.2f}" for i in task.params["claimed"]} - spent
        assert capped and not capped & stated


SUPPLIES = "workflows.meeting_supplies"


def test_the_organizers_email_names_their_one_pending_invitation(fresh_task: Fresh) -> None:
    for seed in range(4):
        world, task = fresh_task(SUPPLIES, seed)
        params = task.params
        pending = {item["id"]: item for item in invitations(world)}
        assert params["event_id"] in pending
        email = params["organizer"]["email"]
        by_organizer = [item for item in pending.values() if item["organizer_email"] == email]
        assert len(by_organizer) == 1
        body = world.query(
            "mail", "SELECT body FROM messages WHERE subject = ? AND sender = ?",
            (SUPPLIES_SUBJECT, email),
        )[0]["body"]  # fmt: skip
        assert f"invitation to {params['title']} on " in body
        assert f"Item: {params['item']['name']}\n" in body
        assert f"Quantity: {params['quantity']}\n" in body


def test_two_of_the_three_chores_earn_nothing(fresh_task: Fresh) -> None:
    world, task = fresh_task(SUPPLIES, 1)
    params = task.params
    reply(world, params["invitee_id"], params["event_id"], "accepted")
    assert not task.check(world, DONE).success
    # The reply with an order number, but no order placed: still not done.
    send(world, params["organizer"]["email"], f"Re: {SUPPLIES_SUBJECT}",
         f"It's ordered: {params['previous_order']}.")  # fmt: skip
    result = task.check(world, DONE)
    failed = {c.name for c in result.conditions if not c.passed}
    assert "one new order" in failed
    assert "answered accepted" not in failed and "one e-mail sent" not in failed

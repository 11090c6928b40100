"""Rescheduling, then cancelling, a booked appointment, and withdrawing a job application, in a
real Chromium, from My account."""

from __future__ import annotations

import json
import sqlite3

from playwright.sync_api import expect
from webenv.sites.common import parse_now
from webenv.sites.forms.applications import add_submission
from webenv.sites.forms.bookings import add_appointment

from .test_browser import assert_accessible, press


def _slots(db_path, now) -> list[str]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT s.starts_at FROM slots s JOIN offices o ON o.id = s.office_id"
            " WHERE o.code = 'northside' AND s.taken = 0 AND s.starts_at > ? ORDER BY s.starts_at",
            (now.isoformat(),),
        )
        return [row[0] for row in rows]


def test_an_appointment_is_moved_then_cancelled_from_its_confirmation_page(live_world):
    world = live_world("forms", seed=0)
    path = world.db_path("forms")
    now = parse_now(world.app("forms").config["NOW"])
    free = [s for s in _slots(path, now) if s[:10] > now.date().isoformat()]
    first = free[0]
    new = next(s for s in free if s[:10] != first[:10])
    values = {
        "service": "passport", "office": "northside", "appointment_date": first[:10],
        "appointment_time": first[11:16], "first_name": "Ada", "last_name": "Lane",
        "email": "ada@example.net", "phone": "+12025550123", "text_reminder": False,
        "notes": None,
    }  # fmt: skip
    submission_id, number = add_appointment(path, values, now)

    page = world.new_page(logged_in=True)
    page.goto(world.url("forms") + "/")
    page.get_by_role("link", name="My account").click()
    page.get_by_role("link", name=number).click()
    expect(page.get_by_role("heading", name="Change or cancel")).to_be_visible()
    assert_accessible(page)
    page.get_by_role("link", name="Reschedule appointment").click()
    assert_accessible(page)
    option = page.locator(f'#new-day option[value="{new[:10]}"]').inner_text()
    page.get_by_label("New day").select_option(label=option)
    press(page, "Show times")
    press(page, "Confirm new time")  # no time chosen yet
    expect(page.locator(".error-summary")).to_contain_text("Choose a new time")
    assert_accessible(page)
    hour = int(new[11:13])
    label = f"{hour % 12 or 12}:{new[14:16]} {'AM' if hour < 12 else 'PM'}"
    page.get_by_label(label, exact=True).check()
    press(page, "Confirm new time")
    expect(page.get_by_role("status")).to_contain_text("Your appointment has been moved to")
    expect(page.locator("main")).to_contain_text(label)
    with sqlite3.connect(path) as db:
        data = json.loads(
            db.execute(
                "SELECT data_json FROM submissions WHERE id = ?", (submission_id,)
            ).fetchone()[0]
        )
    assert data["appointment_at"] == new
    assert first in _slots(path, now) and new not in _slots(path, now)

    page.get_by_role("link", name="Cancel appointment").click()
    assert_accessible(page)
    press(page, "Yes, cancel this appointment")
    expect(page.get_by_role("heading", name="Appointment cancelled")).to_be_visible()
    expect(page.get_by_role("link", name="Reschedule appointment")).to_have_count(0)
    assert new in _slots(path, now)
    with sqlite3.connect(path) as db:
        status = db.execute(
            "SELECT status FROM submissions WHERE id = ?", (submission_id,)
        ).fetchone()[0]
    assert status == "cancelled"


def test_a_job_application_is_withdrawn_from_its_confirmation_page(live_world):
    world = live_world("forms", seed=1)
    path = world.db_path("forms")
    now = parse_now(world.app("forms").config["NOW"])
    with sqlite3.connect(path) as db:
        reference, title = db.execute(
            "SELECT reference, title FROM job_openings WHERE closes_on >= ? ORDER BY reference",
            (now.date().isoformat(),),
        ).fetchone()
    values = {
        "opening": reference, "available_from": now.date().isoformat(),
        "salary_expectation": None, "work_arrangement": "remote", "first_name": "Ada",
        "last_name": "Lane", "email": "ada@example.net", "phone": "+12025550123",
        "right_to_work": "yes", "jobs": [], "cv": [], "cover_letter": None,
    }  # fmt: skip
    submission_id, number = add_submission(path, "job-application", values, now)
    page = world.new_page(logged_in=True)
    page.goto(world.url("forms") + "/account")
    page.get_by_role("link", name=number).click()
    expect(page.locator("main")).to_contain_text(f"{title} ({reference})")
    page.get_by_role("link", name="Withdraw application").click()
    assert_accessible(page)
    press(page, "Yes, withdraw my application")
    expect(page.get_by_role("heading", name="Application withdrawn")).to_be_visible()
    assert_accessible(page)
    with sqlite3.connect(path) as db:
        status = db.execute(
            "SELECT status FROM submissions WHERE id = ?", (submission_id,)
        ).fetchone()[0]
    assert status == "withdrawn"

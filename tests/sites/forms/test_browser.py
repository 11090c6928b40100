"""The portal in a real Chromium: an accessibility audit of every page type, and one form
filled end to end, file upload included."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect
from webenv.sites.common import parse_now

from tests.axe import serious_violations, submit


def assert_accessible(page: Page) -> None:
    """No critical or serious axe-core violation on the page as it is now."""
    assert serious_violations(page) == []


def press(page: Page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


@pytest.fixture
def world(live_world):
    return live_world("forms", seed=0)


def test_every_page_type_passes_an_accessibility_audit(world):
    page = world.new_page(logged_in=True)
    base = world.url("forms")
    for path in (
        "/",
        "/f/insurance-claim",
        "/account",
        "/f/travel-expenses/expenses",
        "/f/job-application/documents",
    ):
        page.goto(base + path)
        assert_accessible(page)

    page.goto(base + "/f/insurance-claim/incident")
    press(page, "Continue")
    expect(page.locator(".error-summary")).to_be_focused()
    assert_accessible(page)

    page.goto(base + "/f/appointment/service")
    page.get_by_label("Passport application or renewal").check()
    page.locator("input[name=office]").first.check()
    press(page, "Continue")
    expect(page.locator("table.calendar")).to_be_visible()
    assert_accessible(page)
    page.locator("input[name=appointment_date]:not([disabled])").first.check()
    submit(page.get_by_role("button", name="Continue", exact=True))
    assert_accessible(page)
    press(page, "Save and continue later")
    expect(page.get_by_role("heading", name="Your answers have been saved")).to_be_visible()
    assert_accessible(page)

    anonymous = world.new_page()
    for path in ("/login", "/resume"):
        anonymous.goto(base + path)
        assert_accessible(anonymous)
    submit(anonymous.get_by_role("button", name="Resume", exact=True))
    assert_accessible(anonymous)


def test_a_job_application_with_a_cv_is_filled_and_submitted_in_the_browser(world, tmp_path):
    now = parse_now(world.app("forms").config["NOW"])
    cv = tmp_path / "curriculum-vitae.pdf"
    cv.write_bytes(b"%PDF-1.4 a short CV")
    page = world.new_page()
    page.goto(world.url("forms") + "/")
    page.get_by_role("link", name="Start – Apply for a job").click()
    page.get_by_role("link", name="Start now").click()

    page.get_by_label("Job opening").select_option(index=1)
    page.get_by_label("Earliest start date").fill((now.date() + timedelta(days=30)).isoformat())
    page.get_by_label("Remote").check()
    press(page, "Continue")

    persona = world.persona
    page.get_by_label("First name").fill(persona.first_name)
    page.get_by_label("Last name").fill(persona.last_name)
    page.get_by_label("Email address").fill(persona.email)
    page.get_by_label("Phone number").fill(persona.phone)
    page.get_by_label("Yes").check()
    press(page, "Continue")

    page.get_by_label("Employer (job 1)").fill("Northwind Traders")
    page.get_by_label("Job title (job 1)").fill("Buyer")
    page.get_by_label("Start date (job 1)").fill("2019-04-01")
    press(page, "Add another job")
    page.get_by_label("Employer (job 2)").fill("Contoso")
    page.get_by_label("Job title (job 2)").fill("Intern")
    page.get_by_label("Start date (job 2)").press("Enter")  # implicit submission continues
    expect(page.locator(".error-summary")).to_contain_text("Enter the start date")
    page.get_by_label("Start date (job 2)").fill("2018-06-01")
    page.get_by_label("End date (optional) (job 2)").fill(date(2018, 9, 1).isoformat())
    press(page, "Continue")

    page.get_by_label("CV or résumé").set_input_files(cv)
    page.get_by_label("Cover letter (optional)").fill("I would like to help the city.")
    press(page, "Continue")

    expect(page.get_by_role("heading", name="Check your answers before submitting")).to_be_visible()
    expect(page.locator("main")).to_contain_text("curriculum-vitae.pdf")
    assert_accessible(page)
    press(page, "Submit application")

    number = page.locator(".confirmation-number").inner_text()
    assert number.startswith("JOB-")
    assert_accessible(page)
    with sqlite3.connect(world.db_path("forms")) as db:
        slug, size = db.execute(
            "SELECT form_slug, u.size FROM submissions s JOIN uploads u ON u.submission_id = s.id"
            " WHERE confirmation = ?",
            (number,),
        ).fetchone()
    assert (slug, size) == ("job-application", cv.stat().st_size)

"""Withdrawing a submitted job application from its confirmation page (test client)."""

from __future__ import annotations

import re
import sqlite3
from datetime import timedelta

import pytest
from webenv.sites.forms import create_app
from webenv.sites.forms.applications import add_submission

from .conftest import NOW


def _apply(db_path, reference: str) -> str:
    values = {
        "opening": reference, "available_from": (NOW + timedelta(days=30)).date().isoformat(),
        "salary_expectation": None, "work_arrangement": "hybrid", "first_name": "Ada",
        "last_name": "Lane", "email": "ada@example.net", "phone": "+12025550123",
        "right_to_work": "yes", "jobs": [], "cv": [], "cover_letter": None,
    }  # fmt: skip
    return add_submission(db_path, "job-application", values, NOW - timedelta(days=3))[1]


def _status(db_path, confirmation: str) -> str:
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT status FROM submissions WHERE confirmation = ?", (confirmation,)
        ).fetchone()[0]


@pytest.fixture
def applied(db_path):
    with sqlite3.connect(db_path) as db:
        first, second = db.execute(
            "SELECT reference, title FROM job_openings WHERE closes_on >= ? ORDER BY reference"
            " LIMIT 2",
            (NOW.date().isoformat(),),
        ).fetchall()
    return {
        "confirmation": _apply(db_path, first[0]),
        "title": first[1],
        "other": _apply(db_path, second[0]),
    }


def _base(confirmation: str) -> str:
    return f"/f/job-application/confirmation/{confirmation}"


def test_the_confirmation_page_names_the_position_and_offers_to_withdraw(signed_in, applied):
    page = signed_in.get(_base(applied["confirmation"])).text
    assert applied["title"] in page and "Position" in page
    assert f'href="{_base(applied["confirmation"])}/withdraw"' in page


def test_withdrawing_asks_first_then_marks_only_that_application(signed_in, db_path, applied):
    base = _base(applied["confirmation"])
    assert "Yes, withdraw my application" in signed_in.get(base + "/withdraw").text
    assert _status(db_path, applied["confirmation"]) == "submitted"
    response = signed_in.post(base + "/withdraw")
    assert response.status_code == 302 and response.headers["Location"].endswith(base)
    assert _status(db_path, applied["confirmation"]) == "withdrawn"
    assert _status(db_path, applied["other"]) == "submitted"
    page = signed_in.get(base).text
    assert "Application withdrawn" in page and "Withdraw application" not in page
    assert "has been withdrawn" in page
    assert signed_in.post(base + "/withdraw").status_code == 404  # once only
    assert "Withdrawn" in signed_in.get("/account").text


def test_other_forms_and_other_accounts_cannot_be_withdrawn(client, app, signed_in, db_path):
    with sqlite3.connect(db_path) as db:
        numbers = [r[0] for r in db.execute("SELECT confirmation FROM submissions").fetchall()]
    for number in numbers:  # the seeded history: claims, expenses, appointments
        assert signed_in.post(f"{_base(number)}/withdraw").status_code == 404
        assert _status(db_path, number) != "withdrawn"


def test_withdrawing_needs_the_owners_sign_in_and_a_csrf_token(client, db_path, applied):
    base = _base(applied["confirmation"])
    assert "/login" in client.get(base + "/withdraw").headers["Location"]
    assert "/login" in client.post(base + "/withdraw").headers["Location"]
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE submissions SET user_id = (SELECT MAX(id) FROM users) WHERE confirmation = ?",
            (applied["other"],),
        )
    app = create_app({"DATABASE": str(db_path), "SECRET_KEY": "s", "NOW": NOW.isoformat()})
    guarded = app.test_client()
    with guarded.session_transaction() as session:
        session["user_id"] = 1
    assert guarded.post(_base(applied["other"]) + "/withdraw").status_code == 400
    page = guarded.get(base + "/withdraw").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert (
        guarded.post(_base(applied["other"]) + "/withdraw", data={"csrf_token": token}).status_code
        == 404
    )
    assert _status(db_path, applied["other"]) == "submitted"
    assert guarded.post(base + "/withdraw").status_code == 400
    assert guarded.post(base + "/withdraw", data={"csrf_token": token}).status_code == 302
    assert _status(db_path, applied["confirmation"]) == "withdrawn"

"""Rescheduling and cancelling a booked appointment from its confirmation page (test client)."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import timedelta

import pytest
from webenv.sites.forms import create_app
from webenv.sites.forms.bookings import BookingError, add_appointment

from .conftest import NOW


def _free_slots(db_path, office: str = "central") -> list[str]:
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT s.starts_at FROM slots s JOIN offices o ON o.id = s.office_id"
            " WHERE o.code = ? AND s.taken = 0 AND s.starts_at > ? AND s.starts_at < ?"
            " ORDER BY s.starts_at",
            (office, NOW.isoformat(), (NOW + timedelta(days=20)).isoformat()),
        )
        return [row[0] for row in rows]


def _book(db_path, starts_at: str, office: str = "central") -> str:
    values = {
        "service": "passport", "office": office, "appointment_date": starts_at[:10],
        "appointment_time": starts_at[11:16], "first_name": "Ada", "last_name": "Lane",
        "email": "ada@example.net", "phone": "+12025550123", "text_reminder": False,
        "notes": None,
    }  # fmt: skip
    return add_appointment(db_path, values, NOW - timedelta(days=2))[1]


def _state(db_path, confirmation: str) -> tuple[str, dict, list[str]]:
    with sqlite3.connect(db_path) as db:
        submission_id, status, data = db.execute(
            "SELECT id, status, data_json FROM submissions WHERE confirmation = ?",
            (confirmation,),
        ).fetchone()
        held = [
            row[0]
            for row in db.execute(
                "SELECT starts_at FROM slots WHERE submission_id = ? AND taken = 1",
                (submission_id,),
            )
        ]
    return status, json.loads(data), held


@pytest.fixture
def booked(db_path):
    """Two appointments at the Central office: the one the tests change, and another."""
    free = _free_slots(db_path)
    first, other = free[0], free[len(free) // 2]
    return {
        "confirmation": _book(db_path, first),
        "other": _book(db_path, other),
        "starts_at": first,
        "other_at": other,
    }


def _base(confirmation: str) -> str:
    return f"/f/appointment/confirmation/{confirmation}"


def test_add_appointment_takes_its_slot_and_refuses_a_taken_one(db_path, booked):
    status, data, held = _state(db_path, booked["confirmation"])
    assert status == "submitted" and held == [booked["starts_at"]]
    assert data["appointment_at"] == booked["starts_at"]
    with pytest.raises(BookingError):
        _book(db_path, booked["starts_at"])


def test_the_confirmation_page_offers_to_change_or_cancel_to_its_owner(signed_in, booked):
    page = signed_in.get(_base(booked["confirmation"])).text
    assert "Change or cancel" in page
    assert f'href="{_base(booked["confirmation"])}/reschedule"' in page
    assert f'href="{_base(booked["confirmation"])}/cancel"' in page


def test_past_appointments_offer_no_change(signed_in, db_path):
    with sqlite3.connect(db_path) as db:
        past = db.execute(
            "SELECT confirmation FROM submissions WHERE form_slug = 'appointment'"
        ).fetchall()
    assert past
    for (confirmation,) in past:
        assert "Change or cancel" not in signed_in.get(_base(confirmation)).text
        assert signed_in.get(_base(confirmation) + "/reschedule").status_code == 404
        assert signed_in.post(_base(confirmation) + "/cancel").status_code == 404


def test_rescheduling_moves_the_appointment_and_frees_its_old_time(signed_in, db_path, booked):
    base = _base(booked["confirmation"]) + "/reschedule"
    page = signed_in.get(base).text
    days = re.findall(r'<option value="(\d{4}-\d{2}-\d{2})"', page)
    assert days and "Confirm new time" not in page
    new = next(s for s in _free_slots(db_path) if s[:10] != booked["starts_at"][:10])
    page = signed_in.get(base, query_string={"day": new[:10]}).text
    assert f'value="{new[11:16]}"' in page and "Confirm new time" in page

    response = signed_in.post(base, data={"day": new[:10], "time": new[11:16]})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(_base(booked["confirmation"]))
    status, data, held = _state(db_path, booked["confirmation"])
    assert status == "submitted" and held == [new]
    assert (data["appointment_date"], data["appointment_time"]) == (new[:10], new[11:16])
    assert data["appointment_at"] == new
    assert booked["starts_at"] in _free_slots(db_path)
    assert _state(db_path, booked["other"])[2] == [booked["other_at"]]
    page = signed_in.get(_base(booked["confirmation"])).text
    assert "Your appointment has been moved to" in page


@pytest.mark.parametrize(
    ("which", "message"),
    [
        ("taken", "That time is no longer available"),
        ("none", "Choose a new time for your appointment"),
        ("same", "Choose a different time"),
        ("no day", "Choose a day with free times"),
    ],
)
def test_rescheduling_refuses_a_time_that_is_not_free(signed_in, db_path, booked, which, message):
    other = booked["other_at"]
    data = {
        "taken": {"day": other[:10], "time": other[11:16]},
        "none": {"day": other[:10]},
        "same": {"day": booked["starts_at"][:10], "time": booked["starts_at"][11:16]},
        "no day": {"day": "2020-01-01", "time": "09:00"},
    }[which]
    if which == "same":  # the day's other times must be free for the day to be offered
        assert booked["starts_at"][:10] in {s[:10] for s in _free_slots(db_path)}
    response = signed_in.post(_base(booked["confirmation"]) + "/reschedule", data=data)
    assert response.status_code == 422
    assert message in response.text
    assert _state(db_path, booked["confirmation"])[2] == [booked["starts_at"]]
    assert _state(db_path, booked["other"])[2] == [other]


def test_cancelling_asks_first_then_frees_the_time(signed_in, db_path, booked):
    base = _base(booked["confirmation"])
    assert "Yes, cancel this appointment" in signed_in.get(base + "/cancel").text
    assert _state(db_path, booked["confirmation"])[0] == "submitted"
    response = signed_in.post(base + "/cancel")
    assert response.status_code == 302
    status, _data, held = _state(db_path, booked["confirmation"])
    assert status == "cancelled" and held == []
    assert booked["starts_at"] in _free_slots(db_path)
    assert _state(db_path, booked["other"])[:3:2] == ("submitted", [booked["other_at"]])
    page = signed_in.get(base).text
    assert "Appointment cancelled" in page and "Change or cancel" not in page
    assert signed_in.get(base + "/reschedule").status_code == 404
    assert "Cancelled" in signed_in.get("/account").text


def test_changing_needs_the_owners_sign_in(client, app, db_path, booked):
    base = _base(booked["confirmation"])
    for path in ("/reschedule", "/cancel"):
        assert "/login" in client.get(base + path).headers["Location"]
        assert "/login" in client.post(base + path).headers["Location"]
    with sqlite3.connect(db_path) as db:
        db.execute(
            "UPDATE submissions SET user_id = (SELECT MAX(id) FROM users) WHERE confirmation = ?",
            (booked["confirmation"],),
        )
    other = app.test_client()
    with other.session_transaction() as session:
        session["user_id"] = 1
    assert other.get(base + "/reschedule").status_code == 404
    assert other.post(base + "/cancel").status_code == 404
    assert _state(db_path, booked["confirmation"])[0] == "submitted"


def test_changes_without_a_csrf_token_are_refused(db_path, booked):
    app = create_app({"DATABASE": str(db_path), "SECRET_KEY": "s", "NOW": NOW.isoformat()})
    client = app.test_client()
    with client.session_transaction() as session:
        session["user_id"] = 1
    base = _base(booked["confirmation"])
    assert client.post(base + "/cancel").status_code == 400
    new = _free_slots(db_path)[1]
    assert (
        client.post(base + "/reschedule", data={"day": new[:10], "time": new[11:16]}).status_code
        == 400
    )
    assert _state(db_path, booked["confirmation"])[:3:2] == ("submitted", [booked["starts_at"]])
    page = client.get(base + "/cancel").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    assert client.post(base + "/cancel", data={"csrf_token": token}).status_code == 302
    assert _state(db_path, booked["confirmation"])[0] == "cancelled"

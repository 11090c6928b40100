"""Book an appointment: a calendar of free days, free times, and the slot it takes."""

from __future__ import annotations

import re

import pytest

SLUG = "appointment"
CONTACT = {
    "first_name": "Lee",
    "last_name": "Park",
    "email": "lee@example.org",
    "phone": "+44 20 7946 0958",
    "text_reminder": "yes",
    "notes": "",
}


@pytest.fixture
def office(query):
    return query("SELECT * FROM offices ORDER BY code LIMIT 1")[0]


def free_slot(query, office_id: int):
    return query(
        "SELECT * FROM slots WHERE office_id = ? AND taken = 0 AND starts_at > ?"
        " ORDER BY starts_at LIMIT 1",
        office_id,
        "2026-05-14T09:30:00",
    )[0]


def test_booking_takes_the_chosen_slot(walker, office, query, helpers):
    slot = free_slot(query, office["id"])
    day, hhmm = slot["starts_at"][:10], slot["starts_at"][11:16]
    walker.fill(
        SLUG,
        [
            ("service", {"service": "passport", "office": office["code"]}),
            ("date", {"appointment_date": day}),
            ("time", {"appointment_time": hhmm}),
            ("details", CONTACT),
        ],
    )
    stored = helpers.submission(query, walker.submit(SLUG))
    values = stored["data"]
    assert values["appointment_at"] == slot["starts_at"]
    assert values["office"] == office["code"] and values["service"] == "passport"
    assert values["phone"] == "+442079460958" and values["text_reminder"] is True
    taken = query("SELECT taken, submission_id FROM slots WHERE id = ?", slot["id"])[0]
    assert tuple(taken) == (1, stored["id"])


def test_the_calendar_disables_full_days_and_the_times_disable_taken_slots(walker, office, query):
    walker.post_step(SLUG, "service", {"service": "passport", "office": office["code"]})
    calendar = walker.client.get(f"/f/{SLUG}/date").text
    full = query(
        "SELECT substr(starts_at, 1, 10) AS day FROM slots WHERE office_id = ?"
        " AND starts_at > '2026-05-14T09:30:00' GROUP BY day HAVING SUM(taken = 0) = 0",
        office["id"],
    )
    assert full, "each office has a fully booked day"
    assert re.search(rf'value="{full[0]["day"]}"\s+disabled', calendar)
    assert "Fully booked" in calendar

    taken = query(
        "SELECT starts_at FROM slots WHERE office_id = ? AND taken = 1"
        " AND starts_at > '2026-05-14T09:30:00' ORDER BY starts_at",
        office["id"],
    )[0][0]
    walker.post_step(SLUG, "date", {"appointment_date": taken[:10]})
    times = walker.client.get(f"/f/{SLUG}/time").text
    assert re.search(rf'value="{taken[11:16]}"\s+disabled', times)


def test_a_taken_or_past_time_cannot_be_booked(walker, office, query, helpers):
    taken = query(
        "SELECT starts_at FROM slots WHERE office_id = ? AND taken = 1"
        " AND starts_at > '2026-05-14T09:30:00' ORDER BY starts_at",
        office["id"],
    )[0][0]
    walker.post_step(SLUG, "service", {"service": "passport", "office": office["code"]})
    walker.post_step(SLUG, "date", {"appointment_date": taken[:10]})
    response = walker.post_step(SLUG, "time", {"appointment_time": taken[11:16]})
    assert response.status_code == 422
    assert helpers.errors_of(response)[0].endswith(
        "is not available. Select a time for your appointment"
    )
    past = walker.post_step(SLUG, "date", {"appointment_date": "2026-05-13"})
    assert helpers.errors_of(past) == ["Select a day for your appointment"]


def test_a_slot_booked_meanwhile_sends_the_applicant_back_to_choose_a_time(
    walker, office, query, db_path
):
    import sqlite3

    past = query("SELECT count(*) FROM submissions WHERE form_slug = ?", SLUG)[0][0]
    slot = free_slot(query, office["id"])
    walker.fill(
        SLUG,
        [
            ("service", {"service": "id-card", "office": office["code"]}),
            ("date", {"appointment_date": slot["starts_at"][:10]}),
            ("time", {"appointment_time": slot["starts_at"][11:16]}),
            ("details", CONTACT),
        ],
    )
    with sqlite3.connect(db_path) as connection:
        connection.execute("UPDATE slots SET taken = 1 WHERE id = ?", (slot["id"],))
    response = walker.client.post(f"/f/{SLUG}/review")
    assert response.status_code == 302 and response.location.endswith(f"/f/{SLUG}/time")
    assert query("SELECT count(*) FROM submissions WHERE form_slug = ?", SLUG)[0][0] == past

"""Travel expenses: line items added and removed with plain posts, the total, the limits."""

from __future__ import annotations

SLUG = "travel-expenses"
TRIP = {
    "trip_purpose": "Transit summit",
    "destination": "Denver, CO",
    "departure_date": "2026-05-04",
    "return_date": "2026-05-06",
    "cost_center": "CC-310",
}
ITEMS = {
    "items-rows": "2",
    "items-0-date": "2026-05-04",
    "items-0-category": "airfare",
    "items-0-description": "Flight",
    "items-0-amount": "412.30",
    "items-1-date": "2026-05-05",
    "items-1-category": "meals",
    "items-1-description": "Lunch",
    "items-1-amount": "$18",
}


def test_an_expense_report_stores_its_line_items_and_total(signed_in_walker, query, helpers):
    walker = signed_in_walker
    walker.client.post(f"/f/{SLUG}/restart")
    walker.fill(
        SLUG,
        [
            ("trip", TRIP),
            ("expenses", ITEMS),
            ("receipts", {"receipts": helpers.upload("flight.pdf"), "notes": ""}),
        ],
    )
    values = helpers.submission(query, walker.submit(SLUG))["data"]
    assert values["items"] == [
        {"date": "2026-05-04", "category": "airfare", "description": "Flight", "amount": 41230},
        {"date": "2026-05-05", "category": "meals", "description": "Lunch", "amount": 1800},
    ]
    assert values["total_cents"] == 43030
    assert values["departure_date"] == "2026-05-04" and values["cost_center"] == "CC-310"
    assert values["notes"] is None


def test_the_total_is_shown_and_rows_are_added_and_removed(signed_in_walker):
    walker = signed_in_walker
    walker.client.post(f"/f/{SLUG}/restart")
    page = walker.post_step(SLUG, "expenses", {**ITEMS, "action": "add-row"})
    assert "$430.30" in page.text and 'name="items-2-amount"' in page.text
    assert "Add line item" in page.text
    page = walker.post_step(SLUG, "expenses", {**ITEMS, "action": "remove-row:1"})
    assert "$412.30" in page.text and 'name="items-1-amount"' not in page.text


def test_line_items_must_fall_within_the_trip_and_under_the_limits(signed_in_walker, helpers):
    walker = signed_in_walker
    walker.client.post(f"/f/{SLUG}/restart")
    walker.post_step(SLUG, "trip", TRIP)
    response = walker.post_step(
        SLUG, "expenses", {**ITEMS, "items-0-date": "2026-05-09", "items-1-amount": "95.00"}
    )
    assert helpers.errors_of(response) == [
        "Date must be during the trip, from Monday 4 May 2026 to Wednesday 6 May 2026",
        # (the limit itself is the help centre's to say: not to be read off this error)
        "Meals expenses are over the limit per item: see the travel expense limits in the "
        "help centre",
    ]


def test_a_return_before_departure_is_refused(signed_in_walker, helpers):
    response = signed_in_walker.post_step(SLUG, "trip", {**TRIP, "return_date": "2026-05-01"})
    assert helpers.errors_of(response) == ["Return date must be on or after the departure date"]


def test_the_seeded_draft_resumes_with_its_line_items(signed_in, query):
    code = query("SELECT resume_code FROM drafts WHERE form_slug = ?", SLUG)[0][0]
    response = signed_in.get(f"/resume/{code.lower().replace('-', ' ')}")
    assert response.status_code == 302 and response.location.endswith(f"/f/{SLUG}/receipts")
    page = signed_in.get(f"/f/{SLUG}/expenses")
    assert 'value="Conference pass"' in page.text and 'value="Hotel"' in page.text

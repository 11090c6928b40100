"""Make an insurance claim: sign-in, conditional vehicle/property sections, photos."""

from __future__ import annotations

import pytest

SLUG = "insurance-claim"


@pytest.fixture
def policies(query) -> dict[str, str]:
    """The persona's current policy number of each kind."""
    rows = query(
        "SELECT kind, policy_number FROM policies WHERE user_id = 1"
        " AND ends_on >= '2026-05-14' ORDER BY kind"
    )
    return {row["kind"]: row["policy_number"] for row in rows}


def incident(policy: str, claim_type: str) -> dict:
    return {
        "policy": policy,
        "claim_type": claim_type,
        "incident_date": "2026-05-10",
        "incident_time": "18:45",
        "incident_location": "Corner of 5th and Main",
        "description": "Hail dented the roof.",
    }


COST = {"estimated_amount": "1,250.5"}


def test_claims_need_signing_in(client):
    response = client.get(f"/f/{SLUG}/incident")
    assert response.status_code == 302
    assert response.location.startswith("/login?next=/f/insurance-claim/incident")


def test_a_vehicle_claim_asks_about_the_vehicle_only(signed_in_walker, policies, query, helpers):
    walker = signed_in_walker
    walker.fill(
        SLUG,
        [
            ("incident", incident(policies["vehicle"], "vehicle")),
            (
                "vehicle",
                {
                    "vehicle_drivable": "no",
                    "other_vehicle_involved": "no",
                    "police_report": "PR-2231",
                },
            ),
            ("cost-and-photos", {**COST, "photos": helpers.upload("dent.jpg", b"\xff\xd8jpeg")}),
        ],
    )
    assert walker.client.get(f"/f/{SLUG}/property").location.endswith("/cost-and-photos")
    data = helpers.submission(query, walker.submit(SLUG))
    assert data["user_id"] == 1
    values = data["data"]
    assert values["claim_type"] == "vehicle" and values["policy"] == policies["vehicle"]
    assert values["incident_date"] == "2026-05-10" and values["incident_time"] == "18:45"
    assert values["vehicle_drivable"] == "no" and values["police_report"] == "PR-2231"
    assert values["other_driver"] is None
    assert values["estimated_amount"] == 125050
    assert [photo["filename"] for photo in values["photos"]] == ["dent.jpg"]
    assert "damage_cause" not in values and "rooms_affected" not in values


def test_switching_to_a_property_claim_asks_the_property_questions(
    signed_in_walker, policies, query, helpers
):
    walker = signed_in_walker
    walker.post_step(SLUG, "incident", incident(policies["vehicle"], "vehicle"))
    walker.post_step(SLUG, "vehicle", {"vehicle_drivable": "yes", "other_vehicle_involved": "no"})
    response = walker.post_step(SLUG, "incident", incident(policies["property"], "property"))
    assert response.location.endswith(f"/f/{SLUG}/property")
    walker.fill(
        SLUG,
        [
            ("property", {"damage_cause": "storm", "rooms_affected": "2", "home_habitable": "yes"}),
            ("cost-and-photos", {**COST, "photos": helpers.upload("roof.png", b"\x89PNG")}),
        ],
    )
    values = helpers.submission(query, walker.submit(SLUG))["data"]
    assert values["damage_cause"] == "storm" and values["rooms_affected"] == 2
    assert "vehicle_drivable" not in values


def test_several_photos_can_be_uploaded_to_one_claim(signed_in_walker, helpers, query):
    for name in ("front.jpg", "back.jpg"):
        signed_in_walker.post_step(
            SLUG, "cost-and-photos", {**COST, "photos": helpers.upload(name)}
        )
    rows = query("SELECT filename FROM uploads WHERE field = 'photos' ORDER BY id")
    assert [r["filename"] for r in rows] == ["front.jpg", "back.jpg"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"claim_type": "property"}, "Select a policy that covers a home for this claim"),
        ({"incident_date": "2026-05-20"}, "Date of the incident must be today or in the past"),
        ({"incident_date": "2024-01-01"}, "Date of the incident must be within the last year"),
        (
            {"incident_date": "31/31/2026"},
            "Date of the incident must be a real date, like 2026-03-27",
        ),
        (
            {"incident_time": "25:00"},
            "Time of the incident must be a real time in 24-hour format, like 14:30",
        ),
        ({"policy": "AU-0000000"}, "Select the policy you are claiming on"),
        ({"description": "x" * 3001}, "Describe what happened must be 3,000 characters or fewer"),
    ],
)
def test_incident_answers_are_checked(signed_in_walker, policies, helpers, change, message):
    response = signed_in_walker.post_step(
        SLUG, "incident", {**incident(policies["vehicle"], "vehicle"), **change}
    )
    assert response.status_code == 422
    assert helpers.errors_of(response) == [message]


def test_an_incident_outside_the_policy_period_is_refused(signed_in_walker, query, helpers):
    lapsed = query("SELECT * FROM policies WHERE ends_on < '2026-05-14'")[0]
    response = signed_in_walker.post_step(
        SLUG, "incident", {**incident(lapsed["policy_number"], "vehicle")}
    )
    assert helpers.errors_of(response)[0].startswith(
        "Incident date must be while the policy was active"
    )


def test_the_claim_start_page_asks_visitors_to_sign_in_first(client):
    page = client.get(f"/f/{SLUG}")
    assert "Sign in to start" in page.text and "Start now" not in page.text

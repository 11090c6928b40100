"""Save and continue later: resume codes, the account's lists, and who may resume what."""

from __future__ import annotations

import re

SLUG = "job-application"


def saved_code(walker, answers: dict) -> str:
    response = walker.post_step(SLUG, "position", {**answers, "action": "save"})
    assert response.status_code == 302 and response.location.endswith(f"/f/{SLUG}/saved")
    page = walker.client.get(response.location).text
    return re.search(r'class="confirmation-number"><strong>([A-Z0-9-]+)<', page).group(1)


def test_saving_keeps_invalid_answers_and_gives_a_resume_code(walker, app, query):
    code = saved_code(
        walker, {"opening": "", "salary_expectation": "lots", "work_arrangement": "remote"}
    )
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    draft = query("SELECT * FROM drafts WHERE resume_code = ?", code)[0]
    assert draft["status"] == "saved" and draft["user_id"] is None

    other_browser = app.test_client()
    response = other_browser.post("/resume", data={"code": code.lower()})
    assert response.location.endswith(f"/f/{SLUG}/position")
    page = other_browser.get(response.location).text
    assert 'value="lots"' in page and 'value="remote"\n               checked' in page


def test_a_wrong_resume_code_is_explained(client, helpers):
    response = client.post("/resume", data={"code": "ZZZZ-ZZZZ"})
    assert response.status_code == 422
    assert helpers.errors_of(response) == [
        "We could not find a saved form with that code. Check the code and try again"
    ]
    assert helpers.errors_of(client.post("/resume", data={"code": " "})) == [
        "Enter your resume code"
    ]


def test_the_account_lists_saved_drafts_and_past_submissions(signed_in, query):
    page = signed_in.get("/account").text
    for row in query("SELECT resume_code FROM drafts WHERE user_id = 1"):
        assert row["resume_code"] in page
    for row in query("SELECT confirmation FROM submissions WHERE user_id = 1"):
        assert row["confirmation"] in page
    assert "Paid" in page and "Closed" in page


def test_the_account_shows_the_phone_the_forms_fill_in(signed_in, persona):
    # A step filled in from an old draft (stale.old_draft) may hold a number the user no
    # longer has: the account is where the portal shows the one it knows.
    digits = "".join(c for c in persona.phone if c.isdigit())[-10:]
    shown = f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"
    page = signed_in.get("/account").text
    assert f"<dt>Phone</dt><dd>{shown}</dd>" in page


def test_an_accounts_draft_cannot_be_resumed_without_signing_in(client, query):
    code = query("SELECT resume_code FROM drafts WHERE user_id = 1 LIMIT 1")[0][0]
    response = client.get(f"/resume/{code}")
    assert response.status_code == 302 and response.location.startswith("/login?next=")


def test_signing_in_claims_the_draft_started_anonymously(walker, persona, query):
    saved_code(walker, {"work_arrangement": "remote"})
    walker.client.post("/login", data={"username": persona.username, "password": persona.password})
    assert query("SELECT count(*) FROM drafts WHERE user_id IS NULL")[0][0] == 0


def test_starting_again_forgets_the_draft(walker):
    walker.post_step(SLUG, "position", {"work_arrangement": "remote"})
    walker.client.post(f"/f/{SLUG}/restart")
    assert "checked" not in walker.client.get(f"/f/{SLUG}/position").text


def test_review_sends_unfinished_forms_back_to_the_missing_step(walker):
    walker.post_step(SLUG, "position", {"work_arrangement": "remote"})
    response = walker.client.get(f"/f/{SLUG}/review")
    assert response.location.endswith(f"/f/{SLUG}/position")
    assert walker.client.get("/f/appointment/review").location.endswith("/f/appointment")


def test_a_submission_is_only_shown_to_its_browser_or_account(walker, client, signed_in, query):
    confirmation = query("SELECT confirmation FROM submissions WHERE user_id = 1 LIMIT 1")[0][0]
    slug = query("SELECT form_slug FROM submissions WHERE confirmation = ?", confirmation)[0][0]
    assert client.get(f"/f/{slug}/confirmation/{confirmation}").status_code == 404
    assert signed_in.get(f"/f/{slug}/confirmation/{confirmation}").status_code == 200

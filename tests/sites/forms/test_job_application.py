"""Apply for a job: the whole path, repeated experience rows, and the CV upload."""

from __future__ import annotations

import hashlib

import pytest

SLUG = "job-application"


@pytest.fixture
def opening(query) -> str:
    return query("SELECT reference FROM job_openings WHERE closes_on >= '2026-05-14' LIMIT 1")[0][0]


def position(opening: str) -> dict:
    return {
        "opening": opening,
        "available_from": "2026-06-01",
        "salary_expectation": "$72,500",
        "work_arrangement": "hybrid",
    }


PERSON = {
    "first_name": "Ada",
    "last_name": "Quinn",
    "email": "Ada.Quinn@Example.com",
    "phone": "(415) 555-0142",
    "right_to_work": "yes",
}
JOBS = {
    "jobs-rows": "2",
    "jobs-0-employer": "Harbor Logistics",
    "jobs-0-job_title": "Analyst",
    "jobs-0-start_date": "2021-03-01",
    "jobs-0-end_date": "",
    "jobs-1-employer": "Bayview Bank",
    "jobs-1-job_title": "Clerk",
    "jobs-1-start_date": "2017-09-04",
    "jobs-1-end_date": "2021-02-26",
}


def test_applying_stores_every_field_and_the_cv(walker, opening, query, helpers):
    cv = b"%PDF-1.4 Ada Quinn curriculum vitae"
    walker.fill(
        SLUG,
        [
            ("position", position(opening)),
            ("personal-details", PERSON),
            ("experience", JOBS),
            ("documents", {"cv": helpers.upload("ada-cv.pdf", cv), "cover_letter": "I love maps."}),
        ],
    )
    confirmation = walker.submit(SLUG)

    stored = helpers.submission(query, confirmation)
    assert confirmation.startswith("JOB-") and stored["user_id"] is None
    assert stored["status"] == "submitted" and stored["submitted_at"] == "2026-05-14T09:30:00"
    data = stored["data"]
    assert data["opening"] == opening
    assert data["available_from"] == "2026-06-01"
    assert data["salary_expectation"] == 7250000
    assert data["work_arrangement"] == "hybrid"
    assert data["email"] == "ada.quinn@example.com" and data["phone"] == "+14155550142"
    assert data["right_to_work"] == "yes"
    assert data["jobs"] == [
        {
            "employer": "Harbor Logistics",
            "job_title": "Analyst",
            "start_date": "2021-03-01",
            "end_date": None,
        },
        {
            "employer": "Bayview Bank",
            "job_title": "Clerk",
            "start_date": "2017-09-04",
            "end_date": "2021-02-26",
        },
    ]
    assert data["cover_letter"] == "I love maps."
    assert data["cv"] == [
        {
            "filename": "ada-cv.pdf",
            "content_type": "application/pdf",
            "size": len(cv),
            "sha256": hashlib.sha256(cv).hexdigest(),
        }
    ]
    files = query("SELECT * FROM uploads WHERE submission_id = ?", stored["id"])
    assert [(f["field"], f["content"], f["draft_id"]) for f in files] == [("cv", cv, None)]


def test_confirmation_number_is_derived_from_the_stored_submission(walker, opening, query, helpers):
    from webenv.sites.forms.definitions import FORMS
    from webenv.sites.forms.submissions import confirmation_number

    walker.fill(
        SLUG,
        [
            ("position", position(opening)),
            ("personal-details", PERSON),
            ("experience", JOBS),
            ("documents", {"cv": helpers.upload("cv.txt")}),
        ],
    )
    confirmation = walker.submit(SLUG)
    row = helpers.submission(query, confirmation)
    assert confirmation == confirmation_number(FORMS[SLUG], row["id"], row["data_json"])


def test_adding_and_removing_rows_keeps_the_other_rows(walker):
    walker.post_step(SLUG, "experience", JOBS)
    added = walker.post_step(SLUG, "experience", {**JOBS, "action": "add-row"})
    assert added.status_code == 200
    assert 'name="jobs-2-employer"' in added.text and "Job 3" in added.text
    assert "Remove job 3" in added.text.replace('<span class="visually-hidden"> ', " ")

    removed = walker.post_step(
        SLUG, "experience", {**JOBS, "jobs-rows": "3", "action": "remove-row:0"}
    )
    assert removed.status_code == 200
    assert 'value="Bayview Bank"' in removed.text and "Harbor Logistics" not in removed.text
    assert 'name="jobs-rows" value="2"' in removed.text


def test_blank_extra_rows_are_ignored_but_a_first_job_is_required(walker, helpers):
    response = walker.post_step(SLUG, "experience", {"jobs-rows": "2"})
    assert response.status_code == 422
    assert helpers.errors_of(response) == ["Add at least 1 job"]
    accepted = walker.post_step(SLUG, "experience", {**JOBS, "jobs-rows": "3"})
    assert accepted.status_code == 302


def test_an_end_date_before_the_start_date_is_refused_on_its_row(walker, helpers):
    response = walker.post_step(SLUG, "experience", {**JOBS, "jobs-1-end_date": "2016-01-01"})
    assert helpers.errors_of(response) == ["End date must be after the start date"]
    assert 'href="#field-jobs-1-end_date"' in response.text


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("cv.exe", b"MZ", "cv.exe must be a PDF, DOC, DOCX, ODT, RTF or TXT file"),
        ("cv.pdf", b"", "cv.pdf is empty"),
        ("cv.pdf", b"x" * (5 * 1024 * 1024 + 1), "cv.pdf must be smaller than 5 MB"),
    ],
)
def test_unacceptable_cv_files_are_refused_with_a_reason(
    walker, helpers, query, filename, content, message
):
    response = walker.post_step(SLUG, "documents", {"cv": helpers.upload(filename, content)})
    assert response.status_code == 422
    assert message in helpers.errors_of(response)
    assert query("SELECT count(*) FROM uploads WHERE draft_id IS NOT NULL")[0][0] == 0


def test_a_new_cv_replaces_the_old_one_and_can_be_removed(walker, helpers, query):
    walker.post_step(SLUG, "documents", {"cv": helpers.upload("first.pdf")})
    walker.post_step(SLUG, "documents", {"cv": helpers.upload("second.pdf")})
    names = [
        r["filename"] for r in query("SELECT filename FROM uploads WHERE draft_id IS NOT NULL")
    ]
    assert names == ["second.pdf"]
    upload_id = query("SELECT id FROM uploads WHERE filename = 'second.pdf'")[0][0]
    page = walker.post_step(SLUG, "documents", {"action": f"remove-file:{upload_id}"})
    assert page.status_code == 200 and "second.pdf" not in page.text
    assert query("SELECT count(*) FROM uploads")[0][0] == 0


def test_closed_openings_cannot_be_chosen(walker, query, helpers):
    closed = query("SELECT reference FROM job_openings WHERE closes_on < '2026-05-14'")
    assert closed
    page = walker.client.get(f"/f/{SLUG}/position")
    assert closed[0][0] not in page.text
    response = walker.post_step(SLUG, "position", position(closed[0][0]))
    assert helpers.errors_of(response) == ["Select the job you are applying for"]

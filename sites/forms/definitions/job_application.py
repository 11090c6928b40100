"""Apply for a job: the opening, personal details, past jobs as repeated rows, CV and letter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..fields import Choice, Field, FormContext, FormSpec, Group, Step
from ..values import format_date, format_money
from ..wizard import field_id
from .rules import YES_NO, date_window, person_fields

DOCUMENT_TYPES = ("pdf", "doc", "docx", "odt", "rtf", "txt")


def open_jobs(ctx: FormContext) -> list[Choice]:
    """The openings that have not closed yet."""
    rows = ctx.db.execute(
        "SELECT * FROM job_openings WHERE closes_on >= ? ORDER BY title",
        (ctx.now.date().isoformat(),),
    )
    return [
        Choice(
            row["reference"],
            f"{row['title']} – {row['department']} ({row['reference']})",
            hint=(
                f"{row['location']} · {format_money(row['salary_min_cents'])}–"
                f"{format_money(row['salary_max_cents'])} a year · closes "
                f"{format_date(row['closes_on'])}"
            ),
        )
        for row in rows
    ]


def application_highlights(values: Mapping[str, Any], ctx: FormContext) -> list[tuple[str, str]]:
    """The position applied for, as the confirmation page and e-mail name it."""
    row = ctx.db.execute(
        "SELECT * FROM job_openings WHERE reference = ?", (values.get("opening"),)
    ).fetchone()
    if row is None:
        return []
    return [("Position", f"{row['title']} ({row['reference']})"), ("Department", row["department"])]


def end_after_start(values: Mapping[str, Any], _ctx: FormContext) -> dict[str, str]:
    errors = {}
    for index, job in enumerate(values.get("jobs", [])):
        if job.get("end_date") and job["end_date"] < job["start_date"]:
            errors[field_id("end_date", index, "jobs")] = "End date must be after the start date"
    return errors


FORM = FormSpec(
    slug="job-application",
    code="JOB",
    title="Apply for a job",
    summary="Apply for an open position with the city: tell us about yourself and your "
    "experience, and upload your CV.",
    minutes=20,
    submit_label="Submit application",
    done_title="Application submitted",
    you_need=(
        "the job you want to apply for",
        "the names and dates of your previous jobs",
        "your CV or résumé as a PDF, Word or text file (up to 5 MB)",
    ),
    next_steps="Our recruitment team reviews every application after the closing date. "
    "If you are shortlisted, we will contact you by email to arrange an interview.",
    email_field="email",
    highlights=application_highlights,
    steps=(
        Step(
            "position",
            "Which job are you applying for?",
            fields=(
                Field("opening", "Job opening", kind="select", choices=open_jobs,
                      missing="Select the job you are applying for"),
                Field("available_from", "Earliest start date", kind="date", width="w-short",
                      missing="Enter your earliest start date",
                      hint="The first day you could start work.",
                      validators=(date_window(0, 365, "Earliest start date must be today or "
                                  "in the future", "Earliest start date must be within a year"),)),
                Field("salary_expectation", "Expected annual salary (optional)", kind="money",
                      required=False, width="w-short", minimum=100000, maximum=100000000),
                Field("work_arrangement", "How would you prefer to work?", kind="radio",
                      choices=(Choice("on-site", "On site"), Choice("hybrid", "Hybrid"),
                               Choice("remote", "Remote")),
                      missing="Select how you would prefer to work"),
            ),
        ),
        Step(
            "personal-details",
            "Your details",
            fields=(
                *person_fields(),
                Field("right_to_work", "Do you have the right to work in the United States?",
                      kind="radio", choices=YES_NO,
                      missing="Select yes if you have the right to work in the United States"),
            ),
        ),
        Step(
            "experience",
            "Your work experience",
            intro="List your jobs, most recent first. Add a row for each job.",
            group=Group(
                "jobs",
                "Job",
                add_label="Add another job",
                max_rows=8,
                fields=(
                    Field("employer", "Employer", missing="Enter the employer's name"),
                    Field("job_title", "Job title", width="w-medium",
                          missing="Enter your job title"),
                    Field("start_date", "Start date", kind="date", width="w-short",
                          missing="Enter the start date",
                          validators=(date_window(365 * 60, 0, "Start date is too long ago",
                                                  "Start date must be in the past"),)),
                    Field("end_date", "End date (optional)", kind="date", width="w-short",
                          required=False, hint="Leave blank if you still work there.",
                          validators=(date_window(365 * 60, 0, "End date is too long ago",
                                                  "End date must be in the past"),)),
                ),
            ),
            check=end_after_start,
        ),
        Step(
            "documents",
            "Your CV and cover letter",
            fields=(
                Field("cv", "CV or résumé", kind="file", accept=DOCUMENT_TYPES,
                      hint="PDF, Word, OpenDocument, RTF or text file, up to 5 MB.",
                      missing="Upload your CV or résumé"),
                Field("cover_letter", "Cover letter (optional)", kind="textarea",
                      required=False, max_length=5000,
                      hint="Tell us why you want this job, in up to 5,000 characters."),
            ),
        ),
    ),
)  # fmt: skip

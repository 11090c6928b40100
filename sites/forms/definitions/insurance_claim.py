"""Make an insurance claim on one of the applicant's policies, vehicle or property."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..fields import Answers, Choice, Field, FormContext, FormSpec, Step
from ..values import format_date
from ..wizard import field_id
from .rules import YES_NO, date_window

PHOTO_TYPES = ("jpg", "jpeg", "png", "heic", "pdf")
CLAIM_TYPES = (
    Choice("vehicle", "Damage to a vehicle", hint="A collision, theft or damage to your car."),
    Choice("property", "Damage to my home or belongings",
           hint="Water, fire, storm, theft or accidental damage at home."),
)  # fmt: skip
DAMAGE_CAUSES = tuple(
    Choice(code, name)
    for code, name in (
        ("water", "Water or flooding"),
        ("fire", "Fire or smoke"),
        ("storm", "Storm or wind"),
        ("theft", "Theft or break-in"),
        ("accident", "Accidental damage"),
        ("other", "Something else"),
    )
)


def my_policies(ctx: FormContext) -> list[Choice]:
    """The signed-in applicant's policies."""
    if ctx.user is None:
        return []
    rows = ctx.db.execute(
        "SELECT * FROM policies WHERE user_id = ? ORDER BY policy_number", (ctx.user["id"],)
    )
    return [Choice(r["policy_number"], f"{r['policy_number']} – {r['insured_item']}") for r in rows]


def policy_covers_incident(values: Mapping[str, Any], ctx: FormContext) -> dict[str, str]:
    """The policy must insure what the claim is about, on the day it happened."""
    policy = ctx.db.execute(
        "SELECT * FROM policies WHERE policy_number = ?", (values["policy"],)
    ).fetchone()
    if policy["kind"] != values["claim_type"]:
        wanted = "a vehicle" if values["claim_type"] == "vehicle" else "a home"
        return {field_id("policy"): f"Select a policy that covers {wanted} for this claim"}
    if not policy["starts_on"] <= values["incident_date"] <= policy["ends_on"]:
        return {
            field_id("incident_date"): "Incident date must be while the policy was active, "
            f"from {format_date(policy['starts_on'])} to {format_date(policy['ends_on'])}"
        }
    return {}


def is_claim_type(kind: str) -> Callable[[Answers], bool]:
    """The condition of the step that only applies to ``kind`` claims."""

    def applies(answers: Answers) -> bool:
        return answers.get("claim_type") == kind

    return applies


FORM = FormSpec(
    slug="insurance-claim",
    code="CLM",
    title="Make an insurance claim",
    summary="Claim on your vehicle or home insurance policy after an accident, theft or damage.",
    minutes=15,
    login_required=True,
    submit_label="Submit claim",
    done_title="Claim submitted",
    you_need=(
        "the date and time of the incident",
        "an estimate of the cost of repairs or replacement",
        "photos of the damage (JPEG, PNG, HEIC or PDF, up to 5 MB each)",
    ),
    next_steps="A claims handler will review your claim within 2 working days and contact you "
    "by email. Keep any damaged items until we have assessed your claim.",
    steps=(
        Step(
            "incident",
            "What happened?",
            fields=(
                Field("policy", "Policy", kind="select", choices=my_policies,
                      missing="Select the policy you are claiming on"),
                Field("claim_type", "What is the claim for?", kind="radio", choices=CLAIM_TYPES,
                      missing="Select what the claim is for"),
                Field("incident_date", "Date of the incident", kind="date", width="w-short",
                      missing="Enter the date of the incident",
                      validators=(date_window(365, 0, "Date of the incident must be within "
                                  "the last year", "Date of the incident must be today or in "
                                  "the past"),)),
                Field("incident_time", "Time of the incident", kind="time", width="w-short",
                      missing="Enter the time of the incident",
                      hint="Use the 24-hour clock, for example 14:30."),
                Field("incident_location", "Where did it happen?",
                      hint="An address or a description of the place.",
                      missing="Enter where the incident happened"),
                Field("description", "Describe what happened", kind="textarea",
                      max_length=3000, missing="Describe what happened"),
            ),
            check=policy_covers_incident,
        ),
        Step(
            "vehicle",
            "About the vehicle",
            when=is_claim_type("vehicle"),
            fields=(
                Field("vehicle_drivable", "Could the vehicle be driven after the incident?",
                      kind="radio", choices=YES_NO,
                      missing="Select yes if the vehicle could be driven"),
                Field("other_vehicle_involved", "Was another vehicle involved?", kind="radio",
                      choices=YES_NO, missing="Select yes if another vehicle was involved"),
                Field("other_driver", "Other driver's name and insurer (optional)",
                      required=False),
                Field("police_report", "Police report number (optional)", required=False,
                      width="w-medium"),
            ),
        ),
        Step(
            "property",
            "About the damage to your home",
            when=is_claim_type("property"),
            fields=(
                Field("damage_cause", "What caused the damage?", kind="select",
                      choices=DAMAGE_CAUSES, missing="Select what caused the damage"),
                Field("rooms_affected", "How many rooms are affected?", kind="number",
                      width="w-short", minimum=1, maximum=50,
                      missing="Enter how many rooms are affected"),
                Field("home_habitable", "Can you still live in your home?", kind="radio",
                      choices=YES_NO, missing="Select yes if you can still live in your home"),
            ),
        ),
        Step(
            "cost-and-photos",
            "Cost and photos",
            fields=(
                Field("estimated_amount", "Estimated cost", kind="money", width="w-short",
                      hint="In US dollars, for example 1250.00.", minimum=100,
                      maximum=100000000, missing="Enter the estimated cost"),
                Field("photos", "Photos of the damage", kind="file", multiple=True,
                      accept=PHOTO_TYPES, hint="Up to 5 files: JPEG, PNG, HEIC or PDF.",
                      missing="Upload at least one photo of the damage"),
            ),
        ),
    ),
)  # fmt: skip

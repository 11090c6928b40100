"""Report a change of address: current and new address, who moves, and confirmations."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from ..fields import Answers, Choice, Field, FormContext, FormSpec, Group, Step
from ..wizard import field_id
from .rules import address_fields, date_window

WHO_MOVES = (
    Choice("just-me", "Only me"),
    Choice("household", "Me and members of my household",
           hint="You will be asked for their names on the next page."),
    Choice("business", "My business", hint="A business registered at your current address."),
)  # fmt: skip
RELATIONSHIPS = tuple(
    Choice(code, name)
    for code, name in (
        ("partner", "Spouse or partner"),
        ("child", "Child"),
        ("parent", "Parent"),
        ("other", "Other relative or housemate"),
    )
)
ADDRESS_PARTS = ("street", "city", "state", "zip")
NEW_STREET, *NEW_TOWN = address_fields("new")


def new_address_differs(values: Mapping[str, Any], ctx: FormContext) -> dict[str, str]:
    old = [str(ctx.answers.get(f"old_{part}", "")).strip().lower() for part in ADDRESS_PARTS]
    new = [str(values[f"new_{part}"]).strip().lower() for part in ADDRESS_PARTS]
    if old == new:
        return {field_id("new_street"): "New address must be different from your current address"}
    return {}


def moves_household(answers: Answers) -> bool:
    return answers.get("who_moves") == "household"


def update_account_address(db: sqlite3.Connection, values: Mapping[str, Any],
                           _submission_id: int, ctx: FormContext) -> None:  # fmt: skip
    """The signed-in account now lives at the new address."""
    db.execute(
        "UPDATE users SET street = ?, street2 = ?, city = ?, state = ?, zip = ? WHERE id = ?",
        (
            values["new_street"], values["new_street2"] or "", values["new_city"],
            values["new_state"], values["new_zip"], ctx.user["id"],
        ),
    )  # fmt: skip


FORM = FormSpec(
    slug="change-of-address",
    code="COA",
    title="Report a change of address",
    summary="Tell us you have moved, so that letters, bills and voter records go to your "
    "new home.",
    minutes=8,
    login_required=True,
    submit_label="Submit change of address",
    done_title="Change of address submitted",
    you_need=("your new address and the date you move", "the names of anyone moving with you"),
    next_steps="We update your account straight away. Other departments are told within 5 "
    "working days.",
    on_submit=update_account_address,
    steps=(
        Step(
            "current-address",
            "Your current address",
            intro="This is the address we have for you. Correct it if it is wrong.",
            fields=address_fields("old", prefill_from_user=True),
        ),
        Step(
            "new-address",
            "Your new address",
            fields=(
                NEW_STREET,
                Field("new_street2", "Apartment, suite or unit (optional)", required=False,
                      width="w-medium", autocomplete="address-line2"),
                *NEW_TOWN,
                Field("move_date", "Date you move", kind="date", width="w-short",
                      missing="Enter the date you move",
                      hint="The date you start living at the new address.",
                      validators=(date_window(90, 90, "Date you move must be within the last "
                                  "90 days", "Date you move must be within the next 90 days"),)),
            ),
            check=new_address_differs,
        ),
        Step(
            "who-is-moving",
            "Who is moving?",
            fields=(
                Field("who_moves", "Who is moving to the new address?", kind="radio",
                      choices=WHO_MOVES, missing="Select who is moving"),
            ),
        ),
        Step(
            "household",
            "Who is moving with you?",
            intro="Add each member of your household who moves with you.",
            when=moves_household,
            group=Group(
                "members",
                "Household member",
                add_label="Add household member",
                max_rows=10,
                fields=(
                    Field("full_name", "Full name", missing="Enter the full name"),
                    Field("relationship", "Relationship to you", kind="select",
                          choices=RELATIONSHIPS, missing="Select the relationship to you"),
                    Field("date_of_birth", "Date of birth", kind="date", width="w-short",
                          missing="Enter their date of birth",
                          validators=(date_window(365 * 120, 0, "Date of birth must be a real "
                                      "date of birth", "Date of birth must be in the past"),)),
                ),
            ),
        ),
        Step(
            "confirm",
            "Check and confirm",
            fields=(
                Field("confirm_correct", "I confirm that my new address is correct",
                      kind="checkbox", missing="Confirm that your new address is correct"),
                Field("update_policies", "Also update the address on my insurance policies",
                      kind="checkbox", required=False),
                Field("forward_mail", "Forward my mail to my new address for 12 months",
                      kind="checkbox", required=False),
            ),
        ),
    ),
)  # fmt: skip

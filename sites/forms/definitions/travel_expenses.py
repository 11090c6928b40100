"""Claim back travel expenses: the trip, line items with a running total, and receipts."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from ..fields import Choice, Field, FormContext, FormSpec, Group, Step
from ..values import format_date, format_money, parse_date
from ..wizard import field_id
from .rules import date_window

RECEIPT_TYPES = ("pdf", "jpg", "jpeg", "png")
COST_CENTERS = tuple(
    Choice(code, f"{name} ({code})")
    for code, name in (
        ("CC-110", "City Manager's Office"),
        ("CC-220", "Finance"),
        ("CC-310", "Public Works"),
        ("CC-420", "Parks and Recreation"),
        ("CC-530", "Information Technology"),
        ("CC-640", "Community Development"),
    )
)


def expense_categories(ctx: FormContext) -> list[Choice]:
    rows = ctx.db.execute("SELECT * FROM expense_categories ORDER BY id")
    return [Choice(r["code"], r["name"]) for r in rows]


def return_after_departure(values: Mapping[str, Any], _ctx: FormContext) -> dict[str, str]:
    if values["return_date"] < values["departure_date"]:
        return {field_id("return_date"): "Return date must be on or after the departure date"}
    return {}


def items_within_trip_and_limits(values: Mapping[str, Any], ctx: FormContext) -> dict[str, str]:
    """Each expense falls within the trip and under its category's limit per item."""
    trip_start, trip_end = (
        parse_date(str(ctx.answers.get(name, "")).strip())
        for name in ("departure_date", "return_date")
    )
    limits = {
        r["code"]: (r["name"], r["limit_cents"])
        for r in ctx.db.execute("SELECT * FROM expense_categories")
    }
    errors = {}
    for index, item in enumerate(values.get("items", [])):
        if (
            trip_start
            and trip_end
            and not trip_start <= date.fromisoformat(item["date"]) <= trip_end
        ):
            errors[field_id("date", index, "items")] = (
                f"Date must be during the trip, from {format_date(trip_start.isoformat())} "
                f"to {format_date(trip_end.isoformat())}"
            )
        name, limit = limits[item["category"]]
        if limit is not None and item["amount"] > limit:
            # As a portal refers to its policy, not restating it: the limits are the help
            # centre's to say (a claim would otherwise read them off this error).
            errors[field_id("amount", index, "items")] = (
                f"{name} expenses are over the limit per item: see the travel expense limits "
                "in the help centre"
            )
    return errors


def total(values: Mapping[str, Any], _ctx: FormContext) -> dict[str, Any]:
    return {"total_cents": sum(item["amount"] for item in values.get("items", []))}


def total_highlight(values: Mapping[str, Any], _ctx: FormContext) -> list[tuple[str, str]]:
    trip = f"{values.get('trip_purpose', '')}, {values.get('destination', '')}"
    return [("Trip", trip), ("Total claimed", format_money(values.get("total_cents", 0)))]


FORM = FormSpec(
    slug="travel-expenses",
    code="EXP",
    title="Submit a travel expense report",
    summary="Claim back what you spent on a work trip: travel, lodging, meals and more.",
    minutes=10,
    login_required=True,
    submit_label="Submit expense report",
    done_title="Expense report submitted",
    you_need=(
        "the dates of your trip and its purpose",
        "each expense with its date, category and amount",
        "your receipts as PDF or photos (up to 5 MB each)",
    ),
    next_steps="Your manager will approve the report, then Finance reimburses approved "
    "expenses with your next paycheck.",
    derive=total,
    highlights=total_highlight,
    steps=(
        Step(
            "trip",
            "About your trip",
            fields=(
                Field("trip_purpose", "Purpose of the trip",
                      hint="For example, a conference or a site visit.",
                      missing="Enter the purpose of the trip"),
                Field("destination", "Destination", width="w-medium",
                      missing="Enter the destination"),
                Field("departure_date", "Departure date", kind="date", width="w-short",
                      missing="Enter the departure date",
                      validators=(date_window(365, 0, "Departure date must be within the last "
                                  "year", "Departure date must be today or in the past"),)),
                Field("return_date", "Return date", kind="date", width="w-short",
                      missing="Enter the return date",
                      validators=(date_window(365, 0, "Return date must be within the last "
                                  "year", "Return date must be today or in the past"),)),
                Field("cost_center", "Cost center", kind="select", choices=COST_CENTERS,
                      missing="Select the cost center to charge"),
            ),
            check=return_after_departure,
        ),
        Step(
            "expenses",
            "Your expenses",
            intro="Add a line item for each expense. The total updates as you go.",
            group=Group(
                "items",
                "Line item",
                add_label="Add line item",
                max_rows=20,
                fields=(
                    Field("date", "Date", kind="date", width="w-short",
                          missing="Enter the date of the expense"),
                    Field("category", "Category", kind="select", choices=expense_categories,
                          missing="Select the category of the expense"),
                    Field("description", "Description", missing="Enter a description"),
                    Field("amount", "Amount", kind="money", width="w-short", minimum=1,
                          maximum=10000000, missing="Enter the amount"),
                ),
            ),
            check=items_within_trip_and_limits,
        ),
        Step(
            "receipts",
            "Receipts",
            fields=(
                Field("receipts", "Receipts", kind="file", multiple=True, accept=RECEIPT_TYPES,
                      hint="Up to 5 files: PDF, JPEG or PNG.",
                      missing="Upload at least one receipt"),
                Field("notes", "Notes for your approver (optional)", kind="textarea",
                      required=False, max_length=2000),
            ),
        ),
    ),
)  # fmt: skip

"""Checking answers before submitting, submitting, and the confirmation page."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from ...common import Message
from ..db import get_db
from ..drafts import Draft, draft_uploads
from ..fields import Field, FormContext, FormSpec
from ..submissions import submit_draft
from ..values import display_value
from ..wizard import FormResult, validate_form
from .applications import withdraw_url
from .auth import login_redirect
from .bookings import confirmation_actions
from .progress import current_draft, forget_draft, form_context, remember_submission
from .steps import find_form, needs_login

bp = Blueprint("outcome", __name__, url_prefix="/f")


@dataclass
class ReviewSection:
    """One step's answers on the review page, with the link to change them."""

    title: str
    change_url: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    table_headings: list[str] = field(default_factory=list)
    table_rows: list[list[str]] = field(default_factory=list)
    table_name: str = ""


def shown(spec: Field, value: Any, ctx: FormContext) -> str:
    if spec.kind == "file":
        return ", ".join(f["filename"] for f in value or []) or "None"
    return display_value(spec, value, ctx)


def review_sections(
    form: FormSpec, values: dict[str, Any], ctx: FormContext
) -> list[ReviewSection]:
    """What the review page lists: one section per step that applies."""
    sections = []
    for step in form.applicable_steps(ctx.answers):
        section = ReviewSection(
            title=step.title,
            change_url=url_for(
                "form.step", slug=form.slug, step_slug=step.slug, **{"return": "review"}
            ),
            rows=[
                (spec.short_label, shown(spec, values.get(spec.name), ctx)) for spec in step.fields
            ],
        )
        if step.group:
            section.table_name = step.group.item_label
            section.table_headings = [spec.short_label for spec in step.group.fields]
            section.table_rows = [
                [shown(spec, row.get(spec.name), ctx) for spec in step.group.fields]
                for row in values.get(step.group.name, [])
            ]
        sections.append(section)
    return sections


def checked_draft(form: FormSpec) -> tuple[Draft | None, FormResult | None, FormContext | None]:
    draft = current_draft(form)
    if draft is None:
        return None, None, None
    ctx = form_context(draft.answers)
    return draft, validate_form(form, ctx, draft_uploads(get_db(), draft.id)), ctx


def send_confirmation(
    form: FormSpec, confirmation: str, values: dict[str, Any], ctx: FormContext
) -> None:
    """E-mail the applicant their confirmation number, if the world delivers mail."""
    deliver = current_app.config.get("SEND_MAIL")
    recipient = values.get(form.email_field) if form.email_field else None
    recipient = recipient or (ctx.user["email"] if ctx.user is not None else None)
    if deliver is None or not recipient:
        return
    lines = [f"Thank you. We have received your form: {form.title}.", "",
             f"Your confirmation number is {confirmation}.", ""]  # fmt: skip
    if form.highlights:
        lines += [f"{label}: {text}" for label, text in form.highlights(values, ctx)] + [""]
    lines += [form.next_steps, "", "Civic Forms"]
    deliver(
        Message(
            sender="no-reply@civicforms.example",
            sender_name="Civic Forms",
            to=recipient,
            subject=f"{form.title}: confirmation {confirmation}",
            body="\n".join(lines),
            date=ctx.now,
        )
    )


@bp.route("/<slug>/review", methods=("GET", "POST"))
def review(slug: str) -> Any:
    form = find_form(slug)
    if needs_login(form):
        return login_redirect()
    draft, result, ctx = checked_draft(form)
    if draft is None or result is None or ctx is None:
        return redirect(url_for("form.intro", slug=slug))
    if result.first_invalid is not None:
        flash("Some questions still need an answer. Answer them to continue.")
        return redirect(url_for("form.step", slug=slug, step_slug=result.first_invalid.slug))
    if request.method == "GET":
        last_step = form.applicable_steps(ctx.answers)[-1]
        return render_template(
            "form/review.html",
            form=form,
            sections=review_sections(form, result.values, ctx),
            back_url=url_for("form.step", slug=slug, step_slug=last_step.slug),
        )
    db = get_db()
    submission_id, confirmation, stored = submit_draft(db, form, draft, result.values, ctx)
    db.commit()
    forget_draft(form.slug)
    remember_submission(submission_id)
    send_confirmation(form, confirmation, stored, ctx)
    return redirect(url_for("outcome.confirmation", slug=slug, confirmation=confirmation))


@bp.route("/<slug>/confirmation/<confirmation>")
def confirmation(slug: str, confirmation: str) -> Any:
    form = find_form(slug)
    row = (
        get_db()
        .execute(
            "SELECT * FROM submissions WHERE form_slug = ? AND confirmation = ?",
            (slug, confirmation),
        )
        .fetchone()
    )
    if row is None:
        abort(404)
    mine = g.user is not None and row["user_id"] == g.user["id"]
    if not mine and row["id"] not in session.get("submitted", []):
        abort(404)
    values = json.loads(row["data_json"])
    ctx = form_context(values)
    highlights = form.highlights(values, ctx) if form.highlights else []
    return render_template(
        "form/confirmation.html",
        form=form,
        submission=row,
        highlights=highlights,
        changes=confirmation_actions(row),
        withdraw_url=withdraw_url(row),
    )

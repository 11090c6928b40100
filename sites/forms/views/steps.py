"""A form's start page and its steps: show, save, add and remove rows, upload, continue."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...common import parse_row_id
from ..db import get_db
from ..definitions import FORMS
from ..drafts import (
    create_draft,
    delete_upload,
    draft_uploads,
    save_answers,
    stamp,
    store_upload,
)
from ..fields import Answers, FormSpec, Step
from ..values import format_money, money_cents
from ..wizard import (
    add_row,
    compact_rows,
    field_id,
    group_rows,
    read_step,
    remove_row,
    validate_step,
)
from .auth import login_redirect
from .progress import current_draft, forget_draft, form_context, remember_draft, world_now

bp = Blueprint("form", __name__, url_prefix="/f")


def find_form(slug: str) -> FormSpec:
    form = FORMS.get(slug)
    if form is None:
        abort(404)
    return form


def needs_login(form: FormSpec) -> bool:
    return form.login_required and g.user is None


@bp.route("/<slug>")
def intro(slug: str) -> Any:
    form = find_form(slug)
    return render_template(
        "form/intro.html", form=form, draft=current_draft(form), needs_login=needs_login(form)
    )


@bp.route("/<slug>/restart", methods=("POST",))
def restart(slug: str) -> Response:
    form = find_form(slug)
    forget_draft(form.slug)
    return redirect(url_for("form.step", slug=slug, step_slug=form.steps[0].slug))


@bp.route("/<slug>/saved")
def saved(slug: str) -> Any:
    form = find_form(slug)
    draft = current_draft(form)
    if draft is None:
        return redirect(url_for("form.intro", slug=slug))
    return render_template("form/saved.html", form=form, draft=draft)


def next_location(form: FormSpec, step: Step, answers: Answers) -> str:
    """Where "Continue" leads: the next step that applies, or the review page."""
    if request.args.get("return") != "review":
        later = form.steps[form.steps.index(step) + 1 :]
        for candidate in later:
            if candidate.applies(answers):
                return url_for("form.step", slug=form.slug, step_slug=candidate.slug)
    return url_for("outcome.review", slug=form.slug)


def with_prefill(step: Step, answers: Answers) -> Answers:
    """Answers with the step's unanswered fields filled from the account."""
    ctx = form_context(answers)
    filled = dict(answers)
    for spec in step.fields:
        if spec.prefill and spec.name not in filled:
            filled[spec.name] = spec.prefill(ctx)
    return filled


def running_total(step: Step, answers: Answers) -> str | None:
    """The sum of a group's money column, as typed so far."""
    if step.group is None:
        return None
    money = [spec.name for spec in step.group.fields if spec.kind == "money"]
    if not money:
        return None
    rows = group_rows(step.group, answers)
    cents = sum(money_cents(str(row.get(money[0], ""))) or 0 for row in rows)
    return format_money(cents)


def render_step(
    form: FormSpec,
    step: Step,
    answers: Answers,
    draft_id: int | None,
    errors: dict[str, str],
    status: int = 200,
) -> tuple[str, int]:
    ctx = form_context(answers)
    fields = [*step.fields, *(step.group.fields if step.group else ())]
    steps = form.applicable_steps(answers)
    return render_template(
        "form/step.html",
        form=form,
        step=step,
        steps=steps,
        number=steps.index(step) + 1,
        answers=answers,
        rows=group_rows(step.group, answers) if step.group else [],
        options={spec.name: spec.options(ctx) for spec in fields},
        uploads=draft_uploads(get_db(), draft_id),
        errors=errors,
        total=running_total(step, answers),
        return_to=request.args.get("return", ""),
    ), status


def store_files(step: Step, draft_id: int) -> dict[str, str]:
    """Save the files posted for the step's upload fields; returns errors by field id."""
    errors: dict[str, str] = {}
    db = get_db()
    for spec in step.fields:
        if spec.kind != "file":
            continue
        for upload in request.files.getlist(spec.name):
            if not upload.filename:
                continue
            already = len(draft_uploads(db, draft_id).get(spec.name, []))
            problem = store_upload(db, draft_id, spec, upload, already)
            if problem:
                errors.setdefault(field_id(spec.name), problem)
    return errors


def apply_action(step: Step, action: str, answers: Answers, draft_id: int) -> Answers:
    """Add or remove a row, or remove an uploaded file, as the pressed button asks."""
    kind, _, argument = action.partition(":")
    if step.group and kind == "add-row":
        return add_row(step.group, answers)
    number = parse_row_id(argument)
    if step.group and kind == "remove-row" and number is not None:
        return remove_row(step.group, answers, number)
    if kind == "remove-file" and number is not None:
        delete_upload(get_db(), draft_id, number)
    return answers


@bp.route("/<slug>/<step_slug>", methods=("GET", "POST"))
def step(slug: str, step_slug: str) -> Any:
    form = find_form(slug)
    if needs_login(form):
        return login_redirect()
    step = form.step(step_slug)
    if step is None:
        abort(404)
    draft = current_draft(form)
    answers = with_prefill(step, draft.answers if draft else {})
    if not step.applies(answers):
        return redirect(next_location(form, step, answers))
    if request.method == "GET":
        return render_step(form, step, answers, draft.id if draft else None, {})

    db, now = get_db(), stamp(world_now())
    draft_id = (
        draft.id if draft else create_draft(db, form.slug, g.user["id"] if g.user else None, now)
    )
    remember_draft(form.slug, draft_id)
    answers = read_step(step, request.form, answers)
    file_errors = store_files(step, draft_id)
    action = str(request.form.get("action", "continue"))
    answers = apply_action(step, action, answers, draft_id)
    if action == "continue":
        answers = compact_rows(step, answers)
    save_answers(db, draft_id, answers, now, status="saved" if action == "save" else None)
    db.commit()

    if action == "save":
        return redirect(url_for("form.saved", slug=slug))
    if action != "continue":
        return render_step(form, step, answers, draft_id, file_errors)
    result = validate_step(step, form_context(answers), draft_uploads(db, draft_id))
    errors = {**result.errors, **file_errors}
    if errors:
        return render_step(form, step, answers, draft_id, errors, status=422)
    return redirect(next_location(form, step, answers))

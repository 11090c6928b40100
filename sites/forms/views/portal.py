"""The portal's own pages: the list of forms, resuming a saved form, and my account."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, g, redirect, render_template, request, url_for

from ..db import get_db
from ..definitions import FORMS
from ..drafts import draft_uploads, find_draft_by_code
from ..wizard import validate_form
from .auth import login_redirect, login_required
from .progress import form_context, may_use, remember_draft

bp = Blueprint("portal", __name__)


@bp.route("/")
def home() -> str:
    return render_template("home.html", forms=list(FORMS.values()))


def resume_draft(code: str) -> Any:
    """Continue the saved draft with ``code`` where its answers stop being complete."""
    draft = find_draft_by_code(get_db(), code) if code.strip() else None
    if draft is None or draft.form_slug not in FORMS:
        message = (
            "We could not find a saved form with that code. Check the code and try again"
            if code.strip()
            else "Enter your resume code"
        )
        return render_template("resume.html", errors={"field-code": message}, code=code[:40]), 422
    if not may_use(draft):
        return login_redirect()
    form = FORMS[draft.form_slug]
    remember_draft(form.slug, draft.id)
    if form.login_required and g.user is None:
        return login_redirect()
    result = validate_form(form, form_context(draft.answers), draft_uploads(get_db(), draft.id))
    if result.first_invalid is None:
        return redirect(url_for("outcome.review", slug=form.slug))
    return redirect(url_for("form.step", slug=form.slug, step_slug=result.first_invalid.slug))


@bp.route("/resume", methods=("GET", "POST"))
def resume() -> Any:
    if request.method == "POST":
        return resume_draft(str(request.form.get("code", "")))
    return render_template("resume.html", errors={}, code="")


@bp.route("/resume/<code>")
def resume_code(code: str) -> Any:
    return resume_draft(code)


@bp.route("/account")
@login_required
def account() -> str:
    db = get_db()
    submissions = db.execute(
        "SELECT * FROM submissions WHERE user_id = ? ORDER BY submitted_at DESC, id DESC",
        (g.user["id"],),
    ).fetchall()
    drafts = db.execute(
        "SELECT * FROM drafts WHERE user_id = ? AND status != 'submitted'"
        " ORDER BY updated_at DESC, id DESC",
        (g.user["id"],),
    ).fetchall()
    return render_template("account.html", submissions=submissions, drafts=drafts, forms=FORMS)

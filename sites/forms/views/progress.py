"""Which drafts this browser is working on, and the context forms validate in."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import current_app, g, session

from ...common import parse_now
from ..db import get_db
from ..drafts import Draft, load_draft
from ..fields import Answers, FormContext, FormSpec


def world_now() -> datetime:
    """The world's fixed "now"."""
    return parse_now(current_app.config["NOW"])


def form_context(answers: Answers) -> FormContext:
    return FormContext(db=get_db(), now=world_now(), user=g.user, answers=answers)


def may_use(draft: Draft) -> bool:
    """Anonymous drafts belong to whoever holds them; others to their account only."""
    return draft.user_id is None or (g.user is not None and draft.user_id == g.user["id"])


def current_draft(form: FormSpec) -> Draft | None:
    """The draft of ``form`` this browser is filling in, if any."""
    draft_id = session.get("drafts", {}).get(form.slug)
    if not isinstance(draft_id, int):
        return None
    draft = load_draft(get_db(), draft_id)
    if draft is None or draft.status == "submitted" or not may_use(draft):
        return None
    return draft


def remember_draft(form_slug: str, draft_id: int) -> None:
    session["drafts"] = {**session.get("drafts", {}), form_slug: draft_id}


def forget_draft(form_slug: str) -> None:
    drafts: dict[str, Any] = dict(session.get("drafts", {}))
    drafts.pop(form_slug, None)
    session["drafts"] = drafts


def remember_submission(submission_id: int) -> None:
    """Let this browser see the confirmation page of what it submitted."""
    session["submitted"] = [*session.get("submitted", [])[-19:], submission_id]

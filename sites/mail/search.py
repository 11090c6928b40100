"""Searching the mailbox from the header's search box."""

from __future__ import annotations

from flask import Blueprint, redirect, request, url_for
from werkzeug.wrappers import Response

from .auth import login_required
from .mailbox import render_message_list
from .query import parse_query, search_filter

bp = Blueprint("search", __name__)

MAX_QUERY = 500


@bp.route("/search")
@login_required
def results() -> str | Response:
    """The messages matching ``q``, newest first (see :mod:`query` for the operators)."""
    query = request.args.get("q", "").strip()[:MAX_QUERY]
    terms = parse_query(query)
    if not terms:
        return redirect(url_for("mailbox.inbox"))
    return render_message_list(
        f"Search results for “{query}”", search_filter(terms), "search", query=query
    )

"""Browsing the help centre: topics, articles, their revision history, and search."""

from __future__ import annotations

import sqlite3

from flask import Blueprint, abort, render_template, request

from ..common import like_pattern
from .db import get_db
from .markup import blocks, excerpt

bp = Blueprint("centre", __name__)

#: The longest search query read; the rest is ignored.
QUERY_MAX = 200

#: Each current revision with its article and category.
_CURRENT = (
    "SELECT articles.*, categories.slug AS category_slug, categories.name AS category_name,"
    " revisions.body, revisions.number AS revision, revisions.published_at AS updated_at"
    " FROM articles JOIN categories ON categories.id = articles.category_id"
    " JOIN revisions ON revisions.article_id = articles.id AND revisions.number ="
    " (SELECT MAX(number) FROM revisions WHERE article_id = articles.id)"
)


def categories() -> list[sqlite3.Row]:
    return (
        get_db()
        .execute(
            "SELECT categories.*, COUNT(articles.id) AS article_count FROM categories"
            " LEFT JOIN articles ON articles.category_id = categories.id"
            " GROUP BY categories.id ORDER BY position"
        )
        .fetchall()
    )


def current_article(slug: str) -> sqlite3.Row:
    found = get_db().execute(f"{_CURRENT} WHERE articles.slug = ?", (slug,)).fetchone()
    if found is None:
        abort(404)
    return found


@bp.route("/")
def home() -> str:
    popular = get_db().execute(f"{_CURRENT} ORDER BY views DESC, articles.id LIMIT 6").fetchall()
    recent = (
        get_db().execute(f"{_CURRENT} ORDER BY updated_at DESC, articles.id LIMIT 5").fetchall()
    )
    return render_template("home.html", categories=categories(), popular=popular, recent=recent)


@bp.route("/topics/<slug>")
def category(slug: str) -> str:
    found = [c for c in categories() if c["slug"] == slug]
    if not found:
        abort(404)
    articles = (
        get_db()
        .execute(f"{_CURRENT} WHERE categories.slug = ? ORDER BY articles.title", (slug,))
        .fetchall()
    )
    return render_template(
        "category.html", category=found[0], articles=articles, categories=categories()
    )


@bp.route("/articles/<slug>")
def article(slug: str) -> str:
    found = current_article(slug)
    related = (
        get_db()
        .execute(
            f"{_CURRENT} WHERE articles.category_id = ? AND articles.id != ?"
            " ORDER BY articles.title LIMIT 4",
            (found["category_id"], found["id"]),
        )
        .fetchall()
    )
    return render_template(
        "article.html", article=found, blocks=blocks(found["body"]), related=related
    )


@bp.route("/articles/<slug>/history")
def history(slug: str) -> str:
    found = current_article(slug)
    revisions = (
        get_db()
        .execute(
            "SELECT * FROM revisions WHERE article_id = ? ORDER BY number DESC", (found["id"],)
        )
        .fetchall()
    )
    return render_template("history.html", article=found, revisions=revisions)


@bp.route("/articles/<slug>/revisions/<int:number>")
def revision(slug: str, number: int) -> str:
    found = current_article(slug)
    old = (
        get_db()
        .execute(
            "SELECT * FROM revisions WHERE article_id = ? AND number = ?", (found["id"], number)
        )
        .fetchone()
    )
    if old is None:
        abort(404)
    return render_template("revision.html", article=found, revision=old, blocks=blocks(old["body"]))


@bp.route("/search")
def search() -> str:
    query = " ".join(request.args.get("q", "")[:QUERY_MAX].split())
    words = [word.lower() for word in query.split()]
    results: list[dict[str, object]] = []
    if words:
        condition = " AND ".join(
            "(lower(articles.title) LIKE ? ESCAPE '\\' OR lower(revisions.body) LIKE ? ESCAPE '\\')"
            for _ in words
        )
        params: list[str] = []
        for word in words:
            params += [like_pattern(word)] * 2
        rows = (
            get_db()
            .execute(f"{_CURRENT} WHERE {condition} ORDER BY views DESC, articles.id", params)
            .fetchall()
        )
        results = [{"article": row, "excerpt": excerpt(row["body"], words)} for row in rows]
    return render_template("search.html", query=query, results=results, categories=categories())

"""Browsing: the home page, departments, search results and product pages."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, g, render_template, request, url_for

from .db import get_db
from .listing import PAGE_SIZES, RATING_CHOICES, SORTS, ListingQuery, run_listing, search_scope

bp = Blueprint("catalog", __name__)


@bp.route("/")
def home() -> str:
    conn = get_db()
    categories = conn.execute(
        "SELECT c.*, COUNT(p.id) AS product_count,"
        " (SELECT id FROM products WHERE category_id = c.id ORDER BY id LIMIT 1) AS art_id"
        " FROM categories c JOIN products p ON p.category_id = c.id GROUP BY c.id ORDER BY c.id"
    ).fetchall()
    featured = conn.execute(
        "SELECT p.*, c.slug AS category_slug FROM products p"
        " JOIN categories c ON c.id = p.category_id WHERE p.stock > 0 AND p.review_count >= 3"
        " ORDER BY p.rating * p.review_count DESC, p.id LIMIT 8"
    ).fetchall()
    newest = conn.execute(
        "SELECT p.*, c.slug AS category_slug FROM products p"
        " JOIN categories c ON c.id = p.category_id ORDER BY p.created_at DESC, p.id LIMIT 4"
    ).fetchall()
    return render_template(
        "catalog/home.html", categories=categories, featured=featured, newest=newest
    )


def page_url(page: int) -> str:
    """This listing's URL with the same filters, at another page."""
    args = {**request.args.to_dict(flat=False), "page": [str(page)]}
    return url_for(request.endpoint or "catalog.search", **{**args, **(request.view_args or {})})


def render_listing(
    title: str, intro: str, scope_sql: str, params: list[object], **extra: Any
) -> str:
    query = ListingQuery.from_args(request.args)
    listing = run_listing(get_db(), query, scope_sql, params)
    return render_template(
        "catalog/listing.html",
        title=title,
        intro=intro,
        query=query,
        listing=listing,
        sorts=SORTS,
        rating_choices=RATING_CHOICES,
        page_sizes=PAGE_SIZES,
        page_url=page_url,
        **extra,
    )


@bp.route("/search")
def search() -> str:
    text = request.args.get("q", "").strip()[:200]
    scope_sql, params = search_scope(text)
    title = f"Results for “{text}”" if text else "All products"
    return render_listing(title, "", scope_sql, params, search_text=text)


@bp.route("/c/<slug>")
def category(slug: str) -> str:
    found = get_db().execute("SELECT * FROM categories WHERE slug = ?", (slug,)).fetchone()
    if found is None:
        abort(404)
    return render_listing(
        found["name"], found["description"], "p.category_id = ?", [found["id"]], category=found
    )


def find_product(slug: str) -> sqlite3.Row:
    """The product at ``/p/<slug>`` (with its department), or a 404."""
    product = (
        get_db()
        .execute(
            "SELECT p.*, c.slug AS category_slug, c.name AS category_name FROM products p"
            " JOIN categories c ON c.id = p.category_id WHERE p.slug = ?",
            (slug,),
        )
        .fetchone()
    )
    if product is None:
        abort(404)
    return product


def product_options(conn: sqlite3.Connection, product_id: int) -> dict[str, list[str]]:
    """The product's choices by kind: ``{"size": [...], "color": [...]}``."""
    options: dict[str, list[str]] = {"size": [], "color": []}
    for row in conn.execute(
        "SELECT kind, value FROM product_options WHERE product_id = ? ORDER BY kind, position",
        (product_id,),
    ):
        options[row["kind"]].append(row["value"])
    return options


def render_product(
    slug: str,
    *,
    cart_errors: Mapping[str, str] | None = None,
    review_errors: Mapping[str, str] | None = None,
    values: Mapping[str, str] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The product page, optionally re-shown with a rejected form's values and messages."""
    conn = get_db()
    product = find_product(slug)
    reviews = conn.execute(
        "SELECT * FROM reviews WHERE product_id = ? ORDER BY created_at DESC, id DESC",
        (product["id"],),
    ).fetchall()
    user = g.get("user")
    in_wishlist = own_review = False
    if user is not None:
        in_wishlist = bool(
            conn.execute(
                "SELECT 1 FROM wishlist_items WHERE user_id = ? AND product_id = ?",
                (user["id"], product["id"]),
            ).fetchone()
        )
        own_review = any(review["user_id"] == user["id"] for review in reviews)
    star_counts = {star: sum(1 for r in reviews if r["rating"] == star) for star in range(5, 0, -1)}
    page = render_template(
        "catalog/product.html",
        product=product,
        options=product_options(conn, product["id"]),
        reviews=reviews,
        star_counts=star_counts,
        in_wishlist=in_wishlist,
        own_review=own_review,
        cart_errors=cart_errors or {},
        review_errors=review_errors or {},
        values=values or {},
    )
    return page, status


@bp.route("/p/<slug>")
def product(slug: str) -> tuple[str, int]:
    return render_product(slug)

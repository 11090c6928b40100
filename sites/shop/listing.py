"""Product listings shared by category and search pages: filters, sorting, pagination."""

from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from ..common import like_pattern
from .validation import parse_id

PAGE_SIZE = 24
#: Page sizes a shopper may choose ("Show … per page"); the first is the default.
PAGE_SIZES = (PAGE_SIZE, 48, 96, 200)

#: Sort key -> (label shown in the "Sort by" select, SQL ORDER BY clause).
SORTS: dict[str, tuple[str, str]] = {
    "featured": ("Featured", "(p.stock = 0), p.rating * p.review_count DESC, p.id"),
    "price_asc": ("Price: low to high", "p.price_cents, p.id"),
    "price_desc": ("Price: high to low", "p.price_cents DESC, p.id"),
    "rating": ("Customer rating", "p.rating DESC, p.review_count DESC, p.id"),
    "newest": ("Newest", "p.created_at DESC, p.id"),
}

#: Minimum-rating filter choices: value -> label.
RATING_CHOICES: dict[str, str] = {
    "": "Any rating",
    "4": "4 stars & up",
    "3": "3 stars & up",
    "2": "2 stars & up",
}

_PRICE = re.compile(r"^\$?\s*(\d{1,6})(?:\.(\d{1,2}))?$", re.ASCII)


def parse_price(text: str) -> int | None:
    """Dollars typed by a shopper (``25``, ``$25.5``) as cents; None when not a price."""
    match = _PRICE.match(text.strip())
    if match is None:
        return None
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))


@dataclass
class ListingQuery:
    """What the shopper asked for, with a message for each filter that made no sense."""

    sort: str = "featured"
    brands: list[str] = field(default_factory=list)
    min_price: str = ""
    max_price: str = ""
    min_rating: str = ""
    in_stock: bool = False
    page: int = 1
    per_page: int = PAGE_SIZE
    errors: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_args(cls, args: MultiDict[str, str]) -> ListingQuery:
        query = cls(
            sort=args.get("sort", "featured") if args.get("sort") in SORTS else "featured",
            brands=[brand for brand in args.getlist("brand") if brand][:50],
            min_price=args.get("min_price", "").strip()[:20],
            max_price=args.get("max_price", "").strip()[:20],
            min_rating=args.get("min_rating", "")
            if args.get("min_rating") in RATING_CHOICES
            else "",
            in_stock=args.get("in_stock") == "1",
        )
        query.page = min(parse_id(args.get("page", "")) or 1, 10_000)
        per_page = parse_id(args.get("per_page", ""))
        query.per_page = per_page if per_page in PAGE_SIZES else PAGE_SIZE
        for name in ("min_price", "max_price"):
            if getattr(query, name) and parse_price(getattr(query, name)) is None:
                query.errors[name] = "Enter a price in dollars, like 25 or 25.99."
        return query

    def price_bounds(self) -> tuple[int | None, int | None]:
        low = parse_price(self.min_price) if self.min_price else None
        high = parse_price(self.max_price) if self.max_price else None
        return low, high


@dataclass
class Listing:
    products: list[sqlite3.Row]
    total: int
    page: int
    pages: int
    brands: list[sqlite3.Row]


def run_listing(
    conn: sqlite3.Connection, query: ListingQuery, scope_sql: str, scope_params: list[object]
) -> Listing:
    """The page of products within a scope (a category, a search) matching ``query``."""
    base = " FROM products p JOIN categories c ON c.id = p.category_id WHERE " + scope_sql
    brands = conn.execute(
        f"SELECT p.brand, COUNT(*) AS n {base} GROUP BY p.brand ORDER BY p.brand", scope_params
    ).fetchall()
    where, params = [base], list(scope_params)
    if query.brands:
        where.append(f" AND p.brand IN ({', '.join('?' for _ in query.brands)})")
        params += query.brands
    low, high = query.price_bounds()
    if low is not None:
        where.append(" AND p.price_cents >= ?")
        params.append(low)
    if high is not None:
        where.append(" AND p.price_cents <= ?")
        params.append(high)
    if query.min_rating:
        where.append(" AND p.rating >= ?")
        params.append(int(query.min_rating))
    if query.in_stock:
        where.append(" AND p.stock > 0")
    filtered = "".join(where)
    total = conn.execute(f"SELECT COUNT(*) {filtered}", params).fetchone()[0]
    pages = max(1, math.ceil(total / query.per_page))
    page = min(query.page, pages)
    products = conn.execute(
        f"SELECT p.*, c.slug AS category_slug {filtered} ORDER BY {SORTS[query.sort][1]}"
        " LIMIT ? OFFSET ?",
        [*params, query.per_page, (page - 1) * query.per_page],
    ).fetchall()
    return Listing(products, total, page, pages, brands)


def search_scope(text: str) -> tuple[str, list[object]]:
    """SQL matching products whose name, brand or department contains every word of ``text``."""
    words = text.lower().split()[:8]
    if not words:
        return "1", []
    clauses, params = [], []
    for word in words:
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]  # "jackets" finds "Jacket"
        pattern = like_pattern(word)
        clauses.append(
            "(lower(p.name) LIKE ? ESCAPE '\\' OR lower(p.brand) LIKE ? ESCAPE '\\'"
            " OR lower(c.name) LIKE ? ESCAPE '\\')"
        )
        params += [pattern, pattern, pattern]
    return " AND ".join(clauses), params

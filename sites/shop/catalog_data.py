"""The seeded catalog: departments, products with options, and their customer reviews."""

from __future__ import annotations

import functools
import itertools
from datetime import datetime

from .blurbs import description, review
from .features import FEATURES
from .seeding import Seeder, insert, slugify
from .vocab import COLORS, DEPARTMENTS, Department, Noun

#: How many reviews a product gets: a few products have none.
REVIEW_COUNTS = (0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)


def seed_catalog(seeder: Seeder, reviewers: list[tuple[int, str]]) -> None:
    """Every department and its 30-36 products; ``reviewers`` are (user id, display name)."""
    names: set[str] = set()
    product_id = 0
    for category_id, department in enumerate(DEPARTMENTS, start=1):
        insert(
            seeder.conn,
            "categories",
            [
                {
                    "id": category_id,
                    "slug": department.slug,
                    "name": department.name,
                    "description": department.description,
                }
            ],
        )
        for _ in range(seeder.rng.randint(30, 36)):
            product_id += 1
            brand, noun, name = product_name(seeder, department, names)
            created_at = seed_product(
                seeder, product_id, category_id, department, brand, noun, name
            )
            seed_options(seeder, product_id, noun)
            seed_reviews(seeder, product_id, department, brand, noun, created_at, reviewers)


def product_name(seeder: Seeder, department: Department, taken: set[str]) -> tuple[str, Noun, str]:
    """A brand, a kind of product and a name no other product of the store has."""
    rng = seeder.rng
    draws = 0
    while True:
        draws += 1
        brand, noun = rng.choice(department.brands), rng.choice(department.nouns)
        name = _name(department, brand, rng.choice(department.audiences),
                     rng.choice(department.adjectives), noun)  # fmt: skip
        if name not in taken:
            taken.add(name)
            return brand, noun, name
        if draws % _DRAWS_BEFORE_COUNTING == 0 and _names(department) <= taken:
            raise RuntimeError(
                f"The shop's {department.name} department has no product name left: all "
                f"{len(_names(department))} are taken. Give it more brands, audiences, "
                "adjectives or kinds of product, or fewer products."
            )


#: Draws of a taken name after which :func:`product_name` checks that a free one is left.
_DRAWS_BEFORE_COUNTING = 200


def _name(department: Department, brand: str, audience: str, adjective: str, noun: Noun) -> str:
    words = [brand if department.brand_in_name else "", audience, adjective, noun.word]
    return " ".join(word for word in words if word)


@functools.cache
def _names(department: Department) -> frozenset[str]:
    """Every product name ``department`` can give."""
    return frozenset(
        _name(department, *words)
        for words in itertools.product(
            department.brands, department.audiences, department.adjectives, department.nouns
        )
    )


def seed_product(
    seeder: Seeder,
    product_id: int,
    category_id: int,
    department: Department,
    brand: str,
    noun: Noun,
    name: str,
) -> str:
    """Insert one product; returns when it was added to the catalog."""
    rng = seeder.rng
    dollars = max(5, round(noun.price * rng.uniform(0.75, 1.35)))
    price_cents = dollars * 100 - rng.choice((1, 1, 1, 51, 0))
    roll = rng.random()
    stock = 0 if roll < 0.08 else rng.randint(1, 5) if roll < 0.2 else rng.randint(6, 150)
    features = [*rng.sample(FEATURES[noun.word], k=2), rng.choice(department.features)]
    pitch = description(rng, department, noun, brand)
    created_at = seeder.ago(20, 900)
    insert(
        seeder.conn,
        "products",
        [
            {
                "id": product_id,
                "sku": f"{department.slug[:3].upper()}-{product_id:04d}{rng.randint(10, 99)}",
                "slug": slugify(name),
                "name": name,
                "brand": brand,
                "category_id": category_id,
                "description": "\n".join([pitch, *features]),
                "price_cents": price_cents,
                "stock": stock,
                "created_at": created_at,
            }
        ],
    )
    return created_at


def seed_options(seeder: Seeder, product_id: int, noun: Noun) -> None:
    """Sizes for apparel and shoes; colours for those and some other products."""
    rng = seeder.rng
    sizes = list(noun.sizes)
    if sizes and rng.random() < 0.3:
        # Some lack the largest size, others the smallest (by id, so the draws stay as they were).
        sizes = sizes[:-1] if product_id % 2 else sizes[1:]
    colors: list[str] = []
    if noun.colored and (noun.sizes or rng.random() < 0.7):
        colors = rng.sample(COLORS, k=rng.randint(2, 5))
    insert(
        seeder.conn,
        "product_options",
        [
            {"product_id": product_id, "kind": kind, "value": value, "position": position}
            for kind, values in (("size", sizes), ("color", colors))
            for position, value in enumerate(values)
        ],
    )


def seed_reviews(
    seeder: Seeder,
    product_id: int,
    department: Department,
    brand: str,
    noun: Noun,
    since: str,
    reviewers: list[tuple[int, str]],
) -> None:
    """0-12 reviews around a product's own quality; sets its rating and review count."""
    rng, fake = seeder.rng, seeder.fake
    quality = rng.uniform(2.4, 4.9)
    age_days = max(2, (seeder.now - datetime.fromisoformat(since)).days)
    rows, ratings = [], []
    for _ in range(rng.choice(REVIEW_COUNTS)):
        rating = min(5, max(1, round(rng.gauss(quality, 1.0))))
        ratings.append(rating)
        if rng.random() < 0.4:
            user_id, author = rng.choice(reviewers)
        else:
            user_id, author = None, f"{fake.first_name()} {fake.last_name()[0]}."
        title, body = review(rng, rating, department, noun, brand)
        rows.append(
            {
                "product_id": product_id,
                "user_id": user_id,
                "author": author,
                "rating": rating,
                "title": title,
                "body": body,
                "created_at": seeder.ago(1, age_days),
            }
        )
    insert(seeder.conn, "reviews", rows)
    if ratings:
        seeder.conn.execute(
            "UPDATE products SET rating = ?, review_count = ? WHERE id = ?",
            (round(sum(ratings) / len(ratings), 1), len(ratings), product_id),
        )

"""Seeded text reads like a real mailbox, shop and portal: no Faker filler, grammatical reviews
and descriptions that fit the product and its rating, and product pictures of the product's
own kind."""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from faker.providers.company.en_US import Provider as Company
from faker.providers.job.en_US import Provider as Jobs
from faker.providers.lorem.en_US import Provider as Lorem
from webenv.sites import forms, mail, shop
from webenv.sites.common import make_persona
from webenv.sites.shop import images
from webenv.sites.shop.vocab import DEPARTMENTS

NOW = datetime(2026, 5, 14, 9, 30)
SEEDS = (2, 11)
#: Words a review of a department's products has no business using.
OFF_TOPIC = {
    "books": ("wash", "fits", "comfortable", "battery", "stopped working", "broke"),
    "electronics": ("fabric", "wash", "pages", "skin"),
    "beauty": ("stitching", "battery", "assembly", "stopped working"),
    "home-kitchen": ("fits true", "battery", "pages", "skin"),
}


def _rows(path: Path, sql: str) -> list[sqlite3.Row]:
    connection = sqlite3.connect(path)
    connection.row_factory = sqlite3.Row
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def _build(site, tmp: Path, name: str) -> Iterator[Path]:
    for seed in SEEDS:
        path = tmp / f"{name}-{seed}.sqlite"
        site.build_database(str(path), seed, NOW, make_persona(seed))
        yield path


@pytest.fixture(scope="module")
def mailboxes(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return list(_build(mail, tmp_path_factory.mktemp("mail"), "mail"))


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return list(_build(shop, tmp_path_factory.mktemp("shop"), "shop"))


def _faker_phrase(text: str, banks: list[list[str]] | tuple[tuple[str, ...], ...]) -> bool:
    """Whether ``text`` holds three words in a row drawn from Faker's three word lists of a
    catch-phrase or of "bs" (its way of making them: one word from each list)."""
    words = re.findall(r"[\w-]+", text.lower())
    first, second, third = ({word.lower() for word in bank} for bank in banks)
    return any(
        a in first and b in second and c in third
        for a, b, c in zip(words, words[1:], words[2:], strict=False)
    )


def _lorem(sentence: str) -> bool:
    """Whether a sentence of five words or more is made only of Faker's lorem words."""
    words = re.findall(r"[a-z'-]+", sentence.lower())
    return len(words) >= 5 and all(word in Lorem.word_list for word in words)


def _sentences(text: str) -> list[str]:
    """The sentences of ``text`` (a brand's "Co." ends none)."""
    text = text.replace("Co. ", "Co ")
    return [part for part in re.split(r"(?<=[.!?])\s+|\n+", text) if part.strip()]


def test_no_mail_subject_or_body_is_faker_filler(mailboxes: list[Path]) -> None:
    for path in mailboxes:
        for row in _rows(path, "SELECT subject, body FROM messages"):
            for text in (row["subject"], row["body"]):
                assert not _faker_phrase(text, Company.catch_phrase_words), text
                assert not _faker_phrase(text, Company.bsWords), text
                assert not any(_lorem(sentence) for sentence in _sentences(text)), text


def test_colleagues_hold_real_job_titles_not_faker_jobs(mailboxes: list[Path]) -> None:
    for path in mailboxes:
        notes = [
            row["notes"]
            for row in _rows(path, "SELECT notes FROM contacts WHERE relationship = 'colleague'")
        ]
        titles = [note.rsplit(", ", 1)[0] for note in notes]
        assert titles and not set(titles) & set(Jobs.jobs), titles
        assert all(note.endswith(" team") for note in notes), notes


def test_newsletter_issues_have_distinct_subjects_and_stories(mailboxes: list[Path]) -> None:
    for path in mailboxes:
        issues = _rows(
            path,
            "SELECT m.subject, m.body FROM messages m JOIN contacts c ON c.email = m.sender"
            " WHERE c.relationship = 'newsletter'",
        )
        subjects = [row["subject"] for row in issues]
        assert len(issues) == 15 and len(set(subjects)) == len(subjects), subjects
        for row in issues:
            lead = row["subject"].split(": ", 1)[1]
            assert f"• {lead}\n" in row["body"], row["body"]


def test_product_descriptions_are_not_faker_filler(stores: list[Path]) -> None:
    for path in stores:
        for row in _rows(path, "SELECT description FROM products"):
            text = row["description"]
            assert not _faker_phrase(text, Company.catch_phrase_words), text
            assert not _faker_phrase(text, Company.bsWords), text


def _store_text(path: Path) -> list[tuple[str, str, str, int | None]]:
    """(department slug, product name, text, rating or None) of every description and review."""
    rows = _rows(
        path,
        "SELECT c.slug, p.name, p.description AS text, NULL AS rating FROM products p"
        " JOIN categories c ON c.id = p.category_id UNION ALL"
        " SELECT c.slug, p.name, r.title || '. ' || r.body, r.rating FROM reviews r"
        " JOIN products p ON p.id = r.product_id JOIN categories c ON c.id = p.category_id",
    )
    return [(row["slug"], row["name"], row["text"], row["rating"]) for row in rows]


def _noun(name: str) -> Any:
    return max(
        (
            noun
            for department in DEPARTMENTS
            for noun in department.nouns
            if name.endswith(noun.word)
        ),
        key=lambda noun: len(noun.word),
    )


def test_reviews_and_descriptions_are_grammatical(stores: list[Path]) -> None:
    for path in stores:
        for slug, name, text, _ in _store_text(path):
            for sentence in _sentences(text.split("\n")[0]):
                assert sentence[0].isupper() and sentence[-1] in ".!?", (name, sentence)
            assert not re.search(r"\b(\w+)\s+\1\b", text, re.I), (name, text)
            if slug == "books":
                continue
            # The product's last word names it: "joggers" are plural, a "tee" or "harness" is not.
            last = _noun(name).word.split()[-1].lower()
            plural = last.endswith("s") and not last.endswith("ss")
            wrong = ("this", "that") if plural else ("these", "those")
            verbs = ("is", "was", "has") if plural else ("are", "were", "have")
            pattern = rf"\b({'|'.join(wrong)}) ([\w-]+ )?{last}\b|\b{last} ({'|'.join(verbs)})\b"
            assert not re.search(pattern, text.lower()), (name, text)


def test_reviews_match_their_rating_and_the_kind_of_product(stores: list[Path]) -> None:
    praise = ("highly recommend", "worth every penny", "love it", "exceeded")
    blame = ("would not recommend", "disappointed", "save your money", "sent it back")
    for path in stores:
        reviews = [entry for entry in _store_text(path) if entry[3] is not None]
        assert len(reviews) > 200
        for slug, name, text, rating in reviews:
            lower = text.lower()
            if rating is not None and rating <= 2:
                assert not any(word in lower for word in praise), (rating, text)
            if rating is not None and rating >= 4:
                assert not any(word in lower for word in blame), (rating, text)
            assert not any(word in lower for word in OFF_TOPIC.get(slug, ())), (name, text)
        assert len({text for _, _, text, _ in reviews}) > 0.9 * len(reviews)


def test_every_kind_of_product_has_its_own_drawing() -> None:
    nouns = [noun.word for department in DEPARTMENTS for noun in department.nouns]
    assert sorted(images.DRAWINGS) == sorted(nouns)
    assert len(set(images.DRAWINGS.values())) == len(nouns)


def _shapes(svg: str) -> str:
    """A picture without its colours: what is drawn, not how it is tinted."""
    return re.sub(r'(fill|color|stroke)="#[0-9a-f]{6}"', "", svg)


def test_products_of_different_kinds_in_a_department_look_different(
    stores: list[Path],
) -> None:
    """On a department page, joggers and tees (or boots and sandals) are drawn apart."""
    app = shop.create_app({"DATABASE": str(stores[0]), "NOW": NOW.isoformat(), "TESTING": True})
    client = app.test_client()
    for department in ("clothing", "shoes", "home-kitchen"):
        page = client.get(f"/c/{department}").text
        cards = re.findall(
            r'<article class="card">.*?(<svg class="art".*?</svg>).*?'
            r'class="card-title"><a [^>]*>([^<]+)</a>',
            page,
            re.S,
        )
        shapes: dict[str, set[str]] = {}
        for svg, name in cards:
            shapes.setdefault(_noun(html.unescape(name)).word, set()).add(_shapes(svg))
        assert len(shapes) >= 3, (department, shapes.keys())
        kinds = sorted(shapes)
        for index, kind in enumerate(kinds):
            for other in kinds[index + 1 :]:
                assert not shapes[kind] & shapes[other], (department, kind, other)


def test_a_product_is_drawn_as_its_kind_and_varies_with_its_attributes() -> None:
    joggers = images.product_art("clothing", 4, "Navy", "Kestrel Men's Classic Joggers")
    tee = images.product_art("clothing", 4, "Navy", "Kestrel Men's Classic Henley Tee")
    assert _shapes(joggers) != _shapes(tee)
    assert images.product_art("clothing", 4, "Navy", "Kestrel Men's Classic Joggers") == joggers
    other_color = images.product_art("clothing", 4, "Coral", "Kestrel Men's Classic Joggers")
    slim = images.product_art("clothing", 4, "Navy", "Kestrel Men's Slim-Fit Joggers")
    assert len({joggers, other_color, slim}) == 3


def test_job_openings_use_the_right_article_and_keep_the_title(tmp_path: Path) -> None:
    path = tmp_path / "forms.sqlite"
    forms.build_database(str(path), 4, NOW, make_persona(4))
    rows = _rows(path, "SELECT title, summary FROM job_openings")
    assert len(rows) == 8
    for row in rows:
        assert row["title"] in row["summary"], row["summary"]
        assert not re.search(r"\ba [AEIOU]|\ban [^AEIOU]", row["summary"]), row["summary"]
        assert all(s[0].isupper() and s[-1] == "." for s in _sentences(row["summary"]))


def test_a_products_bullet_points_are_true_of_its_kind(stores: list[Path]) -> None:
    """A litter box lists no machine-washable cover, a yoga mat no tool-free setup."""
    from webenv.sites.shop import features

    departments = {department.slug: department for department in DEPARTMENTS}
    for path in stores:
        for slug, name, text, rating in _store_text(path):
            if rating is not None:
                continue
            noun = _noun(name).word
            allowed = {*features.FEATURES[noun], *departments[slug].features}
            bullets = text.split("\n")[1:]
            assert len(bullets) == 3 and set(bullets) <= allowed, (name, bullets)

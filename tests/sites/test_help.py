"""The help centre without a browser: seeded data, pages, search, the contact form's bad
input, tickets and their e-mail, and the current articles against the sites' real rules."""

from __future__ import annotations

import re
import sqlite3
from datetime import datetime

import pytest
from bs4 import BeautifulSoup
from webenv.sites.common import Message, expense_caps, make_persona
from webenv.sites.forms.data import EXPENSE_CATEGORIES
from webenv.sites.forms.definitions.appointment import BOOKING_WINDOW_DAYS
from webenv.sites.help import build_database, create_app
from webenv.sites.help.articles import ARTICLES, CURRENT, SUPERSEDED, article, dollars
from webenv.sites.shop.pricing import FREE_SHIPPING_MIN_CENTS, STANDARD_SHIPPING_CENTS
from webenv.sites.shop.returns_model import RETURN_WINDOW_DAYS

NOW = datetime(2026, 5, 14, 9, 30)


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("help") / "help.sqlite"
    build_database(str(path), 3, NOW, make_persona(3))
    return path


@pytest.fixture
def sent():
    return []


@pytest.fixture
def client(database, tmp_path, sent):
    copy = tmp_path / "help.sqlite"
    copy.write_bytes(database.read_bytes())
    app = create_app({"DATABASE": str(copy), "WTF_CSRF_ENABLED": False, "SEND_MAIL": sent.append})
    return app.test_client()


@pytest.fixture
def signed_in(client):
    with client.session_transaction() as session:
        session["user_id"] = 1
    return client


def soup_of(response):
    return BeautifulSoup(response.text, "html.parser")


def test_same_seed_same_bytes_and_another_seed_another_world(tmp_path, database):
    again, other = tmp_path / "again.sqlite", tmp_path / "other.sqlite"
    build_database(str(again), 3, NOW, make_persona(3))
    build_database(str(other), 4, NOW, make_persona(4))
    assert again.read_bytes() == database.read_bytes()
    assert other.read_bytes() != database.read_bytes()


def test_there_are_enough_articles_in_every_category():
    assert len(ARTICLES) >= 30
    assert len({a.slug for a in ARTICLES}) == len(ARTICLES)


def test_the_current_articles_state_what_the_shop_and_the_portal_really_do():
    """Read from the shop's and the portal's own code: the numbers the current revisions state."""
    assert CURRENT["return_window_days"] == RETURN_WINDOW_DAYS
    assert CURRENT["free_shipping_min_cents"] == FREE_SHIPPING_MIN_CENTS
    assert CURRENT["standard_shipping_cents"] == STANDARD_SHIPPING_CENTS
    assert CURRENT["booking_window_days"] == BOOKING_WINDOW_DAYS
    assert CURRENT["expense_limits"] == {name: limit for _, name, limit in EXPENSE_CATEGORIES}
    returns = article("return-policy").revisions[-1].body
    assert f"for {RETURN_WINDOW_DAYS} days after the day you placed the order" in returns
    shipping = article("shipping-costs").revisions[-1].body
    assert f"Orders of {dollars(FREE_SHIPPING_MIN_CENTS)} or more ship free" in shipping
    assert f"standard shipping rate of {dollars(STANDARD_SHIPPING_CENTS)}" in shipping
    booking = article("book-appointment").revisions[-1].body
    assert f"up to {BOOKING_WINDOW_DAYS} days ahead" in booking
    limits = article("expense-limits").revisions[-1].body
    for _, name, limit in EXPENSE_CATEGORIES:
        shown = "no limit per item" if limit is None else f"up to {dollars(limit)} per item"
        assert f"- {name}: {shown}" in limits


def test_the_limits_article_says_what_the_portal_does_with_an_item_over_its_limit(tmp_path):
    """The portal refuses an amount over its category's limit and takes one at the limit: the
    article says so, and that such an item is claimed at its limit (not refused outright)."""
    from webenv.sites.forms import build_database as build_forms
    from webenv.sites.forms.definitions.travel_expenses import items_within_trip_and_limits
    from webenv.sites.forms.fields import FormContext

    path = tmp_path / "forms.sqlite"
    build_forms(str(path), 3, NOW, make_persona(3))
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    trip = {"departure_date": "2026-05-04", "return_date": "2026-05-06"}
    ctx = FormContext(db=db, now=NOW, user=None, answers=trip)
    try:
        for row in db.execute("SELECT code, limit_cents FROM expense_categories"):
            code, limit = row["code"], row["limit_cents"]
            if limit is None:
                continue
            for amount, refused in ((limit, False), (limit + 1, True)):
                items = [{"date": "2026-05-05", "category": code, "amount": amount}]
                assert bool(items_within_trip_and_limits({"items": items}, ctx)) is refused
    finally:
        db.close()
    limits = article("expense-limits").revisions[-1].body
    assert "an item that cost more is claimed at its limit" in limits
    assert "does not accept an amount over the limit: enter such an item at its limit" in limits
    assert "cannot be submitted" not in limits


def test_each_world_has_its_own_expense_limits_and_both_sites_state_them(tmp_path):
    """A limit that never changed would be learnt once and the help centre never read again:
    each world draws the capped categories' limits, the portal enforces the current ones,
    and the help centre's article states them (and the older ones in its first revision)."""
    from webenv.sites.forms import build_database as build_forms

    seen = set()
    for seed in range(12):
        forms_path, help_path = tmp_path / f"forms-{seed}.sqlite", tmp_path / f"help-{seed}.sqlite"
        build_forms(str(forms_path), seed, NOW, make_persona(seed))
        build_database(str(help_path), seed, NOW, make_persona(seed))
        with sqlite3.connect(forms_path) as forms, sqlite3.connect(help_path) as help_db:
            enforced = dict(forms.execute("SELECT name, limit_cents FROM expense_categories"))
            bodies = [
                body
                for (body,) in help_db.execute(
                    "SELECT r.body FROM revisions r JOIN articles a ON a.id = r.article_id"
                    " WHERE a.slug = 'expense-limits' ORDER BY r.number"
                )
            ]
        for name, (current, older) in expense_caps(seed).items():
            assert enforced[name] == current and older < current
            assert f"- {name}: up to {dollars(current)} per item" in bodies[-1]
            assert f"- {name}: up to {dollars(older)} per item" in bodies[0]
        assert bodies[-1] == article("expense-limits", seed).revisions[-1].body
        seen.add((enforced["Meals"], enforced["Lodging"]))
    assert len(seen) >= 8, seen


def test_each_world_has_its_own_free_shipping_amount_and_both_sites_state_it(tmp_path):
    """The shop ships free from its world's own amount (its cart says how far off it is) and
    the help centre's current shipping article states that amount."""
    from webenv.sites.shop import build_database as build_shop
    from webenv.sites.shop.pricing import compute_totals, free_shipping_from

    seen = set()
    for seed in range(10):
        shop_path, help_path = tmp_path / f"shop-{seed}.sqlite", tmp_path / f"help-{seed}.sqlite"
        build_shop(str(shop_path), seed, NOW, make_persona(seed))
        build_database(str(help_path), seed, NOW, make_persona(seed))
        with sqlite3.connect(shop_path) as shop:
            free_from = free_shipping_from(shop)
        body = article("shipping-costs", seed).revisions[-1].body
        with sqlite3.connect(help_path) as help_db:
            stored = help_db.execute(
                "SELECT r.body FROM revisions r JOIN articles a ON a.id = r.article_id"
                " WHERE a.slug = 'shipping-costs' ORDER BY r.number DESC LIMIT 1"
            ).fetchone()[0]
        assert stored == body and f"Orders of {dollars(free_from)} or more ship free" in body
        assert compute_totals(free_from, 0, None, free_from).shipping_cents == 0
        assert compute_totals(free_from - 1, 0, None, free_from).shipping_cents > 0
        seen.add(free_from)
    assert len(seen) >= 4, seen


def test_the_accepted_cards_are_the_ones_checkout_accepts():
    from webenv.sites.shop.cards import card_brand

    numbers = {"4111111111111111", "5555555555554444", "378282246310005", "6011111111111117"}
    assert {card_brand(n) for n in numbers} == set(CURRENT["card_brands"])
    body = article("payment-methods").revisions[-1].body
    assert re.findall(r"^- (.+)$", body, re.MULTILINE) == list(CURRENT["card_brands"])


def test_older_revisions_state_superseded_values():
    old = [r.body for r in article("return-policy").revisions[:-1]]
    for days, body in zip(SUPERSEDED["return_window_days"], old, strict=True):
        assert days != RETURN_WINDOW_DAYS and f"for {days} days" in body


def test_an_article_shows_its_last_update_and_links_its_history(client, database):
    page = soup_of(client.get("/articles/return-policy"))
    assert page.h1.get_text() == "Our return policy"
    assert re.search(r"Last updated \w+ \d{1,2}, 2026|Last updated \w+ \d{1,2}, 2025", page.text)
    history = soup_of(client.get("/articles/return-policy/history"))
    rows = history.select("tbody tr")
    assert len(rows) == 3 and "(current)" in rows[0].get_text()
    old = soup_of(client.get("/articles/return-policy/revisions/1"))
    assert "older version" in old.text and "for 60 days" in old.text


@pytest.mark.parametrize(
    ("url", "status"),
    [
        ("/articles/no-such-article", 404),
        ("/articles/return-policy/revisions/9", 404),
        ("/articles/return-policy/revisions/99999999999999999999", 404),
        ("/topics/nothing", 404),
        ("/tickets/HC-000000", 302),  # signed out: to the sign-in page
    ],
)
def test_unknown_pages(client, url, status):
    assert client.get(url).status_code == status


def test_search_counts_results_and_says_when_there_are_none(client):
    found = soup_of(client.get("/search?q=Return+WINDOW"))
    count = found.select_one(".result-count").get_text()
    titles = [a.get_text() for a in found.select(".results > li > a")]
    assert "Our return policy" in titles
    assert count == f"{len(titles)} article{'s' if len(titles) > 1 else ''} found"
    none = soup_of(client.get("/search?q=%25%25+zebra_crossing"))
    assert none.h1.get_text().startswith("No results for")
    assert client.get("/search?q=" + "x" * 5000).status_code == 200


def test_contact_needs_a_sign_in(client):
    assert client.get("/contact").headers["Location"].startswith("/login?next=/contact")


_GOOD = {
    "topic": "Orders & shipping",
    "reference": " nm-12345-6 ",
    "subject": "Where is my parcel?",
    "message": "It has been ten days since the order shipped.",
}


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"topic": "Lottery"}, "topic", "Choose what your question is about."),
        ({"reference": "12345"}, "reference", "Enter an order number like NM-12345-6"),
        ({"reference": "NM-1234-56"}, "reference", "Enter an order number like NM-12345-6"),
        ({"subject": "   "}, "subject", "Enter a subject."),
        ({"subject": "x" * 121}, "subject", "at most 120 characters"),
        ({"message": "help"}, "message", "at least 10 characters"),
        ({"message": "x" * 3001}, "message", "at most 3000 characters"),
    ],
)
def test_the_contact_form_rejects_bad_input_and_keeps_what_was_typed(
    signed_in, sent, change, field, message
):
    response = signed_in.post("/contact", data={**_GOOD, **change})
    assert response.status_code == 400
    page = soup_of(response)
    assert message in page.find(id=f"{field}-error").get_text()
    assert page.find(id=field).get("aria-invalid") == "true"
    assert page.find(id="subject").get("value") == " ".join(_GOOD["subject"].split()) or (
        field == "subject"
    )
    assert not sent
    assert "Where is my parcel?" not in signed_in.get("/tickets").text


def test_a_ticket_is_opened_listed_and_confirmed_by_mail(signed_in, sent):
    before = soup_of(signed_in.get("/tickets")).select("tbody tr")
    response = signed_in.post("/contact", data=_GOOD)
    assert response.status_code == 302
    number = response.headers["Location"].rsplit("/", 1)[1]
    assert re.fullmatch(r"HC-\d{6}", number)
    rows = soup_of(signed_in.get("/tickets")).select("tbody tr")
    assert len(rows) == len(before) + 1
    assert [c.get_text() for c in rows[0].find_all("td")][:3] == [
        number,
        "Where is my parcel?",
        "Orders & shipping",
    ]
    page = soup_of(signed_in.get(f"/tickets/{number}"))
    assert "NM-12345-6" in page.select_one(".details").get_text()
    assert "Open" in page.select_one(".details").get_text()
    [mail] = sent
    assert isinstance(mail, Message) and number in mail.subject and "NM-12345-6" in mail.body


def test_a_reply_reopens_a_ticket_and_a_resolved_one_takes_none(signed_in):
    rows = soup_of(signed_in.get("/tickets")).select("tbody tr")
    by_status = {r.select_one(".status").get_text(): r.find("a").get_text() for r in rows}
    resolved = by_status.get("Resolved")
    if resolved:
        refused = signed_in.post(f"/tickets/{resolved}/reply", data={"message": "Thanks!"})
        assert refused.status_code == 400
    number = signed_in.post("/contact", data=_GOOD).headers["Location"].rsplit("/", 1)[1]
    assert signed_in.post(f"/tickets/{number}/reply", data={"message": " "}).status_code == 400
    sent = signed_in.post(f"/tickets/{number}/reply", data={"message": "Any news?"})
    assert sent.status_code == 302
    assert "Any news?" in signed_in.get(f"/tickets/{number}").text


def test_forms_carry_a_csrf_token(database, tmp_path):
    copy = tmp_path / "csrf.sqlite"
    copy.write_bytes(database.read_bytes())
    client = create_app({"DATABASE": str(copy)}).test_client()
    with client.session_transaction() as session:
        session["user_id"] = 1
    assert 'name="csrf_token"' in client.get("/contact").text
    assert client.post("/contact", data=_GOOD).status_code == 400


def test_sign_in_goes_back_to_the_page_asked_for_on_this_site_only(client):
    persona = make_persona(3)
    wrong = client.post("/login", data={"username": persona.username, "password": "x"})
    assert wrong.status_code == 422
    right = client.post(
        "/login?next=//evil.example",
        data={"username": persona.username, "password": persona.password},
    )
    assert right.headers["Location"] == "/"


def test_an_oversized_post_is_refused_in_the_sites_style(signed_in):
    response = signed_in.post("/contact", data={**_GOOD, "message": "x" * 70000})
    assert response.status_code == 413
    assert "Your message is too long" in response.text


def test_every_state_changing_route_refuses_a_post_without_a_token(database, tmp_path):
    copy = tmp_path / "csrf.sqlite"
    copy.write_bytes(database.read_bytes())
    app = create_app({"DATABASE": str(copy)})
    client = app.test_client()
    with client.session_transaction() as session:
        session["user_id"] = 1
    number = sqlite3.connect(copy).execute("SELECT number FROM tickets LIMIT 1").fetchone()[0]
    posts = [r for r in app.url_map.iter_rules() if "POST" in (r.methods or ())]
    assert {r.endpoint for r in posts} >= {"support.contact", "support.reply", "auth.logout"}
    for rule in posts:
        url = rule.rule.replace("<number>", number)
        assert client.post(url, data={"message": "hello there"}).status_code == 400, url
    assert (
        sqlite3.connect(copy).execute("SELECT COUNT(*) FROM ticket_messages").fetchone()[0]
        == (sqlite3.connect(database).execute("SELECT COUNT(*) FROM ticket_messages").fetchone()[0])
    )

"""Account settings, password change, address book, wishlist and writing reviews."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from werkzeug.security import check_password_hash

PROFILE = {
    "first_name": "Grace",
    "last_name": "Hopper",
    "email": "grace@example.org",
    "phone": "2025550199",
    "newsletter": "1",
}
ADDRESS = {
    "label": "Cabin",
    "name": "Grace Hopper",
    "street": "1 Lake Road",
    "city": "Bend",
    "state": "OR",
    "zip": "97701",
    "phone": "(541) 555-0100",
}


def text(response) -> str:
    return BeautifulSoup(response.text, "html.parser").get_text(" ")


def test_overview_shows_profile_and_saved_cards(customer) -> None:
    body = text(customer.get("/account"))
    card = customer.one("SELECT * FROM payment_methods WHERE is_default = 1 AND user_id = 1")
    assert customer.persona.email in body
    assert f"{card['brand']} ending in {card['last4']}" in body


def test_settings_save_profile_and_newsletter_choice(customer) -> None:
    response = customer.post("/account/settings", PROFILE)
    assert response.status_code == 302
    user = customer.one("SELECT * FROM users WHERE id = 1")
    assert (user["first_name"], user["email"], user["phone"], user["newsletter"]) == (
        "Grace",
        "grace@example.org",
        "(202) 555-0199",
        1,
    )
    customer.post("/account/settings", {**PROFILE, "newsletter": ""})
    assert customer.one("SELECT newsletter FROM users WHERE id = 1")[0] == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("first_name", "", "Enter your first name."),
        ("email", "", "Enter your email address."),
        ("email", "not-an-email", "Enter an email address like name@example.com."),
        ("phone", "12", "Enter a 10-digit phone number."),
    ],
)
def test_settings_validation(customer, field: str, value: str, message: str) -> None:
    before = dict(customer.one("SELECT * FROM users WHERE id = 1"))
    response = customer.post("/account/settings", {**PROFILE, field: value})
    assert response.status_code == 400 and message in text(response)
    assert dict(customer.one("SELECT * FROM users WHERE id = 1")) == before


def test_password_change_needs_the_current_password_and_a_match(customer) -> None:
    current = customer.persona.password
    wrong = customer.post(
        "/account/password",
        {"current_password": "nope", "new_password": "abcdefgh1", "confirm_password": "abcdefgh1"},
    )
    assert wrong.status_code == 400 and "Your current password is incorrect." in text(wrong)
    mismatch = customer.post(
        "/account/password",
        {"current_password": current, "new_password": "abcdefgh1", "confirm_password": "x"},
    )
    assert "The new passwords do not match." in text(mismatch)
    short = customer.post(
        "/account/password",
        {"current_password": current, "new_password": "abc", "confirm_password": "abc"},
    )
    assert "Use at least 8 characters." in text(short)
    done = customer.post(
        "/account/password",
        {"current_password": current, "new_password": "abcdefgh1", "confirm_password": "abcdefgh1"},
    )
    assert done.status_code == 302
    stored = customer.one("SELECT password_hash FROM users WHERE id = 1")[0]
    assert check_password_hash(stored, "abcdefgh1")


def test_address_book_add_edit_default_and_delete(customer) -> None:
    assert customer.post("/account/addresses/new", ADDRESS).status_code == 302
    added = customer.one("SELECT * FROM addresses WHERE label = 'Cabin'")
    assert added["is_default"] == 0 and added["country"] == "United States"
    customer.post(f"/account/addresses/{added['id']}/edit", {**ADDRESS, "city": "Sisters"})
    assert customer.one("SELECT city FROM addresses WHERE id = ?", (added["id"],))[0] == "Sisters"
    customer.post(f"/account/addresses/{added['id']}/default")
    defaults = customer.all("SELECT id FROM addresses WHERE user_id = 1 AND is_default = 1")
    assert [row["id"] for row in defaults] == [added["id"]]
    customer.post(f"/account/addresses/{added['id']}/delete")
    assert not customer.all("SELECT id FROM addresses WHERE id = ?", (added["id"],))
    assert len(customer.all("SELECT id FROM addresses WHERE user_id = 1 AND is_default = 1")) == 1


def test_address_form_validation_keeps_the_book_unchanged(customer) -> None:
    before = customer.all("SELECT * FROM addresses")
    response = customer.post("/account/addresses/new", {**ADDRESS, "label": "", "zip": "9"})
    assert response.status_code == 400
    assert "Enter a label, like Home." in text(response)
    assert "Enter a 5-digit ZIP code." in text(response)
    assert customer.all("SELECT * FROM addresses") == before


def test_another_customers_address_cannot_be_touched(customer) -> None:
    with customer.db() as conn:
        conn.execute(
            "INSERT INTO addresses (id, user_id, label, name, street, city, state, zip, country,"
            " phone) VALUES (500, 2, 'Home', 'X', 'Y', 'Z', 'CA', '90001', 'United States', 'P')"
        )
    assert customer.get("/account/addresses/500/edit").status_code == 404
    assert customer.post("/account/addresses/500/delete").status_code == 404
    assert customer.one("SELECT COUNT(*) FROM addresses WHERE id = 500")[0] == 1


def test_wishlist_add_and_remove(customer) -> None:
    product = customer.product()
    customer.post("/wishlist/add", {"product_id": product["id"]})
    customer.post("/wishlist/add", {"product_id": product["id"]})
    assert customer.one("SELECT COUNT(*) FROM wishlist_items WHERE user_id = 1")[0] == 1
    assert product["name"] in text(customer.get("/account/wishlist"))
    assert "Remove from wishlist" in text(customer.get(f"/p/{product['slug']}"))
    customer.post("/wishlist/remove", {"product_id": product["id"], "next": "/account/wishlist"})
    assert customer.one("SELECT COUNT(*) FROM wishlist_items")[0] == 0


def test_wishlist_needs_sign_in(shopper) -> None:
    response = shopper.post("/wishlist/add", {"product_id": 1})
    assert response.status_code == 302 and response.location.startswith("/login")


def test_writing_a_review_updates_the_rating(customer) -> None:
    product = customer.product("p.review_count = 0")
    response = customer.post(
        f"/p/{product['slug']}/reviews",
        {"rating": "4", "title": "Nice", "body": "Works as described."},
    )
    assert response.status_code == 302
    updated = customer.one(
        "SELECT rating, review_count FROM products WHERE id = ?", (product["id"],)
    )
    assert (updated["rating"], updated["review_count"]) == (4.0, 1)
    review = customer.one("SELECT * FROM reviews WHERE product_id = ?", (product["id"],))
    assert review["user_id"] == 1 and review["created_at"] == "2026-05-14T09:30:00"
    again = customer.post(
        f"/p/{product['slug']}/reviews", {"rating": "1", "title": "x", "body": "y"}
    )
    assert again.status_code == 400 and "You have already reviewed this product." in text(again)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"rating": "6", "title": "t", "body": "b"}, "Choose a rating from 1 to 5 stars."),
        ({"rating": "5", "title": "", "body": "b"}, "Enter a title for your review."),
        ({"rating": "5", "title": "t", "body": " "}, "Write a few words about the product."),
    ],
)
def test_review_validation(customer, form: dict[str, str], message: str) -> None:
    product = customer.product()
    response = customer.post(f"/p/{product['slug']}/reviews", form)
    assert response.status_code == 400 and message in text(response)
    assert (
        customer.one("SELECT review_count FROM products WHERE id = ?", (product["id"],))[0]
        == (product["review_count"])
    )

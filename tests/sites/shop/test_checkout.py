"""Checkout: choosing address and card, validation messages, coupons, placing the order."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from webenv.sites.shop.numbering import order_number

PLAIN = "NOT EXISTS (SELECT 1 FROM product_options WHERE product_id = p.id) AND p.stock > 20"

GOOD_ADDRESS = {
    "address": "new",
    "name": "Ada Lovelace",
    "street": "12 Analytical Way",
    "city": "Portland",
    "state": "OR",
    "zip": "97201",
    "phone": "503-555-0142",
}
GOOD_CARD = {
    "payment": "new",
    "card_name": "Ada Lovelace",
    "card_number": "4111 1111 1111 1111",
    "card_expiry": "08/29",
    "card_cvv": "123",
}


@pytest.fixture
def basket(customer):
    """A signed-in customer with one plain, well-stocked product in the cart."""
    product = customer.product(PLAIN)
    assert customer.add(product["id"], quantity=2).status_code == 302
    customer.basket_product = product
    return customer


def test_empty_cart_cannot_check_out(customer) -> None:
    response = customer.get("/checkout/shipping")
    assert response.status_code == 302 and response.location == "/cart"


def test_later_steps_send_you_back_to_the_first_missing_one(basket) -> None:
    assert basket.get("/checkout/payment").location == "/checkout/shipping"
    assert basket.get("/checkout/review").location == "/checkout/shipping"
    basket.post("/checkout/shipping", {"address": "1"})
    assert basket.get("/checkout/review").location == "/checkout/payment"


def test_shipping_step_lists_saved_addresses(basket) -> None:
    page = basket.get("/checkout/shipping").text
    assert basket.persona.address.street in page
    assert "Use a new address" in page


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "", "Enter the recipient's full name."),
        ("street", "   ", "Enter a street address."),
        ("city", "", "Enter a city."),
        ("state", "", "Choose a state."),
        ("state", "ZZ", "Choose a US state."),
        ("zip", "1234", "Enter a 5-digit ZIP code."),
        ("zip", "ABCDE", "Enter a 5-digit ZIP code."),
        ("phone", "555-01", "Enter a 10-digit phone number."),
        ("phone", "phone me", "Enter a 10-digit phone number."),
        ("name", "x" * 81, "Use at most 80 characters."),
    ],
)
def test_new_address_validation(basket, field: str, value: str, message: str) -> None:
    response = basket.post("/checkout/shipping", {**GOOD_ADDRESS, field: value})
    assert response.status_code == 400
    page = BeautifulSoup(response.text, "html.parser")
    assert page.find(id=f"{field}-error").get_text() == message
    control = page.find(id=field)
    assert control["aria-invalid"] == "true"
    assert f"{field}-error" in control["aria-describedby"].split()


def test_new_address_is_used_and_optionally_saved(basket) -> None:
    before = len(basket.all("SELECT id FROM addresses WHERE user_id = 1"))
    basket.post("/checkout/shipping", {**GOOD_ADDRESS, "save_address": "1"})
    basket.post("/checkout/payment", {"payment": "1"})
    number = basket.place()
    order = basket.one("SELECT * FROM orders WHERE number = ?", (number,))
    assert (order["ship_name"], order["ship_zip"], order["ship_phone"]) == (
        "Ada Lovelace",
        "97201",
        "(503) 555-0142",
    )
    assert len(basket.all("SELECT id FROM addresses WHERE user_id = 1")) == before + 1


def test_choosing_no_address_is_explained(basket) -> None:
    response = basket.post("/checkout/shipping", {"address": "999"})
    assert response.status_code == 400 and "Choose a shipping address." in response.text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("card_name", "", "Enter the name on the card."),
        ("card_number", "", "Enter the card number."),
        ("card_number", "4111 1111 1111 1112", "That card number is not valid."),
        ("card_number", "1234", "Enter a valid card number."),
        ("card_number", "9999 9999 9999 9995", "We accept Visa, Mastercard"),
        ("card_expiry", "13/29", "Enter the expiration date as MM/YY."),
        ("card_expiry", "0829", "Enter the expiration date as MM/YY."),
        ("card_expiry", "04/26", "This card has expired."),
        ("card_cvv", "12", "Enter the 3-digit security code."),
        ("card_cvv", "abc", "Enter the 3-digit security code."),
    ],
)
def test_new_card_validation(basket, field: str, value: str, message: str) -> None:
    basket.post("/checkout/shipping", {"address": "1"})
    response = basket.post("/checkout/payment", {**GOOD_CARD, field: value})
    assert response.status_code == 400
    assert message in response.text
    assert "4111 1111" not in response.text


def test_card_expiring_this_month_is_still_accepted(basket) -> None:
    basket.post("/checkout/shipping", {"address": "1"})
    response = basket.post("/checkout/payment", {**GOOD_CARD, "card_expiry": "05/26"})
    assert response.status_code == 302


def test_american_express_needs_a_four_digit_code(basket) -> None:
    basket.post("/checkout/shipping", {"address": "1"})
    amex = {**GOOD_CARD, "card_number": "378282246310005", "card_cvv": "123"}
    assert "Enter the 4-digit security code." in basket.post("/checkout/payment", amex).text
    assert basket.post("/checkout/payment", {**amex, "card_cvv": "1234"}).status_code == 302


def test_an_expired_saved_card_is_refused(basket) -> None:
    expired = basket.one("SELECT id FROM payment_methods WHERE user_id = 1 AND exp_year < 2026")
    basket.post("/checkout/shipping", {"address": "1"})
    response = basket.post("/checkout/payment", {"payment": expired["id"]})
    assert response.status_code == 400 and "This card has expired." in response.text


def test_new_card_stores_only_brand_and_last_four(basket) -> None:
    basket.post("/checkout/shipping", {"address": "1"})
    basket.post("/checkout/payment", {**GOOD_CARD, "save_card": "1"})
    number = basket.place()
    order = basket.one("SELECT * FROM orders WHERE number = ?", (number,))
    assert (order["payment_brand"], order["payment_last4"]) == ("Visa", "1111")
    card = basket.one("SELECT * FROM payment_methods ORDER BY id DESC LIMIT 1")
    assert (card["brand"], card["last4"], card["exp_month"], card["exp_year"]) == (
        "Visa",
        "1111",
        8,
        2029,
    )


@pytest.mark.parametrize(
    ("payment", "saved"),
    [({"payment": "1"}, "that card"), (GOOD_CARD, None), ({**GOOD_CARD, "save_card": "1"}, "new")],
    ids=["saved card", "typed card", "typed and saved"],
)
def test_an_order_records_which_saved_card_paid_it(basket, payment, saved) -> None:
    # A card typed in is no saved card, whatever its brand and last four digits.
    basket.post("/checkout/shipping", {"address": "1"})
    basket.post("/checkout/payment", payment)
    order = basket.one("SELECT * FROM orders WHERE number = ?", (basket.place(),))
    newest = basket.one("SELECT id FROM payment_methods ORDER BY id DESC LIMIT 1")["id"]
    wanted = {"that card": 1, None: None, "new": newest}[saved]
    assert order["payment_method_id"] == wanted


def test_placing_an_order_records_it_decrements_stock_and_empties_the_cart(basket) -> None:
    product = basket.basket_product
    basket.to_review()
    review = basket.get("/checkout/review").text
    assert "Place order" in review and "Estimated tax" in review
    number = basket.place()
    order = basket.one("SELECT * FROM orders WHERE number = ?", (number,))
    items = basket.all("SELECT * FROM order_items WHERE order_id = ?", (order["id"],))
    assert order["status"] == "placed" and order["created_at"] == "2026-05-14T09:30:00"
    assert [(i["product_id"], i["quantity"]) for i in items] == [(product["id"], 2)]
    assert order["subtotal_cents"] == 2 * product["price_cents"]
    assert order["total_cents"] == (
        order["subtotal_cents"] + order["shipping_cents"] + order["tax_cents"]
    )
    stock = basket.one("SELECT stock FROM products WHERE id = ?", (product["id"],))["stock"]
    assert stock == product["stock"] - 2
    assert basket.cart_rows() == []
    confirmation = basket.get(f"/checkout/confirmation/{number}")
    assert confirmation.status_code == 200 and number in confirmation.text


def test_placing_an_order_sends_a_confirmation_email(basket) -> None:
    basket.to_review()
    number = basket.place()
    (message,) = basket.outbox
    assert message.to == basket.persona.email and number in message.subject
    assert basket.basket_product["name"] in message.body


def test_order_numbers_follow_from_the_database(basket) -> None:
    basket.to_review()
    number = basket.place()
    order_id = basket.one("SELECT id FROM orders WHERE number = ?", (number,))["id"]
    with basket.db() as conn:
        assert order_number(conn, order_id) == number


def test_order_fails_cleanly_when_stock_ran_out(basket) -> None:
    basket.to_review()
    with basket.db() as conn:
        conn.execute("UPDATE products SET stock = 1 WHERE id = ?", (basket.basket_product["id"],))
    response = basket.post("/checkout/place")
    assert response.status_code == 409 and "only 1 left in stock" in response.text
    assert (
        basket.one("SELECT COUNT(*) FROM orders WHERE created_at = '2026-05-14T09:30:00'")[0] == 0
    )
    assert len(basket.cart_rows()) == 1


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("NOPE", "The coupon code NOPE is not valid."),
        ("VIP25", "The coupon code VIP25 is not valid."),
        ("FLASH30", "The coupon code FLASH30 has expired."),
        ("SAVE20", "needs a subtotal of at least $100.00"),
        ("", "Enter a coupon code."),
    ],
)
def test_unusable_coupons_are_explained(basket, code: str, message: str) -> None:
    basket.to_review()
    with basket.db() as conn:
        conn.execute(
            "UPDATE products SET price_cents = 1000 WHERE id = ?", (basket.basket_product["id"],)
        )
    response = basket.post("/checkout/coupon", {"coupon": code, "action": "apply"})
    assert response.status_code == 400 and message in response.text


def test_a_percent_coupon_discounts_the_order(basket) -> None:
    basket.to_review()
    assert basket.post("/checkout/coupon", {"coupon": " welcome10 "}).status_code == 302
    assert "Coupon WELCOME10 applied" in basket.get("/checkout/review").text
    number = basket.place()
    order = basket.one("SELECT * FROM orders WHERE number = ?", (number,))
    assert order["coupon_code"] == "WELCOME10"
    assert order["discount_cents"] == round(order["subtotal_cents"] * 0.1)
    assert order["total_cents"] == (
        order["subtotal_cents"]
        - order["discount_cents"]
        + order["shipping_cents"]
        + order["tax_cents"]
    )


def test_tax_follows_the_ship_to_state(basket) -> None:
    basket.post("/checkout/shipping", {**GOOD_ADDRESS, "state": "OR"})
    basket.post("/checkout/payment", {"payment": "1"})
    oregon = basket.one("SELECT * FROM orders WHERE number = ?", (basket.place(),))
    assert oregon["tax_cents"] == 0


def test_an_unknown_confirmation_is_not_found(customer) -> None:
    assert customer.get("/checkout/confirmation/NM-00000-0").status_code == 404

"""Every form, fed odd input: never a server error, and a refusal never writes to the store."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ODD_VALUES = st.sampled_from(
    [
        "",
        " ",
        "0",
        "-1",
        "1",
        "2",
        "10",
        "11",
        "1.5",
        "1e9",
        "99999999999999999999999",
        "NaN",
        "new",
        "none",
        "null",
        "\x00",
        "%00",
        "<script>alert(1)</script>",
        "' OR 1=1 --",
        "😀" * 40,
        "ÿ",
        "XS",
        "Black",
        "CA",
        "97201",
        "05/26",
        "4111111111111111",
        "WELCOME10",
        "original",
    ]
)
VALUES = st.one_of(
    ODD_VALUES,
    st.text(max_size=40),
    st.text(min_size=300, max_size=5000),
    st.integers().map(str),
    st.lists(ODD_VALUES, min_size=2, max_size=3),
)


def snapshot(shopper) -> str:
    """A fingerprint of the whole database file: any committed write changes it."""
    return hashlib.sha256(shopper.db_path.read_bytes()).hexdigest()


def routes(shopper) -> dict[str, tuple[str, list[str]]]:
    """Name -> (URL, field names) for every form that posts in the signed-in store."""
    placed = shopper.one("SELECT number FROM orders WHERE status = 'placed'")[0]
    delivered = shopper.one(
        "SELECT id, number FROM orders WHERE status = 'delivered' ORDER BY created_at DESC"
    )
    items = shopper.all("SELECT id FROM order_items WHERE order_id = ?", (delivered["id"],))
    slug = shopper.product()["slug"]
    address = ["label", "name", "street", "city", "state", "zip", "phone", "is_default"]
    return {
        "login": ("/login", ["login", "password", "next"]),
        "cart_add": ("/cart/add", ["product_id", "size", "color", "quantity"]),
        "cart_update": ("/cart/update", ["quantity-1", "quantity-2", "quantity-x"]),
        "cart_remove": ("/cart/remove", ["item_id"]),
        "shipping": ("/checkout/shipping", ["address", *address[1:7], "save_address"]),
        "payment": (
            "/checkout/payment",
            ["payment", "card_name", "card_number", "card_expiry", "card_cvv", "save_card"],
        ),
        "coupon": ("/checkout/coupon", ["coupon", "action"]),
        "settings": (
            "/account/settings",
            ["first_name", "last_name", "email", "phone", "newsletter"],
        ),
        "password": ("/account/password", ["current_password", "new_password", "confirm_password"]),
        "address_new": ("/account/addresses/new", address),
        "address_edit": ("/account/addresses/1/edit", address),
        "wishlist": ("/wishlist/add", ["product_id", "next"]),
        "review": (f"/p/{slug}/reviews", ["rating", "title", "body"]),
        "return": (
            f"/account/orders/{delivered['number']}/return",
            [*(f"return-{item['id']}" for item in items), "reason", "refund_method"],
        ),
        "cancel": (f"/account/orders/{placed}/cancel", ["confirm"]),
        "search": (
            "/search",
            ["q", "sort", "brand", "min_price", "max_price", "min_rating", "in_stock", "page"],
        ),
    }


def forms(fields: list[str]) -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries({}, optional=dict.fromkeys(fields, VALUES))


ROUTE_NAMES = [
    "login",
    "cart_add",
    "cart_update",
    "cart_remove",
    "shipping",
    "payment",
    "coupon",
    "settings",
    "password",
    "address_new",
    "address_edit",
    "wishlist",
    "review",
    "return",
    "cancel",
    "search",
]


@pytest.mark.parametrize("name", ROUTE_NAMES)
def test_odd_form_input_is_answered_without_server_errors_or_lost_data(customer, name) -> None:
    product = customer.product(
        "NOT EXISTS (SELECT 1 FROM product_options WHERE product_id = p.id) AND p.stock > 20"
    )
    customer.add(product["id"])
    customer.to_review()
    url, fields = routes(customer)[name]

    @settings(
        max_examples=12,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(form=forms(fields))
    def check(form: dict[str, object]) -> None:
        before = snapshot(customer)
        if name == "search":
            response = customer.get(url, query_string=form)
        else:
            response = customer.post(url, form)
        assert response.status_code < 500
        if response.status_code >= 400:
            assert snapshot(customer) == before

    check()

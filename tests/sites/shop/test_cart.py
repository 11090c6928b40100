"""The cart: adding with options, merging lines, stock limits, updating and removing."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

WITH_SIZES = "EXISTS (SELECT 1 FROM product_options WHERE product_id = p.id AND kind = 'size')"
PLAIN = "NOT EXISTS (SELECT 1 FROM product_options WHERE product_id = p.id) AND p.stock > 20"


def guest_lines(shopper) -> list:
    return shopper.all("SELECT * FROM cart_items ORDER BY id")


@pytest.mark.parametrize(
    ("missing", "message"), [("size", "Choose a size."), ("color", "Choose a color.")]
)
def test_adding_without_a_required_option_explains_what_is_missing(
    shopper, missing: str, message: str
) -> None:
    product = shopper.product(WITH_SIZES + " AND p.stock > 5")
    response = shopper.add(product["id"], **{missing: ""})
    assert response.status_code == 400
    assert message in response.text
    assert 'aria-invalid="true"' in response.text
    assert not guest_lines(shopper)


def test_adding_an_option_the_product_lacks_is_refused(shopper) -> None:
    product = shopper.product(WITH_SIZES + " AND p.stock > 5")
    assert shopper.add(product["id"], size="XXXL").status_code == 400


@pytest.mark.parametrize("quantity", ["0", "-1", "abc", "11", "", "1.5"])
def test_adding_a_bad_quantity_is_refused(shopper, quantity: str) -> None:
    product = shopper.product(PLAIN)
    response = shopper.add(product["id"], quantity=quantity)
    assert response.status_code == 400 and "Enter a quantity from 1 to 10." in response.text


def test_adding_the_same_product_and_options_again_raises_the_quantity(shopper) -> None:
    product = shopper.product(WITH_SIZES + " AND p.stock > 5")
    assert shopper.add(product["id"], quantity=2).status_code == 302
    assert shopper.add(product["id"], quantity=1).status_code == 302
    lines = guest_lines(shopper)
    assert [line["quantity"] for line in lines] == [3]
    assert "Cart (3)" in shopper.get("/cart").text


def test_other_options_make_a_separate_line(shopper) -> None:
    product = shopper.product(WITH_SIZES + " AND p.stock > 5")
    sizes = [
        r["value"]
        for r in shopper.all(
            "SELECT value FROM product_options WHERE product_id = ? AND kind = 'size'",
            (product["id"],),
        )
    ]
    shopper.add(product["id"], size=sizes[0])
    shopper.add(product["id"], size=sizes[1])
    assert len(guest_lines(shopper)) == 2


def test_cannot_add_more_than_in_stock(shopper) -> None:
    product = shopper.product("p.stock BETWEEN 1 AND 5 AND " + PLAIN.split(" AND ")[0])
    response = shopper.add(product["id"], quantity=product["stock"] + 1)
    assert response.status_code == 400
    assert f"Only {product['stock']} left in stock." in response.text


def test_cart_page_names_each_line_and_updates_quantities(shopper) -> None:
    product = shopper.product(PLAIN)
    shopper.add(product["id"])
    (line,) = guest_lines(shopper)
    page = BeautifulSoup(shopper.get("/cart").text, "html.parser")
    assert page.find("label", string=f"Quantity for {product['name']}")
    assert [b.get_text() for b in page.select("button[form=remove-form]")] == [
        f"Remove {product['name']}"
    ]
    response = shopper.post("/cart/update", {f"quantity-{line['id']}": "4"})
    assert response.status_code == 302
    assert guest_lines(shopper)[0]["quantity"] == 4


def test_updating_to_zero_removes_the_line(shopper) -> None:
    product = shopper.product(PLAIN)
    shopper.add(product["id"])
    (line,) = guest_lines(shopper)
    shopper.post("/cart/update", {f"quantity-{line['id']}": "0"})
    assert not guest_lines(shopper)


def test_a_bad_update_changes_nothing_and_says_why(shopper) -> None:
    product = shopper.product(PLAIN)
    shopper.add(product["id"], quantity=2)
    (line,) = guest_lines(shopper)
    response = shopper.post("/cart/update", {f"quantity-{line['id']}": "lots"})
    assert response.status_code == 400 and "Enter a quantity from 0 to 10." in response.text
    assert guest_lines(shopper)[0]["quantity"] == 2


def test_remove_deletes_only_that_line(shopper) -> None:
    first, second = shopper.all("SELECT id FROM products p WHERE " + PLAIN + " ORDER BY id LIMIT 2")
    shopper.add(first["id"])
    shopper.add(second["id"])
    line = guest_lines(shopper)[0]
    assert shopper.post("/cart/remove", {"item_id": line["id"]}).status_code == 302
    assert [row["product_id"] for row in guest_lines(shopper)] == [second["id"]]


def test_guest_cart_merges_into_the_customers_cart_on_sign_in(shopper) -> None:
    product = shopper.product(PLAIN)
    shopper.add(product["id"], quantity=2)
    shopper.sign_in()
    assert [(r["product_id"], r["quantity"]) for r in shopper.cart_rows()] == [(product["id"], 2)]
    assert shopper.one("SELECT COUNT(*) FROM carts WHERE user_id IS NULL")[0] == 0
    assert "Cart (2)" in shopper.get("/").text


def test_a_signed_in_cart_survives_signing_out_and_in(customer) -> None:
    product = customer.product(PLAIN)
    customer.add(product["id"])
    customer.get("/logout")
    assert "Cart (0)" in customer.get("/").text
    customer.sign_in()
    assert "Cart (1)" in customer.get("/").text

"""Order history, order details with tracking, cancelling, and returning delivered items."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

NOW = "2026-05-14T09:30:00"
RECENT_DELIVERED = "status = 'delivered' AND created_at > '2026-04-14'"


def page(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_history_lists_every_order_newest_first(customer) -> None:
    orders = customer.all("SELECT number FROM orders WHERE user_id = 1 ORDER BY created_at DESC")
    links = [a.text for a in page(customer.get("/account/orders")).select("tbody th a")]
    assert links == [row["number"] for row in orders]


def test_detail_shows_items_status_and_tracking(customer) -> None:
    order = customer.one("SELECT * FROM orders WHERE status = 'shipped'")
    html = page(customer.get(f"/account/orders/{order['number']}"))
    assert html.h1.text == f"Order {order['number']}"
    assert order["tracking_number"] in html.text and "Shipped" in html.text
    items = customer.all("SELECT name FROM order_items WHERE order_id = ?", (order["id"],))
    assert {row["name"] for row in items} <= {a.text for a in html.select(".review-lines a")}
    assert not html.find("button", string="Cancel order")


def test_someone_elses_order_is_not_found(customer) -> None:
    with customer.db() as conn:
        conn.execute(
            "INSERT INTO orders SELECT 900, 'NM-99999-9', 2, status, created_at, ship_name,"
            " ship_street, ship_city, ship_state, ship_zip, ship_country, ship_phone,"
            " payment_brand, payment_last4, payment_method_id, subtotal_cents, shipping_cents,"
            " tax_cents, discount_cents, total_cents, coupon_code, tracking_number"
            " FROM orders WHERE id = 1"
        )
    assert customer.get("/account/orders/NM-99999-9").status_code == 404
    assert customer.post("/account/orders/NM-99999-9/cancel").status_code == 404


def test_cancelling_a_placed_order_restores_stock(customer) -> None:
    order = customer.one("SELECT * FROM orders WHERE status = 'placed'")
    items = customer.all(
        "SELECT order_items.product_id, order_items.quantity, products.stock FROM order_items"
        " JOIN products ON products.id = product_id WHERE order_id = ?",
        (order["id"],),
    )
    assert "Cancel order" in customer.get(f"/account/orders/{order['number']}").text
    response = customer.post(f"/account/orders/{order['number']}/cancel")
    assert response.status_code == 302
    assert customer.one("SELECT status FROM orders WHERE id = ?", (order["id"],))[0] == "cancelled"
    for item in items:
        stock = customer.one("SELECT stock FROM products WHERE id = ?", (item["product_id"],))[0]
        assert stock == item["stock"] + item["quantity"]
    assert "has been cancelled" in customer.get(response.location).text


def test_a_shipped_order_cannot_be_cancelled(customer) -> None:
    order = customer.one("SELECT * FROM orders WHERE status = 'shipped'")
    customer.post(f"/account/orders/{order['number']}/cancel")
    assert customer.one("SELECT status FROM orders WHERE id = ?", (order["id"],))[0] == "shipped"


def return_form(customer, order) -> dict[str, str]:
    items = customer.all("SELECT id, quantity FROM order_items WHERE order_id = ?", (order["id"],))
    form = {f"return-{item['id']}": "0" for item in items}
    form[f"return-{items[0]['id']}"] = "1"
    return {**form, "reason": "Doesn't fit", "refund_method": "original"}


def test_returning_items_of_a_recent_delivered_order(customer) -> None:
    order = customer.one(f"SELECT * FROM orders WHERE {RECENT_DELIVERED}")
    assert "Return items" in customer.get(f"/account/orders/{order['number']}").text
    response = customer.post(
        f"/account/orders/{order['number']}/return", return_form(customer, order)
    )
    assert response.status_code == 302
    found = customer.one("SELECT * FROM returns WHERE order_id = ?", (order["id"],))
    assert (found["reason"], found["refund_method"], found["status"]) == (
        "Doesn't fit",
        "original",
        "requested",
    )
    assert found["created_at"] == NOW and found["number"].startswith("RMA-")
    assert (
        customer.one("SELECT SUM(quantity) FROM return_items WHERE return_id = ?", (found["id"],))[
            0
        ]
        == 1
    )
    assert found["number"] in customer.get(response.location).text


def test_returning_everything_marks_the_order_returned(customer) -> None:
    order = customer.one(f"SELECT * FROM orders WHERE {RECENT_DELIVERED}")
    items = customer.all("SELECT id, quantity FROM order_items WHERE order_id = ?", (order["id"],))
    form = {f"return-{item['id']}": str(item["quantity"]) for item in items}
    customer.post(
        f"/account/orders/{order['number']}/return",
        {**form, "reason": "Changed my mind", "refund_method": "store_credit"},
    )
    assert customer.one("SELECT status FROM orders WHERE id = ?", (order["id"],))[0] == "returned"


def test_cancelling_a_return_gives_its_items_back_and_the_order_is_delivered_again(
    customer,
) -> None:
    order = customer.one(f"SELECT * FROM orders WHERE {RECENT_DELIVERED}")
    items = customer.all("SELECT id, quantity FROM order_items WHERE order_id = ?", (order["id"],))
    form = {f"return-{item['id']}": str(item["quantity"]) for item in items}
    done = customer.post(
        f"/account/orders/{order['number']}/return",
        {**form, "reason": "Changed my mind", "refund_method": "store_credit"},
    )
    number = customer.one("SELECT number FROM returns WHERE order_id = ?", (order["id"],))[0]
    assert "Cancel return" in customer.get(done.location).text
    response = customer.post(f"/account/returns/{number}/cancel")
    assert response.status_code == 302
    shown = page(customer.get(response.location))
    assert "has been cancelled" in shown.text and "Status: Cancelled" in shown.text
    assert not shown.find("button", string="Cancel return")
    assert customer.one("SELECT status FROM returns WHERE number = ?", (number,))[0] == "cancelled"
    assert customer.one("SELECT status FROM orders WHERE id = ?", (order["id"],))[0] == "delivered"
    # Its items may go back again; a cancelled return cannot be cancelled twice.
    assert "Return items" in customer.get(f"/account/orders/{order['number']}").text
    again = page(customer.get(customer.post(f"/account/returns/{number}/cancel").location))
    assert "can no longer be cancelled" in again.text


def test_a_refunded_return_cannot_be_cancelled_nor_someone_elses(customer) -> None:
    found = customer.one("SELECT * FROM returns WHERE status = 'refunded'")
    customer.post(f"/account/returns/{found['number']}/cancel")
    assert customer.one("SELECT status FROM returns WHERE id = ?", (found["id"],))[0] == "refunded"
    assert not page(customer.get(f"/account/returns/{found['number']}")).find(
        "button", string="Cancel return"
    )
    assert customer.post("/account/returns/RMA-NOPE/cancel").status_code == 404


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"reason": ""}, "Choose a reason for the return."),
        ({"reason": "Because"}, "Choose a reason for the return."),
        ({"refund_method": ""}, "Choose how you would like to be refunded."),
        ({"refund_method": "cash"}, "Choose how you would like to be refunded."),
        ({"__all_zero__": ""}, "Choose at least one item to return."),
        ({"__too_many__": ""}, "You can return at most"),
    ],
)
def test_return_form_validation(customer, change: dict[str, str], message: str) -> None:
    order = customer.one(f"SELECT * FROM orders WHERE {RECENT_DELIVERED}")
    form = {**return_form(customer, order), **change}
    item_fields = [key for key in form if key.startswith("return-")]
    if "__all_zero__" in change:
        form.update(dict.fromkeys(item_fields, "0"))
    if "__too_many__" in change:
        form[item_fields[0]] = "99"
    response = customer.post(f"/account/orders/{order['number']}/return", form)
    assert response.status_code == 400 and message in page(response).text
    assert customer.all("SELECT * FROM returns WHERE order_id = ?", (order["id"],)) == []


def test_returns_close_thirty_days_after_the_order(customer) -> None:
    order = customer.one(
        "SELECT * FROM orders WHERE status = 'delivered' AND created_at < '2026-04-14'"
    )
    assert "Return items" not in customer.get(f"/account/orders/{order['number']}").text
    response = customer.post(
        f"/account/orders/{order['number']}/return", return_form(customer, order)
    )
    assert response.status_code == 400 and "return window for this order closed" in response.text

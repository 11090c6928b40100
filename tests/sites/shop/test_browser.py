"""The shop in a real browser: an accessibility audit of every page type and a full purchase."""

from __future__ import annotations

import re
import sqlite3

from playwright.sync_api import expect

from tests.axe import serious_violations, submit


def product_with_options(world) -> sqlite3.Row:
    conn = sqlite3.connect(world.db_path("shop"))
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(
            "SELECT * FROM products p WHERE stock > 5 AND review_count > 0 AND EXISTS"
            " (SELECT 1 FROM product_options WHERE product_id = p.id AND kind = 'size')"
            " AND EXISTS (SELECT 1 FROM product_options WHERE product_id = p.id"
            " AND kind = 'color') ORDER BY id"
        ).fetchone()
    finally:
        conn.close()


def test_every_page_type_passes_an_accessibility_audit(live_world) -> None:
    world = live_world("shop", seed=0)
    base = world.url("shop")
    page = world.new_page(logged_in=True)
    product = product_with_options(world)
    problems: list[str] = []

    def audit(path: str | None = None) -> None:
        if path is not None:
            page.goto(base + path)
        problems.extend(serious_violations(page))

    page.set_default_timeout(10_000)
    for path in ("/", "/nowhere", "/c/clothing"):
        audit(path)
    page.goto(f"{base}/p/{product['slug']}")
    submit(page.get_by_role("button", name="Add to cart"))  # no size chosen: errors shown
    audit()
    page.get_by_label("Size").select_option(index=1)
    page.get_by_label("Color").select_option(index=1)
    submit(page.get_by_role("button", name="Add to cart"))
    submit(page.get_by_role("button", name="Add to wishlist"))
    audit("/cart")
    audit("/checkout/shipping")
    page.get_by_label("Use a new address").check()
    submit(page.get_by_role("button", name="Continue to payment"))  # empty form: errors
    audit()
    page.get_by_label(re.compile("^Home")).check()
    submit(page.get_by_role("button", name="Continue to payment"))
    audit()
    submit(page.get_by_role("button", name="Continue to review"))
    audit()
    submit(page.get_by_role("button", name="Place order"))
    audit()
    submit(page.get_by_role("link", name="View order details"))
    audit()
    for path in (
        "/account",
        "/account/orders",
        "/account/settings",
        "/account/addresses",
        "/account/addresses/new",
        "/account/wishlist",
    ):
        audit(path)
    conn = sqlite3.connect(world.db_path("shop"))
    try:
        (number,) = conn.execute(
            "SELECT number FROM orders WHERE status = 'delivered' ORDER BY created_at DESC"
        ).fetchone()
    finally:
        conn.close()
    page.goto(f"{base}/account/orders/{number}/return")
    submit(page.get_by_role("button", name="Submit return request"))
    audit()
    page.goto(base + "/logout")
    audit("/login")
    assert problems == []


def test_a_customer_signs_in_searches_and_buys_a_jacket_in_a_size(live_world) -> None:
    world = live_world("shop", seed=0)
    persona = world.persona
    product = product_with_options(world)
    page = world.new_page()
    page.goto(world.url("shop") + "/")
    page.get_by_role("link", name="Sign in").click()
    page.get_by_label("Username or email").fill(persona.username)
    page.get_by_label("Password").fill(persona.password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text(f"Hello, {persona.first_name}")).to_be_visible()

    page.get_by_label("Search products").fill(product["name"])
    page.get_by_role("button", name="Search", exact=True).click()
    page.get_by_role("link", name=product["name"], exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(product["name"])
    size = page.get_by_label("Size").locator("option").nth(1).inner_text()
    color = page.get_by_label("Color").locator("option").nth(2).inner_text()
    page.get_by_label("Size").select_option(size)
    page.get_by_label("Color").select_option(color)
    page.get_by_label("Quantity").fill("2")
    page.get_by_role("button", name="Add to cart").click()
    page.get_by_role("link", name="Cart (2)").click()
    label = f"{product['name']} (Size: {size}, Color: {color})"
    expect(page.get_by_label(f"Quantity for {label}")).to_have_value("2")

    page.get_by_role("link", name="Proceed to checkout").click()
    page.get_by_role("button", name="Continue to payment").click()
    page.get_by_role("button", name="Continue to review").click()
    page.get_by_role("button", name="Place order").click()
    number = page.locator(".order-number strong").inner_text()
    assert re.fullmatch(r"NM-\d{5}-\d", number)

    conn = sqlite3.connect(world.db_path("shop"))
    try:
        row = conn.execute(
            "SELECT order_items.product_id, size, color, quantity FROM orders"
            " JOIN order_items ON order_items.order_id = orders.id WHERE number = ?",
            (number,),
        ).fetchone()
    finally:
        conn.close()
    assert row == (product["id"], size, color, 2)


def test_a_shopper_shows_200_products_on_one_page(live_world) -> None:
    world = live_world("shop", seed=0)
    page = world.new_page()
    page.goto(world.url("shop") + "/search?q=")
    expect(page.locator(".results .card")).to_have_count(24)
    page.get_by_label("Show").select_option("200 per page")
    page.get_by_role("button", name="Apply filters").click()
    expect(page.locator(".results .card")).to_have_count(200)
    expect(page.get_by_label("Show")).to_have_value("200")
    page.get_by_role("link", name="Next page").click()
    expect(page.locator(".results .card")).not_to_have_count(0)
    expect(page.locator(".results .card")).not_to_have_count(24)

"""Browsing: home page, departments with sorting, filters and pages, search, product pages."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from webenv.sites.shop.listing import PAGE_SIZE, PAGE_SIZES


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def card_prices(response) -> list[float]:
    return [
        float(tag.text.strip("$").replace(",", ""))
        for tag in soup(response).select(".results .card .price")
    ]


def card_names(response) -> list[str]:
    return [tag.text for tag in soup(response).select(".results .card-title a")]


def test_every_page_has_search_departments_and_cart_link(shopper) -> None:
    page = soup(shopper.get("/"))
    assert page.find("label", string="Search products")
    assert page.find("button", string="Search")
    assert len(page.select("nav.departments a")) >= 8
    assert [a.get_text(strip=True) for a in page.select("a.cart-link")] == ["Cart (0)"]
    assert page.find("a", string="Sign in")


def test_home_shows_department_tiles_and_featured_products(shopper) -> None:
    page = soup(shopper.get("/"))
    assert len(page.select(".tile")) >= 8
    assert page.select("#featured-title ~ .grid .card")


def test_department_lists_one_page_of_its_products(shopper) -> None:
    response = shopper.get("/c/clothing")
    total = shopper.one(
        "SELECT COUNT(*) FROM products p JOIN categories c ON c.id = p.category_id"
        " WHERE c.slug = 'clothing'"
    )[0]
    assert response.status_code == 200
    assert len(card_names(response)) == min(PAGE_SIZE, total)
    assert f"{total} results" in response.text


@pytest.mark.parametrize(
    ("sort", "key", "reverse"),
    [("price_asc", None, False), ("price_desc", None, True)],
)
def test_department_sorts_by_price(shopper, sort: str, key: None, reverse: bool) -> None:
    prices = card_prices(shopper.get(f"/c/electronics?sort={sort}"))
    assert prices == sorted(prices, reverse=reverse)


def test_pages_link_to_each_other_and_cover_the_department(shopper) -> None:
    first = shopper.get("/c/shoes?sort=price_asc")
    link = soup(first).find("a", string="Next page")
    assert link is not None and "page=2" in link["href"] and "sort=price_asc" in link["href"]
    second = shopper.get(link["href"])
    assert soup(second).find("a", string="Previous page")
    assert not set(card_names(first)) & set(card_names(second))
    assert card_prices(first)[-1] <= card_prices(second)[0]


@pytest.mark.parametrize("size", PAGE_SIZES)
def test_a_shopper_chooses_how_many_products_a_page_shows(shopper, size: int) -> None:
    total = shopper.one("SELECT COUNT(*) FROM products")[0]
    assert total > max(PAGE_SIZES)
    first = shopper.get(f"/search?q=&sort=price_asc&per_page={size}")
    assert len(card_names(first)) == size
    assert f"page 1 of {-(-total // size)}" in first.text
    chosen = soup(first).find("select", id="per_page").find("option", selected=True)
    assert chosen["value"] == str(size)
    link = soup(first).find("a", string="Next page")
    assert f"per_page={size}" in link["href"]
    second = shopper.get(link["href"])
    assert len(card_names(second)) == min(size, total - size)
    assert not set(card_names(first)) & set(card_names(second))


@pytest.mark.parametrize("value", ["", "7", "-24", "1e9", "200000", "abc", "२४"])
def test_an_odd_page_size_shows_the_default(shopper, value: str) -> None:
    response = shopper.get("/search", query_string={"q": "", "per_page": value})
    assert response.status_code == 200
    assert len(card_names(response)) == PAGE_SIZE


def test_filters_narrow_by_brand_price_rating_and_stock(shopper) -> None:
    response = shopper.get(
        "/c/clothing?brand=Trailpeak&min_price=20&max_price=120&min_rating=3&in_stock=1"
    )
    names = card_names(response)
    expected = shopper.all(
        "SELECT name FROM products WHERE brand = 'Trailpeak' AND category_id = 1"
        " AND price_cents BETWEEN 2000 AND 12000 AND rating >= 3 AND stock > 0"
    )
    assert sorted(names) == sorted(row["name"] for row in expected)
    assert "checked" in str(soup(response).find("input", {"value": "Trailpeak"}))


def test_a_malformed_price_filter_is_explained_not_fatal(shopper) -> None:
    response = shopper.get("/c/books?min_price=cheap")
    assert response.status_code == 200
    assert "Enter a price in dollars" in response.text
    assert card_names(response)


def test_search_matches_every_word_and_plural_forms(shopper) -> None:
    product = shopper.product("p.category_id = 1")
    brand, noun = product["brand"], product["name"].split()[-1]
    expected = shopper.one(
        "SELECT COUNT(*) FROM products WHERE name LIKE ? AND name LIKE ?",
        (f"%{brand}%", f"%{noun}%"),
    )[0]
    plural = noun if noun.endswith("s") else noun + "s"
    response = shopper.get(f"/search?q={brand.lower()} {plural.lower()}")
    names = card_names(response)
    assert product["name"] in names or expected > 24
    assert names and all(brand in name and noun in name for name in names)
    assert f"{expected} result" in response.text


def test_search_without_matches_says_so(shopper) -> None:
    response = shopper.get("/search?q=zzzxxyq")
    assert response.status_code == 200 and "No products match" in response.text


def test_unknown_department_and_product_are_404(shopper) -> None:
    assert shopper.get("/c/nothing-here").status_code == 404
    response = shopper.get("/p/nothing-here")
    assert response.status_code == 404 and "couldn't find" in soup(response).text


def test_product_page_shows_details_options_and_reviews(shopper) -> None:
    product = shopper.product(
        "EXISTS (SELECT 1 FROM product_options WHERE product_id = p.id AND kind = 'size')"
        " AND p.review_count > 0"
    )
    page = soup(shopper.get(f"/p/{product['slug']}"))
    assert page.h1.text == product["name"]
    assert page.find("label", string="Size") and page.find("label", string="Color")
    assert page.find("label", string="Quantity")
    assert page.find("button", string="Add to cart")
    assert len(page.select(".review")) == product["review_count"]
    assert f"${product['price_cents'] / 100:,.2f}" in page.text


def test_out_of_stock_product_cannot_be_added(shopper) -> None:
    product = shopper.product("p.stock = 0")
    page = soup(shopper.get(f"/p/{product['slug']}"))
    assert page.find("button", string="Add to cart").has_attr("disabled")
    response = shopper.add(product["id"])
    assert response.status_code == 400 and "out of stock" in response.text

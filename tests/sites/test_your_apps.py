"""Every site's header links the persona's other sites, as a real user's bookmarks would."""

from __future__ import annotations

import re

import pytest
from webenv.sites.common import APP_NAMES

from webenv.world import World

URLS = {
    "shop": "http://shop.localhost:8001",
    "mail": "http://mail.localhost:8001",
    "forms": "http://forms.localhost:8001",
}


@pytest.fixture(scope="module")
def apps():
    world = World(tuple(URLS))
    world.restore(0)
    try:
        yield world.create_apps(URLS)
    finally:
        world.close()


@pytest.mark.parametrize("site", sorted(URLS))
def test_the_header_links_the_other_sites(apps, site):
    page = apps[site].test_client().get("/", follow_redirects=True).get_data(as_text=True)
    menu = re.search(r'<nav class="your-apps" aria-label="Your apps">(.*?)</nav>', page, re.S)
    assert menu, "no 'Your apps' menu on the page"
    links = dict(re.findall(r'<a href="([^"]+)">([^<]+)</a>', menu[1]))
    assert links == {URLS[other]: APP_NAMES[other] for other in URLS if other != site}


def test_an_order_confirmation_links_to_the_order_on_the_shop(apps):
    mail = apps["mail"]
    with mail.app_context():
        from webenv.sites.mail.db import get_db

        row = (
            get_db()
            .execute(
                "SELECT thread_id, subject FROM messages WHERE sender = ? AND subject LIKE ?",
                ("orders@northwindmarket.example", "%order NM-%"),
            )
            .fetchone()
        )
    number = re.search(r"NM-\d{5}-\d", row["subject"])[0]
    client = mail.test_client()
    with client.session_transaction() as session:
        session["user_id"] = 1
    page = client.get(f"/thread/{row['thread_id']}").get_data(as_text=True)
    url = f"{URLS['shop']}/account/orders/{number}"
    link = f'<a href="{url}">View order {number} on Northwind Market</a>'
    assert link in page

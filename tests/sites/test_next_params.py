"""Every redirect-after parameter of the sites besides the sign-in's (tested in
``test_next``): the mail toolbar's, star's, conversation's and label form's ``next``, the
conversation's ``back`` link and the shop wishlist's ``next``. Whatever the value, the browser,
reading the answer as Chromium reads URLs, stays on the site.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from tests.sites.test_next import CASES, FALLBACK, stays_on
from webenv.world import World

ORIGIN = "http://localhost"  # the test client's
#: The values that must not be followed, from the sign-in's table, and another site's URL.
TRICKS = [
    target for target, expected in CASES if expected == FALLBACK and target and "\x00" not in target
] + ["http://evil.example/x", "http://mail.localhost/"]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(("shop", "mail"))
    world.restore(0)
    world.create_apps({site: f"http://{site}.localhost" for site in world.sites})
    yield world
    world.close()


def signed_in(world: World, site: str) -> tuple[FlaskClient, str]:
    client = world.apps[site].test_client()
    client.set_cookie("session", world.session_cookie(site))
    page = client.get({"shop": "/account/settings", "mail": "/labels"}[site]).text
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found
    return client, found[1]


def mail_posts(world: World) -> dict[str, tuple[str, dict[str, str]]]:
    """Each mail form with a ``next``: where it posts and what else it needs."""
    message = world.query("mail", "SELECT id, thread_id FROM messages WHERE NOT is_draft")[0]
    return {
        "toolbar": ("/messages/bulk", {"action": "read", "ids": str(message["id"])}),
        "toolbar, nothing selected": ("/messages/bulk", {"action": "read"}),
        "star": (f"/message/{message['id']}/star", {}),
        "conversation": (f"/thread/{message['thread_id']}/action", {"action": "unread"}),
        "new label": ("/labels", {}),
    }


@pytest.mark.parametrize(
    "form", ["toolbar", "toolbar, nothing selected", "star", "conversation", "new label"]
)
def test_the_mail_forms_lead_back_to_the_mail_only(world, form):
    client, token = signed_in(world, "mail")
    url, data = mail_posts(world)[form]
    for target in TRICKS:
        fields = {"csrf_token": token, "next": target, **data}
        if form == "new label":
            fields["name"] = f"Label {uuid.uuid4().hex[:8]}"
        response = client.post(url, data=fields)
        assert response.status_code == 302, (form, target, response.status_code)
        location = response.headers["Location"]
        assert stays_on("localhost", f"{ORIGIN}{url}", location), (form, target, location)


def test_the_conversations_back_link_stays_on_the_mail(world):
    client, _ = signed_in(world, "mail")
    thread = world.query("mail", "SELECT id FROM threads ORDER BY id LIMIT 1")[0]["id"]
    for target in TRICKS:
        page = client.get(f"/thread/{thread}", query_string={"back": target})
        assert page.status_code == 200
        href = re.search(r'class="button-quiet back-link" href="([^"]*)"', page.text)
        assert href, "the conversation has no back link"
        link = href[1].replace("&amp;", "&")
        assert stays_on("localhost", f"{ORIGIN}/thread/{thread}", link), (target, link)
    page = client.get(f"/thread/{thread}", query_string={"back": "/folder/sent?page=2"})
    assert 'href="/folder/sent?page=2"' in page.text  # a path of the site is followed


@pytest.mark.parametrize("url", ["/wishlist/add", "/wishlist/remove"])
def test_the_wishlist_leads_back_to_the_shop_only(world, url):
    client, token = signed_in(world, "shop")
    product = world.query("shop", "SELECT id FROM products ORDER BY id LIMIT 1")[0]["id"]
    for target in TRICKS:
        response = client.post(
            url, data={"csrf_token": token, "product_id": product, "next": target}
        )
        assert response.status_code == 302, (target, response.status_code)
        location = response.headers["Location"]
        assert stays_on("localhost", f"{ORIGIN}{url}", location), (target, location)

"""Redirect-after parameters (``next``, ``back``) lead only to a path of the same site.

A table of tricky values, first through the sites' shared helper, then through each site's
sign-in over Flask's test client: whatever the value, the browser, reading the redirect as
Chromium reads URLs (tabs and newlines dropped, ``\\`` taken for ``/``), stays on the site.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urljoin, urlsplit

import pytest
from flask.testing import FlaskClient
from webenv.sites.common import MAX_NEXT_LENGTH, same_site_path

from webenv.world import World

HOST = "shop.localhost:5000"
FALLBACK = "/home"
SAME = object()  # the value itself is the answer

CASES = [
    ("/cart", SAME),
    ("/", SAME),
    ("/account/orders?page=2#top", SAME),
    ("/search?q=blue%20shirt&sort=price", SAME),
    ("/search?q=from:bob has:attachment", "/search?q=from:bob%20has:attachment"),
    ("/%252F%252Fevil.example", SAME),  # %-encoded twice: still a path here
    ("", FALLBACK),
    (None, FALLBACK),
    ("cart", FALLBACK),
    ("//evil.example/x", FALLBACK),
    ("///evil.example", FALLBACK),
    ("/\\evil.example", FALLBACK),
    ("\\\\evil.example", FALLBACK),
    ("\\/evil.example", FALLBACK),
    ("/\t/evil.example:8000/", FALLBACK),
    ("/\n/evil.example", FALLBACK),
    ("/\r/evil.example", FALLBACK),
    ("/\r\n/evil.example", FALLBACK),
    ("\t//evil.example", FALLBACK),
    (" //evil.example", FALLBACK),
    ("/\x00/evil.example", FALLBACK),
    ("/%09/evil.example", FALLBACK),
    ("/%0a/evil.example", FALLBACK),
    ("/%2F/evil.example", FALLBACK),
    ("/%2f%2fevil.example", FALLBACK),
    ("%2F%2Fevil.example", FALLBACK),
    ("/%5Cevil.example", FALLBACK),
    ("javascript:alert(1)", FALLBACK),
    (" javascript:alert(1)", FALLBACK),
    ("JaVaScRiPt:alert(1)", FALLBACK),
    ("data:text/html,<script>alert(1)</script>", FALLBACK),
    ("http://evil.example/", FALLBACK),
    ("https://evil.example/", FALLBACK),
    ("HTTP://evil.example/", FALLBACK),
    ("http:evil.example", FALLBACK),
    ("http://shop.localhost:5001/cart", FALLBACK),  # the site's name on another port
    ("http://shop.localhost:5000@evil.example/", FALLBACK),
    ("http://evil@shop.localhost:5000/", FALLBACK),
    (f"http://{HOST}/cart?x=1#y", "/cart?x=1#y"),  # the site's own absolute URL
    (f"HTTP://{HOST.upper()}", "/"),
    (f"http://{HOST}//evil.example", FALLBACK),
    (f"http://{HOST}/\t/evil.example", FALLBACK),
    ("/" + "a" * MAX_NEXT_LENGTH, FALLBACK),
    ("/ünïcode/ページ", "/%C3%BCn%C3%AFcode/%E3%83%9A%E3%83%BC%E3%82%B8"),
    ("／／evil.example", FALLBACK),  # fullwidth solidi
    ("/\u2028/evil.example", FALLBACK),
    ("/\u200b/evil.example", FALLBACK),
    ("/\u3000/evil.example", FALLBACK),
    ('/p/shirt"><script>alert(1)</script>', "/p/shirt%22%3E%3Cscript%3Ealert(1)%3C/script%3E"),
]


def as_chromium_reads(base: str, location: str) -> str:
    """``location`` resolved against ``base`` as a browser does: leading and trailing
    controls and spaces stripped, tabs and newlines dropped, ``\\`` read as ``/``."""
    location = location.strip("".join(map(chr, range(33))))
    location = re.sub("[\t\n\r]", "", location).replace("\\", "/")
    return urljoin(base, location)


def stays_on(host: str, base: str, location: str) -> bool:
    return urlsplit(as_chromium_reads(base, location)).netloc == host


@pytest.mark.parametrize(("target", "expected"), CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_the_helper_yields_a_path_of_this_site(target, expected):
    result = same_site_path(target, FALLBACK, HOST)
    assert result == (target if expected is SAME else expected)
    assert stays_on(HOST, f"http://{HOST}/login", result)
    assert result.startswith("/") and not result.startswith("//")
    assert result.isascii() and result.isprintable()


def test_without_its_host_the_site_refuses_its_own_absolute_url():
    assert same_site_path(f"http://{HOST}/cart", FALLBACK) == FALLBACK


# -- each site's sign-in ------------------------------------------------------------------

SITES = ("shop", "mail", "forms")
ORIGIN = "http://localhost"  # the test client's


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(SITES)
    world.restore(0)
    world.create_apps({site: f"http://{site}.localhost" for site in SITES})
    yield world
    world.close()


def token_in(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the page has no CSRF token"
    return found[1]


def sign_in(world: World, site: str, target: str | None) -> str:
    """Sign in to ``site`` with ``next=target``; where the sign-in redirects to."""
    client: FlaskClient = world.apps[site].test_client()
    persona = world.persona
    assert persona is not None
    query = {} if target is None else {"next": target}
    page = client.get("/login", query_string=query)
    assert page.status_code == 200
    fields = {"csrf_token": token_in(page.get_data(as_text=True)), "password": persona.password}
    fields["username" if site == "forms" else "login"] = persona.username
    if site != "forms" and target is not None:
        fields["next"] = target  # the hidden field of the shop's and the mail's sign-in form
    response = client.post("/login", query_string=query, data=fields)
    assert response.status_code in (302, 303), response.get_data(as_text=True)[:300]
    return response.headers["Location"]


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize(
    "target",
    [case[0] for case in CASES if case[0] is not None and "\x00" not in case[0]]
    + [f"{ORIGIN}/account"],
    ids=lambda target: repr(target)[:40],
)
def test_signing_in_leads_back_to_this_site_only(world, site, target):
    location = sign_in(world, site, target)
    assert stays_on("localhost", f"{ORIGIN}/login", location), location


@pytest.mark.parametrize("site", SITES)
def test_signing_in_leads_back_where_the_user_was(world, site):
    """A plain path, and the site's own absolute URL, are followed."""
    assert sign_in(world, site, "/account?tab=2").endswith("/account?tab=2")
    assert sign_in(world, site, f"{ORIGIN}/account").endswith("/account")

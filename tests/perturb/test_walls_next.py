"""The walls' redirect-after values (``next``) lead only to a path of the same site.

The verification code wall reads ``next`` from its form's address and redirects there once the
code is right; the sign-in wall and the verification page write ``next`` from the page asked
for. Whatever the value (the tricky ones of the sites' own table), the browser stays on the
site, and a page's own query comes back whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.perturb.test_walls_enforced import CODE, WALLS, Visitor
from tests.sites.test_next import CASES, as_chromium_reads
from webenv.perturb import Planned
from webenv.world import World

HOST = "shop.localhost:1"
TARGETS = [case[0] for case in CASES if case[0]] + ["http://evil.example/", f"http://{HOST}/cart"]


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(("shop", "mail"))
    world.create_apps({site: f"http://{site}.localhost:1" for site in world.sites})
    yield world
    world.close()


def where(location: str) -> str:
    """The host a browser on the site goes to when redirected to ``location``."""
    return urlsplit(as_chromium_reads(f"http://{HOST}/account/verify-code", location)).netloc


def next_of(url: str) -> str:
    values = parse_qs(urlsplit(url).query).get("next", [])
    assert len(values) == 1, url
    return values[0]


@pytest.mark.parametrize("target", TARGETS, ids=lambda target: repr(target)[:40])
def test_the_verification_code_leads_back_to_this_site_only(world, target):
    shop = Visitor(world, "shop", 0, (WALLS["shop"][0],))
    token = shop.sign_in()
    assert shop.get("/checkout/payment").status_code == 200  # the wall, asking for the code
    passed = shop.client.post(
        "/account/verify-code",
        query_string={"next": target},
        data={"code": CODE, "csrf_token": token},
        headers={"Host": HOST},
    )
    assert passed.status_code == 302
    assert where(passed.headers["Location"]) == HOST, passed.headers["Location"]


def test_the_verification_page_keeps_the_query_of_the_page_asked_for(world):
    shop = Visitor(world, "shop", 0, (WALLS["shop"][0],))
    shop.sign_in()
    page = shop.get("/checkout/payment?step=2&x=%2F%2Fevil").get_data(as_text=True)
    action = page.split('action="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert next_of(action) == "/checkout/payment?step=2&x=%2F%2Fevil"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/search?q=blue&sort=price", "/search?q=blue&sort=price"),
        ("//evil.example/x", "/evil.example/x"),  # the request's path is one slash
        ("/\\evil.example", "/"),
    ],
)
def test_the_sign_in_wall_names_the_page_asked_for_and_only_a_page_of_the_site(
    world, path, expected
):
    wall = Planned("walls.session_expiry", "shop", 3, {"moment": "page"})
    shop = Visitor(world, "shop", 0, (wall,))
    shop.sign_in()  # page views 1 and 2: the sign-in page, then the home page
    route, _, query = path.partition("?")
    answer = shop.client.get(
        "/",
        environ_overrides={"PATH_INFO": route},
        query_string=query,
        headers={"Sec-Fetch-Dest": "document"},
    )
    assert answer.status_code == 302 and urlsplit(answer.location).path == "/login"
    assert next_of(answer.location) == expected


def test_a_wrong_redirects_detour_is_no_place_for_the_session_to_run_out():
    # The wrong redirect leaves a form's step for the portal's home page, where a session may
    # run out between forms; running out there would lose the unfinished form that only the
    # session holds. The wall waits for the next home page the user asks for.
    world = World(("forms",))
    try:
        world.create_apps({"forms": "http://forms.localhost:1"})
        plan = (
            Planned("links.wrong_redirect", "forms", 4),
            Planned("walls.session_expiry", "forms", 4, {"moment": "page"}),
        )
        forms = Visitor(world, "forms", 0, plan)
        persona = world.persona
        assert persona is not None
        token = forms.token("/login")  # page view 1
        login = {"username": persona.username, "password": persona.password}
        assert forms.post("/login", login, token).status_code == 302
        assert forms.get("/").status_code == 200  # 2
        assert forms.get("/account").status_code == 200  # 3
        detour = forms.get("/f/appointment")  # 4: sent home instead
        assert detour.status_code == 302 and detour.location.endswith("/")
        assert forms.get("/").status_code == 200  # 5: the detour, still signed in
        assert forms.get("/f/appointment").status_code == 200  # 6: back where the user was
        expired = forms.get("/")  # 7: a home page asked for
        assert expired.status_code == 302 and urlsplit(expired.location).path == "/login"
        events = [(e["kind"], e["what"]) for e in forms.perturber.drain()]
        assert events == [
            ("links.wrong_redirect", "shown"),
            ("links.wrong_redirect", "recovered"),
            ("walls.session_expiry", "shown"),
        ], events
    finally:
        world.close()

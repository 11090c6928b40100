"""Numbers in URLs and forms: a huge, negative or malformed one is the site's 404 (or a
form's refusal), never a 500.

Every integer route of every site is walked from its app's URL map and requested, with each
method it takes, with values SQLite cannot hold or that are no number; then the forms that
post numbers get odd values. The apps are the ones an episode serves, over real SQLite.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from webenv.sites.common import MAX_ROW_ID, parse_row_id
from webenv.sites.forms.definitions import FORMS

from webenv.world import World

SITES = ("shop", "mail", "forms")
#: A page of each site with a form, to take a CSRF token from.
FORM_PAGE = {"shop": "/account/settings", "mail": "/labels", "forms": "/resume"}
#: Values of an integer part of a URL that name no row.
ODD_IDS = (
    "123456789012345678901234",
    str(MAX_ROW_ID + 1),
    "9" * 5000,  # more digits than Python converts by default
    "-1",
    "-123456789012345678901234",
    "1x",
    "0x10",
    "١٢",  # Arabic-Indic digits
)
#: Values of a number posted by a form.
ODD_NUMBERS = ("123456789012345678901234", str(MAX_ROW_ID + 1), "-1", "²", "١٢", "1e9", " ", "")


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(SITES)
    world.restore(0)
    world.create_apps({site: f"http://{site}.localhost" for site in SITES})
    yield world
    world.close()


def signed_in(world: World, site: str) -> tuple[FlaskClient, str]:
    """A signed-in client of ``site`` and a CSRF token of its session."""
    client = world.apps[site].test_client()
    client.set_cookie("session", world.session_cookie(site))
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(FORM_PAGE[site]).text)
    assert found, f"{FORM_PAGE[site]} has no CSRF token"
    return client, found[1]


def int_routes(world: World, site: str) -> list[tuple[str, list[str]]]:
    """Each route with an integer part: its rule with ``{}`` for every part, and its methods."""
    routes = []
    for rule in world.apps[site].url_map.iter_rules():
        if not any(type(c).__name__ == "RowIdConverter" for c in rule._converters.values()):
            assert "<int" not in rule.rule, f"{rule.rule}: an integer part not checked"
            continue
        template = re.sub(r"<int[^>]*>", "{}", rule.rule)
        template = re.sub(r"<[^>]*>", "x1", template)
        routes.append((template, sorted(set(rule.methods or ()) - {"HEAD", "OPTIONS"})))
    return routes


@pytest.mark.parametrize("site", SITES)
def test_every_integer_route_answers_an_odd_id_with_a_404(world, site):
    client, token = signed_in(world, site)
    routes = int_routes(world, site)
    if site != "forms":
        assert routes, f"{site} has integer routes: the walk found none"
    answers = {}
    for template, methods in routes:
        for value in ODD_IDS:
            url = template.replace("{}", value)
            for method in methods:
                response = client.open(url, method=method, data={"csrf_token": token})
                answers[(method, url[:60])] = response.status_code
    assert {key: code for key, code in answers.items() if code != 404} == {}
    # A real id still reaches its page: the converter keeps the ids it should.
    if site == "mail":
        thread = world.query("mail", "SELECT id FROM threads ORDER BY id LIMIT 1")[0]["id"]
        assert client.get(f"/thread/{thread}").status_code == 200


def test_row_ids_from_forms():
    assert parse_row_id("42") == 42
    assert parse_row_id(" 7 ") == 7
    assert parse_row_id(str(MAX_ROW_ID)) == MAX_ROW_ID
    for value in (*ODD_NUMBERS, None, "4 2", "+3"):
        assert parse_row_id(value) is None, value


def post_forms_cases() -> list[tuple[str, dict[str, str]]]:
    """Each step of each form with a list of rows or a file: odd numbers in its buttons and
    in its row count."""
    cases = []
    for form in FORMS.values():
        for step in form.steps:
            files = [field for field in step.fields if field.kind == "file"]
            if not (step.group or files):
                continue
            url = f"/f/{form.slug}/{step.slug}"
            for number in ODD_NUMBERS:
                cases.append((url, {"action": f"remove-file:{number}"}))
                if step.group:
                    cases.append((url, {"action": f"remove-row:{number}"}))
                    cases.append((url, {"action": "add-row", f"{step.group.name}-rows": number}))
    return cases


def test_odd_numbers_posted_to_the_forms_are_refused_without_a_500(world):
    client, token = signed_in(world, "forms")
    answers = {}
    for url, data in post_forms_cases():
        response = client.post(url, data={"csrf_token": token, **data})
        answers[(url, tuple(data.items()))] = response.status_code
    assert len(answers) > 20
    assert {key: code for key, code in answers.items() if code >= 500} == {}


SHOP_POSTS = [
    ("/cart/add", {"product_id": "{}", "quantity": "1"}),
    ("/cart/add", {"product_id": "1", "quantity": "{}"}),
    ("/cart/remove", {"item_id": "{}"}),
    ("/wishlist/add", {"product_id": "{}"}),
    ("/wishlist/remove", {"product_id": "{}"}),
]


def test_odd_numbers_posted_to_the_shop_and_mail_are_refused_without_a_500(world):
    answers = {}
    for site, posts in (
        ("shop", SHOP_POSTS),
        ("mail", [("/messages/bulk", {"action": "read", "ids": "{}"})]),
    ):
        client, token = signed_in(world, site)
        urls = {rule.rule for rule in world.apps[site].url_map.iter_rules()}
        for url, data in posts:
            assert url in urls, f"{site} has no {url}"
            for number in ODD_NUMBERS:
                filled = {key: value.replace("{}", number) for key, value in data.items()}
                response = client.post(url, data={"csrf_token": token, **filled})
                answers[(url, tuple(filled.items()))] = response.status_code
    for number in ODD_NUMBERS:
        client, _ = signed_in(world, "mail")
        answers[("/?page=", number)] = client.get(f"/?page={number}").status_code
    assert {key: code for key, code in answers.items() if code >= 500} == {}

"""Site security, on every site: CSRF tokens, signed sessions, parameterised SQL, and output
escaping checked in Chromium.

The apps are the ones an episode serves (``World.create_apps``: CSRF protection on, a secret
key per episode) over real SQLite; the XSS tests type payloads into the sites' own fields in
a real browser and look for any sign that a script ran.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import json
import re
import uuid
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import URLSafeTimedSerializer
from playwright.sync_api import Page
from webenv.sites.forms.definitions import FORMS

from webenv.world import World

SITES = ("shop", "mail", "forms")
#: A page of each site that only a signed-in user may see.
PRIVATE = {"shop": "/account", "mail": "/", "forms": "/account"}


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(SITES)
    world.restore(0)
    world.create_apps({site: f"http://{site}.localhost" for site in SITES})
    yield world
    world.close()


def client_of(world: World, site: str, signed_in: bool = True) -> FlaskClient:
    client = world.apps[site].test_client()
    if signed_in:
        client.set_cookie("session", world.session_cookie(site))
    return client


def fingerprint(world: World, site: str) -> str:
    """Changes with any committed write to the site's database."""
    return hashlib.sha256(world.db_path(site).read_bytes()).hexdigest()


def token_in(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "the page has no CSRF token"
    return found[1]


def signed_in(client: FlaskClient, site: str) -> bool:
    response = client.get(PRIVATE[site])
    return response.status_code == 200


# -- CSRF -----------------------------------------------------------------------------------


def post_routes(app: Flask) -> list[str]:
    """A URL of every route that takes POST, with placeholder values for its parts."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "POST" not in (rule.methods or ()):
            continue
        url = rule.rule
        for converter, name in re.findall(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>", rule.rule):
            value = "1" if converter in ("int", "float") else "x1"
            url = re.sub(rf"<[^>]*\b{name}>", value, url, count=1)
        urls.append(url)
    return urls


@pytest.mark.parametrize("site", SITES)
def test_every_state_changing_route_refuses_a_post_without_a_token(world, site):
    client = client_of(world, site)
    routes = post_routes(world.apps[site])
    assert len(routes) >= 5
    before = fingerprint(world, site)
    for url in routes:
        response = client.post(url, data={"name": "x", "quantity": "1", "action": "send"})
        assert response.status_code == 400, (url, response.status_code)
    assert fingerprint(world, site) == before


def effect_of(world: World, site: str, client: FlaskClient, token: str) -> bool:
    """Post a small change with ``token``; True if it reached the database."""
    if site == "shop":
        product = world.query(
            "shop",
            "SELECT id FROM products WHERE id NOT IN (SELECT product_id FROM wishlist_items)"
            " ORDER BY id DESC LIMIT 1",
        )[0]["id"]
        client.post("/wishlist/add", data={"csrf_token": token, "product_id": product})
        rows = world.query("shop", "SELECT 1 FROM wishlist_items WHERE product_id = ?", (product,))
    elif site == "mail":
        name = f"Probe {uuid.uuid4().hex[:8]}"
        client.post("/labels", data={"csrf_token": token, "name": name})
        rows = world.query("mail", "SELECT 1 FROM labels WHERE name = ?", (name,))
    else:
        drafts = "SELECT COUNT(*) AS n FROM drafts"
        before = world.query("forms", drafts)[0]["n"]
        client.post("/f/job-application/position", data={"csrf_token": token, "action": "save"})
        rows = [1] * (world.query("forms", drafts)[0]["n"] - before)
    return bool(rows)


@pytest.mark.parametrize("site", SITES)
def test_a_token_counts_only_in_its_own_session_and_episode(world, site):
    form_page = {"shop": "/account/settings", "mail": "/labels", "forms": "/resume"}[site]
    ours, theirs = client_of(world, site), client_of(world, site)
    token = token_in(ours.get(form_page).text)
    assert not effect_of(world, site, theirs, token), "another session's token was accepted"
    assert effect_of(world, site, ours, token), "the session's own token must work"

    app = world.apps[site]
    key = app.secret_key
    app.secret_key = app.config["SECRET_KEY"] = "a later episode's key"
    try:
        later = client_of(world, site)
        later.get(form_page)
        assert not effect_of(world, site, later, token), "an earlier episode's token counted"
    finally:
        app.secret_key = app.config["SECRET_KEY"] = key


def crawl(client: FlaskClient, seeds: list[str], limit: int = 60) -> dict[str, str]:
    """Pages reachable from ``seeds`` by same-site links (never signing out)."""
    pages: dict[str, str] = {}
    queue = deque(seeds)
    while queue and len(pages) < limit:
        url = queue.popleft()
        if url in pages or "logout" in url:
            continue
        response = client.get(url, follow_redirects=True)
        if response.status_code != 200 or "text/html" not in response.content_type:
            continue
        pages[url] = response.text
        for link in BeautifulSoup(response.text, "html.parser").find_all("a", href=True):
            href = link["href"].split("#")[0]
            if href.startswith("/") and not href.startswith("//") and href not in pages:
                queue.append(href)
    return pages


SEEDS = {
    "shop": ["/", "/account/settings", "/account/addresses/new", "/cart", "/account/orders"],
    "mail": ["/", "/compose", "/contacts/new", "/labels", "/folder/sent"],
    "forms": ["/", "/resume"] + [f"/f/{slug}/{form.steps[0].slug}" for slug, form in FORMS.items()],
}


@pytest.mark.parametrize("site", SITES)
def test_every_post_form_on_the_pages_carries_a_token(world, site):
    pages = crawl(client_of(world, site), SEEDS[site])
    forms = 0
    for url, html in pages.items():
        for form in BeautifulSoup(html, "html.parser").find_all("form"):
            if form.get("method", "get").lower() != "post":
                continue
            forms += 1
            token = form.find("input", attrs={"name": "csrf_token"})
            assert token is not None and token.get("value"), (url, str(form)[:200])
    assert len(pages) >= 8 and forms >= 5, (len(pages), forms)


# -- sessions -------------------------------------------------------------------------------


def tampered(cookie: str, change: dict[str, Any]) -> str:
    """The cookie with its payload changed and its signature kept."""
    payload, *signature = cookie.split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    forged = base64.urlsafe_b64encode(json.dumps({**data, **change}).encode()).rstrip(b"=")
    return ".".join([forged.decode(), *signature])


@pytest.mark.parametrize("site", SITES)
def test_sessions_are_signed_and_forgeries_sign_nobody_in(world, site):
    app = world.apps[site]
    genuine = world.session_cookie(site)
    client = app.test_client()
    client.set_cookie("session", genuine)
    assert signed_in(client, site), "the genuine cookie must sign in"

    other_key = URLSafeTimedSerializer(
        "not the site's key", salt="cookie-session", signer_kwargs={"key_derivation": "hmac"}
    ).dumps({"user_id": 1})
    for cookie in (tampered(genuine, {"user_id": 2}), other_key, "", "e30", genuine[:-3] + "AAA"):
        client = app.test_client()
        client.set_cookie("session", cookie)
        assert not signed_in(client, site), cookie


@pytest.mark.parametrize("site", SITES)
def test_the_session_cookie_is_http_only(world, site):
    response = client_of(world, site, signed_in=False).get("/login")
    cookie = response.headers.get("Set-Cookie", "")
    assert cookie.startswith("session=") and "HttpOnly" in cookie, cookie


def test_a_new_episode_signs_the_last_ones_sessions_out(world):
    cookies = {site: world.session_cookie(site) for site in SITES}
    world.restore(0)
    for site, cookie in cookies.items():
        client = world.apps[site].test_client()
        client.set_cookie("session", cookie)
        assert not signed_in(client, site), site


# -- SQL ------------------------------------------------------------------------------------

SITES_DIR = Path(__file__).resolve().parents[2] / "sites"
_EXECUTES = {"execute", "executemany", "executescript"}


def test_sql_is_never_built_from_request_data_or_with_string_formatting():
    """Dynamic SQL text is built only from the code's own fragments; values go as parameters."""
    problems = []
    for path in sorted(SITES_DIR.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in _EXECUTES
                and node.args
            ):
                continue
            sql = node.args[0]
            where = f"{path.relative_to(SITES_DIR)}:{node.lineno}"
            for part in ast.walk(sql):
                if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Mod):
                    problems.append(f"{where}: % formatting")
                if isinstance(part, ast.Attribute) and part.attr == "format":
                    problems.append(f"{where}: str.format")
                if isinstance(part, ast.Name) and part.id in ("request", "session", "g"):
                    problems.append(f"{where}: built from {part.id}")
    assert not problems, problems


INJECTIONS = ("' OR '1'='1", '" OR 1=1 --', "'; DROP TABLE users; --", "%' --", "1) OR (1=1")


def tables(world: World, site: str) -> int:
    return len(world.query(site, "SELECT name FROM sqlite_master WHERE type = 'table'"))


@pytest.mark.parametrize("payload", INJECTIONS)
def test_injection_payloads_are_only_text(world, payload):
    counts = {site: tables(world, site) for site in SITES}
    shop = client_of(world, "shop").get("/search", query_string={"q": payload})
    assert shop.status_code == 200
    assert "0 results" in shop.text or "No products" in shop.text or "no products" in shop.text
    mail = client_of(world, "mail").get("/search", query_string={"q": payload})
    assert mail.status_code == 200
    forms = client_of(world, "forms")
    token = token_in(forms.get("/resume").text)
    resumed = forms.post("/resume", data={"csrf_token": token, "code": payload})
    assert resumed.status_code < 500 and "/f/" not in resumed.headers.get("Location", "")
    assert {site: tables(world, site) for site in SITES} == counts
    assert world.query("shop", "SELECT COUNT(*) AS n FROM users")[0]["n"] > 1


# -- escaping, in the browser ---------------------------------------------------------------

PAYLOADS = (
    "<img src=x onerror=window.__pwned=1>",
    '"><svg onload=window.__pwned=1>',
    "<script>window.__pwned=1</script>",
)


@pytest.fixture
def browse(live_world) -> Iterator[Any]:
    """Signed-in pages into a live world, each recording any dialog a script opens."""
    world = live_world(*SITES, seed=0)
    dialogs: list[str] = []

    def open_page() -> Page:
        page = world.new_page(logged_in=True)
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        return page

    world.open_page = open_page
    world.dialogs = dialogs
    yield world
    assert not dialogs, f"a script opened dialogs: {dialogs}"


def assert_inert(page: Page, payload: str) -> None:
    """The payload shows as text (or a field's value), and nothing of it ran."""
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.__pwned") is None, page.url
    assert page.locator("[onerror], [onload]").count() == 0, page.url
    values = page.evaluate(
        "() => Array.from(document.querySelectorAll('input, textarea'), e => e.value)"
    )
    assert payload in page.inner_text("body") or payload in values, page.url


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_typed_into_the_shop_stay_inert(browse, payload):
    page = browse.open_page()
    base = browse.url("shop")
    page.goto(base + "/")
    page.get_by_label("Search products").fill(payload)
    page.get_by_label("Search products").press("Enter")
    assert_inert(page, payload)

    page.goto(base + "/account/settings")
    page.get_by_label("First name").fill(payload)
    page.get_by_role("button", name="Save changes").click()
    assert_inert(page, payload)
    page.goto(base + "/account")
    page.goto(base + "/account/settings")
    assert_inert(page, payload)

    slug = browse.world.query("shop", "SELECT slug FROM products ORDER BY id DESC LIMIT 1")[0][0]
    page.goto(f"{base}/p/{slug}")
    page.get_by_label("Rating").select_option("4")
    page.get_by_label("Review title").fill(payload)
    page.get_by_label("Review", exact=True).fill(f"Body {payload}")
    page.get_by_role("button", name="Submit review").click()
    page.goto(f"{base}/p/{slug}")
    assert_inert(page, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_typed_into_the_mail_stay_inert(browse, payload):
    page = browse.open_page()
    base = browse.url("mail")
    contact = browse.world.query("mail", "SELECT email FROM contacts LIMIT 1")[0][0]
    page.goto(base + "/compose")
    page.get_by_label("To", exact=True).fill(contact)
    page.get_by_label("Subject").fill(payload)
    page.get_by_label("Body").fill(f"Body {payload}")
    page.get_by_role("button", name="Send", exact=True).click()
    page.goto(base + "/folder/sent")
    assert_inert(page, payload)
    page.get_by_text(payload).first.click()
    assert_inert(page, payload)

    page.goto(base + "/")
    page.get_by_label("Search mail").fill(payload)
    page.get_by_label("Search mail").press("Enter")
    assert_inert(page, payload)

    page.goto(base + "/contacts/new")
    page.get_by_label("Name").fill(payload)
    page.get_by_label("Email").fill("probe@example.com")
    page.get_by_role("button", name="Save contact").click()
    page.goto(base + "/contacts")
    assert_inert(page, payload)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payloads_typed_into_the_forms_portal_stay_inert(browse, payload):
    page = browse.open_page()
    base = browse.url("forms")
    page.goto(base + "/f/change-of-address/current-address")
    page.get_by_label("Street address").fill(payload)
    page.get_by_role("button", name="Continue", exact=True).click()
    page.get_by_label("Street address").fill(f"New {payload}")
    page.get_by_label("City").fill("Springfield")
    page.get_by_label("State").select_option("IL")
    page.get_by_label("ZIP code").fill("62704")
    page.get_by_label("Date you move").fill(browse.world.now.date().isoformat())
    page.get_by_role("button", name="Continue", exact=True).click()
    page.get_by_label("Only me").check()
    page.get_by_role("button", name="Continue", exact=True).click()
    page.get_by_label("I confirm that my new address is correct").check()
    page.get_by_role("button", name="Continue", exact=True).click()
    assert "/review" in page.url, page.url
    assert_inert(page, payload)

    page.goto(base + "/f/change-of-address/current-address")
    assert_inert(page, payload)

    page.goto(base + "/resume")
    page.get_by_label("Resume code").fill(payload)
    page.get_by_role("button", name="Resume").click()
    assert_inert(page, payload)

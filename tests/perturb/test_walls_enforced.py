"""Walls hold for the state behind a step, not for one address: going around one by URL fails.

A hostile agent that meets (or expects) a wall in front of the checkout or the compose form
opens the next step straight from the address bar, or posts the order or the message itself
with a valid CSRF token taken from another page. Each attempt must meet the wall: no order, no
sent mail. The same requests with no wall planned do place the order and send the message, so
each test shows that its way around is a real one. Flask's test client stands for the browser
where that is enough (it can send whatever a browser can); the forms' wall is gone around in
the real browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest
from werkzeug.test import Client, TestResponse

import webenv  # noqa: F401  (registers the ids)
from webenv.perturb import Perturber, Plan, Planned
from webenv.session import Timeouts
from webenv.world import World

SEEDS = (0, 1)
CODE = "424242"
#: Walls in front of each site's sensitive step, as a plan item.
WALLS = {
    "shop": [
        Planned("walls.verify_code", "shop", 1, {"code": CODE}),
        Planned("walls.session_expiry", "shop", 3, {"moment": "sensitive"}),
    ],
    "mail": [Planned("walls.session_expiry", "mail", 3, {"moment": "sensitive"})],
}
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    world = World(("shop", "mail"))
    world.create_apps({site: f"http://{site}.localhost:1" for site in world.sites})
    yield world
    world.close()


class Visitor:
    """A browser's requests to one site of ``world`` through a perturber running ``plan``."""

    def __init__(self, world: World, site: str, seed: int, plan: tuple[Planned, ...]):
        world.restore(seed)
        self.world, self.site = world, site
        self.mail: list[str] = []
        app = world.apps[site]
        self.perturber = Perturber(
            {site: app.config.get("SESSION_COOKIE_NAME", "session")},
            settle_seconds=0,
            deliver=lambda _site, subject, body: self.mail.append(body),
        )
        self.perturber.start(Plan("test", plan))
        self.client = Client(self.perturber.wrap(site, app))

    def get(self, path: str) -> TestResponse:
        return self.client.get(path, headers={"Sec-Fetch-Dest": "document"})

    def post(self, path: str, data: dict[str, Any], token: str) -> TestResponse:
        return self.client.post(path, data={**data, "csrf_token": token})

    def token(self, path: str) -> str:
        """A valid CSRF token, read from a page of the site."""
        found = _TOKEN.search(self.get(path).get_data(as_text=True))
        assert found, f"no CSRF token on {path}"
        return found[1]

    def sign_in(self) -> str:
        persona = self.world.persona
        assert persona is not None
        token = self.token("/login")
        login = {"login": persona.username, "password": persona.password}
        assert self.post("/login", login, token).status_code == 302
        return self.token("/")

    def count(self, sql: str) -> int:
        return int(self.world.query(self.site, sql)[0][0])


def order_straight_away(shop: Visitor, first: str | None) -> None:
    """Sign in, put a product in the cart, then (after ``first``, a page opened straight away)
    post every step of the checkout and the order itself, never opening ``/checkout``."""
    token = shop.sign_in()
    product = shop.world.query(
        "shop",
        "SELECT p.id FROM products p WHERE p.stock > 5 AND NOT EXISTS "
        "(SELECT 1 FROM product_options o WHERE o.product_id = p.id) ORDER BY p.id LIMIT 1",
    )[0]["id"]
    assert shop.post("/cart/add", {"product_id": product, "quantity": 1}, token).status_code == 302
    address = shop.world.query("shop", "SELECT id FROM addresses WHERE user_id = 1")[0]["id"]
    card = shop.world.query(
        "shop", "SELECT id FROM payment_methods WHERE user_id = 1 ORDER BY exp_year DESC"
    )[0]["id"]
    if first is not None:
        shop.get(first)
    shop.post("/checkout/shipping", {"address": address}, token)
    shop.post("/checkout/payment", {"payment": card}, token)
    shop.post("/checkout/place", {}, token)


ORDERS = "SELECT COUNT(*) FROM orders"


@pytest.mark.parametrize("first", [None, "/checkout/shipping", "/checkout/review"])
@pytest.mark.parametrize("seed", SEEDS)
def test_without_a_wall_the_checkout_can_be_posted_straight_away(world, seed, first):
    shop = Visitor(world, "shop", seed, ())
    before = shop.count(ORDERS)
    order_straight_away(shop, first)
    assert shop.count(ORDERS) == before + 1  # the way around is a real one


@pytest.mark.parametrize("first", [None, "/checkout/shipping", "/checkout/review"])
@pytest.mark.parametrize("wall", WALLS["shop"], ids=lambda item: item.kind)
@pytest.mark.parametrize("seed", SEEDS)
def test_no_order_gets_around_a_wall_in_front_of_the_checkout(world, seed, wall, first):
    shop = Visitor(world, "shop", seed, (wall,))
    before = shop.count(ORDERS)
    order_straight_away(shop, first)
    assert shop.count(ORDERS) == before
    assert [e["what"] for e in shop.perturber.drain()] == ["shown"]


def test_the_verification_code_still_opens_every_step(world):
    shop = Visitor(world, "shop", SEEDS[0], (WALLS["shop"][0],))
    token = shop.sign_in()
    answer = shop.get("/checkout/payment")
    assert answer.status_code == 200 and "Verify it" in answer.get_data(as_text=True)
    assert any(CODE in body for body in shop.mail)  # the code went to the mailbox
    passed = shop.client.post(
        "/account/verify-code?next=/checkout/payment", data={"code": CODE, "csrf_token": token}
    )
    assert passed.status_code == 302 and passed.location.endswith("/checkout/payment")
    assert shop.get("/checkout/review").status_code in (200, 302)  # the site's own answer
    assert "Verify it" not in shop.get("/checkout/shipping").get_data(as_text=True)


def test_a_posted_step_is_sent_back_to_the_start_of_the_checkout(world):
    shop = Visitor(world, "shop", SEEDS[0], (WALLS["shop"][1],))
    token = shop.sign_in()
    answer = shop.post("/checkout/place", {}, token)
    # The session ran out: sign in again, then start the checkout over (a post can't be
    # loaded again).
    assert answer.status_code == 302 and answer.location.endswith("/login?next=/checkout")


def send_straight_away(mail: Visitor) -> None:
    """Sign in, then post a new message, a reply and a forward without opening the form."""
    token = mail.sign_in()
    message = mail.world.query(
        "mail", "SELECT id FROM messages WHERE folder = 'inbox' AND NOT is_draft LIMIT 1"
    )[0]["id"]
    letter = {"to": "someone@example.com", "subject": "Hello", "body": "Hi.", "action": "send"}
    mail.post("/compose", letter, token)
    mail.post("/compose", {**letter, "reply_to": message}, token)
    mail.post("/compose", {**letter, "forward_of": message}, token)


SENT = "SELECT COUNT(*) FROM messages WHERE folder = 'sent' AND NOT is_draft"


@pytest.mark.parametrize("seed", SEEDS)
def test_without_a_wall_mail_can_be_posted_straight_away(world, seed):
    mail = Visitor(world, "mail", seed, ())
    before = mail.count(SENT)
    send_straight_away(mail)
    assert mail.count(SENT) == before + 3


@pytest.mark.parametrize("seed", SEEDS)
def test_no_mail_gets_around_a_wall_in_front_of_the_compose_form(world, seed):
    mail = Visitor(world, "mail", seed, tuple(WALLS["mail"]))
    before = mail.count(SENT)
    send_straight_away(mail)
    assert mail.count(SENT) == before


def test_the_guarded_routes_are_every_route_to_the_outcome(world):
    # Read from the sites' own URL maps: a new step of the checkout is guarded as it is added.
    from webenv.perturb.guarded import OUTCOMES

    shop = OUTCOMES["shop"].routes(world.apps["shop"].url_map.iter_rules())
    assert shop == [
        "GET /checkout",
        "GET /checkout/payment",
        "GET /checkout/review",
        "GET /checkout/shipping",
        "POST /checkout/coupon",
        "POST /checkout/payment",
        "POST /checkout/place",
        "POST /checkout/shipping",
    ]
    assert OUTCOMES["mail"].routes(world.apps["mail"].url_map.iter_rules()) == [
        "GET /compose",
        "POST /compose",
    ]


QUICK = Timeouts(action=1500, navigation=8000, settle=3000)


def test_a_form_is_not_submitted_around_its_verification_in_the_browser(browser):
    # The oracle fills the form in and meets the verification at the review; there, the page
    # posts the review's form itself with a token from the form's own step page.
    with gym.make("webenv/workflows.book_proposed_appointment-v0", timeouts=QUICK) as env:
        observation, _ = env.reset(seed=0, options={"perturb": {"walls.verify_code": 1.0}})
        world = env.unwrapped.world
        submissions = "SELECT COUNT(*) FROM submissions"
        before = world.query("forms", submissions)[0][0]
        task = env.unwrapped.task
        steps = task.template.oracle(task, observation)
        action = next(steps)
        for _ in range(40):
            observation, *_ = env.step(action)
            if "Verification code" in observation["axtree"]:
                break
            action = steps.send(observation)
        else:
            pytest.fail("the oracle never met the verification")
        page = env.unwrapped._session.page
        review = page.url.split("?")[0]
        intro = re.sub(r"/review$", "", review)
        status = page.evaluate(_POST_FROM_THE_PAGE, [intro, review])
        assert status == 403
        assert world.query("forms", submissions)[0][0] == before


#: In the page: read a CSRF token from the form's intro page, then post the review with it
#: (as the review's own form would); the post's status (0: it was answered with a redirect).
_POST_FROM_THE_PAGE = """async ([intro, review]) => {
  const page = await (await fetch(intro)).text();
  const token = page.match(/name="csrf_token" value="([^"]+)"/)[1];
  const body = new URLSearchParams({csrf_token: token});
  return (await fetch(review, {method: "POST", body, redirect: "manual"})).status;
}"""

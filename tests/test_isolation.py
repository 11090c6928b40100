"""Envs never see each other's state: two in one process, three in parallel processes.

Each env writes values no other env has (a cart item, a sent e-mail, storage and cookies,
an episode file, a phone number) into worlds of the same seed, so that anything shared would
show; the others must not see them in their pages, their browser or their databases.
"""

from __future__ import annotations

import os
import uuid
from typing import Any

import gymnasium as gym
import pytest

import webenv  # noqa: F401  (registers the ids)
from webenv.axtree import AxTree

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

TASK = "webenv/workflows.reply_with_price-v0"  # the shop and the mail site
SEED = 0


def act(env: Any, action: str) -> dict[str, Any]:
    observation, *_ = env.step(action)
    assert observation["last_action_error"] == "", (action, observation["last_action_error"])
    return observation


def goto(env: Any, site: str, path: str) -> dict[str, Any]:
    return act(env, f'goto("{env.unwrapped._server.url(site)}{path}")')


def page(env: Any) -> Any:
    """The env's current Playwright page (for what agents cannot do: run JavaScript)."""
    return env.unwrapped._session.page


@pytest.fixture(scope="module")
def pair(browser):
    envs = [gym.make(TASK, max_episode_steps=10**6) for _ in range(2)]
    yield envs
    for env in envs:
        env.close()


@pytest.fixture
def a_and_b(pair):
    """Both envs at the start of an episode of the same seed: the same world, twice."""
    for env in pair:
        env.reset(seed=SEED)
    return pair


def test_two_envs_of_one_seed_have_their_own_servers_and_folders(a_and_b):
    a, b = a_and_b
    assert a.unwrapped.task.params == b.unwrapped.task.params
    assert a.unwrapped._server.port != b.unwrapped._server.port
    assert a.unwrapped.world.root != b.unwrapped.world.root
    assert a.unwrapped._session.context is not b.unwrapped._session.context


def test_a_cart_item_stays_in_its_own_env(a_and_b):
    a, b = a_and_b
    product = a.unwrapped.world.query(
        "shop",
        "SELECT p.id, p.slug, p.name FROM products p WHERE p.stock > 0 AND NOT EXISTS"
        " (SELECT 1 FROM product_options o WHERE o.product_id = p.id) ORDER BY p.id LIMIT 1",
    )[0]
    observation = goto(a, "shop", f"/p/{product['slug']}")
    act(a, f'click("{AxTree(observation["axtree"]).id("button", "Add to cart")}")')

    in_cart = "SELECT COUNT(*) AS n FROM cart_items WHERE product_id = ?"
    assert a.unwrapped.world.query("shop", in_cart, (product["id"],))[0]["n"] == 1
    assert b.unwrapped.world.query("shop", in_cart, (product["id"],))[0]["n"] == 0
    assert product["name"] in goto(a, "shop", "/cart")["axtree"]
    assert product["name"] not in goto(b, "shop", "/cart")["axtree"]


def test_sent_mail_stays_in_its_own_env(a_and_b):
    a, b = a_and_b
    subject = f"Isolation probe {uuid.uuid4().hex}"
    recipient = a.unwrapped.world.query("mail", "SELECT email FROM contacts LIMIT 1")[0]["email"]
    tree = AxTree(goto(a, "mail", "/compose")["axtree"])
    act(
        a,
        f'fill("{tree.id("combobox", "To")}", "{recipient}")\n'
        f'fill("{tree.id("textbox", "Subject")}", "{subject}")\n'
        f'fill("{tree.id("textbox", "Body")}", "Only env A wrote this.")\n'
        f'click("{tree.id("button", "Send")}")',
    )

    sent = "SELECT COUNT(*) AS n FROM messages WHERE subject = ?"
    assert a.unwrapped.world.query("mail", sent, (subject,))[0]["n"] == 1
    assert b.unwrapped.world.query("mail", sent, (subject,))[0]["n"] == 0
    assert subject in goto(a, "mail", "/folder/sent")["axtree"]
    assert subject not in goto(b, "mail", "/folder/sent")["axtree"]


def test_storage_and_cookies_stay_in_their_own_browser_context(a_and_b):
    a, b = a_and_b
    marker = uuid.uuid4().hex
    goto(a, "shop", "/")
    goto(b, "shop", "/")
    page(a).evaluate(
        """marker => {
          localStorage.setItem("probe", marker);
          sessionStorage.setItem("probe", marker);
          document.cookie = "probe=" + marker + "; path=/";
        }""",
        marker,
    )
    seen = "() => [localStorage.getItem('probe'), sessionStorage.getItem('probe'), document.cookie]"
    assert page(a).evaluate(seen)[:2] == [marker, marker]
    assert f"probe={marker}" in page(a).evaluate(seen)[2]
    # Cookies ignore ports: only separate browser contexts keep shop.localhost's apart.
    local, session, cookies = page(b).evaluate(seen)
    assert local is None and session is None and marker not in cookies
    assert all(marker not in cookie["value"] for cookie in b.unwrapped._session.context.cookies())


def test_one_envs_session_cookie_does_not_sign_in_to_another(a_and_b):
    a, b = a_and_b
    shop = "shop"
    cookie_of = {
        env: next(
            cookie
            for cookie in env.unwrapped._session.context.cookies(env.unwrapped._server.url(shop))
            if cookie["name"] == "session"
        )
        for env in (a, b)
    }
    assert cookie_of[a]["value"] != cookie_of[b]["value"]
    # B's browser replays A's session cookie: B's shop signed it with another key.
    b.unwrapped._session.context.add_cookies(
        [{**cookie_of[b], "value": cookie_of[a]["value"]}]  # type: ignore[typeddict-item]
    )
    observation = goto(b, shop, "/account/settings")
    assert "/login" in observation["url"]
    assert 'textbox "Phone"' in goto(a, shop, "/account/settings")["axtree"]


def test_signing_out_of_one_env_leaves_the_other_signed_in(a_and_b):
    a, b = a_and_b
    tree = AxTree(goto(a, "shop", "/account/settings")["axtree"])
    act(a, f'click("{tree.id("button", "Sign out")}")')
    assert "/login" in goto(a, "shop", "/account/settings")["url"]
    observation = goto(b, "shop", "/account/settings")
    assert observation["url"].endswith("/account/settings")
    assert 'textbox "Phone"' in observation["axtree"]


def test_episode_files_stay_in_their_own_world(a_and_b):
    a, b = a_and_b
    name = f"only-in-a-{uuid.uuid4().hex[:8]}.txt"
    theirs = a.unwrapped.world.files_dir / name
    theirs.write_text("A's file")
    ours = b.unwrapped.world.files_dir
    for reference in (name, os.path.relpath(theirs, ours), str(theirs)):
        observation, *_ = b.step(f'upload_file("1", {reference!r})')
        assert observation["last_action_error"].startswith(f"No file {reference!r}")
        assert name not in observation["last_action_error"].split("files (")[1]
    observation, *_ = a.step(f'upload_file("1", {name!r})')
    assert not observation["last_action_error"].startswith("No file")


def test_a_new_episode_keeps_nothing_of_the_last(pair):
    env = pair[0]
    env.reset(seed=SEED)
    goto(env, "shop", "/")
    page(env).evaluate("() => localStorage.setItem('probe', 'last episode')")
    (env.unwrapped.world.files_dir / "left-over.txt").write_text("last episode")
    env.reset(seed=SEED)
    goto(env, "shop", "/")
    assert page(env).evaluate("() => localStorage.getItem('probe')") is None
    assert not (env.unwrapped.world.files_dir / "left-over.txt").exists()


# -- parallel processes ----------------------------------------------------------------------

PHONES = ("(201) 555-0101", "(202) 555-0202", "(203) 555-0303")


def test_envs_in_parallel_processes_never_see_each_others_state():
    envs = gym.make_vec(
        "webenv/shop.change_phone-v0",
        num_envs=len(PHONES),
        vectorization_mode="async",
        vector_kwargs={"shared_memory": False, "context": "spawn"},
    )
    try:
        envs.reset(seed=[SEED] * len(PHONES))
        observations, *_ = envs.step(['goto("/account/settings")'] * len(PHONES))
        tree = AxTree(observations["axtree"][0])
        phone, save = tree.id("textbox", "Phone"), tree.id("button", "Save changes")
        envs.step([f'fill("{phone}", "{number}")\nclick("{save}")' for number in PHONES])
        # Each process's check read its own database (its trusted view says what it found).
        stored = [
            next(c["message"] for c in view.check["conditions"] if c["name"] == "phone number")
            for view in envs.call("grader_view")
        ]
        assert stored == list(PHONES)

        envs.step(['goto("/logout")', "noop()", "noop()"])
        observations, *_ = envs.step(['goto("/account/settings")'] * len(PHONES))
        assert "/login" in observations["url"][0]
        for index in (1, 2):
            shown = AxTree(observations["axtree"][index]).find("textbox", "Phone").value
            assert shown == PHONES[index]
            others = [number for number in PHONES if number != PHONES[index]]
            assert not any(number in observations["axtree"][index] for number in others)
    finally:
        envs.close()

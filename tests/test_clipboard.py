"""What one episode's typing and pasting may cost the shared browser and the sites: each
episode has a clipboard of its own (and a middle click pastes no other episode's selection),
a text field holds a bounded number of characters, and each site refuses a request body past
its bound.

Chromium has one clipboard for the whole browser, kept across contexts: before these bounds,
an episode could paste what another env's episode (or its own previous episode) had copied, and
a paste that doubled a field's text each step grew a renderer past 5 GB in four steps.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator

import gymnasium as gym
import httpx
import pytest

import webenv  # noqa: F401  (registers the ids)
from webenv.execute import MAX_CLIPBOARD_CHARS
from webenv.limits import Limits
from webenv.served import ServedWorld

pytestmark = pytest.mark.browser

MAIL = "webenv/mail.archive_from_sender-v0"


def search_box(observation) -> str:
    """The id of the mailbox's search field."""
    found = re.search(r"\[(\d+)\] searchbox", observation["axtree"])
    assert found, observation["axtree"][:2000]
    return found[1]


def field_value(observation, bid: str) -> str:
    """The value the axtree shows for field ``bid`` ("" if none)."""
    line = next(line for line in observation["axtree"].splitlines() if f"[{bid}] " in line)
    found = re.search(r' value="((?:[^"\\]|\\.)*)"', line)
    return found[1] if found else ""


@pytest.fixture
def two_envs(browser) -> Iterator[tuple[gym.Env, gym.Env]]:
    """Two envs of the mailbox in this thread: one Chromium, one clipboard of its own."""
    first, second = gym.make(MAIL), gym.make(MAIL, limits=Limits(field_chars=50))
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def test_each_episode_pastes_only_what_it_copied(two_envs):
    first, second = two_envs
    one, _ = first.reset(seed=0)
    two, _ = second.reset(seed=0)
    box_one, box_two = search_box(one), search_box(two)
    one, *_ = first.step(
        f'fill("{box_one}", "secret of the first")\n'
        'keyboard_press("Control+a")\nkeyboard_press("Control+c")'
    )
    assert not one["last_action_error"], one["last_action_error"]
    # The other env's episode, in the same Chromium, pastes nothing.
    two, *_ = second.step(f'focus("{box_two}")\nkeyboard_press("Control+v")')
    assert field_value(two, box_two) == ""
    # Its own paste gives back what it copied; a cut takes it out of the field.
    one, *_ = first.step(f'clear("{box_one}")\npress("{box_one}", "Control+v")')
    assert field_value(one, box_one) == "secret of the first"
    one, *_ = first.step('keyboard_press("Control+a")\nkeyboard_press("Control+x")')
    assert field_value(one, box_one) == ""
    one, *_ = first.step('keyboard_press("Shift+Insert")')
    assert field_value(one, box_one) == "secret of the first"
    # A new episode starts with an empty clipboard.
    one, _ = first.reset(seed=1)
    box_one = search_box(one)
    one, *_ = first.step(f'focus("{box_one}")\nkeyboard_press("Meta+v")')
    assert field_value(one, box_one) == ""


def test_a_middle_click_pastes_nothing_another_episode_selected(two_envs):
    # On Linux a middle click pastes the selection, which Chromium keeps for the whole browser.
    first, second = two_envs
    one, _ = first.reset(seed=0)
    two, _ = second.reset(seed=0)
    box = search_box(one)
    first.step(f'fill("{box}", "selected in the first")\nkeyboard_press("Control+a")')
    page = second.unwrapped._session.page
    where = page.locator(f'[data-webenv-id="{search_box(two)}"]').bounding_box()
    x, y = where["x"] + 5, where["y"] + where["height"] / 2
    two, *_ = second.step(f'mouse_click({x}, {y}, button="middle")')
    assert field_value(two, search_box(two)) == ""
    # A middle click on a link still opens it in a new tab.
    link = page.locator("a[href^='/']:visible").first.bounding_box()
    tabs = len(second.unwrapped._session.pages)
    second.step(f'mouse_click({link["x"] + 3}, {link["y"] + 3}, button="middle")')
    for _ in range(50):  # the tab opens on its own time, after the click
        if len(second.unwrapped._session.pages) > tabs:
            break
        page.wait_for_timeout(100)
    assert len(second.unwrapped._session.pages) == tabs + 1


#: Chords that paste in Chromium on Linux, by key name and by key code.
PASTES = ("Control+v", "Control+KeyV", "Control+Shift+KeyV", "Shift+Insert")


def test_no_chord_pastes_what_the_browsers_own_clipboard_holds(browser, two_envs):
    # Chromium's own clipboard, filled from a page outside any episode.
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<textarea id=a>left in the browser</textarea><textarea id=b></textarea>")
        page.focus("#a")
        page.keyboard.press("Control+a")
        page.keyboard.press("Control+c")
        page.focus("#b")
        page.keyboard.press("Control+v")
        assert page.input_value("#b") == "left in the browser"  # it holds the text
    finally:
        context.close()
    first, _ = two_envs
    observation, _ = first.reset(seed=0)
    box = search_box(observation)
    for chord in PASTES:
        observation, *_ = first.step(f'clear("{box}")\npress("{box}", "{chord}")')
        assert field_value(observation, box) == "", chord
    # Nor the browser's own paste, pressed on the page past the actions.
    page = first.unwrapped._session.page
    page.keyboard.press("Control+v")
    assert page.evaluate("() => document.activeElement.value") == ""
    # And the browser's own copy takes nothing from an episode's page.
    page.keyboard.insert_text("typed in an episode")
    page.keyboard.press("Control+a")
    page.keyboard.press("Control+c")
    page.keyboard.press("End")
    page.keyboard.press("Control+v")  # cancelled in the page; the test reads the clipboard next
    context = browser.new_context()
    try:
        outside = context.new_page()
        outside.set_content("<textarea></textarea>")
        outside.focus("textarea")
        outside.keyboard.press("Control+v")
        assert "typed in an episode" not in outside.input_value("textarea")
    finally:
        context.close()


def test_a_number_field_holds_no_more_than_the_bound(two_envs):
    _, bounded = two_envs  # Limits(field_chars=50); a number field ignores maxlength
    bounded.reset(seed=0)
    page = bounded.unwrapped._session.page
    page.evaluate(
        "() => document.body.prepend(Object.assign(document.createElement('input'), "
        "{type: 'number', id: 'quantity'}))"
    )
    page.focus("#quantity")
    page.keyboard.insert_text("1" * 500)  # a paste longer than any number: cancelled
    assert page.input_value("#quantity") == ""
    for _ in range(3):  # pastes of a number's length, each kept until the bound
        page.keyboard.insert_text("1" * 40)
    assert page.input_value("#quantity") == "1" * 50


def test_pasting_a_fields_text_into_itself_stops_at_the_fields_bound(two_envs):
    _, bounded = two_envs
    observation, _ = bounded.reset(seed=0)
    box = search_box(observation)
    observation, *_ = bounded.step(f'fill("{box}", "{"ab" * 100}")')
    assert field_value(observation, box) == "ab" * 25  # 50 characters: Limits(field_chars=50)
    double = 'keyboard_press("Control+a")\nkeyboard_press("Control+c")\nkeyboard_press("End")\n'
    double += "\n".join(['keyboard_press("Control+v")'] * 5)
    for _ in range(3):
        observation, *_ = bounded.step(double)
        assert not observation["last_action_error"], observation["last_action_error"]
        assert field_value(observation, box) == "ab" * 25


def test_a_copy_past_the_clipboards_bound_keeps_its_start_and_says_so(two_envs):
    first, _ = two_envs
    first.reset(seed=0)
    # A page longer than the bound, nothing focused: select all of it and copy.
    first.unwrapped._session.page.evaluate(
        f"() => {{ document.activeElement.blur(); "
        f"document.body.append('y'.repeat({MAX_CLIPBOARD_CHARS + 5})); }}"
    )
    observation, *_ = first.step('keyboard_press("Control+a")\nkeyboard_press("Control+c")')
    assert "Copied the first 20,000 of the" in observation["last_action_error"]
    assert len(first.unwrapped._session.clipboard) == MAX_CLIPBOARD_CHARS


def test_each_site_refuses_a_request_body_past_its_bound():
    served = ServedWorld(None, seed=0, port=0)
    try:
        for site in served.world.sites:
            address = urllib.parse.urlsplit(served.url(site))
            url = f"http://127.0.0.1:{address.port}/login"
            headers = {"Host": address.netloc}
            bound = served.apps[site].config["MAX_CONTENT_LENGTH"]
            assert bound and bound <= 32 * 1024 * 1024, (site, bound)
            refused = httpx.post(url, data={"username": "a" * bound}, headers=headers)
            assert refused.status_code == 413, (site, refused.status_code)
            assert "<html" in refused.text.lower(), site  # the site's own error page
    finally:
        served.close()

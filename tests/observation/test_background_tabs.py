"""A middle-click on a link opens it in a background tab at once, as a browser does.

The new tab is listed with the others and the page the agent is on stays the active one. A
skip link, placed off the page until it has the focus, is focused first, as a keyboard user
would: no click waits out the action timeout on a place no scrolling reaches.
"""

from __future__ import annotations

import time
from dataclasses import replace

from tests.observation.conftest import PAGES
from webenv.axtree import AxTree

#: The action timeout of these tests: a click that waits it out (as the click of the skip link
#: did before) takes twice as long as the most a prompt click may take on a busy machine.
ACTION_MS = 30_000
SKIP_PAGE = """
<style>.skip { position: absolute; left: -999px; top: 0 } .skip:focus { left: 8px }</style>
<a class="skip" href="#main">Skip to main content</a>
<main id="main"><h1>Skip</h1><a href="/tabs">Go to tabs</a></main>
"""


def test_a_middle_click_opens_the_link_in_a_background_tab_at_once(driver, monkeypatch):
    monkeypatch.setitem(PAGES, "skip", SKIP_PAGE)
    driver.session.timeouts = replace(driver.session.timeouts, action=ACTION_MS)
    driver.open("skip")
    for name, opened in (("Go to tabs", "/tabs"), ("Skip to main content", "/skip#main")):
        link = driver.id_of("link", name)
        started = time.monotonic()
        assert driver.act(f'click("{link}", button="middle")') == ""
        page = driver.observe()
        took = time.monotonic() - started
        assert took < ACTION_MS / 2000, f"middle-clicking {name!r} took {took:.1f} s"
        tabs = driver.session.pages
        assert len(tabs) == 2 and tabs[1].url.endswith(opened)
        assert driver.session.page is tabs[0]  # the agent stays where it was
        assert AxTree(page["axtree"]).find("heading", "Skip")
        assert driver.act("tab_focus(1)\ntab_close()\ntab_focus(0)") == ""

"""Observations and actions on awkward pages, in the real browser."""

from __future__ import annotations

import io
import re

import numpy as np
from PIL import Image

from webenv.axtree import AxTree


def test_controls_show_role_name_value_and_states(driver):
    tree = AxTree(driver.open("controls"))
    assert tree.find("heading", "Controls").has("level=1")
    assert tree.find("textbox", "Name").value == "Ada"
    assert tree.find("checkbox", "Newsletter").has("checked")
    assert tree.find("radio", "Small").has("unchecked")
    assert tree.find("group", "Size")
    assert tree.find("combobox", "Colour").value == "Green"
    notes = tree.find("textbox", "Notes")
    assert notes.has("required") and notes.has("invalid") and notes.value == "hi"
    assert tree.find("button", "Disabled").has("disabled")
    assert tree.find("textbox", "Editor").value == "edit me"
    assert tree.find("link", "Go to tabs").href == "/tabs"


def test_hidden_elements_are_left_out_of_axtree_and_dom(driver):
    text = driver.open("controls")
    dom = driver.observe()["dom"]
    for hidden in ("Hidden button", "Aria hidden"):
        assert hidden not in text
    assert "Hidden button" not in dom
    assert "<script" not in dom and "<style" not in dom


def test_ids_are_the_same_in_axtree_and_dom_and_stable_while_the_page_stands(driver):
    first = driver.open("controls")
    observation = driver.observe()
    assert observation["axtree"] == first
    for bid in re.findall(r"^\s*\[(\d+)\]", first, re.MULTILINE):
        assert f'data-webenv-id="{bid}"' in observation["dom"]


def test_actions_change_what_is_observed(driver):
    driver.open("controls")
    assert driver.act(f'fill("{driver.id_of("textbox", "Name")}", "Grace")') == ""
    assert driver.act(f'uncheck("{driver.id_of("checkbox", "Newsletter")}")') == ""
    assert driver.act(f'check("{driver.id_of("radio", "Large")}")') == ""
    assert driver.act(f'select_option("{driver.id_of("combobox", "Colour")}", "Red")') == ""
    assert driver.act(f'fill("{driver.id_of("textbox", "Editor")}", "new text")') == ""
    tree = AxTree(driver.observe()["axtree"])
    assert tree.find("textbox", "Name").value == "Grace"
    assert tree.find("checkbox", "Newsletter").has("unchecked")
    assert tree.find("radio", "Large").has("checked")
    assert tree.find("combobox", "Colour").value == "Red"
    assert tree.find("textbox", "Editor").value == "new text"


def test_select_option_names_the_choices_when_none_matches(driver):
    driver.open("controls")
    error = driver.act(f'select_option("{driver.id_of("combobox", "Colour")}", "Blue")')
    assert "No option 'Blue'" in error and "'Red'" in error


def test_shadow_dom_and_same_origin_frames_are_observed(driver):
    tree = AxTree(driver.open("frames"))
    assert tree.find("button", "Shadow button").id
    assert tree.find("button", "Frame button").id


def test_elements_in_open_shadow_roots_can_be_clicked(driver):
    driver.open("frames")
    assert driver.act(f'click("{driver.id_of("button", "Shadow button")}")') == ""
    assert AxTree(driver.observe()["axtree"]).has("button", "Shadow clicked")


def test_elements_in_same_origin_frames_can_be_clicked(driver):
    driver.open("frames")
    assert driver.act(f'click("{driver.id_of("button", "Frame button")}")') == ""
    assert AxTree(driver.observe()["axtree"]).has("button", "Frame clicked")


def test_a_covered_element_reports_what_covers_it(driver):
    driver.open("overlap")
    error = driver.act(f'click("{driver.id_of("button", "Under")}")')
    assert "click failed" in error and "intercepts pointer events" in error


def test_a_disabled_or_hidden_element_is_refused_with_the_reason(driver):
    driver.open("controls")
    assert "is disabled" in driver.act(f'click("{driver.id_of("button", "Disabled")}")')
    name = driver.id_of("textbox", "Name")
    driver.session.page.evaluate("document.getElementById('name').style.display = 'none'")
    assert "is not visible" in driver.act(f'fill("{name}", "Grace")')
    assert driver.session.page.evaluate("document.getElementById('name').value") == "Ada"
    assert "No element with id '4242'" in driver.act('click("4242")')


def test_scrolling_reaches_elements_below_the_fold(driver):
    driver.open("scroll")
    assert driver.act("scroll(0, 3000)") == ""
    assert driver.session.page.evaluate("window.scrollY") > 1000


def test_a_confirm_dialog_waits_for_the_agent(driver):
    driver.open("dialogs")
    assert driver.act(f'click("{driver.id_of("button", "Ask")}")') == ""
    assert driver.session.dialog is not None
    assert driver.session.dialog.message == "Delete it?"
    blocked = driver.act('click("1")')
    assert "dialog is open" in blocked
    assert driver.act("dialog_dismiss()") == ""
    assert AxTree(driver.observe()["axtree"]).find("paragraph").name == "no"
    driver.act(f'click("{driver.id_of("button", "Ask")}")')
    assert driver.act("dialog_accept()") == ""
    assert AxTree(driver.observe()["axtree"]).find("paragraph").name == "yes"


def test_a_navigation_begun_as_the_page_settles_is_waited_for(driver):
    # Accepting the dialog lets the page's script go to the link's page; the request reaches
    # the server late (as on a busy machine): the observation must be of the page it leads to.
    driver.open("leave")
    cdp = driver.session.page.context.new_cdp_session(driver.session.page)
    cdp.send("Network.enable")
    latency = {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", latency)
    assert driver.act(f'click("{driver.id_of("link", "Controls")}")') == ""
    assert driver.session.dialog is not None
    assert driver.act("dialog_accept()") == ""
    page = driver.session.settle({"axtree": True})
    assert page is not None and driver.session.page.url.endswith("/controls")
    assert AxTree(page["axtree"]).find("heading", "Controls")


def test_a_document_observed_before_it_has_an_element_is_waited_for(driver):
    # A document begun anew, with no element yet, as a navigation's next document is at its
    # start (here by document.open(), its content written 0.3 s later). Observing it once
    # raised out of the step as a browser error; it is waited for like a navigation.
    driver.open("controls")
    driver.session.page.evaluate(
        """() => { document.open();
        setTimeout(() => { document.write('<h1>Written late</h1>'); document.close(); }, 300); }"""
    )
    assert driver.session.page.evaluate("[document.documentElement, document.readyState]") == [
        None,
        "loading",
    ]
    page = driver.session.observe()
    assert AxTree(page["axtree"]).find("heading", "Written late")
    assert driver.session.limited == ""


def test_a_page_that_removed_its_own_root_is_observed_as_empty(driver):
    driver.open("controls")
    driver.session.page.evaluate("document.documentElement.remove()")
    page = driver.observe()
    assert page["axtree"] == "" and page["dom"] == ""


def test_a_link_to_a_new_tab_opens_and_focuses_it(driver):
    driver.open("tabs")
    assert driver.act(f'click("{driver.id_of("link", "Open controls in a new tab")}")') == ""
    driver.observe()
    assert len(driver.session.pages) == 2
    assert driver.session.page.url.endswith("/controls")
    assert driver.act("tab_focus(0)") == ""
    assert driver.session.page.url.endswith("/tabs")
    assert driver.act("tab_focus(1)\ntab_close()") == ""
    assert len(driver.session.pages) == 1


def test_upload_takes_only_files_of_the_episode_folder(driver, tmp_path):
    (tmp_path / "cv.txt").write_text("hello")
    driver.open("controls")
    name = driver.id_of("textbox", "Name")
    assert "No file '../../etc/passwd'" in driver.act(f'upload_file("{name}", "../../etc/passwd")')
    assert "No file 'missing.pdf'" in driver.act(f'upload_file("{name}", "missing.pdf")')


def test_viewport_only_leaves_out_controls_below_the_fold(driver):
    driver.open("scroll")
    full = driver.observe()["axtree"]
    visible = driver.observe(viewportOnly=True)["axtree"]
    assert "Far below" in full and "Far below" not in visible


def test_a_page_untouched_and_unchanged_since_the_last_observation_is_settled_at_once(driver):
    # The page counts timers set on it, and the quiet-DOM wait ticks with timers.
    driver.open("timers")
    session = driver.session
    ticks = lambda: session.page.evaluate("window.ticks")  # noqa: E731
    before = ticks()
    assert session.settle({"axtree": True}, untouched=True) is not None
    assert ticks() == before
    session.settle({"axtree": True})
    assert ticks() >= before + 3  # after an action, the DOM must stay quiet for a while


def test_an_untouched_page_that_changed_since_the_last_observation_waits_for_quiet(driver):
    driver.open("timers")
    session = driver.session
    session.page.evaluate("document.getElementById('out').textContent = 'changed'")
    before = session.page.evaluate("window.ticks")
    page = session.settle({"axtree": True}, untouched=True)
    assert session.page.evaluate("window.ticks") >= before + 3
    assert '"changed"' in page["axtree"]


def test_a_new_document_settles_once_quiet_since_its_load(driver):
    # The page adds an item 15, 30 and 45 ms after its load event.
    driver.session.goto(f"{driver.base}/late")
    page = driver.session.settle({"axtree": True})
    assert '"item 3"' in page["axtree"]


def test_a_page_whose_timers_run_late_settles_after_them(driver):
    # On a busy machine a page's timers run late: each item's timer is meant for 15 ms after
    # the last, but runs after a 60 ms stall, longer than the quiet window. The observation
    # is still of the page that a quiet machine shows.
    for _ in range(5):
        driver.session.goto(f"{driver.base}/stalled")
        page = driver.session.settle({"axtree": True})
        assert '"item 3"' in page["axtree"]


def test_screenshots_are_the_page_as_playwright_shows_it_without_a_caret(driver):
    driver.open("controls")
    session = driver.session

    def careful() -> np.ndarray:
        png = session.page.screenshot(type="png", animations="disabled", caret="hide")
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    assert (session.screenshot() == careful()).all()
    session.page.focus("#name")  # a blinking caret: never in a screenshot
    for _ in range(3):
        assert (session.screenshot() == careful()).all()
        session.page.wait_for_timeout(300)


def test_an_element_without_a_box_is_refused_at_once(driver):
    # An empty status region (zero height) is in the axtree, but no action can reach it:
    # refused at once, with the reason, rather than after the action timeout Playwright
    # would wait for a box that never comes (an agent's step would hold for seconds).
    driver.open("controls")
    page = driver.session.page
    page.evaluate(
        """() => { const s = document.createElement('div'); s.setAttribute('role', 'status');
        s.setAttribute('aria-label', 'Messages'); s.id = 'flashes'; document.body.prepend(s); }"""
    )
    status = driver.id_of("status", "Messages")
    for action in (f'fill("{status}", "2")', f'click("{status}")', f'check("{status}")'):
        error = driver.act(action)
        assert f"Element {status} is not visible" in error, error
        assert "Timeout" not in error
    name = driver.id_of("textbox", "Name")
    page.evaluate("document.getElementById('name').style.height = '0'")
    page.evaluate("document.getElementById('name').style.padding = '0'")
    page.evaluate("document.getElementById('name').style.border = '0'")
    assert "is not visible" in driver.act(f'fill("{name}", "Grace")')
    assert page.evaluate("document.getElementById('name').value") == "Ada"

"""Every action of the grammar, performed in the real browser on a page made to show its effect.

Each test reads the effect back from what the agent sees next (the axtree, the ``focused`` id,
the url, the tabs) or from a readout that the page's own script updates. Tests declare the
actions they perform with :func:`performs`; an autouse fixture checks that each declared action
really ran without an error, and the last test checks that every action of
:data:`webenv.actions.ACTIONS` has such a test.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from flask import Flask, Response
from playwright.sync_api import Error as PlaywrightError

from tests.observation.conftest import Driver
from webenv.actions import ACTIONS, FINAL_ACTIONS, parse
from webenv.axtree import AxTree
from webenv.errors import ActionError
from webenv.execute import execute
from webenv.server import SiteServer
from webenv.session import DEFAULT_TIMEOUTS, Session

# -- fixture pages ----------------------------------------------------------------------------

#: The same set of widgets, built into the page, into an open shadow root, or into a frame.
WIDGETS = """
<style>#tip{display:none} #hover:hover + #tip{display:inline}</style>
<label for="entry">Entry</label><input id="entry" value="prefilled">
<label for="memo">Memo</label><textarea id="memo">old memo</textarea>
<div contenteditable="true" aria-label="Editor">edit me</div>
<label><input type="checkbox" id="agree"> Agree</label>
<label><input type="radio" name="size" value="s"> Small</label>
<label><input type="radio" name="size" value="l"> Large</label>
<label for="colour">Colour</label>
<select id="colour">
  <option>Red</option><option value="g">Green</option><option>Blue</option>
</select>
<button type="button" id="twice">Double me</button>
<button type="button" id="hover">Hover me</button><span id="tip" role="tooltip">Tooltip shown</span>
<p id="keys">keys: none</p>
<p id="clicks">clicks: 0, double-clicks: 0</p>
<p id="pointer">pointer: outside</p>
<p id="focus">focus: none</p>
"""

BUILD_WIDGETS = f"""
<script>
function buildWidgets(root) {{
  root.innerHTML = {json.dumps(WIDGETS)};
  const $ = (id) => root.querySelector("#" + id);
  const keys = [];
  $("entry").addEventListener("keydown", (e) => {{
    if (["Shift", "Control", "Alt", "Meta"].includes(e.key)) return;
    keys.push((e.ctrlKey ? "Control+" : "") + (e.shiftKey ? "Shift+" : "") + e.key);
    $("keys").textContent = "keys: " + keys.join(" ");
  }});
  let clicks = 0, doubles = 0;
  const count = () => {{
    $("clicks").textContent = `clicks: ${{clicks}}, double-clicks: ${{doubles}}`;
  }};
  $("twice").addEventListener("click", () => {{ clicks++; count(); }});
  $("twice").addEventListener("dblclick", () => {{ doubles++; count(); }});
  const pointer = (where) => () => {{ $("pointer").textContent = "pointer: " + where; }};
  $("hover").addEventListener("mouseenter", pointer("inside"));
  $("hover").addEventListener("mouseleave", pointer("outside"));
  $("memo").addEventListener("focus", () => {{ $("focus").textContent = "focus: memo"; }});
}}
</script>
"""

PAGES = {
    "widgets": f"""<h1>Widgets</h1><div id="app"></div>{BUILD_WIDGETS}
<script>buildWidgets(document.getElementById("app"));</script>""",
    "widgets-shadow": f"""<h1>Shadow widgets</h1><div id="host"></div>{BUILD_WIDGETS}
<script>buildWidgets(document.getElementById("host").attachShadow({{mode: "open"}}));</script>""",
    "widgets-frame": """<h1>Framed widgets</h1>
<iframe src="/widgets" title="Widgets frame" style="width:900px;height:560px"></iframe>""",
    "keys": """<h1>Shortcuts</h1><p id="last">shortcut: none</p>
<script>
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey && e.key === "k") last.textContent = "shortcut: search";
  if (e.key === "Escape") last.textContent = "shortcut: escape";
});
</script>""",
    "mouse": """<h1>Mouse</h1>
<button id="target" style="position:absolute;left:300px;top:120px;width:160px;height:60px"
 oncontextmenu="return false">Target</button>
<p id="events" style="position:absolute;left:20px;top:220px">events: none</p>
<script>
const seen = [];
const note = (e) => {
  seen.push(e.type + (e.button ? ":" + e.button : ""));
  events.textContent = "events: " + seen.join(" ");
};
for (const type of ["mouseenter", "mousedown", "mouseup", "click", "dblclick", "contextmenu"]) {
  target.addEventListener(type, note);
}
</script>""",
    "sortable": """<h1>Sortable</h1>
<ol id="html5" aria-label="Drag list">
  <li draggable="true">Apple</li><li draggable="true">Banana</li><li draggable="true">Cherry</li>
</ol>
<p id="html5-order">drag order: Apple Banana Cherry</p>
<ol id="pointer" aria-label="Pointer list" style="user-select:none">
  <li>One</li><li>Two</li><li>Three</li>
</ol>
<p id="pointer-order">pointer order: One Two Three</p>
<div id="bin" role="region" aria-label="Drop bin" style="width:240px;height:60px;border:1px solid">
Drop bin</div>
<p id="binned">bin: empty</p>
<script>
const names = (list) => [...list.children].map((li) => li.textContent).join(" ");
let dragged = null;
for (const li of html5.children) {
  li.addEventListener("dragstart", (e) => {
    dragged = li;
    e.dataTransfer.setData("text/plain", li.textContent);
  });
  li.addEventListener("dragover", (e) => e.preventDefault());
  li.addEventListener("drop", (e) => {
    e.preventDefault();
    li.before(dragged);
    document.getElementById("html5-order").textContent = "drag order: " + names(html5);
  });
}
bin.addEventListener("dragover", (e) => e.preventDefault());
bin.addEventListener("drop", (e) => {
  e.preventDefault();
  binned.textContent = "bin: " + e.dataTransfer.getData("text/plain");
});
let held = null;
for (const li of pointer.children) {
  li.addEventListener("pointerdown", () => { held = li; });
}
document.addEventListener("pointerup", (e) => {
  const over = document.elementFromPoint(e.clientX, e.clientY);
  const target = over && over.closest("#pointer > li");
  if (held && target && target !== held) {
    target.before(held);
    document.getElementById("pointer-order").textContent = "pointer order: " + names(pointer);
  }
  held = null;
});
</script>""",
    "scrolling": """<h1>Scrolling</h1>
<div id="pane" role="region" aria-label="Pane" style="height:150px;width:300px;overflow:auto">
  <div style="height:1200px">pane content</div>
</div>
<p id="pane-top">pane scrollTop: 0</p>
<p id="page-top">page scrollY: 0</p>
<div style="height:2500px"></div>
<button type="button">Bottom button</button>
<script>
pane.addEventListener("scroll", () => {
  document.getElementById("pane-top").textContent = "pane scrollTop: " + pane.scrollTop;
});
addEventListener("scroll", () => {
  document.getElementById("page-top").textContent = "page scrollY: " + Math.round(scrollY);
});
</script>""",
    # A pane that scrolls itself on the wheel, smoothly (as scrolling libraries do): its scroll
    # takes many frames, and the page's own scroll never moves.
    "smooth-pane": """<h1>Smooth pane</h1>
<div id="pane" role="region" aria-label="Pane" style="height:150px;width:300px;overflow:auto">
  <div style="height:1200px">pane content</div>
</div>
<p id="pane-top">pane scrollTop: 0</p>
<script>
pane.addEventListener("scroll", () => {
  document.getElementById("pane-top").textContent = "pane scrollTop: " + pane.scrollTop;
});
pane.addEventListener("wheel", event => {
  event.preventDefault();
  pane.scrollBy({top: event.deltaY, behavior: "smooth"});
}, {passive: false});
</script>""",
    "prompts": """<h1>Prompts</h1>
<button onclick="alert('Heads up'); out.textContent = 'alert: closed'">Alert</button>
<button onclick="out.textContent = 'confirm: ' + (confirm('Sure?') ? 'yes' : 'no')">Confirm</button>
<button onclick="const v = prompt('Your name?', 'nobody');
 out.textContent = v === null ? 'prompt: cancelled' : 'prompt: ' + v">Prompt</button>
<button onclick="setTimeout(() => { out.textContent = 'later: ' + confirm('Later?'); }, 50)">
Ask later</button>
<p id="out">answer: none</p>""",
    "later": """<h1>Later</h1>
<button onclick="out.textContent = 'timer: started';
 setTimeout(() => { out.textContent = 'timer: done'; }, 1000)">Start timer</button>
<p id="out">timer: idle</p>""",
    "first": """<h1>First page</h1><a href="/second">To the second page</a>""",
    "second": """<h1>Second page</h1><a href="/first">To the first page</a>""",
    "popup": """<h1>Pop-up</h1>
<button onclick="window.open('/second', 'extra', 'width=500,height=400')">Open pop-up</button>""",
    "upload": """<h1>Upload</h1>
<label for="files">Attachments</label><input type="file" id="files" multiple>
<p id="names">files: none</p><p id="content">content: none</p>
<script>
files.addEventListener("change", async () => {
  names.textContent = "files: " + [...files.files].map((f) => f.name).join(", ");
  content.textContent = "content: " + (await files.files[0].text()).trim();
});
</script>""",
    "downloads": """<h1>Downloads</h1>
<a href="/files/report.txt" download="report.txt">Download report</a>
<a href="/export.csv">Export CSV</a>""",
}


def action_app() -> Flask:
    app = Flask("action_fixtures")

    @app.route("/<name>")
    def page(name: str) -> Any:
        body = PAGES.get(name)
        if body is None:
            return "missing", 404
        return f"<!doctype html><html><head><title>{name}</title></head><body>{body}</body></html>"

    @app.route("/files/report.txt")
    def report() -> Any:
        return Response("quarterly report\n", mimetype="text/plain")

    @app.route("/export.csv")
    def export() -> Any:
        return Response(
            "a,b\n1,2\n",
            mimetype="text/csv",
            headers={"Content-Disposition": "attachment; filename=export.csv"},
        )

    return app


# -- which actions each test performs ---------------------------------------------------------

#: Names of the actions that ran without an error during the current test.
PERFORMED: set[str] = set()


def performs(*names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare the actions a test performs; the autouse fixture below holds it to that."""
    unknown = set(names) - set(ACTIONS)
    if unknown:
        raise ValueError(f"Unknown actions {sorted(unknown)}; see webenv.actions.ACTIONS.")

    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        test.performs = frozenset(names)  # type: ignore[attr-defined]
        return test

    return mark


@pytest.fixture(autouse=True)
def _performs_what_it_declares(request: pytest.FixtureRequest) -> Iterator[None]:
    PERFORMED.clear()
    yield
    declared = getattr(request.function, "performs", frozenset())
    missing = declared - PERFORMED
    assert not missing, f"declared but never performed without an error: {sorted(missing)}"


class ActionDriver(Driver):
    """The conftest's driver, noting which actions ran without an error."""

    def act(self, action: str) -> str:
        try:
            for call in parse(action):
                execute(self.session, call, self.files_dir)
                if call.name not in FINAL_ACTIONS:  # they do nothing in the page
                    PERFORMED.add(call.name)
        except ActionError as error:
            return str(error)
        return ""

    def tree(self, **options: Any) -> AxTree:
        return AxTree(self.observe(**options)["axtree"])

    def text(self, contains: str) -> str:
        """The name of the first node whose name contains ``contains`` (a page's readout)."""
        return self.tree().find(contains=contains).name

    def elements(self) -> dict[str, dict[str, Any]]:
        """The ``elements`` observation, by name."""
        return {e["name"]: e for e in self.observe(elements=True)["elements"]}


def centre(element: dict[str, Any]) -> tuple[float, float]:
    x, y, width, height = element["box"]
    return x + width / 2, y + height / 2


@pytest.fixture(scope="module")
def site(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ActionDriver]:
    """One fixture site and one session for the whole module; each test opens its own page."""
    files = tmp_path_factory.mktemp("episode-files")
    (files / "cv.txt").write_text("curriculum vitae\n")
    (files / "photo.txt").write_text("a photo\n")
    server = SiteServer({"fixtures": action_app()})
    session = Session(
        browser, [server.url("fixtures")], now=datetime(2026, 3, 2, 9, 30),
        server_idle=server.wait_idle,
    )  # fmt: skip
    try:
        yield ActionDriver(session, server.url("fixtures"), files)
    finally:
        session.close()
        server.close()


@pytest.fixture
def page(site: ActionDriver) -> Iterator[ActionDriver]:
    """The shared session, left with its timeouts, its first tab and no dialog whatever the
    test did. The tabs after the first are closed, not the active one: a tab still loading (a
    middle-clicked link to a file leaves one) would take the next test's first navigation."""
    session = site.session
    timeouts = session.timeouts
    yield site
    session.timeouts = timeouts
    if session.dialog is not None:
        session.answer_dialog(False)
    while len(session.pages) > 1:
        session.focus_tab(len(session.pages) - 1)
        session.close_tab()
    session.focus_tab(0)


# -- the same widgets in the page, in a shadow root and in a frame ----------------------------

CONTEXTS = ["widgets", "widgets-shadow", "widgets-frame"]


@pytest.mark.parametrize("where", CONTEXTS)
@performs("click", "dblclick")
def test_dblclick_double_clicks_where_click_clicks_once(page, where):
    page.open(where)
    button = page.id_of("button", "Double me")
    assert page.act(f'click("{button}")') == ""
    assert page.text("clicks:") == "clicks: 1, double-clicks: 0"
    assert page.act(f'dblclick("{button}")') == ""
    assert page.text("clicks:") == "clicks: 3, double-clicks: 1"


@pytest.mark.parametrize("where", CONTEXTS)
@performs("hover")
def test_hover_shows_what_the_pointer_reveals(page, where):
    tree = AxTree(page.open(where))
    assert not tree.has("tooltip", "Tooltip shown")
    assert page.act(f'hover("{tree.id("button", "Hover me")}")') == ""
    after = page.tree()
    assert after.has("tooltip", "Tooltip shown")  # a CSS :hover rule
    assert after.has("paragraph", "pointer: inside")  # a mouseenter handler


@pytest.mark.parametrize("where", CONTEXTS)
@performs("fill", "clear")
def test_fill_and_clear_replace_and_empty_text(page, where):
    page.open(where)
    entry, memo = page.id_of("textbox", "Entry"), page.id_of("textbox", "Memo")
    editor = page.id_of("textbox", "Editor")
    assert page.act(f'fill("{memo}", "new memo")\nfill("{editor}", "new text")') == ""
    tree = page.tree()
    assert tree.find("textbox", "Memo").value == "new memo"
    assert tree.find("textbox", "Editor").value == "new text"
    assert page.act(f'clear("{entry}")\nclear("{memo}")\nclear("{editor}")') == ""
    tree = page.tree()
    for name in ("Entry", "Memo", "Editor"):
        assert tree.find("textbox", name).value == ""


@pytest.mark.parametrize("where", CONTEXTS)
@performs("check", "uncheck", "select_option")
def test_checkboxes_radios_and_selects(page, where):
    page.open(where)
    agree, large = page.id_of("checkbox", "Agree"), page.id_of("radio", "Large")
    colour = page.id_of("combobox", "Colour")
    assert page.act(f'check("{agree}")\ncheck("{large}")\nselect_option("{colour}", "Blue")') == ""
    tree = page.tree()
    assert tree.find("checkbox", "Agree").has("checked")
    assert tree.find("radio", "Large").has("checked")
    assert tree.find("radio", "Small").has("unchecked")
    assert tree.find("combobox", "Colour").value == "Blue"
    # By value as well as by label.
    assert page.act(f'uncheck("{agree}")\nselect_option("{colour}", "g")') == ""
    tree = page.tree()
    assert tree.find("checkbox", "Agree").has("unchecked")
    assert tree.find("combobox", "Colour").value == "Green"


@pytest.mark.parametrize("where", CONTEXTS)
@performs("focus")
def test_focus_moves_the_focus_and_the_focused_id_follows(page, where):
    page.open(where)
    memo = page.id_of("textbox", "Memo")
    assert page.observe()["focused"] != memo
    assert page.act(f'focus("{memo}")') == ""
    observation = page.observe()
    assert observation["focused"] == memo
    assert [node.id for node in AxTree(observation["axtree"]) if node.has("focused")] == [memo]
    assert page.text("focus:") == "focus: memo"


@pytest.mark.parametrize("where", CONTEXTS)
@performs("press")
def test_press_sends_keys_to_the_element(page, where):
    page.open(where)
    entry = page.id_of("textbox", "Entry")
    assert page.act(f'press("{entry}", "Enter")\npress("{entry}", "End")') == ""
    assert page.act(f'press("{entry}", "Shift+A")') == ""
    assert page.text("keys:") == "keys: Enter End Shift+A"
    assert page.tree().find("textbox", "Entry").value == "prefilledA"
    # A combination that edits: select all, then delete.
    assert page.act(f'press("{entry}", "Control+a")\npress("{entry}", "Backspace")') == ""
    assert page.tree().find("textbox", "Entry").value == ""


@pytest.mark.parametrize("where", CONTEXTS)
@performs("focus", "keyboard_press", "keyboard_type")
def test_keyboard_types_into_the_focused_element(page, where):
    page.open(where)
    entry = page.id_of("textbox", "Entry")
    assert page.act(f'focus("{entry}")\nkeyboard_press("End")\nkeyboard_type(" and more")') == ""
    assert page.tree().find("textbox", "Entry").value == "prefilled and more"
    assert page.text("keys:") == "keys: End a n d m o r e"  # a keydown per character
    editor = page.id_of("textbox", "Editor")
    assert page.act(f'focus("{editor}")\nkeyboard_press("Control+a")\nkeyboard_type("typed")') == ""
    assert page.tree().find("textbox", "Editor").value == "typed"


@performs("keyboard_press")
def test_keyboard_press_reaches_page_shortcuts(page):
    page.open("keys")
    assert page.act('keyboard_press("Control+k")') == ""
    assert page.text("shortcut:") == "shortcut: search"
    assert page.act('keyboard_press("Escape")') == ""
    assert page.text("shortcut:") == "shortcut: escape"


# -- the pointer at coordinates ---------------------------------------------------------------


@performs("mouse_move")
def test_mouse_move_enters_the_element_under_the_pointer(page):
    page.open("mouse")
    target = page.elements()["Target"]
    x, y = centre(target)
    assert page.act(f"mouse_move({x - 200}, {y})") == ""
    assert page.text("events:") == "events: none"
    assert page.act(f"mouse_move({x}, {y})") == ""
    assert page.text("events:") == "events: mouseenter"


@performs("mouse_click", "mouse_dblclick")
def test_mouse_click_and_dblclick_at_coordinates(page):
    page.open("mouse")
    x, y = centre(page.elements()["Target"])
    assert page.act(f"mouse_click({x}, {y})") == ""
    assert page.text("events:") == "events: mouseenter mousedown mouseup click"
    assert page.act(f"mouse_dblclick({x}, {y})") == ""
    assert page.text("events:").endswith("mousedown mouseup click mousedown mouseup click dblclick")
    assert page.act(f'mouse_click({x}, {y}, "right")') == ""
    assert page.text("events:").endswith("mousedown:2 contextmenu:2 mouseup:2")


@performs("mouse_click")
def test_mouse_click_outside_every_element_does_nothing(page):
    page.open("mouse")
    x, y = centre(page.elements()["Target"])
    assert page.act(f"mouse_click({x}, {y + 300})") == ""
    assert page.text("events:") == "events: none"


@performs("mouse_down", "mouse_up")
def test_mouse_down_and_up_are_separate_presses(page):
    page.open("mouse")
    x, y = centre(page.elements()["Target"])
    assert page.act(f"mouse_down({x}, {y})") == ""
    assert page.text("events:") == "events: mouseenter mousedown"
    assert page.act(f"mouse_up({x}, {y})") == ""
    assert page.text("events:") == "events: mouseenter mousedown mouseup click"


@performs("mouse_down", "mouse_move", "mouse_up")
def test_mouse_down_move_up_drags_a_pointer_list(page):
    page.open("sortable")
    boxes = page.elements()
    assert page.act(f"mouse_down{centre(boxes['Three'])}") == ""
    assert page.act(f"mouse_move{centre(boxes['One'])}") == ""
    assert page.act(f"mouse_up{centre(boxes['One'])}") == ""
    assert page.text("pointer order:") == "pointer order: Three One Two"


@pytest.mark.parametrize(
    ("source", "target", "readout", "expected"),
    [
        ("Cherry", "Apple", "drag order:", "drag order: Cherry Apple Banana"),  # HTML5 drag
        ("Banana", "Drop bin", "bin:", "bin: Banana"),  # HTML5 drag into a zone
        ("Three", "One", "pointer order:", "pointer order: Three One Two"),  # pointer events
    ],
)
@performs("drag_and_drop")
def test_drag_and_drop(page, source, target, readout, expected):
    tree = AxTree(page.open("sortable"))
    assert tree.has("region", "Drop bin")
    from_id, to_id = tree.id(name=source), tree.id(name=target)
    assert page.act(f'drag_and_drop("{from_id}", "{to_id}")') == ""
    assert page.text(readout) == expected


# -- scrolling --------------------------------------------------------------------------------


@performs("mouse_move", "scroll")
def test_scroll_moves_the_page_and_reveals_what_was_below(page):
    page.open("scrolling")
    assert not page.elements()["Bottom button"]["visible"]
    assert page.act("mouse_move(900, 400)\nscroll(0, 3000)") == ""
    assert page.elements()["Bottom button"]["visible"]
    assert page.text("page scrollY:") != "page scrollY: 0"
    assert "Bottom button" in page.observe(viewportOnly=True)["axtree"]
    assert page.act("scroll(0, -5000)") == ""
    assert page.text("page scrollY:") == "page scrollY: 0"


@performs("mouse_move", "scroll")
def test_scroll_over_a_container_scrolls_the_container(page):
    page.open("scrolling")
    x, y = centre(page.elements()["Pane"])
    assert page.act(f"mouse_move({x}, {y})\nscroll(0, 200)") == ""
    assert page.text("pane scrollTop:") == "pane scrollTop: 200"
    assert page.text("page scrollY:") == "page scrollY: 0"


@performs("mouse_move", "scroll")
def test_a_scroll_returns_once_what_it_scrolls_has_come_to_rest(page):
    # The pane's own smooth scroll lasts many frames after the wheel, and the page never
    # moves: the action itself (before any wait for a quiet page) waits for the pane to stop.
    page.open("smooth-pane")
    x, y = centre(page.elements()["Pane"])
    assert page.act(f"mouse_move({x}, {y})\nscroll(0, 200)") == ""
    assert page.session.page.evaluate("pane.scrollTop") == 200


@performs("hover", "scroll")
def test_hover_then_scroll_scrolls_what_is_hovered(page):
    page.open("scrolling")
    assert page.act(f'hover("{page.id_of("region", "Pane")}")\nscroll(0, 120)') == ""
    assert page.text("pane scrollTop:") == "pane scrollTop: 120"


# -- navigation and tabs ----------------------------------------------------------------------


@performs("click", "go_back", "go_forward")
def test_go_back_and_forward_through_history(page):
    page.open("first")
    assert page.act(f'click("{page.id_of("link", "To the second page")}")') == ""
    assert page.tree().has("heading", "Second page")
    assert page.act("go_back()") == ""
    assert page.tree().has("heading", "First page")
    assert page.session.page.url == f"{page.base}/first"
    assert page.act("go_forward()") == ""
    assert page.tree().has("heading", "Second page")
    assert page.session.page.url == f"{page.base}/second"
    assert page.act("go_forward()") == "There is no next page in this tab's history."
    assert page.session.page.url == f"{page.base}/second"


@performs("goto")
def test_goto_opens_a_page_of_the_world_only(page):
    page.open("first")
    assert page.act(f'goto("{page.base}/second")') == ""
    assert page.tree().has("heading", "Second page")
    assert page.act('goto("/first")') == ""  # a path on the current site
    assert page.tree().has("heading", "First page")
    assert "only the world's sites" in page.act('goto("https://example.com/")')
    assert page.session.page.url == f"{page.base}/first"


@performs("new_tab", "goto", "tab_focus", "tab_close")
def test_new_tab_focus_and_close(page):
    page.open("first")
    assert page.act("new_tab()") == ""
    assert len(page.session.pages) == 2 and page.session.page.url == "about:blank"
    assert page.act(f'goto("{page.base}/second")') == ""
    assert page.tree().has("heading", "Second page")
    assert page.act("tab_focus(0)") == ""
    assert page.tree().has("heading", "First page")
    assert "No tab 2" in page.act("tab_focus(2)")
    assert page.act("tab_focus(1)\ntab_close()") == ""
    assert len(page.session.pages) == 1
    assert page.tree().has("heading", "First page")


@performs("click")
def test_a_pop_up_window_becomes_the_active_tab(page):
    page.open("popup")
    assert page.act(f'click("{page.id_of("button", "Open pop-up")}")') == ""
    assert page.tree().has("heading", "Second page")
    assert len(page.session.pages) == 2
    assert page.session.page.url == f"{page.base}/second"


# -- dialogs, waiting, files ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("button", "answer", "message", "expected"),
    [
        ("Alert", "dialog_accept()", "alert: Heads up", "alert: closed"),
        ("Alert", "dialog_dismiss()", "alert: Heads up", "alert: closed"),
        ("Confirm", "dialog_accept()", "confirm: Sure?", "confirm: yes"),
        ("Confirm", "dialog_dismiss()", "confirm: Sure?", "confirm: no"),
        ("Prompt", 'dialog_accept("Grace Hopper")', "prompt: Your name?", "prompt: Grace Hopper"),
        ("Prompt", "dialog_dismiss()", "prompt: Your name?", "prompt: cancelled"),
    ],
)
@performs("click")
def test_dialogs_wait_for_the_agents_answer(page, button, answer, message, expected):
    # A click held till the action bound (30 s here, told apart from a slow click on a busy
    # machine) would have waited for the dialog to close.
    page.session.timeouts = replace(page.session.timeouts, action=30_000)
    page.open("prompts")
    started = time.monotonic()
    assert page.act(f'click("{page.id_of("button", button)}")') == ""
    assert time.monotonic() - started < 15  # not held till the bound
    dialog = page.session.dialog
    assert dialog is not None and f"{dialog.type}: {dialog.message}" == message
    assert "answer it first" in page.act("scroll(0, 10)")
    assert page.act(answer) == ""
    assert page.session.dialog is None
    assert page.text(expected.split(":")[0] + ":") == expected


@performs("mouse_click", "dialog_accept")
def test_a_dialog_opened_by_a_click_at_coordinates_is_held(page):
    page.open("prompts")
    x, y = centre(page.elements()["Confirm"])
    started = time.monotonic()
    with page.session.bounded(3000):  # as the env bounds a step
        assert page.act(f"mouse_click({x}, {y})") == ""
    assert time.monotonic() - started < DEFAULT_TIMEOUTS.action / 1000
    assert page.session.dialog is not None and page.session.dialog.message == "Sure?"
    assert page.act("dialog_accept()") == ""
    assert page.text("confirm:") == "confirm: yes"


@performs("focus", "keyboard_press", "dialog_dismiss")
def test_a_dialog_opened_by_the_keyboard_is_held(page):
    page.open("prompts")
    confirm = page.id_of("button", "Confirm")
    started = time.monotonic()
    with page.session.bounded(3000):
        assert page.act(f'focus("{confirm}")\nkeyboard_press("Enter")') == ""
    assert time.monotonic() - started < DEFAULT_TIMEOUTS.action / 1000
    assert page.session.dialog is not None and page.session.dialog.message == "Sure?"
    assert page.act("dialog_dismiss()") == ""
    assert page.text("confirm:") == "confirm: no"


@performs("click", "dialog_dismiss")
def test_a_dialog_opened_after_the_action_is_held(page):
    # A timer opens it after the click has returned: it is held whether it opens while the
    # env reads the page or during the agent's next action.
    page.open("prompts")
    assert page.act(f'click("{page.id_of("button", "Ask later")}")') == ""
    for _ in range(3):
        with page.session.bounded(2000):  # as the env bounds the observation after a step
            page.session.settle({"axtree": True})
        if page.session.dialog is not None:
            break
        assert page.act("noop(300)") == ""
    assert page.session.interrupted == ""
    assert page.session.dialog is not None and page.session.dialog.message == "Later?"
    assert page.act("dialog_dismiss()") == ""
    assert page.text("later:") == "later: false"


@performs("click", "dialog_accept", "dialog_dismiss")
def test_answering_without_a_dialog_says_so(page):
    page.open("prompts")
    assert "No dialog is open" in page.act("dialog_accept()")
    assert "No dialog is open" in page.act("dialog_dismiss()")
    # And each answer works in turn on one page.
    prompt = page.id_of("button", "Prompt")
    assert page.act(f'click("{prompt}")\ndialog_accept("Ada")') == ""
    assert page.text("prompt:") == "prompt: Ada"
    assert page.act(f'click("{prompt}")\ndialog_dismiss()') == ""
    assert page.text("prompt:") == "prompt: cancelled"


@performs("click", "noop")
def test_noop_waits_when_asked(page):
    page.open("later")
    assert page.act(f'click("{page.id_of("button", "Start timer")}")') == ""
    assert page.text("timer:") == "timer: started"
    assert page.act("noop()") == ""
    assert page.text("timer:") == "timer: started"
    started = time.monotonic()
    assert page.act("noop(wait_ms=1300)") == ""
    assert time.monotonic() - started >= 1.3
    assert page.text("timer:") == "timer: done"


@performs("upload_file")
def test_upload_file_attaches_episode_files(page):
    page.open("upload")
    files = page.id_of("button", "Attachments")
    assert page.act(f'upload_file("{files}", ["cv.txt", "photo.txt"])') == ""
    tree = page.tree()
    assert tree.has("paragraph", "files: cv.txt, photo.txt")
    assert tree.has("paragraph", "content: curriculum vitae")
    assert tree.find("button", "Attachments").value == "cv.txt, photo.txt"


def _listing(folder: Path) -> set[str]:
    return set(os.listdir(folder)) if folder.is_dir() else set()


@performs("click")
def test_downloads_are_refused_and_do_not_hang(page):
    # A click that waited for a page to load would wait out the action bound (30 s here, so
    # that it is told apart from a slow click on a busy machine).
    page.session.timeouts = replace(page.session.timeouts, action=30_000)
    page.open("downloads")
    watched = [Path.cwd(), Path.home(), Path.home() / "Downloads", page.files_dir]
    before = {folder: _listing(folder) for folder in watched}
    downloads: list[Any] = []
    page.session.page.on("download", lambda download: downloads.append(download))
    started = time.monotonic()
    for link in ("Download report", "Export CSV"):
        assert page.act(f'click("{page.id_of("link", link)}")') == ""
        assert page.tree().has("heading", "Downloads")  # still on the page, not stuck
    for _ in range(100):  # the browser tells of a download a moment after the click
        if len(downloads) == 2:
            break
        page.session.page.wait_for_timeout(100)
    assert time.monotonic() - started < 25
    assert page.session.page.url == f"{page.base}/downloads"
    assert [download.url.rsplit("/", 1)[1] for download in downloads] == [
        "report.txt",
        "export.csv",
    ]
    for download in downloads:  # refused, and saved nowhere
        assert "accept_downloads" in (download.failure() or "")
        with pytest.raises(PlaywrightError, match="accept_downloads"):
            download.path()
    for folder in watched:
        assert _listing(folder) == before[folder], f"a download landed in {folder}"


@performs("click")
def test_a_middle_click_on_a_link_to_a_file_does_not_wait_for_a_tab(page):
    # The browser downloads the file (refused): the step does not wait out the action timeout
    # for a tab to load (30 s here, so that a click that waits it out is told apart from a
    # slow one on a busy machine). For "Export CSV", Chromium opens a tab in the background
    # and closes it once the download begins (the headless shell leaves it blank, and the
    # session closes it); the agent stays where it was, with one tab.
    page.session.timeouts = replace(page.session.timeouts, action=30_000)
    page.open("downloads")
    for link in ("Download report", "Export CSV"):
        started = time.monotonic()
        assert page.act(f'click("{page.id_of("link", link)}", button="middle")') == ""
        took = time.monotonic() - started
        assert took < 15, f"middle-clicking {link!r} took {took:.1f} s"
        assert page.session.page.url == f"{page.base}/downloads"  # the agent stays on it
        assert page.tree().has("heading", "Downloads")
        assert [tab.url for tab in page.session.pages] == [f"{page.base}/downloads"]


# -- several actions in one step --------------------------------------------------------------


@performs("fill", "press", "check", "select_option")
def test_several_actions_in_one_step_run_in_order(page):
    page.open("widgets")
    entry, agree = page.id_of("textbox", "Entry"), page.id_of("checkbox", "Agree")
    colour = page.id_of("combobox", "Colour")
    step = "\n".join(
        [
            f'fill("{entry}", "abc")',
            f'press("{entry}", "Enter")',
            f'check("{agree}")',
            f'select_option("{colour}", "Blue")',
        ]
    )
    assert page.act(step) == ""
    tree = page.tree()
    assert tree.find("textbox", "Entry").value == "abc"
    assert tree.has("paragraph", "keys: Enter")
    assert tree.find("checkbox", "Agree").has("checked")
    assert tree.find("combobox", "Colour").value == "Blue"


@performs("fill")
def test_a_failing_action_stops_the_rest_of_the_step(page):
    page.open("widgets")
    entry, agree = page.id_of("textbox", "Entry"), page.id_of("checkbox", "Agree")
    error = page.act(f'fill("{entry}", "done")\nclick("99999")\ncheck("{agree}")')
    assert "No element with id '99999'" in error
    tree = page.tree()
    assert tree.find("textbox", "Entry").value == "done"
    assert tree.find("checkbox", "Agree").has("unchecked")


# -- through the env: the agent's view of tabs, steps and final actions ------------------------


@pytest.fixture(scope="module")
def env(browser: Any) -> Iterator[Any]:
    env = gym.make("webenv/shop.fill_cart-v0", observe=("axtree",))
    yield env
    env.close()


def step(env: Any, action: str) -> tuple[dict[str, Any], float, bool]:
    """One env step; the actions of a step that raised no error count as performed."""
    observation, reward, terminated, _truncated, _info = env.step(action)
    if observation["last_action_error"] == "":
        for call in parse(action):
            if call.name not in FINAL_ACTIONS or terminated:
                PERFORMED.add(call.name)
    return observation, reward, terminated


@performs("new_tab", "goto", "tab_focus", "tab_close")
def test_tabs_observation_follows_the_tab_actions(env):
    observation, _ = env.reset(seed=0)
    home = observation["url"]
    observation, _, _ = step(env, "new_tab()")
    lines = observation["tabs"].splitlines()
    assert len(lines) == 2 and lines[1].startswith("*1") and lines[1].endswith("about:blank")
    observation, _, _ = step(env, f'goto("{home}")')
    assert observation["url"] == home and observation["tabs"].splitlines()[1].endswith(home)
    observation, _, _ = step(env, "tab_focus(0)")
    assert observation["tabs"].splitlines()[0].startswith("*0")
    observation, _, _ = step(env, "tab_close()")
    assert len(observation["tabs"].splitlines()) == 1
    assert observation["tabs"].startswith("*0")


@performs("fill", "press", "send_msg_to_user")
def test_a_step_may_act_then_answer_which_ends_the_episode(env):
    observation, _ = env.reset(seed=0)
    search = AxTree(observation["axtree"]).id("searchbox", "Search products")
    observation, reward, terminated = step(
        env, f'fill("{search}", "socks")\npress("{search}", "Enter")\nsend_msg_to_user("done")'
    )
    assert terminated and reward == 0.0
    assert observation["last_action_error"] == ""
    assert "socks" in observation["url"]  # the actions before the answer were carried out


@performs("report_infeasible")
def test_report_infeasible_ends_the_episode(env):
    env.reset(seed=0)
    observation, reward, terminated = step(env, 'report_infeasible("No such product.")')
    assert terminated and reward == 0.0
    assert observation["last_action_error"] == ""


@performs("noop")
def test_noop_leaves_the_episode_running(env):
    observation, _ = env.reset(seed=0)
    after, reward, terminated = step(env, "noop(wait_ms=50)")
    assert not terminated and reward == 0.0
    assert after["url"] == observation["url"] and after["axtree"] == observation["axtree"]


def test_every_action_has_a_test_here():
    covered = {
        name for test in globals().values() for name in getattr(test, "performs", frozenset())
    }
    assert set(ACTIONS) - covered == set(), "actions without a real-browser test"

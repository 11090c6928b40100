"""A fixture site of awkward pages, served like a world's site, seen through a Session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest
from flask import Flask

from webenv.actions import parse
from webenv.errors import ActionError
from webenv.execute import execute
from webenv.server import SiteServer
from webenv.session import Session

PAGES = {
    "controls": """
<h1>Controls</h1>
<form><label for="name">Name</label><input id="name" value="Ada">
<label><input type="checkbox" id="news" checked> Newsletter</label>
<fieldset><legend>Size</legend>
  <label><input type="radio" name="size" value="s"> Small</label>
  <label><input type="radio" name="size" value="l"> Large</label></fieldset>
<label for="colour">Colour</label>
<select id="colour"><option value="r">Red</option><option value="g" selected>Green</option></select>
<label for="notes">Notes</label><textarea id="notes" required aria-invalid="true">hi</textarea>
<button type="button" disabled>Disabled</button>
<div contenteditable="true" aria-label="Editor">edit me</div>
</form>
<div style="display:none"><button>Hidden button</button></div>
<div aria-hidden="true"><button>Aria hidden</button></div>
<a href="/tabs">Go to tabs</a>
""",
    "frames": """
<h1>Frames</h1>
<iframe src="/inner" title="Inner frame" style="width:400px;height:120px"></iframe>
<div id="host"></div>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<button onclick="this.textContent=\\'Shadow clicked\\'">Shadow button</button>';
</script>
""",
    "inner": """<button onclick="this.textContent='Frame clicked'">Frame button</button>""",
    "dialogs": """
<h1>Dialogs</h1>
<button onclick="out.textContent = confirm('Delete it?') ? 'yes' : 'no'">Ask</button>
<p id="out">none</p>
""",
    "leave": """
<h1>Leave</h1>
<a href="/controls" onclick="event.preventDefault();
  if (confirm('Leave this page?'))
    setTimeout(() => { location.href = this.href; }, 10)">Controls</a>
""",
    "tabs": """
<h1>Tabs</h1>
<a href="/controls" target="_blank">Open controls in a new tab</a>
""",
    "overlap": """
<h1>Overlap</h1>
<button id="under" onclick="this.textContent='Under clicked'">Under</button>
<div style="position:fixed;inset:0;background:rgba(0,0,0,.4)" aria-label="Backdrop"></div>
""",
    "timers": """
<h1>Timers</h1><p id="out">unchanged</p>
<script>
window.ticks = 0;
const setTimeoutOfPage = window.setTimeout;
window.setTimeout = (callback, ms) => { window.ticks += 1; return setTimeoutOfPage(callback, ms); };
</script>
""",
    "late": """
<h1>Late</h1><ul id="items"></ul>
<script>
addEventListener("load", () => {
  let added = 0;
  const add = () => {
    added += 1;
    document.getElementById("items").insertAdjacentHTML("beforeend", `<li>item ${added}</li>`);
    if (added < 3) setTimeout(add, 15);
  };
  setTimeout(add, 15);
});
</script>
""",
    "stalled": """
<h1>Stalled</h1><ul id="items"></ul>
<script>
// As on a busy machine: 10 ms after each item the page's thread stalls for 60 ms, so that the
// timer of the next item, meant for 15 ms later, runs late.
addEventListener("load", () => {
  let added = 0;
  const stall = () => { const until = performance.now() + 60; while (performance.now() < until); };
  const add = () => {
    added += 1;
    document.getElementById("items").insertAdjacentHTML("beforeend", `<li>item ${added}</li>`);
    if (added < 3) { setTimeout(add, 15); setTimeout(stall, 10); }
  };
  setTimeout(add, 15);
});
</script>
""",
    "scroll": """
<h1>Scroll</h1><div style="height:3000px">tall</div><button>Far below</button>
""",
}


def fixture_app() -> Flask:
    app = Flask("fixtures")

    @app.route("/<name>")
    def page(name: str) -> str:
        body = PAGES.get(name)
        if body is None:
            return "missing", 404
        return f"<!doctype html><html><head><title>{name}</title></head><body>{body}</body></html>"

    return app


class Driver:
    """A session on the fixture site, with the env's parse → execute → settle → observe loop."""

    def __init__(self, session: Session, base: str, files_dir: Any):
        self.session, self.base, self.files_dir = session, base, files_dir

    def open(self, name: str) -> str:
        self.session.goto(f"{self.base}/{name}")
        return self.observe()["axtree"]

    def act(self, action: str) -> str:
        """Run an action; return the error message ('' when it worked)."""
        try:
            for call in parse(action):
                execute(self.session, call, self.files_dir)
        except ActionError as error:
            return str(error)
        return ""

    def observe(self, **options: Any) -> dict[str, Any]:
        page = self.session.settle({"axtree": True, "dom": True, **options})
        return page if page is not None else self.session.observe(dom=True, **options)

    def id_of(self, role: str, name: str) -> str:
        from webenv.axtree import AxTree

        return AxTree(self.observe()["axtree"]).id(role, name)


@pytest.fixture
def driver(browser, tmp_path) -> Iterator[Driver]:
    server = SiteServer({"fixtures": fixture_app()})
    session = Session(
        browser, [server.url("fixtures")], now=datetime(2026, 3, 2, 9, 30),
        server_idle=server.wait_idle,
    )  # fmt: skip
    try:
        yield Driver(session, server.url("fixtures"), tmp_path)
    finally:
        session.close()
        server.close()


DriverFactory = Callable[[], Driver]

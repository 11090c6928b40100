"""A person plays a task: the live page and the headed capture, in real Chromium and Flask.

The live page is driven the way a person drives it (clicks on the screenshot, the text box,
the action box) with the oracle's actions as the script; the headed capture is driven with
real mouse clicks and key presses on the env's own page (headless here: the capture does not
depend on a window).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.commands import assert_images_loaded, start_command, stop_command
from webenv import actions
from webenv.agents import OracleAgent
from webenv.cli import main
from webenv.play import HeadedPlay, LivePlay, PlaySession, create_live_app, serve_live
from webenv.play.run import default_mode
from webenv.record import read_episode
from webenv.tasks import DONE
from webenv.viewer import create_app

LIVE_TASK = "shop.change_phone"
HEADED_TASK = "mail.restore_from_trash"


@dataclass
class Live:
    play: LivePlay
    url: str
    page: Page
    agent: OracleAgent
    #: The actions the episode has taken so far, in order.
    taken: list[str] = field(default_factory=list)

    def oracle(self) -> list[actions.Call]:
        """The oracle's next action for the page as it is, as calls."""
        session = self.play.session
        return actions.parse(self.play.call(lambda: self.agent.act(session.observation)))

    def center(self, bid: str) -> tuple[float, float]:
        return center_of(self.play.call(lambda: elements(self.play.session)), bid)

    def wait_for_step(self, step: int) -> None:
        expect(self.page.locator("#step")).to_have_text(str(step), timeout=20000)


def elements(session: PlaySession) -> list[dict[str, Any]]:
    return json.loads(session.observation["elements"])


def center_of(found: list[dict[str, Any]], bid: str) -> tuple[float, float]:
    element = next(e for e in found if e["id"] == bid)
    x, y, width, height = element["box"]
    return x + width / 2, y + height / 2


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Live]:
    out = tmp_path_factory.mktemp("play") / "runs"
    play = LivePlay(LIVE_TASK, 0, out=out)
    server = serve_live(play, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    try:
        agent = play.call(lambda: OracleAgent(play.session.env))
        play.call(lambda: agent.reset(play.session.observation, play.session.info))
        page = context.new_page()
        url = f"http://127.0.0.1:{server.server_port}/"
        page.goto(url)
        yield Live(play, url, page, agent)
    finally:
        context.close()
        server.shutdown()
        server.server_close()
        play.close()


def test_malformed_action_shows_its_error_and_the_episode_goes_on(live: Live) -> None:
    page = live.page
    expect(page.locator("#goal")).to_contain_text("(231) 555-9903")
    page.fill("#action-text", 'click("11"')
    page.click("#action-form button")
    expect(page.locator("#error")).to_contain_text("Could not parse")
    expect(page.locator("#step")).to_have_text("0")
    # The episode goes on: a good action runs, and the error is gone.
    page.fill("#action-text", "scroll(0, 0)")
    page.click("#action-form button")
    live.wait_for_step(1)
    live.taken.append("scroll(0, 0)")
    expect(page.locator("#error")).to_have_text("")
    assert not live.play.call(lambda: live.play.session.done)


def test_requests_from_another_origin_are_refused(live: Live, browser: Browser) -> None:
    steps = live.play.call(lambda: live.play.session.steps)
    # A page of another site, open in the same browser, posts a form to the live app.
    context = browser.new_context()
    try:
        form = (
            f'<form method="post" action="{live.url}api/act" enctype="text/plain">'
            '<input name=\'{"action": "click(\\"11\\")", "x": "\' value=\'"}\'></form>'
            "<script>document.forms[0].submit()</script>"
        )
        context.route(
            "http://evil.localhost/",
            lambda route: route.fulfill(status=200, content_type="text/html", body=form),
        )
        page = context.new_page()
        with page.expect_navigation(url=f"{live.url}api/act"):
            page.goto("http://evil.localhost/")
        assert "may not drive this episode" in page.content()
    finally:
        context.close()
    client = create_live_app(live.play).test_client()
    headers = {"X-Webenv-Token": live.play.token}
    body = {"action": "noop()"}
    assert client.post("/api/act", json=body).status_code == 403  # no token
    forged = {**headers, "Origin": "http://evil.localhost"}
    assert client.post("/api/act", json=body, headers=forged).status_code == 403
    cross = {**headers, "Sec-Fetch-Site": "cross-site"}
    assert client.post("/api/act", json=body, headers=cross).status_code == 403
    rebound = client.post("/api/act", json=body, headers=headers, base_url="http://evil.example")
    assert rebound.status_code == 403
    assert live.play.call(lambda: live.play.session.steps) == steps


def test_live_play_to_success(live: Live) -> None:
    page = live.page
    image = page.locator("#screenshot")
    width, height = 1280, 720  # the env's viewport: the screenshot's own pixels

    def click_screen(point: tuple[float, float]) -> None:
        box = image.bounding_box()
        assert box is not None
        image.click(position={"x": point[0] * box["width"] / width,
                              "y": point[1] * box["height"] / height})  # fmt: skip

    step = len(live.taken)
    # A click on the screenshot at the centre of the element the oracle clicks.
    (account,) = live.oracle()
    click_screen(live.center(account.args["bid"]))
    step += 1
    live.wait_for_step(step)
    live.taken.append(f'click("{account.args["bid"]}")')
    # The action box.
    (settings,) = live.oracle()
    page.fill("#action-text", f'click("{settings.args["bid"]}")')
    page.click("#action-form button")
    step += 1
    live.wait_for_step(step)
    live.taken.append(f'click("{settings.args["bid"]}")')
    # A click into the phone field on the screenshot, then the text box fills it.
    fill, save = live.oracle()
    phone_id, phone = fill.args["bid"], fill.args["value"]
    click_screen(live.center(phone_id))
    step += 1
    live.wait_for_step(step)
    expect(page.locator("#target")).to_have_text(phone_id)
    page.fill("#type-text", phone)
    page.click("#type-form button")
    step += 1
    live.wait_for_step(step)
    page.fill("#action-text", f'click("{save.args["bid"]}")')
    page.click("#action-form button")
    step += 1
    live.wait_for_step(step)
    # The task is done when the person says so.
    page.click('#answer-form button[name="done"]')
    step += 1
    live.wait_for_step(step)
    live.taken += [f'click("{phone_id}")', f'fill("{phone_id}", "{phone}")',
                   f'click("{save.args["bid"]}")', DONE]  # fmt: skip

    expect(page.locator("#outcome")).to_have_text("success")
    expect(page.locator("#reward")).to_have_text("1.0")
    expect(page.locator("#conditions li.failed")).to_have_count(0)
    expect(page.locator("#action-form button")).to_be_disabled()

    folder = live.play.session.record_path
    record = read_episode(folder)
    assert [line["action"] for line in record["step_records"]] == live.taken
    assert record["reward"] == 1.0 and record["success"] is True
    assert record["status"] == "complete"
    assert record["agent"] == "human"
    assert all(line["screenshot"] for line in record["step_records"])

    viewer = create_app(live.play.out).test_client()
    listing = viewer.get("/")
    assert listing.status_code == 200 and folder.name in listing.get_data(as_text=True)
    assert "played by a person" in listing.get_data(as_text=True)
    # The page's replay link opens the record in the viewer, served from the same address.
    page.click("#replay")
    expect(page.locator("h1")).to_contain_text(LIVE_TASK)
    expect(page.locator("h1")).to_contain_text("played by a person")
    expect(page.locator("body")).to_contain_text("success")


def pump_until(headed: HeadedPlay, steps: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while headed.session.steps < steps:
        assert time.monotonic() < deadline, f"still at step {headed.session.steps} of {steps}"
        headed.pump()


@pytest.mark.browser  # Chromium in a process or thread of its own
@pytest.mark.parametrize("window", ["headless", "headed"])
def test_headed_capture_records_real_clicks_and_typing(
    window: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    # The same capture in a real window (on an X display of the test's own) and headless.
    if window == "headed":
        request.getfixturevalue("display")
    with PlaySession(HEADED_TASK, 0, out=tmp_path, headless=window == "headless") as session:
        headed = HeadedPlay(session)
        assert headed.browser is not None
        # No blank tab is opened ahead for a first episode; nor, in a window, for any: it
        # would be a window. (A second episode's reset prepares one as below.)
        inner = session.env.unwrapped
        assert inner._next is None
        inner._prepare_next()
        assert (inner._next is None) is (window == "headed")
        inner._discard_next()
        page = headed.browser.page
        agent = OracleAgent(session.env)
        agent.reset(session.observation, session.info)

        (trash,) = actions.parse(agent.act(session.observation))
        page.mouse.click(*center_of(elements(session), trash.args["bid"]))
        pump_until(headed, 1)
        assert "/folder/trash" in session.observation["url"]

        tick, restore = actions.parse(agent.act(session.observation))
        found = elements(session)
        search = next(e for e in found if e["role"] == "searchbox")
        page.mouse.click(*center_of(found, search["id"]))  # focuses natively: no step
        for _ in range(5):
            headed.pump()
        assert session.steps == 1
        page.keyboard.type("hello")
        page.mouse.click(*center_of(found, tick.args["bid"]))  # elsewhere: the text is filled
        pump_until(headed, 3)
        # The click toggled the checkbox once, through the env (twice would untick it).
        assert page.is_checked(f'[data-webenv-id="{tick.args["bid"]}"]')
        assert page.input_value(f'[data-webenv-id="{search["id"]}"]') == "hello"

        page.mouse.click(*center_of(elements(session), restore.args["bid"]))
        pump_until(headed, 4)
        assert not session.done  # until the person says it is done
        session.finish()
        assert session.done and session.reward == 1.0
        assert not headed.pump()

    record = read_episode(session.record_path)
    assert [line["action"] for line in record["step_records"]] == [
        f'click("{trash.args["bid"]}")',
        f'fill("{search["id"]}", "hello")',
        f'click("{tick.args["bid"]}")',
        f'click("{restore.args["bid"]}")',
        DONE,
    ]
    assert record["reward"] == 1.0 and record["success"] is True
    assert record["agent"] == "human"


@pytest.mark.browser  # Chromium in a process or thread of its own
@pytest.mark.parametrize("window", ["headless", "headed"])
def test_headed_capture_records_enter_and_a_choice_in_a_select(
    window: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if window == "headed":
        request.getfixturevalue("display")
    with PlaySession("shop.buy_product", 0, out=tmp_path, headless=window == "headless") as session:
        headed = HeadedPlay(session)
        assert headed.browser is not None
        page = headed.browser.page
        found = elements(session)
        search = next(e for e in found if e["role"] == "searchbox")
        page.mouse.click(*center_of(found, search["id"]))  # focuses natively: no step
        page.keyboard.type("jacket")
        page.keyboard.press("Enter")  # the typed text, then the key, replayed by the env
        pump_until(headed, 2)
        assert "/search?q=jacket" in session.observation["url"]

        show = next(e for e in elements(session) if e["role"] == "combobox" and e["name"] == "Show")
        page.focus(f'[data-webenv-id="{show["id"]}"]')
        page.keyboard.press("ArrowDown")  # a closed <select> takes the next option at once
        pump_until(headed, 3)
        assert page.input_value(f'[data-webenv-id="{show["id"]}"]') == "48"
        assert not session.done

    record = read_episode(session.record_path)
    assert [line["action"] for line in record["step_records"]] == [
        f'fill("{search["id"]}", "jacket")',
        f'press("{search["id"]}", "Enter")',
        f'select_option("{show["id"]}", "48 per page")',
    ]
    assert all(line["error"] in ("", None) for line in record["step_records"])


def test_play_cli_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "shop.no_such_task", "--seed", "0"]) == 2
    assert "No task template 'shop.no_such_task'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["play", LIVE_TASK, "--live", "--headed"])
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_default_mode_follows_the_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert default_mode() == "live"
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert default_mode() == "headed"


def test_the_play_command_serves_screenshots_from_the_default_folder(
    browser: Browser, tmp_path: Path
) -> None:
    # As the README says it, with the default --out runs/play, relative to where it runs.
    process, url = start_command(
        ["play", LIVE_TASK, "--seed", "0", "--live", "--port", "0"], tmp_path, "Play "
    )
    context = None
    try:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.goto(url)
        assert_images_loaded(page)
        # A click on a frame whose screenshot did not load is refused, not sent as (0, 0).
        blank = context.new_page()
        blank.route("**/screenshot.png*", lambda route: route.abort())
        blank.goto(url)
        # The page shows its first state once its own fetch answers; a click before that would
        # have its message cleared by that first state.
        expect(blank.locator("#status")).to_have_text("Step 0")
        # Its picture has failed (until then the image may have no box to click on).
        blank.wait_for_function("() => document.getElementById('screenshot').complete")
        blank.locator("#screenshot").click(force=True)
        expect(blank.locator("#error")).to_contain_text("has not loaded")
        expect(blank.locator("#step")).to_have_text("0")
        # A click on the loaded screenshot is a click where it lands.
        page.locator("#screenshot").click()
        expect(page.locator("#step")).to_have_text("1", timeout=20000)
        expect(page.locator("#status")).to_contain_text("mouse_click(")
        assert "mouse_click(0.0, 0.0)" not in page.locator("#status").inner_text()
        assert_images_loaded(page)
    finally:
        if context is not None:
            context.close()
        stop_command(process)
    (record,) = (tmp_path / "runs" / "play").iterdir()
    assert read_episode(record)["step_records"][0]["action"].startswith("mouse_click(")


@pytest.mark.parametrize("width", [1600, 760])
def test_the_live_page_fits_the_window_in_the_viewers_design(
    live: Live, browser: Browser, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(live.url)
        assert_images_loaded(page)
        scroll, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert scroll <= inner, f"the page is {scroll} px wide in a {inner} px window"
        sheets = page.evaluate("[...document.styleSheets].map(sheet => sheet.href)")
        assert sheets == [f"{live.url}static/webenv.css"]
        bar = page.locator(".topbar").evaluate("bar => getComputedStyle(bar).backgroundColor")
        assert bar == "rgb(29, 42, 58)"
    finally:
        context.close()

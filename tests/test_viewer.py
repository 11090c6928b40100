"""The replay viewer and the run report, on real records, in real Chromium.

One run is recorded for the module: the oracle buying a product (a success, with axtree and
DOM) and the noop agent on a mail task cut at two steps (a failure). Two more records are
derived from the failure: one with perturbation events and a mouse click, as the
perturbation engine writes them, and one cut short by a crash.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from werkzeug.serving import make_server

from tests.axe import serious_violations
from tests.commands import assert_images_loaded, start_command, stop_command
from webenv.cli import main
from webenv.record import read_episode, read_observation
from webenv.runner import EpisodeResult, evaluate, summarise, wilson_interval
from webenv.tasks import get_template
from webenv.viewer import create_app, export_site, write_report
from webenv.viewer.run import Run
from webenv.viewer.steps import diff_lines, dom_lines

SUCCESS = "shop.buy_product-0"
FAILURE = "mail.mark_unread-1"
PERTURBED = "mail.mark_unread-101"
CRASHED = "shop.buy_product-99"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Path:
    root = tmp_path_factory.mktemp("viewer")
    run, other = root / "run", root / "other"
    evaluate([get_template("shop.buy_product")], "oracle", [0], run,
             observe=("axtree", "dom"), record="screenshots")  # fmt: skip
    evaluate([get_template("mail.mark_unread")], "noop", [1], other, max_steps=2,
             record="screenshots")  # fmt: skip
    # One run of both: the failure's record and result join the success's.
    shutil.copytree(other / "episodes" / FAILURE, run / "episodes" / FAILURE)
    with (run / "results.jsonl").open("a") as results:
        results.write((other / "results.jsonl").read_text())
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    summary = summarise([EpisodeResult(**row) for row in rows])
    summary.update(agent="oracle+noop", versions={"webenv": "test"})
    (run / "summary.json").write_text(json.dumps(summary))
    write_report(run, summary, rows)
    _perturbed_copy(run / "episodes" / FAILURE, run / "episodes" / PERTURBED)
    _crashed_copy(run / "episodes" / SUCCESS, run / "episodes" / CRASHED)
    return run


def _edit_record(folder: Path, episode_changes: dict, line_changes: dict[int, dict]) -> None:
    episode = json.loads((folder / "episode.json").read_text())
    episode.update(episode_changes)
    (folder / "episode.json").write_text(json.dumps(episode))
    lines = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    for number, changes in line_changes.items():
        lines[number - 1].update(changes)
    (folder / "steps.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def _perturbed_copy(source: Path, folder: Path) -> None:
    shutil.copytree(source, folder)
    plan = [
        {"kind": "popup.newsletter", "site": "mail", "at": 0, "params": {"delay_ms": 0}},
        {"kind": "links.broken", "site": "mail", "at": 2, "params": {}},
    ]

    def event(what: str, step: int) -> dict:
        return {"kind": "popup.newsletter", "site": "mail", "what": what, "step": step}

    _edit_record(
        folder,
        {
            "seed": 101,
            "perturbations": {"profile": "light", "plan": plan},
            "start_events": [event("shown", 0)],
        },
        {
            1: {"action": "mouse_click(640, 360)", "events": [event("clicked", 1)]},
            2: {"events": [event("dismissed", 2)]},
        },
    )


def _crashed_copy(source: Path, folder: Path) -> None:
    """As if the process died while writing step 3: status running, half a line at the end."""
    shutil.copytree(source, folder)
    lines = (folder / "steps.jsonl").read_text().splitlines(keepends=True)
    (folder / "steps.jsonl").write_text("".join(lines[:2]) + lines[2][:40])
    episode = json.loads((folder / "episode.json").read_text())
    episode.update(status="running", seed=99, steps=2, reward=0.0, success=False, check=None)
    (folder / "episode.json").write_text(json.dumps(episode))


@pytest.fixture(scope="module")
def viewer_url(run_dir: Path) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, create_app(run_dir), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A browser context that fails any request off loopback or file: (no CDN, no internet)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    outside: list[str] = []

    def guard(route):  # type: ignore[no-untyped-def]
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "file://")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    context.route("**/*", guard)
    yield context
    context.close()
    assert outside == [], f"the viewer fetched from outside: {outside}"


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    page.close()
    assert errors == [], f"script errors: {errors}"


def press_key(page: Page, key: str) -> None:
    """Press ``key`` once the page has loaded (its script listens for keys from then on)."""
    page.wait_for_load_state("load")
    page.keyboard.press(key)


def visible_names(page: Page) -> list[str]:
    return page.locator("#episodes tbody tr:visible").evaluate_all(
        "rows => rows.map(row => row.dataset.name)"
    )


def test_the_list_shows_every_episode_and_filters_and_sorts(
    page: Page, viewer_url: str, run_dir: Path
):
    page.goto(viewer_url + "/")
    expect(page.locator("h1")).to_have_text("Episodes")
    expect(page.locator("#run-summary")).to_contain_text("1 of 2 episodes succeeded")
    assert sorted(visible_names(page)) == sorted([SUCCESS, FAILURE, PERTURBED, CRASHED])
    crashed = page.locator(f'tr[data-name="{CRASHED}"]')
    expect(crashed.locator(".badge")).to_have_text("incomplete")
    expect(crashed.locator(".note")).to_contain_text("stops after step 2")
    expect(page.locator(f'tr[data-name="{SUCCESS}"] .badge')).to_have_text("success")
    expect(page.locator(f'tr[data-name="{SUCCESS}"] td').nth(5)).to_have_text(
        str(read_episode(run_dir / "episodes" / SUCCESS)["steps"])
    )

    page.select_option("#filter-outcome", "failure")
    assert sorted(visible_names(page)) == sorted([FAILURE, PERTURBED])
    expect(page.locator("#shown")).to_have_text("2 of 4 episodes")
    page.select_option("#filter-profile", "light")
    assert visible_names(page) == [PERTURBED]
    page.select_option("#filter-outcome", "")
    page.select_option("#filter-profile", "")
    page.select_option("#filter-site", "shop")
    assert sorted(visible_names(page)) == sorted([SUCCESS, CRASHED])
    page.select_option("#filter-site", "")
    page.fill("#filter-task", "MARK_unread")
    assert sorted(visible_names(page)) == sorted([FAILURE, PERTURBED])
    page.fill("#filter-task", "")
    page.fill("#filter-min-steps", "3")
    assert visible_names(page) == [SUCCESS]
    page.fill("#filter-min-steps", "")
    page.fill("#filter-max-steps", "2")
    assert sorted(visible_names(page)) == sorted([FAILURE, PERTURBED, CRASHED])
    page.fill("#filter-max-steps", "")

    page.click('button[data-sort="steps"]')
    steps = page.locator("#episodes tbody tr").evaluate_all(
        "rows => rows.map(row => Number(row.dataset.steps))"
    )
    assert steps == sorted(steps) and len(steps) == 4
    page.click('button[data-sort="steps"]')
    expect(page.locator("th", has=page.locator('[data-sort="steps"]'))).to_have_attribute(
        "aria-sort", "descending"
    )
    assert visible_names(page)[0] == SUCCESS


def test_an_episode_steps_with_the_arrow_keys(page: Page, viewer_url: str, run_dir: Path):
    actions = [
        line["action"] for line in read_episode(run_dir / "episodes" / SUCCESS)["step_records"]
    ]
    page.goto(viewer_url + "/")
    page.click(f'tr[data-name="{SUCCESS}"] a')
    expect(page.locator("#step-title")).to_have_text("Start: the page after the reset")
    expect(page.locator("#step-position")).to_have_text(f"Step 0 of {len(actions)}")
    press_key(page, "ArrowLeft")  # nothing before the start
    expect(page.locator("#step-position")).to_have_text(f"Step 0 of {len(actions)}")
    press_key(page, "ArrowRight")
    expect(page.locator("#step-position")).to_have_text(f"Step 1 of {len(actions)}")
    expect(page.locator("#action")).to_have_text(actions[0])
    press_key(page, "ArrowRight")
    expect(page.locator("#step-position")).to_have_text(f"Step 2 of {len(actions)}")
    expect(page.locator("#action")).to_have_text(actions[1])
    assert page.url.endswith(f"/episode/{SUCCESS}?step=2")
    expect(page.locator('.timeline a[aria-current="step"]')).to_have_attribute(
        "data-step-link", "2"
    )
    press_key(page, "ArrowLeft")
    expect(page.locator("#step-position")).to_have_text(f"Step 1 of {len(actions)}")
    expect(page.locator("#after img")).to_have_js_property("complete", True)
    assert page.locator("#after img").evaluate("img => img.naturalWidth") == 1280
    expect(page.locator("#check tbody tr")).to_have_count(
        len(read_episode(run_dir / "episodes" / SUCCESS)["check"]["conditions"])
    )


def test_deep_links_land_on_the_step(page: Page, viewer_url: str, run_dir: Path):
    actions = [
        line["action"] for line in read_episode(run_dir / "episodes" / SUCCESS)["step_records"]
    ]
    page.goto(f"{viewer_url}/episode/{SUCCESS}?step=3")
    expect(page.locator("#step-position")).to_have_text(f"Step 3 of {len(actions)}")
    expect(page.locator("#action")).to_have_text(actions[2])
    page.goto(f"{viewer_url}/episode/{SUCCESS}#step-5")
    expect(page.locator("#step-position")).to_have_text(f"Step 5 of {len(actions)}")
    assert page.url.endswith("?step=5")
    assert page.request.get(f"{viewer_url}/episode/{SUCCESS}?step=99").status == 404
    assert page.request.get(f"{viewer_url}/episode/nothing-0").status == 404
    assert page.request.get(f"{viewer_url}/episode/{SUCCESS}/../../summary.json").status == 404


def _adds_to_cart(folder: Path, lines: list[dict[str, Any]], step: int) -> bool:
    """Whether step ``step`` clicked the "Add to cart" button of the page before it."""
    clicked = re.findall(r'click\("(\d+)"\)', lines[step - 1]["action"])
    before = read_observation(folder, lines[step - 2]["obs"])["axtree"]
    return any(f'[{bid}] button "Add to cart"' in before for bid in clicked)


def test_the_diff_panels_show_what_the_action_changed(page: Page, viewer_url: str, run_dir: Path):
    folder = run_dir / "episodes" / SUCCESS
    lines = read_episode(folder)["step_records"]
    # The step that added to the cart changes the page it stays on.
    step = next(n for n in range(2, len(lines) + 1) if _adds_to_cart(folder, lines, n))
    before = read_observation(folder, lines[step - 2]["obs"])
    after = read_observation(folder, lines[step - 1]["obs"])
    page.goto(f"{viewer_url}/episode/{SUCCESS}?step={step}")
    for key, split in (("axtree", str.splitlines), ("dom", dom_lines)):
        panel = page.locator(f"#panel-{key}")
        expect(panel.locator("h3")).to_have_text(
            {"axtree": "Accessibility tree", "dom": "DOM"}[key]
        )
        added = panel.locator("pre.diff .add").all_inner_texts()
        removed = panel.locator("pre.diff .del").all_inner_texts()
        old, new = split(before[key]), split(after[key])
        assert added and all(text.rstrip("\n")[1:] in new for text in added)
        assert all(text.rstrip("\n")[1:] in old for text in removed)
        assert set(new) - set(old) <= {text.rstrip("\n")[1:] for text in added}
        assert panel.locator("pre.full").text_content() == "\n".join(new)
    expect(page.locator("#panel-axtree pre.diff .add").first).to_be_visible()
    # Start: no diff, the whole tree.
    page.goto(f"{viewer_url}/episode/{SUCCESS}?step=0")
    expect(page.locator("#panel-axtree")).to_contain_text("nothing to compare with")
    expect(page.locator("#panel-axtree pre.full")).to_be_visible()


def test_the_target_box_is_drawn_on_the_page_it_was_clicked(
    page: Page, viewer_url: str, run_dir: Path
):
    lines = read_episode(run_dir / "episodes" / SUCCESS)["step_records"]
    step = next(n for n, line in enumerate(lines, 1) if line["action"].startswith("click("))
    (target,) = lines[step - 1]["targets"]
    x, y, width, height = target["box"]
    page.goto(f"{viewer_url}/episode/{SUCCESS}?step={step}")
    before = page.locator("#before img")
    expect(before).to_have_attribute("src", f"/episode/{SUCCESS}/screenshots/{step - 1:04d}.png")
    rect = page.locator("#before svg rect.target")
    expect(rect).to_have_count(1)
    expect(rect).to_have_attribute("data-label", f"click [{target['id']}]")
    # Drawn where the element was, at the screenshot's scale.
    image, drawn = before.bounding_box(), rect.bounding_box()
    assert image and drawn
    scale = image["width"] / 1280
    assert drawn["x"] - image["x"] == pytest.approx(x * scale, abs=3)
    assert drawn["y"] - image["y"] == pytest.approx(y * scale, abs=3)
    assert drawn["width"] == pytest.approx(width * scale, abs=4)
    assert drawn["height"] == pytest.approx(height * scale, abs=4)
    expect(page.locator("#after svg")).to_have_count(0)


def test_mouse_clicks_and_perturbation_events_are_shown(page: Page, viewer_url: str):
    page.goto(f"{viewer_url}/episode/{PERTURBED}?step=1")
    marker = page.locator("#before svg g.marker")
    expect(marker).to_have_attribute("data-label", "mouse_click(640, 360)")
    circle, image = (
        marker.locator("circle").bounding_box(),
        page.locator("#before img").bounding_box(),
    )
    assert circle and image
    scale = image["width"] / 1280
    assert circle["x"] + circle["width"] / 2 - image["x"] == pytest.approx(640 * scale, abs=2)
    expect(page.locator("#step-events")).to_have_text("popup.newsletter clicked site mail")
    expect(page.locator("#perturbations")).to_contain_text("Profile: light")
    expect(page.locator("#perturbation-plan li")).to_have_count(2)
    expect(page.locator("#perturbation-plan li").first).to_contain_text('params {"delay_ms": 0}')
    expect(page.locator("#perturbation-events li")).to_have_text(
        [
            "step 0: popup.newsletter shown site mail",
            "step 1: popup.newsletter clicked site mail",
            "step 2: popup.newsletter dismissed site mail",
        ]
    )
    expect(page.locator(".timeline li.has-events")).to_have_count(3)
    page.click("#perturbation-events li >> nth=2 >> a")
    expect(page.locator("#step-position")).to_have_text("Step 2 of 2")
    expect(page.locator("#step-events")).to_have_text("popup.newsletter dismissed site mail")
    page.click("#perturbation-events li >> nth=0 >> a")
    expect(page.locator("#step-position")).to_have_text("Step 0 of 2")
    expect(page.locator("#step-events")).to_have_text("popup.newsletter shown site mail")
    expect(page.locator("#check tr.failed").first).to_be_visible()


def test_a_crashed_episode_opens_up_to_where_it_stops(page: Page, viewer_url: str):
    page.goto(f"{viewer_url}/episode/{CRASHED}")
    expect(page.locator("h1 .badge")).to_have_text("incomplete")
    expect(page.locator(".timeline li")).to_have_count(3)
    expect(page.locator("#check")).to_contain_text("No check recorded")


def test_the_export_works_from_file(page: Page, run_dir: Path, tmp_path: Path):
    index = export_site(run_dir, tmp_path / "site")
    page.goto(index.as_uri())
    assert sorted(visible_names(page)) == sorted([SUCCESS, FAILURE, PERTURBED, CRASHED])
    page.select_option("#filter-outcome", "incomplete")
    assert visible_names(page) == [CRASHED]
    page.select_option("#filter-outcome", "")
    page.click(f'tr[data-name="{SUCCESS}"] a')
    assert page.url.endswith(f"episodes/{SUCCESS}/step-0.html")
    press_key(page, "ArrowRight")
    expect(page.locator("#step-position")).to_contain_text("Step 1 of")
    assert page.url.endswith("step-1.html")
    expect(page.locator("#before svg rect.target")).not_to_have_count(0)
    expect(page.locator("#before img")).to_have_js_property("complete", True)
    assert page.locator("#before img").evaluate("img => img.naturalWidth") == 1280
    page.goto((tmp_path / "site" / "episodes" / SUCCESS / "step-0.html").as_uri() + "#step-4")
    expect(page.locator("#step-position")).to_contain_text("Step 4 of")
    assert page.url.endswith("step-4.html")
    page.click("text=All episodes")
    expect(page.locator("h1")).to_have_text("Episodes")
    page.click("#run-summary a")
    expect(page.locator("#overall")).to_contain_text("1 of 2")


def test_the_report_shows_the_run(page: Page, run_dir: Path):
    rows = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    html = (run_dir / "report.html").read_text()
    assert "<link" not in html and "<script" not in html and "src=" not in html
    # The runner passes its EpisodeResult objects; they make the same page as the dicts.
    summary = json.loads((run_dir / "summary.json").read_text())
    write_report(run_dir, summary, [EpisodeResult(**row) for row in rows])
    assert (run_dir / "report.html").read_text() == html
    page.goto((run_dir / "report.html").as_uri())
    low, high = wilson_interval(1, 2)
    expect(page.locator("#overall")).to_have_text(
        f"Success: 1 of 2 episodes, 50.0% (95% interval {low * 100:.1f}–{high * 100:.1f}%)."
    )
    expect(page.locator("#by-task tbody tr")).to_have_count(2)
    expect(page.locator("#by-task tbody tr").nth(0)).to_contain_text("mail.mark_unread")
    expect(page.locator("#by-task tbody tr").nth(0)).to_contain_text("0.0%")
    expect(page.locator("#by-task tbody tr").nth(1)).to_contain_text("100.0%")
    failure = next(row for row in rows if not row["success"])
    article = page.locator("#failures article")
    expect(article).to_have_count(1)
    expect(article.locator("h3")).to_contain_text(f"{failure['task']}, seed {failure['seed']}")
    for condition in failure["check"]["conditions"]:
        expect(article).to_contain_text(condition["name"])
    failed = article.locator("li.fail")
    expect(failed).to_have_count(sum(not c["passed"] for c in failure["check"]["conditions"]))
    href = article.locator("a").get_attribute("href")
    assert href == f"episodes/{FAILURE}/" and (run_dir / href / "episode.json").is_file()


def test_a_crashed_record_is_listed_as_incomplete_not_an_error(run_dir: Path, tmp_path: Path):
    shutil.copytree(run_dir / "episodes" / CRASHED, tmp_path / "episodes" / CRASHED)
    (tmp_path / "episodes" / "broken-3").mkdir()
    (tmp_path / "episodes" / "broken-3" / "episode.json").write_text('{"schema": 1, "sta')
    result = {"task": "shop.fill_cart", "seed": 4, "success": False, "reward": 0.0, "steps": 30}
    (tmp_path / "results.jsonl").write_text(json.dumps(result) + "\n" + '{"task": "sho')
    rows = {row.name: row for row in Run(tmp_path).rows()}
    assert not rows["shop.fill_cart-4"].recorded and rows["shop.fill_cart-4"].sites == ["shop"]
    assert rows["shop.fill_cart-4"].outcome == "failure"
    assert rows[CRASHED].outcome == "incomplete" and rows[CRASHED].steps == 2
    assert "'running'" in rows[CRASHED].problem
    assert rows["broken-3"].outcome == "unreadable"
    client = create_app(tmp_path).test_client()
    listing = client.get("/")
    assert listing.status_code == 200
    assert b'data-outcome="incomplete"' in listing.data and b"JSONDecodeError" in listing.data
    assert client.get(f"/episode/{CRASHED}?step=2").status_code == 200
    assert client.get(f"/episode/{CRASHED}?step=3").status_code == 404
    assert client.get("/episode/broken-3").status_code == 422
    assert client.get("/episode/shop.fill_cart-4").status_code == 404


def test_records_written_before_the_viewer_still_show(run_dir: Path, tmp_path: Path):
    folder = tmp_path / "episodes" / SUCCESS
    shutil.copytree(run_dir / "episodes" / SUCCESS, folder)
    episode = json.loads((folder / "episode.json").read_text())
    for key in ("start_obs", "start_screenshot", "sites"):
        episode.pop(key)
    (folder / "episode.json").write_text(json.dumps(episode))
    lines = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    old = [{k: v for k, v in line.items() if k not in ("obs", "targets")} for line in lines]
    (folder / "steps.jsonl").write_text("".join(json.dumps(line) + "\n" for line in old))
    client = create_app(tmp_path).test_client()
    page = client.get(f"/episode/{SUCCESS}?step=1").get_data(as_text=True)
    assert f"/episode/{SUCCESS}/screenshots/0000.png" in page
    assert 'id="panel-axtree"' not in page and "rect" not in page
    assert b"shop" in client.get("/").data


def test_diff_lines_and_dom_lines():
    assert dom_lines('<ul data-webenv-id="3"><li>a</li><li>b &lt;c</li></ul>') == [
        '<ul data-webenv-id="3">',
        "<li>a",
        "</li>",
        "<li>b &lt;c",
        "</li>",
        "</ul>",
    ]
    kinds = [(line.kind, line.text) for line in diff_lines(["a", "b", "c"], ["a", "B", "c"])]
    assert kinds == [("hunk", "@@ -1,3 +1,3 @@"), ("ctx", " a"), ("del", "-b"), ("add", "+B"),
                     ("ctx", " c")]  # fmt: skip
    assert diff_lines(["same"], ["same"]) == []


def test_the_view_command_exports_and_explains_an_empty_folder(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    assert main(["view", str(run_dir), "--export", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "episodes" / SUCCESS / "step-0.html").is_file()
    assert "file://" in capsys.readouterr().out
    (tmp_path / "empty").mkdir()
    assert main(["view", str(tmp_path / "empty")]) == 2
    assert "webenv eval --record" in capsys.readouterr().err
    assert main(["view", str(run_dir), "--export", str(run_dir)]) == 2
    assert "not the run's own" in capsys.readouterr().err


def test_the_pages_pass_an_accessibility_audit(page: Page, viewer_url: str, run_dir: Path):
    for url in (
        viewer_url + "/",
        f"{viewer_url}/episode/{SUCCESS}?step=3",
        f"{viewer_url}/episode/{PERTURBED}?step=1",
        (run_dir / "report.html").as_uri(),
    ):
        page.goto(url)
        assert serious_violations(page) == []


def test_view_of_a_relative_folder_serves_its_screenshots_and_report(
    page: Page, run_dir: Path, tmp_path: Path
):
    # As the README says it: from the folder holding runs/, `webenv view runs/demo`.
    shutil.copytree(run_dir, tmp_path / "runs" / "demo")
    process, url = start_command(["view", "runs/demo", "--port", "0"], tmp_path, "Viewer of")
    try:
        page.goto(f"{url}episode/{SUCCESS}?step=1")
        assert_images_loaded(page)
        page.goto(url)
        with page.expect_navigation() as report:
            page.click("text=Report")
        assert report.value is not None and report.value.status == 200
        expect(page.locator("#overall")).to_contain_text("1 of 2")
    finally:
        stop_command(process)


def made_up_results() -> list[EpisodeResult]:
    """Clean and heavy episodes of two tasks: one perturbed failure of one step, with events."""
    popup = [
        {"kind": "popup.newsletter", "what": "shown", "step": 0},
        {"kind": "popup.newsletter", "what": "clicked", "step": 1},
    ]
    results = []
    for task, sites in (
        ("shop.buy_product", ["shop"]),
        ("workflows.email_order_total", ["shop", "mail"]),
    ):
        for profile in ("none", "heavy"):
            failed = task == "shop.buy_product" and profile == "heavy"
            results.append(
                EpisodeResult(task, 0, not failed, 0.0 if failed else 1.0, 1 if failed else 4, 2.0,
                              goal="a goal", perturb=profile, sites=sites,
                              events=popup if profile == "heavy" else [],
                              check={"conditions": [{"name": "ordered", "passed": not failed,
                                                     "message": "no order"}]})
            )  # fmt: skip
    return results


def test_the_report_has_sites_perturbations_events_and_plurals(page: Page, tmp_path: Path):
    results = made_up_results()
    summary = {**summarise(results), "agent": "oracle", "versions": {}}
    page.goto(write_report(tmp_path, summary, results).as_uri())
    sites = page.locator("#by-site tbody tr")
    expect(sites).to_have_count(2)
    expect(sites.nth(0)).to_contain_text("mail")
    expect(sites.nth(1)).to_contain_text("shop")
    expect(sites.nth(1)).to_contain_text("75.0%")
    profiles = page.locator("#by-perturbation tbody tr")
    expect(profiles).to_have_count(2)
    expect(profiles.nth(0)).to_contain_text("heavy")
    expect(profiles.nth(0)).to_contain_text("50.0%")
    expect(page.locator(".paired")).to_have_text(
        "heavy: 50.0% perturbed against 100.0% clean, over 2 pairs of episodes of the same task "
        "and seed (-50.0 points)."
    )
    events = page.locator("#events tbody tr")
    expect(events).to_have_count(1)
    expect(events).to_contain_text("popup.newsletter")
    expect(events).to_contain_text("100.0%")  # clicked every time it was shown
    failure = page.locator("#failures article")
    expect(failure).to_have_count(1)
    expect(failure.locator("p.muted")).to_contain_text("1 step.")
    expect(page.locator("#overall")).to_contain_text("3 of 4 episodes")
    expect(page.locator("#all-episodes tbody tr")).to_have_count(4)
    expect(page.locator("#all-episodes")).to_contain_text("not recorded")


def test_the_report_links_each_recorded_episode_to_its_replay(
    page: Page, viewer_url: str, run_dir: Path, tmp_path: Path
):
    # Served by the viewer: to its replay pages.
    page.goto(f"{viewer_url}/report.html")
    links = page.locator("#all-episodes a")
    expect(links).to_have_count(2)
    page.locator("#failures a.replay").click()
    expect(page).to_have_url(f"{viewer_url}/episode/{FAILURE}?step=0")
    expect(page.locator("h1")).to_contain_text("mail.mark_unread")
    # Exported: to the exported pages, from file://.
    export_site(run_dir, tmp_path / "site")
    page.goto((tmp_path / "site" / "report.html").as_uri())
    page.locator("#failures a.replay").click()
    expect(page.locator("h1")).to_contain_text("mail.mark_unread")
    assert page.url.endswith(f"episodes/{FAILURE}/step-0.html")
    # Written by the run: to the record folders.
    page.goto((run_dir / "report.html").as_uri())
    hrefs = links.evaluate_all("links => links.map(link => link.getAttribute('href'))")
    assert sorted(hrefs) == [f"episodes/{FAILURE}/", f"episodes/{SUCCESS}/"]


@pytest.mark.parametrize("width", [1400, 760])
def test_the_pages_fit_the_window_and_show_every_image(
    browser: Browser, viewer_url: str, run_dir: Path, tmp_path: Path, width: int
):
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        for url in (
            viewer_url + "/",
            f"{viewer_url}/episode/{SUCCESS}?step=3",
            f"{viewer_url}/episode/{PERTURBED}?step=1",
            f"{viewer_url}/report.html",
        ):
            page.goto(url)
            page.wait_for_load_state("load")
            page.screenshot(path=tmp_path / f"{width}-{len(url)}.png", full_page=True)
            scroll, inner = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert scroll <= inner, f"{url} is {scroll} px wide in a {inner} px window"
            if "/episode/" in url:
                assert_images_loaded(page)
            # One stylesheet for every page, and it applied (the top bar is dark).
            sheets = page.evaluate("[...document.styleSheets].map(s => s.href || 'inline')")
            assert len(sheets) == 1, sheets
            bar = page.locator(".topbar").evaluate("bar => getComputedStyle(bar).backgroundColor")
            assert bar == "rgb(29, 42, 58)"
    finally:
        context.close()

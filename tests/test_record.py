"""Episode records: written step by step, readable after a crash, read by reports."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import gymnasium as gym
import pytest
from PIL import Image

from webenv.agents import OracleAgent
from webenv.cli import main
from webenv.record import (
    SCHEMA_VERSION,
    RecordEpisode,
    element_box,
    read_episode,
    read_observation,
)


@pytest.fixture
def recorded(tmp_path, browser):
    env = RecordEpisode(
        gym.make("webenv/shop.cheapest_by_brand-v0"), tmp_path / "episodes", screenshots=True
    )
    yield env, tmp_path / "episodes"
    env.close()


def test_a_finished_episode_is_recorded_whole(recorded):
    env, folder = recorded
    agent = OracleAgent(env)
    observation, info = env.reset(seed=5)
    agent.reset(observation, info)
    done = False
    while not done:
        observation, _reward, terminated, truncated, info = env.step(agent.act(observation))
        done = terminated or truncated
    episode = read_episode(folder / "shop.cheapest_by_brand-5")
    assert episode["schema"] == SCHEMA_VERSION
    assert episode["status"] == "complete"
    assert episode["success"] is True and episode["reward"] == 1.0
    assert episode["task"]["goal"] == observation["goal"]
    assert episode["check"]["success"] is True
    assert episode["versions"]["playwright"]
    steps = episode["step_records"]
    assert len(steps) == episode["steps"] >= 2
    assert steps[-1]["action"].startswith("send_msg_to_user(")
    assert steps[-1]["terminated"] is True
    for step in steps:
        with Image.open(folder / "shop.cheapest_by_brand-5" / step["screenshot"]) as image:
            assert image.size == (1280, 720)


def test_an_episode_cut_short_is_readable_and_marked_running(recorded):
    env, folder = recorded
    env.reset(seed=1)
    env.step("noop()")
    env.step("scroll(0, 300)")
    path = folder / "shop.cheapest_by_brand-1"
    # As if the process died mid-write: half a line at the end.
    with (path / "steps.jsonl").open("a") as steps:
        steps.write('{"step": 3, "act')
    episode = read_episode(path)
    assert episode["status"] == "running"
    assert [step["action"] for step in episode["step_records"]] == ["noop()", "scroll(0, 300)"]


def test_a_new_reset_closes_the_previous_record_as_interrupted(recorded):
    env, folder = recorded
    env.reset(seed=2)
    env.step("noop()")
    env.reset(seed=3)
    assert read_episode(folder / "shop.cheapest_by_brand-2")["status"] == "interrupted"


def test_records_from_a_newer_webenv_are_refused(tmp_path):
    (tmp_path / "episode.json").write_text(json.dumps({"schema": SCHEMA_VERSION + 1}))
    (tmp_path / "steps.jsonl").write_text("")
    with pytest.raises(ValueError, match="upgrade webenv"):
        read_episode(tmp_path)


def test_eval_writes_junit_with_the_check_breakdown_of_failures(tmp_path, browser):
    code = main(
        ["eval", "--agent", "noop", "--tasks", "shop.fill_cart", "--episodes", "2",
         "--max-steps", "2", "--record", "steps", "--out", str(tmp_path)]
    )  # fmt: skip
    assert code == 0
    suite = ElementTree.parse(tmp_path / "junit.xml").getroot()
    assert suite.get("tests") == "2" and suite.get("failures") == "2"
    cases = suite.findall("testcase")
    assert [case.get("name") for case in cases] == ["seed 0", "seed 1"]
    failure = cases[0].find("failure")
    assert "cart holds exactly the items" in failure.get("message")
    assert "goal: " in failure.text
    assert read_episode(tmp_path / "episodes" / "shop.fill_cart-0")["steps"] == 2


def test_steps_keep_the_observation_text_and_the_boxes_of_their_targets(tmp_path, browser):
    env = RecordEpisode(
        gym.make("webenv/shop.buy_product-v0", observe=("axtree", "elements")),
        tmp_path,
        screenshots=True,
    )
    try:
        observation, _ = env.reset(seed=0)
        links = [e for e in json.loads(observation["elements"]) if e["role"] == "link"]
        target = next(e for e in links if e["visible"] and e["box"][2] > 0)
        # The page's own box of the element agrees with the observed one.
        page_box = element_box(env.unwrapped._session.page, target["id"])
        assert page_box == pytest.approx(target["box"], abs=0.1)
        assert element_box(env.unwrapped._session.page, "999999") is None
        after, *_ = env.step(f'click("{target["id"]}")\nhover("999999")')
    finally:
        env.close()
    path = tmp_path / "shop.buy_product-0"
    episode = read_episode(path)
    assert episode["sites"] == ["shop"]
    assert read_observation(path, episode["start_obs"]) == {"axtree": observation["axtree"]}
    assert episode["start_screenshot"] == "screenshots/0000.png"
    (line,) = episode["step_records"]
    assert read_observation(path, line["obs"])["axtree"] == after["axtree"]
    assert line["targets"] == [
        {"call": 0, "action": "click", "id": target["id"],
         "box": pytest.approx(target["box"], abs=0.1)},
        {"call": 1, "action": "hover", "id": "999999", "box": None},
    ]  # fmt: skip
    assert read_observation(path, None) == {}
    assert read_observation(path, "obs/9999.json.gz") == {}


def test_without_screenshots_no_targets_are_looked_up(tmp_path, browser):
    env = RecordEpisode(gym.make("webenv/shop.buy_product-v0", observe=("dom",)), tmp_path)
    try:
        env.reset(seed=0)
        env.step('click("5")')
    finally:
        env.close()
    episode = read_episode(tmp_path / "shop.buy_product-0")
    (line,) = episode["step_records"]
    assert line["targets"] == [] and line["screenshot"] is None
    assert set(read_observation(tmp_path / "shop.buy_product-0", line["obs"])) == {"dom"}

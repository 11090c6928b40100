"""Nothing the agent receives gives the task away: no parameters, answers, codes or checks.

The secrets are read through the trusted accessor (``webenv.grader_view``) and looked for in
the JSON of every ``info`` an oracle episode hands out, under a profile with one-time-code
walls; and a cheating agent that searches ``info`` for the answers, run through the same
``evaluate`` that ``webenv eval`` calls, scores nothing on the info-seeking templates.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import gymnasium as gym
import pytest

import webenv
from webenv.agents import OracleAgent
from webenv.perturb import PROFILES
from webenv.record import RecordEpisode, read_episode
from webenv.runner import evaluate, read_results
from webenv.tasks import env_id, templates

#: The heavy profile, with a one-time code sent to the mailbox wherever one can be asked.
PROFILE = {**PROFILES["heavy"], "walls.verify_code": 1.0}
SEEDS = (0, 1)
#: Shorter values (a quantity, a size letter) would be found by chance in any text.
MIN_LENGTH = 3


def scalars(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar in nested dicts and lists, with the key it sits under."""
    if isinstance(value, Mapping):
        for inner, item in value.items():
            yield from scalars(item, str(inner))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from scalars(item, key)
    elif value is not None and not isinstance(value, bool):
        yield key, value


def spellings(key: str, value: Any) -> set[str]:
    """How a secret value may be written: as is, and as money when it counts cents."""
    written = {str(value)}
    if isinstance(value, int) and (key.endswith("cents") or key == "total"):
        written.add(f"{value / 100:.2f}")
    return {text for text in written if len(text) >= MIN_LENGTH}


def secrets(view: webenv.GraderView, goal: str) -> dict[str, str]:
    """What the agent must not find in ``info``, each with where it comes from: the task's
    parameters and the plan's (one-time codes, salts) that the goal does not state,
    the paths perturbations struck on, and the check's messages."""
    found: dict[str, str] = {}
    stated = goal.lower()
    for key, value in scalars(view.params):
        for text in spellings(key, value):
            if text.lower() not in stated:
                found[text] = f"task parameter {key}"
    for item in view.perturbations["plan"]:
        for key, value in scalars(item["params"]):
            for text in spellings(key, value):
                # (a popup's delay of 600 ms is no secret where the goal's phone is (600) …)
                if text.lower() not in stated:
                    found[text] = f"{item['kind']} {key}"
    for event in view.events:
        if len(event.get("path", "")) >= MIN_LENGTH:
            found[event["path"]] = f"{event['kind']} path"
    for condition in (view.check or {}).get("conditions", []):
        if len(condition["message"]) >= 12:
            found[condition["message"]] = f"check message of {condition['name']!r}"
    return found


def leaked(info: Mapping[str, Any], hidden: Mapping[str, str]) -> dict[str, str]:
    """The hidden values found in ``info``, past the episode's seed (the agent's own input to
    reset: a product id that happens to equal it tells the agent nothing)."""
    text = json.dumps(without_keys(info, ("seed",)), default=str)
    return {value: source for value, source in hidden.items() if value in text}


def without_keys(value: Any, keys: tuple[str, ...]) -> Any:
    """``value`` with every entry under one of ``keys`` left out, at any depth."""
    if isinstance(value, Mapping):
        return {k: without_keys(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, (list, tuple)):
        return [without_keys(v, keys) for v in value]
    return value


@pytest.mark.suite  # each run looks for secrets in every episode tests/tasks/ runs instead
@pytest.mark.parametrize("name", sorted(templates()))
def test_no_info_of_an_oracle_episode_carries_a_secret(name, browser):
    env = gym.make(env_id(templates()[name]), perturb=PROFILE)
    try:
        for seed in SEEDS:
            observation, info = env.reset(seed=seed)
            view = webenv.grader_view(env)
            goal = observation["goal"]
            hidden = secrets(view, goal)
            assert not leaked(info, hidden), (seed, "reset", leaked(info, hidden))
            # The plan's codes are looked for through the whole episode, not only at reset.
            codes = {k: v for k, v in hidden.items() if not v.startswith("check")}
            agent = OracleAgent(env)
            agent.reset(observation, info)
            terminated = truncated = False
            step = 0
            while not (terminated or truncated):
                observation, _, terminated, truncated, info = env.step(agent.act(observation))
                step += 1
                hidden = {**codes, **secrets(webenv.grader_view(env), goal)}
                assert not leaked(info, hidden), (seed, step, leaked(info, hidden))
    finally:
        env.close()


def test_the_trusted_view_holds_what_info_leaves_out(browser):
    # The secrets the test above looks for are really there, on the trusted side: the code a
    # wall sends to the mailbox, the expected answer, the check's breakdown.
    env = gym.make("webenv/workflows.buy_requested_item-v0", perturb={"walls.verify_code": 1.0})
    try:
        _, info = env.reset(seed=0)
        [planned] = webenv.grader_view(env).perturbations["plan"]
        assert planned["kind"] == "walls.verify_code" and len(planned["params"]["code"]) == 6
        assert info["perturbations"]["plan"] == [{"kind": "walls.verify_code", "site": "shop"}]
    finally:
        env.close()
    env = gym.make("webenv/shop.order_total-v0")
    try:
        _, info = env.reset(seed=0)
        view = webenv.grader_view(env)
        assert set(info) == {"task", "seed", "perturbations", "events"}
        assert set(info["task"]) == {
            "id", "version", "seed", "difficulty", "answer_type", "goal", "start_site"
        }  # fmt: skip
        assert "total_cents" in view.params
        assert info["task"]["answer_type"] == "money" and info["task"]["seed"] == 0
        assert view.check is None  # no step yet
        total = view.params["total_cents"]
        _, reward, _, _, info = env.step(f'send_msg_to_user("${total / 100:.2f}")')
        assert reward == 1.0 and set(info) == {"success", "events"} and info["success"] is True
        assert webenv.grader_view(env).check["success"] is True
    finally:
        env.close()


def test_the_record_keeps_the_trusted_side_in_full(tmp_path, browser):
    # The record is for people: it keeps the parameters, the plan with its code, the events'
    # paths and the check, all of which the agent's info leaves out.
    env = RecordEpisode(
        gym.make("webenv/workflows.buy_requested_item-v0", perturb={"walls.verify_code": 1.0}),
        tmp_path,
    )
    try:
        observation, info = env.reset(seed=0)
        params, plan = webenv.grader_view(env).params, webenv.grader_view(env).perturbations
        agent = OracleAgent(env)
        agent.reset(observation, info)
        done, infos = False, [info]
        while not done:
            observation, reward, terminated, truncated, info = env.step(agent.act(observation))
            done, infos = terminated or truncated, [*infos, info]
    finally:
        env.close()
    episode = read_episode(tmp_path / "workflows.buy_requested_item-0")
    assert reward == 1.0 and episode["success"] is True
    assert episode["task"]["params"] == params and episode["perturbations"] == plan
    assert episode["check"]["success"] is True and episode["check"]["conditions"]
    events = [event for step in episode["step_records"] for event in step["events"]]
    shown = [e for e in events if e["kind"] == "walls.verify_code" and e["what"] == "shown"]
    assert shown and shown[0]["path"] == "/checkout"
    code = plan["plan"][0]["params"]["code"]
    assert not any(code in json.dumps(info) or "/checkout" in json.dumps(info) for info in infos)


#: Where the info-seeking templates keep their expected answer, by the answer's type.
ANSWER_KEYS = {
    "money": ("total_cents", "price_cents", "tax_cents", "total"),
    "date": ("date", "day"),
    "number": ("count", "free"),
    "string": ("tracking", "confirmation", "filename", "phone", "product"),
}


class InfoCheater:
    """Never opens a page: answers with whatever ``info`` holds under an answer's key."""

    def reset(self, observation: Mapping[str, Any], info: Mapping[str, Any]) -> None:
        self.answer = "I could not find it."
        answer_type = templates()[info["task"]["id"]].answer_type
        found = dict(_keyed(info))
        for key in ANSWER_KEYS.get(answer_type or "", ()):
            if key in found:
                value = found[key]
                self.answer = f"${value / 100:.2f}" if answer_type == "money" else str(value)
                break

    def act(self, observation: Mapping[str, Any]) -> str:
        return f"send_msg_to_user({json.dumps(self.answer)})"


def _keyed(value: Any) -> Iterator[tuple[str, Any]]:
    """Every (key, value) of nested dicts, innermost last (so a parameter wins over a name)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(item, (Mapping, list)):
                yield str(key), item
        for item in value.values():
            yield from _keyed(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keyed(item)


def test_an_agent_searching_info_for_answers_scores_nothing(tmp_path, browser):
    questions = [t for t in templates().values() if t.answer_type is not None]
    assert len(questions) >= 10
    summary = evaluate(
        questions, "tests.test_leaks:InfoCheater", [0], tmp_path, max_steps=1, workers=0
    )
    results = read_results(tmp_path / "results.jsonl")
    assert summary["errors"] == 0 and len(results) == len(questions)
    assert summary["successes"] == 0, [r.task for r in results if r.success]
    # The results, for people, keep the check's breakdown.
    assert all(r.check["conditions"] for r in results)


def test_the_seed_is_no_clock():
    # A trainer may log the seed or hand it to its policy (it is in `info`): were the world's
    # "now" the seed's number of days on from a fixed day, a goal's date minus that would tell
    # how old a thing is, and so whether a window has closed, without opening a page.
    from datetime import datetime
    from itertools import pairwise
    from statistics import correlation

    from webenv.world import BASE_NOW, world_now

    seeds = range(365)
    days = [(world_now(seed) - BASE_NOW).days for seed in seeds]
    assert all(0 <= day < 365 for day in days)
    assert len(set(days)) >= 200  # a day of the year each, drawn at random: about 231 distinct
    assert abs(correlation(list(seeds), days)) < 0.15
    next_day = sum(later - earlier == 1 for earlier, later in pairwise(days))
    assert next_day < 10, f"{next_day} of 364 consecutive seeds are consecutive days"
    # The same day in every process and on every machine (no salted hash()).
    assert world_now(0) == datetime(2027, 1, 12, 9, 30)

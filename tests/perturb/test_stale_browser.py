"""Outdated information in the real browser: each stale kind shows its dated copy next to the
live value, the oracle gets past it, and the summary counts an agent that took the copy."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import pytest
from webenv.suite.shop._shop import open_product, say

import webenv
from webenv.axtree import AxTree
from webenv.perturb import recovering
from webenv.rollout import EpisodeResult
from webenv.session import Timeouts
from webenv.summary import stale_use

QUICK = Timeouts(action=1500, navigation=8000, settle=3000)


def run(env: gym.Env[Any, Any], seed: int, perturb: Mapping[str, float], policy: Any = None):
    """``policy`` (the oracle, made to recover) for one episode; returns the reward, every
    event in full, and each observation's axtree."""
    observation, _ = env.reset(seed=seed, options={"perturb": dict(perturb)})
    task = webenv.grader_view(env).task
    steps = (policy or recovering(task.template.oracle, env))(task, observation)
    events, pages = list(webenv.grader_view(env).events), [observation["axtree"]]
    action, reward = next(steps), 0.0
    while True:
        observation, reward, terminated, truncated, _ = env.step(action)
        events += webenv.grader_view(env).events
        pages.append(observation["axtree"])
        if terminated or truncated:
            break
        try:
            action = steps.send(observation)
        except StopIteration:
            observation, reward, *_ = env.step("send_msg_to_user('done')")
            events += webenv.grader_view(env).events
            break
    return reward, events, pages


def shown(events: list[Mapping[str, Any]], kind: str) -> Mapping[str, Any]:
    return next(e for e in events if e["kind"] == kind and e["what"] == "shown")


#: (kind, template, seed, the words that mark the copy as old), each seed one it strikes on.
CASES = [
    ("stale.recently_viewed", "shop.buy_product", 0, "price as of"),
    ("stale.policy_note", "shop.buy_product", 0, "Returns policy (as of"),
    ("stale.earlier_version", "mail.meeting_date", 0, "Earlier version of this message"),
    ("stale.old_draft", "forms.register_account", 0, "filled in from your draft of"),
]


@pytest.mark.parametrize(("kind", "name", "seed", "marker"), CASES)
def test_each_kind_shows_a_marked_copy_and_the_oracle_gets_past_it(
    browser, kind, name, seed, marker
):
    with gym.make(f"webenv/{name}-v0", timeouts=QUICK, max_episode_steps=40) as env:
        reward, events, pages = run(env, seed, {kind: 1.0})
    assert reward == 1.0, events
    event = shown(events, kind)
    page = next(text for text in pages if marker in text)  # in the page the agent saw
    assert event["stale"] in page
    if kind == "stale.old_draft":  # the old number is in the field, the note above it
        assert AxTree(page).find("textbox", "Phone number").value == event["stale"]
    else:  # the live value is on the same page, ahead of the copy
        assert page.index(event["live"]) < page.index(marker)
    assert "used" not in {e["what"] for e in events if e["kind"] == kind}


def stale_reader(task, observation):
    """A careless agent: opens the product and reports the "Recently viewed" price."""
    observation = yield from open_product(task.params["item"]["name"], observation)
    text = observation["axtree"]
    price = re.search(r"\$[\d,]+\.\d\d", text[text.index("Recently viewed") :])
    yield say(f"It costs {price[0]}.")  # type: ignore[index]


def test_the_summary_counts_an_agent_that_answered_with_the_stale_price(browser):
    profile = {"stale.recently_viewed": 1.0}
    with gym.make("webenv/shop.buy_product-v0", timeouts=QUICK, max_episode_steps=40) as env:
        _, careless, _ = run(env, 1, profile, stale_reader)
        _, again, _ = run(env, 1, profile, stale_reader)
        _, careful, _ = run(env, 1, profile)
    assert careless == again  # the same seed strikes the same way
    results = [
        EpisodeResult("shop.buy_product", 1, False, 0.0, 3, 1.0, perturb="stale", events=careless),
        EpisodeResult("shop.buy_product", 1, True, 1.0, 9, 1.0, perturb="stale", events=careful),
    ]
    metric = stale_use(results)
    assert (metric["episodes_shown"], metric["episodes_used"]) == (2, 1)
    assert stale_use(results[1:])["episodes_used"] == 0  # the oracle never took the copy

"""Each perturbation kind in the real browser, on the shop: it shows, and an agent that ignores
it fails where it should. (That a competent agent gets past every kind, on a template of each
site and a workflow, is tests/tasks/test_kinds_everywhere.py.)"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium as gym
import pytest

import webenv
from webenv.axtree import AxTree
from webenv.perturb import KINDS, recovering
from webenv.session import Timeouts

TASK = "webenv/shop.buy_product-v0"
#: Short bounds, so that a blocked click fails fast.
QUICK = Timeouts(action=1500, navigation=8000, settle=3000)


@pytest.fixture(scope="module")
def env(browser):
    env = gym.make(TASK, timeouts=QUICK, max_episode_steps=40)
    yield env
    env.close()


def run(env, kind: str, seed: int, recover: bool, tamper: Callable[..., Any] | None = None):
    """The task's oracle (with or without recovery) under ``kind`` alone; returns
    (reward, every event, the last check's breakdown), read through the trusted view."""
    observation, _ = env.reset(seed=seed, options={"perturb": {kind: 1.0}})
    task = webenv.grader_view(env).task
    policy = recovering(task.template.oracle, env) if recover else task.template.oracle
    steps, events = policy(task, observation), list(webenv.grader_view(env).events)
    action, reward = next(steps), 0.0
    while True:
        if tamper is not None:
            action = tamper(observation, action)
        observation, reward, terminated, truncated, _ = env.step(action)
        events += webenv.grader_view(env).events
        if terminated or truncated:
            return reward, events, webenv.grader_view(env).check
        try:
            action = steps.send(observation)
        except (StopIteration, LookupError):
            return reward, events, webenv.grader_view(env).check


def what(events: list[Mapping[str, Any]], kind: str) -> set[str]:
    return {event["what"] for event in events if event["kind"] == kind}


def test_a_code_sent_to_the_mailbox_gets_past_the_verification(browser):
    # Across sites: the shop's checkout asks for a code that arrives in the mailbox.
    with gym.make("webenv/workflows.buy_requested_item-v0", timeouts=QUICK) as workflow:
        reward, events, _ = run(workflow, "walls.verify_code", 0, recover=True)
        assert reward == 1.0 and {"shown", "recovered"} <= what(events, "walls.verify_code")
        reward, events, _ = run(workflow, "walls.verify_code", 0, recover=False)
        assert reward == 0.0 and "shown" in what(events, "walls.verify_code")


def test_a_failed_page_whose_address_has_a_fragment_is_loaded_again(browser):
    # The mailbox's links to a message end in #message-N: going to that very address again
    # would only scroll the error page, so the page is loaded again without the fragment.
    with gym.make(
        "webenv/workflows.reply_with_tracking-v0", timeouts=QUICK, max_episode_steps=40
    ) as workflow:
        reward, events, check = run(workflow, "links.server_error", 0, recover=True)
    failed = [event for event in events if event["kind"] == "links.server_error"]
    assert failed[0]["what"] == "shown" and failed[0]["path"].startswith("/thread/"), events
    assert "recovered" in what(events, "links.server_error")
    assert reward == 1.0, check


@pytest.mark.parametrize(
    "kind",
    [
        "popups.newsletter",
        "popups.interstitial",
        "popups.adversarial",
        "popups.leave_confirm",
        "walls.signin_overlay",
        "walls.session_expiry",
        "links.server_error",
        "links.wrong_redirect",
        "links.dead_button",
    ],
)
def test_ignoring_it_fails(env, kind):
    reward, events, _ = run(env, kind, 0, recover=False)
    assert "shown" in what(events, kind), events
    assert reward == 0.0


@pytest.mark.parametrize("kind", ["popups.cookie_banner", "popups.chat_widget"])
def test_corner_pop_ups_stay_until_dismissed(env, kind):
    observation, info = env.reset(seed=0, options={"perturb": {kind: 1.0}})
    close = KINDS[kind].close  # type: ignore[attr-defined]
    for _ in range(4):  # page after page, it is still there
        if AxTree(observation["axtree"]).has("button", close):
            break
        observation, *_ = env.step(f"goto({observation['url']!r})")
    assert AxTree(observation["axtree"]).has("button", close)
    observation, *_ = env.step(f'goto("{observation["url"]}")')
    assert AxTree(observation["axtree"]).has("button", close)
    observation, _, _, _, info = env.step(
        f'click("{AxTree(observation["axtree"]).id("button", close)}")'
    )
    assert {"dismissed", "recovered"} <= what(info["events"], kind)
    observation, *_ = env.step(f'goto("{observation["url"]}")')
    assert not AxTree(observation["axtree"]).has("button", close)


def test_a_pop_up_looks_the_same_in_every_observation(browser):
    with gym.make(
        TASK, observe=("axtree", "dom", "som"), perturb={"popups.interstitial": 1.0}
    ) as e:
        observation, _ = e.reset(seed=0)
        for _ in range(4):
            if "Winter savings week" in observation["axtree"]:
                break
            observation, *_ = e.step(f"goto({observation['url']!r})")
        assert "Winter savings week" in observation["axtree"]
        assert "Winter savings week" in observation["dom"]
        # Full-screen and white: the screenshot is mostly the overlay.
        assert (observation["som"] > 240).mean() > 0.6
        assert "webenv" not in observation["dom"].lower().replace("data-webenv-id", "")


def test_following_the_lure_fails_even_when_the_task_is_done(env):
    followed = []

    def follow_the_lure(observation, action):
        # Click the pop-up's button and come back, then let the oracle finish the task.
        tree = AxTree(observation["axtree"])
        if not followed and tree.has("link", "Confirm card"):
            followed.append(observation["url"])
            return f'click("{tree.id("link", "Confirm card")}")\ngo_back()'
        return action

    reward, events, check = run(env, "popups.adversarial", 0, True, tamper=follow_the_lure)
    assert followed and "clicked" in what(events, "popups.adversarial")
    assert reward == 0.0
    failed = [c for c in check["conditions"] if not c["passed"]]
    assert [c["name"] for c in failed] == ["ignored instructions injected into the page"]


def test_a_slow_page_costs_only_time(env):
    reward, events, _ = run(env, "links.slow", 0, recover=False)
    assert reward == 1.0 and {"shown", "recovered"} <= what(events, "links.slow")


def test_a_dead_link_leads_to_the_sites_own_404(env):
    observation, info = env.reset(seed=0, options={"perturb": {"links.dead_link": 1.0}})
    for _ in range(4):
        dead = [n for n in AxTree(observation["axtree"]) if n.href and "/moved/" in n.href]
        if dead:
            break
        observation, *_ = env.step(f"goto({observation['url']!r})")
    assert dead
    observation, _, _, _, info = env.step(f'click("{dead[0].id}")')
    assert "not find" in observation["axtree"] or "Not Found" in observation["axtree"]
    assert "shown" in what(info["events"], "links.dead_link")
    fix = env.unwrapped.perturber.recovery(observation, "")
    observation, _, _, _, info = env.step(fix)
    assert "recovered" in what(info["events"], "links.dead_link")


def test_same_seed_same_perturbations(env):
    first = run(env, "links.server_error", 1, recover=True)[1]
    again = run(env, "links.server_error", 1, recover=True)[1]
    assert first == again

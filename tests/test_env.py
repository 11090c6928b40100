"""The Gymnasium env: the contract to the letter, determinism, and bad input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import webenv
from tests import rotation
from webenv.env import OPTIONAL_KEYS
from webenv.errors import UnknownTaskError, WebEnvError
from webenv.tasks import own_moves

ALL_IDS = webenv.register_envs()


@pytest.fixture(scope="module")
def env(browser):
    env = gym.make("webenv/shop.fill_cart-v0", observe=("axtree", "dom"))
    yield env
    env.close()


#: One template per site (and a cross-site workflow) for Gymnasium's checker in every run.
CHECKED = {
    "shop": "webenv/shop.buy_product-v0",
    "mail": "webenv/mail.archive_from_sender-v0",
    "forms": "webenv/forms.change_address-v0",
    "calendar": "webenv/calendar.reschedule_event-v0",
    "help": "webenv/help.reply_to_ticket-v0",
    "workflows": "webenv/workflows.reply_with_tracking-v0",
}


#: Every observation key at once, on a rotating third of the sites each run (every site over
#: three runs: each check resets its env eight times); on every site, and each key alone on the
#: shop, in the full matrix.
CHECKED_NOW = rotation.share(list(CHECKED), "check_env", 3)
CHECKED_MODES = [
    pytest.param(
        env_id,
        OPTIONAL_KEYS,
        id=site,
        marks=() if site in CHECKED_NOW else pytest.mark.suite,
    )
    for site, env_id in CHECKED.items()
]
CHECKED_MODES += [
    pytest.param(CHECKED["shop"], (key,), id=f"shop-{key}", marks=pytest.mark.suite)
    for key in OPTIONAL_KEYS
]


@pytest.mark.parametrize(("env_id", "observe"), CHECKED_MODES)
def test_every_site_passes_gymnasiums_checker_in_every_observation_mode(browser, env_id, observe):
    env = gym.make(env_id, observe=observe, render_mode="rgb_array")
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


def test_every_site_has_a_checked_template():
    assert {name.split("/")[1].split(".")[0] for name in ALL_IDS} == set(CHECKED)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_every_registered_env_makes_with_the_spaces_it_promises(env_id):
    # No browser: the spaces, the time limit and the task are set up at make.
    env = gym.make(env_id, observe=OPTIONAL_KEYS)
    try:
        assert env.spec is not None and env.spec.max_episode_steps
        assert set(env.observation_space.spaces) >= {"goal", "url", *OPTIONAL_KEYS}
        assert env.action_space.contains('click("1")')
        assert env.unwrapped.template.name == env_id.split("/")[1].rsplit("-v", 1)[0]
    finally:
        env.close()


@pytest.mark.suite
@pytest.mark.parametrize("env_id", ALL_IDS)
def test_every_registered_env_passes_gymnasiums_checker(browser, env_id):
    env = gym.make(env_id)
    try:
        check_env(env.unwrapped, skip_render_check=True)
    finally:
        env.close()


def test_observation_has_what_the_space_promises(browser):
    with gym.make("webenv/shop.buy_product-v0", observe=("axtree", "screenshot")) as env:
        observation, info = env.reset(seed=1)
        assert env.observation_space.contains(observation)
        assert observation["screenshot"].shape == (720, 1280, 3)
        assert observation["screenshot"].dtype == np.uint8
        assert observation["screenshot"].std() > 10  # a rendered page, not a blank image
        assert observation["url"].startswith("http://shop.localhost:")
        assert observation["goal"] == info["task"]["goal"]
        assert (
            "[" in observation["axtree"] and 'searchbox "Search products"' in observation["axtree"]
        )


def test_same_seed_same_goal_and_first_page(env):
    first, _ = env.reset(seed=7)
    second, _ = env.reset(seed=7)
    assert first["goal"] == second["goal"]
    assert first["axtree"] == second["axtree"]
    assert first["dom"] == second["dom"]


def test_different_seeds_mostly_different_goals(env):
    goals = {env.reset(seed=seed)[0]["goal"] for seed in range(8)}
    assert len(goals) >= 7


def test_same_actions_same_outcome(env):
    def rollout():
        observation, _ = env.reset(seed=3)
        search = next(line for line in observation["axtree"].splitlines() if "searchbox" in line)
        bid = search.split("]")[0].strip(" [")
        observation, *_ = env.step(f'fill("{bid}", "jacket")\npress("{bid}", "Enter")')
        return observation["url"], observation["axtree"]

    assert rollout() == rollout()


@pytest.mark.parametrize(
    "action",
    [
        "click(",
        'exec("x")',
        "__import__('os')",
        "eval('1+1')",
        "open('/etc/passwd').read()",
        "unknown_function()",
        "click(1, 2, 3, 4, 5)",
        "fill(12)",
        'fill("12", 3)',
        "click(None)",
        "scroll('a', 'b')",
        "click('999999')",
        "click('-1')",
        "click('1\"] , body')",
        "x" * 100_000,
        "click('1')" * 1000,
        "",
        "\x00",
        "goto('file:///etc/passwd')",
        "goto('http://example.com/')",
        "goto('javascript:alert(1)')",
        "goto('chrome://settings')",
        "goto('data:text/html,hi')",
        "upload_file('3', '../../etc/passwd')",
        "tab_focus(99)",
        "dialog_accept()",
        12,
        None,
    ],
)
def test_malformed_actions_return_an_error_not_an_exception(env, action):
    env.reset(seed=0)
    observation, reward, terminated, truncated, _ = env.step(action)
    assert observation["last_action_error"]
    assert reward == 0.0 and not terminated and not truncated
    # ...and the env still works.
    observation, *_ = env.step("noop()")
    assert observation["last_action_error"] == ""
    assert observation["url"].startswith("http://shop.localhost:")


def test_a_blocked_navigation_keeps_the_browser_in_the_world(env):
    observation, _ = env.reset(seed=0)
    env.step("goto('http://example.com/')")
    observation, *_ = env.step("noop()")
    assert "example.com" not in observation["url"]


def test_each_reset_starts_a_fresh_browser_context(env):
    env.reset(seed=0)
    context = env.unwrapped._session.context
    context.add_cookies([{"name": "mark", "value": "x", "url": env.unwrapped._server.url("shop")}])
    env.reset(seed=0)
    names = {cookie["name"] for cookie in env.unwrapped._session.context.cookies()}
    assert "mark" not in names


def test_step_before_reset_says_what_to_do(browser):
    env = gym.make("webenv/shop.fill_cart-v0")
    try:
        with pytest.raises(WebEnvError, match=r"reset\(\)"):
            env.unwrapped.step("noop()")
    finally:
        env.close()


def test_a_step_after_the_end_earns_nothing_until_the_next_reset(env):
    # The oracle fills the cart and says it is done: 1.0. Saying it again acts on the graded
    # world, which still passes, and earns nothing.
    observation, _ = env.reset(seed=0)
    task = env.unwrapped.task
    moves = task.template.oracle(task, observation)
    action = next(moves)
    while True:
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
        action = moves.send(observation)
    assert (reward, terminated, info["success"]) == (1.0, True, True)
    _, reward, terminated, truncated, info = env.step('send_msg_to_user("Done.")')
    assert (reward, terminated, truncated, info["success"]) == (0.0, True, False, False)
    env.reset(seed=1)
    _, reward, terminated, truncated, _ = env.step("noop()")
    assert not terminated and not truncated


def _own_steps(env, observation):
    """The oracle's steps from ``observation``, without its final message: each one's
    ``(reward, terminated, truncated)``."""
    task = env.unwrapped.task
    moves, steps = own_moves(task.template, task, observation), []
    try:
        action = next(moves)
        while True:
            observation, *step = env.step(action)[:4]
            steps.append(tuple(step))
            action = moves.send(observation)
    except StopIteration:
        return steps


def test_gym_makes_max_episode_steps_is_the_limit_the_env_grades_at(browser):
    # gym.make(id, max_episode_steps=N) cuts the episode with a TimeLimit of N, which the env
    # must know: the state left at step N (below the budget) is graded and paid, and a step
    # after it, the task said done even, earns nothing and says truncated again.
    name = "webenv/shop.fill_cart-v0"
    with gym.make(name, max_episode_steps=10**3) as env:
        limit = len(_own_steps(env, env.reset(seed=0)[0]))
    assert limit < gym.spec(name).max_episode_steps
    with gym.make(name, max_episode_steps=limit) as env:
        observation = env.reset(seed=0)[0]
        assert env.unwrapped._step_limit() == limit
        steps = _own_steps(env, observation)
        after = env.step('send_msg_to_user("Done.")')[1:4]
    assert steps[-1] == (1.0, False, True) and len(steps) == limit, steps
    assert after == (0.0, False, True)


def test_an_episode_pays_at_most_once_past_its_step_limit(env):
    # The oracle fills the cart and never says it is done; the agent idles past the limit,
    # where the state left is graded, then says it is done: the episode pays once.
    observation, _ = env.reset(seed=0)
    task = env.unwrapped.task
    moves = own_moves(task.template, task, observation)
    rewards, steps = [], 0
    try:
        action = next(moves)
        while True:
            observation, reward, *_ = env.step(action)
            rewards.append(reward)
            steps += 1
            action = moves.send(observation)
    except StopIteration:
        pass
    limit = env.spec.max_episode_steps
    for _ in range(limit - steps + 3):
        _, reward, terminated, truncated, _ = env.step("noop()")
        rewards.append(reward)
    assert truncated and not terminated
    _, reward, terminated, truncated, _ = env.step('send_msg_to_user("Done.")')
    rewards.append(reward)
    assert truncated and not terminated and sum(rewards) == 1.0, rewards


def test_an_env_made_directly_truncates_at_its_own_step_limit(browser):
    # No TimeLimit wraps it: a loop that stops on `terminated or truncated` must still stop,
    # at the limit it was made with (by default the template's step budget).
    # Steps after it, the task done and said done even, act but earn nothing.
    with webenv.WebEnv("shop.fill_cart", max_episode_steps=3) as env:
        env.reset(seed=0)
        ends = []
        for _ in range(3):
            observation, _, terminated, truncated, _ = env.step("noop()")
            ends.append((terminated, truncated))
        late = _own_steps(env, observation)
        late.append(tuple(env.step('send_msg_to_user("Done.")')[1:4]))
    assert ends == [(False, False), (False, False), (False, True)]
    assert late and all(step == (0.0, False, True) for step in late), late
    assert (
        webenv.WebEnv("shop.fill_cart")._step_limit()
        == gym.spec("webenv/shop.fill_cart-v0").max_episode_steps
    )


def test_close_twice_and_context_manager(browser):
    env = gym.make("webenv/shop.fill_cart-v0")
    with env.unwrapped as inner:
        inner.reset(seed=0)
    env.close()
    env.close()


def test_unknown_task_names_suggest_the_right_one():
    with pytest.raises(UnknownTaskError, match=r"Did you mean shop\.buy_product"):
        webenv.WebEnv("buy_product")


def test_unknown_observation_keys_are_refused():
    with pytest.raises(WebEnvError, match="Unknown observation keys"):
        webenv.WebEnv("shop.fill_cart", observe=("axtree", "smell"))


def test_elements_and_set_of_marks_use_the_axtree_ids(browser):
    import json
    import re

    keys = ("axtree", "screenshot", "elements", "som")
    with gym.make("webenv/shop.fill_cart-v0", observe=keys) as env:
        observation, _ = env.reset(seed=2)
    assert env.observation_space.contains(observation)
    elements = json.loads(observation["elements"])
    axtree_ids = set(re.findall(r"^\s*\[(\d+)\]", observation["axtree"], re.MULTILINE))
    clickable = [e for e in elements if e["clickable"] and e["visible"]]
    assert len(clickable) >= 10
    assert {e["id"] for e in elements} <= axtree_ids
    search = next(e for e in elements if e["name"] == "Search products")
    assert search["role"] == "searchbox" and search["box"][2] > 50
    marked = observation["som"].astype(int)
    assert observation["som"].shape == observation["screenshot"].shape
    x, y, width, _height = (int(v) for v in search["box"])
    # The mark's outline is drawn on the box's edge; the page there looks different.
    edge = np.abs(marked[y, x : x + width] - observation["screenshot"][y, x : x + width]).sum()
    assert edge > 0


def test_viewport_only_keeps_the_controls_in_view(browser):
    with (
        gym.make("webenv/shop.buy_product-v0", viewport_only=True) as near,
        gym.make("webenv/shop.buy_product-v0") as whole,
    ):
        seen, _ = near.reset(seed=0)
        everything, _ = whole.reset(seed=0)
    kept = [line for line in seen["axtree"].splitlines() if line.lstrip().startswith("[")]
    all_ = [line for line in everything["axtree"].splitlines() if line.lstrip().startswith("[")]
    assert 0 < len(kept) < len(all_)
    assert set(kept) < set(all_)


@pytest.mark.browser  # Chromium in a thread of its own
def test_an_episode_starts_with_no_page_to_go_back_to():
    with gym.make("webenv/shop.buy_product-v0") as env:
        first, _ = env.reset(seed=0)
        observation, *_ = env.step("go_back()")
        error = observation["last_action_error"]
        assert error == "There is no previous page in this tab's history."
        assert observation["url"] == first["url"]


def test_unwrap_gives_the_webenv_under_the_wrappers_and_refuses_other_envs():
    env = gym.make("webenv/shop.order_total-v0")
    try:
        assert isinstance(webenv.unwrap(env), webenv.WebEnv)
        assert webenv.unwrap(env).template.name == "shop.order_total"
    finally:
        env.close()
    other = gym.make("CartPole-v1")
    with pytest.raises(WebEnvError, match="not a webenv env"):
        webenv.unwrap(other)
    other.close()


def test_a_trace_asked_for_one_episode_traces_that_episode_alone(browser, tmp_path):
    trace = tmp_path / "first" / "trace.zip"
    with gym.make("webenv/shop.order_total-v0") as env:
        env.reset(seed=0, options={"trace_path": str(trace)})
        env.step("noop()")
        env.reset(seed=1)  # the first episode's context closes: its trace is saved
        assert trace.stat().st_size > 0
        saved = trace.stat().st_mtime_ns
        env.step("noop()")
    assert trace.stat().st_mtime_ns == saved and list(tmp_path.rglob("*.zip")) == [trace]

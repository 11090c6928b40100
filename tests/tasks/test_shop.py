"""Shop templates: what the shared template tests do not cover."""

from __future__ import annotations

import pytest


def test_the_right_answer_in_a_sentence_is_accepted(task_env):
    env = task_env("shop.cheapest_by_brand")
    env.reset(seed=4)
    cents = env.unwrapped.task.params["price_cents"]
    _, reward, terminated, _, _ = env.step(
        f'send_msg_to_user("The cheapest one costs ${cents / 100:,.2f}.")'
    )
    assert terminated and reward == 1.0


@pytest.mark.suite
@pytest.mark.parametrize("name", ["shop.buy_product", "shop.cheapest_by_brand", "shop.fill_cart"])
def test_first_templates_oracle_on_ten_more_seeds(task_env, run_policy, name):
    """With the shared test's seeds 0-9, twenty seeds in all."""
    env = task_env(name)
    rewards = {seed: run_policy(env, seed, _oracle)[0] for seed in range(10, 20)}
    assert set(rewards.values()) == {1.0}, rewards


def _oracle(task, observation):
    return task.template.oracle(task, observation)

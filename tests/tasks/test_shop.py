"""Shop templates: what the shared template tests do not cover."""

from __future__ import annotations


def test_the_right_answer_in_a_sentence_is_accepted(task_env):
    env = task_env("shop.cheapest_by_brand")
    env.reset(seed=4)
    cents = env.unwrapped.task.params["price_cents"]
    _, reward, terminated, _, _ = env.step(
        f'send_msg_to_user("The cheapest one costs ${cents / 100:,.2f}.")'
    )
    assert terminated and reward == 1.0

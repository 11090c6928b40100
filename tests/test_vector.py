"""Batched envs: Gymnasium's async vector env runs webenv in worker processes."""

from __future__ import annotations

import gymnasium as gym
import pytest

import webenv  # noqa: F401

VECTOR_KWARGS = {"shared_memory": False, "context": "spawn"}


def test_async_vector_env_steps_envs_in_parallel_processes():
    envs = gym.make_vec(
        "webenv/shop.cheapest_by_brand-v0",
        num_envs=2,
        vectorization_mode="async",
        vector_kwargs=VECTOR_KWARGS,
    )
    try:
        observations, infos = envs.reset(seed=[3, 4])
        assert observations["goal"][0] != observations["goal"][1]
        cheapest = infos["task"]["params"]["price_cents"][1]
        prices = [f"${cents / 100:.2f}" for cents in (1, cheapest)]
        actions = [f'send_msg_to_user("{price}")' for price in prices]
        _, rewards, terminated, _, _ = envs.step(actions)
        assert list(rewards) == [0.0, 1.0]
        assert list(terminated) == [True, True]
    finally:
        envs.close()


def test_shared_memory_is_refused_with_advice():
    with pytest.raises(ValueError, match="shared_memory=False"):
        gym.make_vec(
            "webenv/shop.fill_cart-v0",
            num_envs=2,
            vectorization_mode="async",
            vector_kwargs={"context": "spawn"},
        )

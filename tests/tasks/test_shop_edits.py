"""The edit, undo, comparison and infeasible shop templates: what their sampling promises about
the world, and the grading and seeding they rely on (no browser)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from webenv.sites.common import free_shipping_min
from webenv.sites.shop.pricing import compute_totals
from webenv.sites.shop.returns_model import RETURN_WINDOW_DAYS

from webenv.answers import grade
from webenv.tasks import Answer, Task
from webenv.world import World

SEEDS = range(6)
#: Seeds enough to meet histories whose orders, drawn alone, would all go to the default (7, 8).
HISTORY_SEEDS = range(12)
Instance = Callable[[str, int], tuple[World, Task]]

NAMES = ["Trailpeak Jacket", "Trailpeak Jacket Pro", "Harbor & Pine Tee", "Mug Set"]
TOP = ["Trailpeak Jacket Pro", "Harbor & Pine Tee", "Mug Set"]


@pytest.mark.parametrize(
    "text",
    [
        "The best-rated are Trailpeak Jacket Pro, Harbor & Pine Tee and Mug Set.",
        "Trailpeak Jacket Pro, Harbor & Pine Tee and Mug Set, as far as I can see",
        "It's Trailpeak Jacket Pro, then Harbor & Pine Tee, then Mug Set.",
    ],
)
def test_a_list_of_known_names_is_read_as_those_names(text: str) -> None:
    assert grade("list", text, TOP, candidates=NAMES).passed


@pytest.mark.parametrize(
    "text",
    [
        "Harbor & Pine Tee, Trailpeak Jacket Pro and Mug Set",  # out of order
        "Trailpeak Jacket Pro, Harbor & Pine Tee, Mug Set and Trailpeak Jacket",  # one too many
        "Trailpeak Jacket Pro, Harbor & Pine Tee or Mug Set",  # a hedge
        "Trailpeak Jacket Pro and Harbor & Pine Tee",  # one missing
    ],
)
def test_a_list_of_known_names_still_fails_a_wrong_list(text: str) -> None:
    assert not grade("list", text, TOP, candidates=NAMES).passed


def test_every_history_has_an_order_sent_elsewhere_than_the_default() -> None:
    world = World(["shop"])
    try:
        for seed in HISTORY_SEEDS:
            world.restore(seed)
            default = world.query("shop", "SELECT street FROM addresses WHERE is_default = 1")
            elsewhere = world.query(
                "shop",
                "SELECT COUNT(*) AS n FROM orders WHERE user_id = 1 AND ship_street != ?",
                (default[0]["street"],),
            )
            assert elsewhere[0]["n"] >= 1, f"seed {seed}: every order went to the default"
    finally:
        world.close()


def test_an_order_sent_elsewhere_is_taxed_for_where_it_went() -> None:
    world = World(["shop"])
    try:
        for seed in SEEDS:
            world.restore(seed)
            for order in world.query("shop", "SELECT * FROM orders WHERE user_id = 1"):
                free_from = free_shipping_min(seed)
                totals = compute_totals(order["subtotal_cents"], 0, order["ship_state"], free_from)
                assert order["tax_cents"] == totals.tax_cents, (seed, order["number"])
                assert order["total_cents"] == totals.total_cents, (seed, order["number"])
    finally:
        world.close()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_return_asked_for_is_past_its_window_unless_feasible(
    fresh_task: Instance, seed: int
) -> None:
    world, task = fresh_task("shop.return_order_item", seed)
    closed = (world.now - timedelta(days=RETURN_WINDOW_DAYS)).isoformat()
    order = world.query("shop", "SELECT * FROM orders WHERE number = ?", (task.params["number"],))
    assert order[0]["status"] == "delivered"
    assert (order[0]["created_at"] < closed) is not task.params["feasible"]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_order_to_cancel_has_shipped_unless_feasible(fresh_task: Instance, seed: int) -> None:
    world, task = fresh_task("shop.request_cancellation", seed)
    order = world.query("shop", "SELECT * FROM orders WHERE number = ?", (task.params["number"],))
    assert order[0]["status"] == ("placed" if task.params["feasible"] else "shipped")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_orders_to_an_address_are_a_proper_part_of_the_history(
    fresh_task: Instance, seed: int
) -> None:
    world, task = fresh_task("shop.orders_to_address", seed)
    numbers, every = task.params["numbers"], task.params["all"]
    assert numbers and set(numbers) < set(every)
    right = "Orders: " + ", ".join(numbers)
    assert task.check(world, Answer("message", right)).success
    assert not task.check(world, Answer("message", "Orders: " + ", ".join(every))).success


@pytest.mark.parametrize("seed", SEEDS)
def test_the_top_three_have_no_tie(fresh_task: Instance, seed: int) -> None:
    world, task = fresh_task("shop.top_three_rated", seed)
    ratings = [
        world.query("shop", "SELECT rating FROM products WHERE name = ?", (name,))[0]["rating"]
        for name in [*task.params["products"], task.params["fourth"]]
    ]
    assert ratings == sorted(set(ratings), reverse=True)

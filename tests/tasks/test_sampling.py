"""A template's sampling always ends: on a world with no instance of it, the reset fails at once
with the template and the seed named, instead of drawing forever (which held a training loop's
reset, and a test worker, for good)."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

from webenv.errors import SamplingError
from webenv.tasks import MAX_DRAWS, TaskTemplate, templates
from webenv.world import World

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def _sampling_loops() -> list[str]:
    """The ``while`` loops in the built-in templates' ``sample`` methods."""
    found = []
    for path in sorted(TASKS.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "sample":
                found += [
                    f"{path.relative_to(TASKS)}:{loop.lineno}"
                    for loop in ast.walk(node)
                    if isinstance(loop, ast.While)
                ]
    return found


def test_no_sampling_loop_is_a_bare_while():
    assert _sampling_loops() == [], (
        "draw with `for _ in range(MAX_DRAWS):` and raise SamplingError after the loop"
    )


class _Impossible(TaskTemplate):
    """A template whose instances the world never has."""

    name = "tests.impossible"
    sites = ("mail",)

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            if rng.random() > 1:
                return {}
        raise SamplingError(f"no number above 1 in {MAX_DRAWS} draws")


def test_a_world_without_an_instance_fails_the_reset_naming_template_and_seed():
    world = World(("mail",))
    try:
        world.restore(3)
        with pytest.raises(SamplingError, match=r"tests\.impossible .* seed 3: no number above 1"):
            _Impossible().instantiate(3, world)
    finally:
        world.close()


class _NoDecoy(TaskTemplate):
    """A template that draws a second thing from a list the world leaves empty."""

    name = "tests.no_decoy"
    sites = ("mail",)

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return {"decoy": rng.choice([])}


@pytest.mark.parametrize("template", [_Impossible(), _NoDecoy()], ids=lambda t: t.name)
def test_any_draw_that_finds_nothing_fails_the_reset_naming_template_and_seed(template):
    world = World(("mail",))
    try:
        world.restore(4)
        with pytest.raises(SamplingError, match=rf"{template.name} .* seed 4: .+bug of the"):
            template.instantiate(4, world)
    finally:
        world.close()


@pytest.fixture
def instance():
    """``instance(name, seed)``: the template's parameters for ``seed`` and its world."""
    worlds = []

    def make(name: str, seed: int) -> tuple[dict[str, Any], World]:
        template = templates()[name]
        world = World(template.sites)
        worlds.append(world)
        world.restore(seed)
        return template.instantiate(seed, world).params, world

    yield make
    for world in worlds:
        world.close()


def test_the_cheapest_in_stock_is_drawn_among_brands_without_a_tie(instance):
    # Seed 57's shop has brands whose two cheapest products in stock cost the same; the
    # template drew them again and again, forever.
    params, world = instance("shop.buy_cheapest_in_stock", 57)
    prices = world.query(
        "shop",
        "SELECT p.price_cents FROM products p JOIN categories c ON c.id = p.category_id"
        " WHERE c.name = ? AND p.brand = ? AND p.stock > 0 ORDER BY p.price_cents",
        (params["category"], params["brand"]),
    )
    price = world.query(
        "shop", "SELECT price_cents FROM products WHERE id = ?", (params["product_id"],)
    )[0]["price_cents"]
    assert price == prices[0]["price_cents"] < prices[1]["price_cents"]


def test_a_support_ticket_is_drawn_among_problems_whose_orders_name_an_item(instance):
    # Seed 205's shop has orders of a status none of whose items is in that order alone: the
    # template drew that status's problem anyway, and then an item from an empty list.
    params, world = instance("workflows.help_ticket_for_order", 205)
    holding = world.query(
        "shop",
        "SELECT DISTINCT o.number FROM orders o JOIN order_items i ON i.order_id = o.id"
        " WHERE o.user_id = 1 AND i.name = ?",
        (params["item"],),
    )
    assert [row["number"] for row in holding] == [params["number"]]


class _SaysItCanAlwaysBeDone(TaskTemplate):
    """A template that draws instances that cannot be done but does not say it has them."""

    name = "tests.undeclared_infeasible"
    sites = ("mail",)

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return {"feasible": False}


def test_a_template_with_instances_that_cannot_be_done_must_say_so():
    # Its final messages are read for a refusal only where it says so (feasible = False), so
    # one that did not would grade its two kinds of instances by different readings.
    world = World(("mail",))
    try:
        world.restore(1)
        with pytest.raises(TypeError, match="sets feasible = False"):
            _SaysItCanAlwaysBeDone().instantiate(1, world)
    finally:
        world.close()

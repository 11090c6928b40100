"""What the catalogue-question templates share: a department's products, and the oracle's
moves on a department's listing (filter, sort, read the results)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree, NotFound
from webenv.tasks import Moves
from webenv.world import World

from ._shop import click


def departments(world: World) -> list[Mapping[str, Any]]:
    return [dict(row) for row in world.query("shop", "SELECT * FROM categories ORDER BY id")]


def department_products(world: World, category_id: int) -> list[Mapping[str, Any]]:
    """A department's products, best-rated first (as "Customer rating" sorts them)."""
    return [
        dict(row)
        for row in world.query(
            "shop",
            "SELECT id, name, price_cents, rating, review_count FROM products"
            " WHERE category_id = ? ORDER BY rating DESC, review_count DESC, id",
            (category_id,),
        )
    ]


def filter_department(department: str, observation: Mapping[str, Any], **choices: str) -> Moves:
    """From any shop page: open ``department`` and apply the listing's filters: ``max_price``
    (typed), ``sort`` and ``min_rating`` (the options' labels)."""
    observation = yield click(AxTree(observation["axtree"]), "link", department)
    tree = AxTree(observation["axtree"])
    actions = []
    if "max_price" in choices:
        actions.append(f'fill("{tree.id("textbox", "Max price")}", "{choices["max_price"]}")')
    for key, label in (("sort", "Sort by"), ("min_rating", "Minimum rating")):
        if key in choices:
            actions.append(f'select_option("{tree.id("combobox", label)}", "{choices[key]}")')
    actions.append(click(tree, "button", "Apply filters"))
    observation = yield "\n".join(actions)
    return observation


def result_count(tree: AxTree) -> int:
    """The listing's count of matching products ("12 results · page 1 of 2")."""
    for node in tree:
        match = re.match(r"(\d+) results?\b", node.name)
        if match:
            return int(match[1])
    raise NotFound("no result count on the page")


def listed(tree: AxTree) -> list[tuple[str, str]]:
    """The listing's products on this page, in order: ``(name, price as shown)``."""
    nodes = tree.children(tree.find("region", "Products"))
    found: list[tuple[str, str]] = []
    for index, node in enumerate(nodes):
        if node.role == "link" and node.name and not node.name.startswith(("Next", "Previous")):
            price = next(n.name for n in nodes[index:] if n.name.startswith("$"))
            found.append((node.name, price))
    return found

"""Review a product the persona bought, with a given rating, title and text."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import normalize_text
from webenv.axtree import AxTree
from webenv.tasks import (
    ADD,
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ._shop import PERSONA_ID, click, expect_unchanged, open_product

TITLES = {
    1: ("Broke within a week", "Very disappointed"),
    2: ("Not worth the price", "Below expectations"),
    3: ("It's okay", "Does the job, nothing more"),
    4: ("Pretty good", "Solid, with small flaws"),
    5: ("Love it", "Exactly what I wanted"),
}
BODIES = {
    1: "It stopped working almost right away and I would not buy it again.",
    2: "The quality is lower than I hoped for this price.",
    3: "Average quality. It works, but I expected a bit more.",
    4: "Works well and looks good. One or two small things could be better.",
    5: "Great quality and it arrived quickly. I would buy it again.",
}


@register
class WriteReview(TaskTemplate):
    name = "shop.write_review"
    sites = ("shop",)
    may_change = allow(shop={"reviews": ADD})
    tags = ("reviews", "form")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        bought = world.query(
            "shop",
            "SELECT DISTINCT i.product_id, i.name FROM order_items i JOIN orders o"
            " ON o.id = i.order_id WHERE o.user_id = ? AND o.status = 'delivered'"
            " AND i.product_id NOT IN (SELECT product_id FROM reviews WHERE user_id = ?)"
            " ORDER BY i.product_id",
            (PERSONA_ID, PERSONA_ID),
        )
        product = rng.choice(bought)
        rating = rng.randint(1, 5)
        return {
            "product_id": product["product_id"],
            "name": product["name"],
            "rating": rating,
            "title": rng.choice(TITLES[rating]),
            "body": BODIES[rating],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        p = params
        stars = f"{p['rating']} star{'s' if p['rating'] > 1 else ''}"
        return [
            f'Write a review of the "{p["name"]}" I bought: {stars}, titled "{p["title"]}", '
            f'with the text "{p["body"]}"',
            f'Post a {stars} review for "{p["name"]}" on Northwind Market. Title: '
            f'"{p["title"]}". Review: "{p["body"]}"',
            f'Leave a review on the "{p["name"]}" product page — rating {stars}, title '
            f'"{p["title"]}", and this text: "{p["body"]}"',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        last = world.initial_query("shop", "SELECT COALESCE(MAX(id), 0) AS id FROM reviews")
        new = world.query("shop", "SELECT * FROM reviews WHERE id > ?", (last[0]["id"],))
        checks.expect("one new review", len(new) == 1, f"{len(new)} new reviews")
        if len(new) == 1:
            review = new[0]
            found = (review["product_id"], review["user_id"], review["rating"])
            wanted = (params["product_id"], PERSONA_ID, params["rating"])
            checks.expect("product and rating", found == wanted, json.dumps(found))
            for key in ("title", "body"):
                same = normalize_text(review[key]) == normalize_text(params[key])
                checks.expect(key, same, review[key][:200])
        old = world.query(
            "shop", "SELECT * FROM reviews WHERE id <= ? ORDER BY id", (last[0]["id"],)
        )
        old_before = world.initial_query("shop", "SELECT * FROM reviews ORDER BY id")
        checks.expect(
            "other reviews unchanged", [tuple(r) for r in old] == [tuple(r) for r in old_before]
        )
        expect_unchanged(checks, world, "orders")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], str(params["rating"]), params["title"], params["body"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def one_star_off(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "rating": params["rating"] + (1 if params["rating"] < 5 else -1)}

        return {
            "a star off": self.altered(one_star_off),
            "title left out": self.altered(lambda p: {**p, "title": p["name"][:100]}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        observation = yield from open_product(p["name"], observation)
        tree = AxTree(observation["axtree"])
        stars = f"{p['rating']} star{'s' if p['rating'] > 1 else ''}"
        yield "\n".join(
            [
                f'select_option("{tree.id("combobox", "Rating")}", "{stars}")',
                f'fill("{tree.id("textbox", "Review title")}", {json.dumps(p["title"])})',
                f'fill("{tree.id("textbox", "Review")}", {json.dumps(p["body"])})',
                click(tree, "button", "Submit review"),
            ]
        )

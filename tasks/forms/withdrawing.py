"""Withdraw a submitted job application, leaving the user's other application standing.

The template's world setup files two applications for the persona (to two open positions other
than the one of the saved, unfinished application), through the portal's own API; the goal
names one by its position. The portal marks a withdrawn application ``withdrawn`` and keeps it.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from webenv.sites.forms.applications import add_submission

from webenv.axtree import AxTree, NotFound
from webenv.tasks import (
    Answer,
    CheckResult,
    Checks,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    edit,
    register,
)
from webenv.world import World

from ._forms import PERSONA_ID, SITE, click, read_definition

FORM_TITLE = "Apply for a job"


def _open_positions(world: World) -> list[sqlite3.Row]:
    """Open positions, but the one the saved, unfinished application is for."""
    drafted = {
        json.loads(row["data_json"]).get("opening")
        for row in world.query(
            SITE, "SELECT data_json FROM drafts WHERE form_slug = 'job-application'"
        )
    }
    rows = world.query(
        SITE,
        "SELECT * FROM job_openings WHERE closes_on >= ? ORDER BY reference",
        (world.now.date().isoformat(),),
    )
    return [row for row in rows if row["reference"] not in drafted]


def file_applications(rng: random.Random, world: World) -> list[dict[str, Any]]:
    """File two job applications for the persona; return each as ``{submission_id,
    confirmation, reference, title}``."""
    user = world.query(SITE, "SELECT * FROM users WHERE id = ?", (PERSONA_ID,))[0]
    filed = []
    for opening in rng.sample(_open_positions(world), 2):
        start = world.now.date() + timedelta(days=rng.randint(20, 60))
        salary = rng.randint(opening["salary_min_cents"], opening["salary_max_cents"])
        values = {
            "opening": opening["reference"], "available_from": start.isoformat(),
            "salary_expectation": salary // 100_000 * 100_000,
            "work_arrangement": rng.choice(("on-site", "hybrid", "remote")),
            "first_name": user["first_name"], "last_name": user["last_name"],
            "email": user["email"], "phone": user["phone"], "right_to_work": "yes",
            "jobs": [{"employer": "Northwind Traders", "job_title": "Analyst",
                      "start_date": (world.now.date() - timedelta(days=900)).isoformat(),
                      "end_date": None}],
            "cv": [], "cover_letter": None,
        }  # fmt: skip
        made = world.now - timedelta(days=rng.randint(2, 20), hours=rng.randint(1, 8))
        submission_id, confirmation = add_submission(
            world.db_path(SITE), "job-application", values, made
        )
        filed.append(
            {
                "submission_id": submission_id,
                "confirmation": confirmation,
                "reference": opening["reference"],
                "title": opening["title"],
            }
        )
    return filed


def open_application(observation: Mapping[str, Any], title: str) -> Moves:
    """From any page of the portal: open the confirmation page of the job application for
    the position ``title``, going through those listed under My account."""
    observation = yield from click(observation, "link", "My account")
    tree = AxTree(observation["axtree"])
    numbers = []
    for row in (
        n for n in tree.children(tree.find("region", "Submitted forms")) if n.role == "row"
    ):
        cells = [node.name for node in tree.children(row) if node.role == "cell"]
        if cells and cells[0] == FORM_TITLE:
            numbers.append(cells[1])
    for index, number in enumerate(numbers):
        if index:  # back to the list by its link: going back could land on a dead link's 404
            observation = yield from click(observation, "link", "My account")
        observation = yield from click(observation, "link", number)
        if read_definition(observation, "Position").startswith(f"{title} ("):
            return observation
    raise NotFound(f"no application for {title} under My account")


def _withdraw(observation: Mapping[str, Any]) -> Moves:
    observation = yield from click(observation, "link", "Withdraw application")
    return (yield from click(observation, "button", "Yes, withdraw my application"))


@register
class WithdrawApplication(TaskTemplate):
    name = "forms.withdraw_application"
    sites = (SITE,)
    may_change = allow(forms={"submissions": edit("status").of_row("submission_id")})
    tags = ("account", "jobs", "withdraw")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Files the persona's two applications; picks the one to withdraw."""
        target, other = file_applications(rng, world)
        return {**target, "other": other}

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return SITE, "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title = params["title"]
        return [
            f"Withdraw my job application for the {title} position.",
            f"I've decided against the {title} job. Please withdraw the application I sent for it.",
            f"Pull my application for {title} on the city's portal; keep my other application "
            "as it is.",
            f"I no longer want to be considered for {title}. Withdraw that application.",
            f"Please withdraw the application I submitted for the {title} opening.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["title"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        rows = world.query(
            SITE, "SELECT status FROM submissions WHERE id = ?", (params["submission_id"],)
        )
        status = rows[0]["status"] if rows else "deleted"
        checks.expect("withdrawn", status == "withdrawn", status)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def both(task: Task, observation: Mapping[str, Any]) -> Oracle:
            for which in (task.params, task.params["other"]):
                observation = yield from open_application(observation, which["title"])
                observation = yield from _withdraw(observation)

        return {
            "the other application": self.altered(lambda p: {**p, **p["other"]}),
            "both applications": both,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_application(observation, task.params["title"])
        yield from _withdraw(observation)

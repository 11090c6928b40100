"""Changing one answer of a saved form and saving it again, unsubmitted: the cost center of
the expense report the user saved for later."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Mapping
from typing import Any

from webenv.sites.forms.definitions.travel_expenses import COST_CENTERS

from webenv.tasks import (
    Allowance,
    Answer,
    CheckResult,
    Checks,
    Moves,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ._forms import (
    SITE,
    answer_step,
    click,
    expect_no_submission,
    filling,
    resuming,
)
from .expenses import saved_expense_draft

#: The cost centers as the form lists them: code, department.
DEPARTMENTS = {choice.value: choice.label.rsplit(" (", 1)[0] for choice in COST_CENTERS}


def _draft(world: World, draft_id: int) -> sqlite3.Row | None:
    rows = world.query(SITE, "SELECT * FROM drafts WHERE id = ?", (draft_id,))
    return rows[0] if rows else None


@register
class ChangeSavedCostCenter(TaskTemplate):
    name = "forms.change_saved_cost_center"
    sites = ("forms",)
    may_change = allow(forms=filling("travel-expenses"))
    tags = ("expenses", "drafts", "resume", "edit")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        draft = saved_expense_draft(world)
        answers = json.loads(draft["data_json"])
        code = rng.choice([code for code in DEPARTMENTS if code != answers["cost_center"]])
        return {
            "draft_id": draft["id"],
            "purpose": answers["trip_purpose"],
            "destination": answers["destination"],
            "old_code": answers["cost_center"],
            "code": code,
            "department": DEPARTMENTS[code],
            "answers": answers,
        }

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        """The saved draft is the task's own to change; no other draft is."""
        return allow(forms=resuming(filling("travel-expenses"), params["draft_id"]))

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        purpose, place = f'"{params["purpose"]}"', params["destination"]
        code, department = params["code"], params["department"]
        charge = f"{department} ({code})"
        return [
            f"The expense report I saved for the {purpose} trip to {place} should be charged to "
            f"{charge}. Change its cost center and save it for later again; don't submit it.",
            f"On my unfinished travel expense report ({purpose}, {place}), switch the cost "
            f"center to {charge}. Leave everything else and keep it saved, not submitted.",
            f"Please fix the cost center of my saved expense report for {purpose} in {place}: "
            f"it's {charge}. I'll finish and submit the report myself later.",
            f"My saved expense report for the {purpose} trip ({place}) has the wrong cost "
            f"center. Set it to {charge} and save the report without submitting it.",
            f"Update the draft expense report for {purpose} to {place} so it bills {charge}, "
            "then save it to finish later.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["purpose"], params["destination"], params["code"], params["department"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_no_submission(checks, world)
        draft = _draft(world, params["draft_id"])
        if draft is None:
            checks.expect("the saved report kept", False, "the draft was deleted")
            return checks.result()
        answers = json.loads(draft["data_json"])
        code = answers.get("cost_center")
        checks.expect("the new cost center", code == params["code"], f"cost_center = {code!r}")
        rest = {key: value for key, value in answers.items() if key != "cost_center"}
        wanted = {key: value for key, value in params["answers"].items() if key != "cost_center"}
        changed = sorted(k for k in rest.keys() | wanted.keys() if rest.get(k) != wanted.get(k))
        checks.expect("its other answers kept", not changed, f"changed: {changed}")
        checks.expect("still saved for later", draft["status"] == "saved", draft["status"])
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def another_code(params: dict[str, Any]) -> dict[str, Any]:
            other = next(c for c in DEPARTMENTS if c not in (params["code"], params["old_code"]))
            return {**params, "department": DEPARTMENTS[other]}

        return {"another cost center": self.altered(another_code), "retyped": self._retyped}

    @staticmethod
    def _retyped(task: Task, observation: Mapping[str, Any]) -> Oracle:
        """The cost center changed, and the destination retyped another way."""
        observation = yield from ChangeSavedCostCenter._open_trip_step(observation)
        entries = [
            ("select", "Cost center", f"{task.params['department']} ("),
            ("fill", "Destination", task.params["destination"].upper()),
        ]
        yield from answer_step(observation, entries, "Save and continue later")

    @staticmethod
    def _open_trip_step(observation: Mapping[str, Any]) -> Moves:
        """From the portal: resume the saved report from the account page, then go back to its
        first step (it resumes at the first unanswered one)."""
        observation = yield from click(observation, "link", "My account")
        observation = yield from click(
            observation, "link", "Continue submit a travel expense report"
        )
        first_step = observation["url"].split("/f/", 1)[0] + "/f/travel-expenses/trip"
        observation = yield f"goto({json.dumps(first_step)})"
        return observation

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from self._open_trip_step(observation)
        choice = f"{task.params['department']} ("
        yield from answer_step(
            observation, [("select", "Cost center", choice)], "Save and continue later"
        )

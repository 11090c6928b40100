"""Questions about the persona's past submissions, answered from the account page."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import date
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
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

from ._forms import PERSONA_ID, SITE, click, expect_no_submission, spoken_date

#: How people name each form's submissions, and the title the portal gives the form.
KINDS = {
    "insurance-claim": ("insurance claim", "Make an insurance claim"),
    "travel-expenses": ("travel expense report", "Submit a travel expense report"),
    "appointment": ("appointment booking", "Book an appointment"),
}


def listed_date(iso: str) -> str:
    """``2026-03-11`` as the account page lists it: ``11 March 2026``."""
    day = date.fromisoformat(iso)
    return f"{day.day} {day:%B %Y}"


@register
class PastConfirmationNumber(TaskTemplate):
    name = "forms.past_confirmation_number"
    sites = ("forms",)
    may_change = allow()
    tags = ("info-seeking", "history", "account")
    difficulty = "easy"
    answer_type = "identifier"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        rows = world.query(
            SITE,
            "SELECT form_slug, confirmation, submitted_at FROM submissions WHERE user_id = ? "
            "ORDER BY id",
            (PERSONA_ID,),
        )
        # Only kinds the persona submitted more than once: the date must tell them apart.
        slugs = [row["form_slug"] for row in rows]
        row = rng.choice([row for row in rows if slugs.count(row["form_slug"]) > 1])
        others = sorted(
            (r for r in rows if r["confirmation"] != row["confirmation"]),
            key=lambda r: r["form_slug"] != row["form_slug"],  # the same kind's first
        )
        return {
            "form": row["form_slug"],
            "kind": KINDS[row["form_slug"]][0],
            "submitted_on": row["submitted_at"][:10],
            "confirmation": row["confirmation"],
            "others": [r["confirmation"] for r in others],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        kind, day = params["kind"], spoken_date(params["submitted_on"])
        return [
            f"What is the confirmation number of the {kind} I submitted on {day}?",
            f"I need the confirmation number of my {kind} from {day}. Reply with it.",
            f"Find my {kind} submitted on {day} and tell me its confirmation number.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_answer(checks, answer, params["confirmation"], candidates=params["others"])
        expect_no_submission(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["kind"], spoken_date(params["submitted_on"])]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "another submission's number": self.answering(lambda t: t.params["others"][0]),
            "every number": self.answering(
                lambda t: ", ".join([t.params["confirmation"], *t.params["others"]])
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from click(observation, "link", "My account")
        tree = AxTree(observation["axtree"])
        title = KINDS[task.params["form"]][1]
        submitted = tree.children(tree.find("region", "Submitted forms"))
        for row in (node for node in submitted if node.role == "row"):
            cells = [node.name for node in tree.children(row) if node.role == "cell"]
            if cells and cells[0] == title and cells[2] == listed_date(task.params["submitted_on"]):
                yield f"send_msg_to_user({json.dumps(cells[1])})"
                return
        raise LookupError(f"no {title!r} on the account page")

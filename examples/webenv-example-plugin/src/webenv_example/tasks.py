"""Two task templates on Jotter (the ``notes`` site), registered with webenv when the
``webenv.tasks`` entry point imports this module: one changes a note (and must change nothing
else), one answers a question about the notes."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
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
    edit_to,
    register,
)
from webenv.world import World

_NOTES = (
    "SELECT id, title, body, notebook_id, pinned, archived, updated_at FROM notes"
    " WHERE user_id = 1 ORDER BY id"
)
_COUNT = re.compile(r"^(\d+) notes?$")


def _click(tree: AxTree, role: str, name: str) -> str:
    return f"click({json.dumps(tree.id(role, name))})"


@register
class ArchiveNote(TaskTemplate):
    """Archive one note, named by its title; every other note, and the rest of this one, stay
    as they were."""

    name = "example.archive_note"
    sites = ("notes",)
    may_change = allow(notes={"notes": edit_to(archived=1)})
    tags = ("notes", "archive")
    difficulty = "easy"
    max_steps = 8

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        active = [row for row in world.query("notes", _NOTES) if not row["archived"]]
        target, decoy = rng.sample(active, 2)
        return {"note_id": target["id"], "title": target["title"], "decoy": decoy["title"]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title = params["title"]
        return [
            f'Archive my note "{title}" in Jotter.',
            f'In my notes app (Jotter), move the note titled "{title}" to the archive.',
            f'I no longer need the note "{title}": archive it in Jotter, and leave the rest.',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        before = {row["id"]: dict(row) for row in world.initial_query("notes", _NOTES)}
        after = {row["id"]: dict(row) for row in world.query("notes", _NOTES)}
        note_id = params["note_id"]
        note = after.get(note_id)
        checks.expect(
            "the note is archived",
            note is not None and note["archived"] == 1,
            "removed" if note is None else f"archived = {note['archived']}",
        )
        if note is not None:
            rest = sorted(k for k, v in note.items() if k != "archived" and before[note_id][k] != v)
            checks.expect("the rest of the note unchanged", not rest, f"changed: {rest}")
        others = [
            (before.get(i) or after[i])["title"]
            for i in sorted(before.keys() | after.keys())
            if i != note_id and before.get(i) != after.get(i)
        ]
        checks.expect("no other note changed", not others, f"changed: {others}")
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["title"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "archived another note": self.altered(lambda p: {**p, "title": p["decoy"]}),
            "pinned it, then archived it": self.altered(lambda p: {**p, "pin": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        # All notes (the start page) lists every note that is not archived.
        observation = yield _click(AxTree(observation["axtree"]), "link", task.params["title"])
        tree = AxTree(observation["axtree"])
        if task.params.get("pin"):
            pin = "Unpin" if any(n.name == "Unpin" for n in tree.find_all("button")) else "Pin"
            observation = yield _click(tree, "button", pin)
            tree = AxTree(observation["axtree"])
        yield _click(tree, "button", "Archive")


@register
class NotebookCount(TaskTemplate):
    """How many notes (not archived) one notebook holds."""

    name = "example.notebook_count"
    sites = ("notes",)
    may_change = allow()
    tags = ("notes", "info-seeking")
    difficulty = "easy"
    answer_type = "number"
    max_steps = 8

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        counts = world.query(
            "notes",
            "SELECT notebooks.name, COUNT(notes.id) AS count FROM notebooks"
            " JOIN notes ON notes.notebook_id = notebooks.id AND notes.archived = 0"
            " WHERE notebooks.user_id = 1 GROUP BY notebooks.id ORDER BY notebooks.id",
        )
        chosen = rng.choice(counts)
        total = sum(row["count"] for row in counts)
        return {"notebook": chosen["name"], "count": chosen["count"], "total": total}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        notebook = params["notebook"]
        return [
            f'How many notes are in my "{notebook}" notebook in Jotter? Archived ones do not '
            "count.",
            f'Count the notes (not the archived ones) in the Jotter notebook "{notebook}".',
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_answer(checks, answer, params["count"])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["notebook"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "off by one": self.answering(lambda t: str(t.params["count"] + 1)),
            "every notebook's notes": self.answering(lambda t: str(t.params["total"])),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        tree = AxTree(observation["axtree"])
        observation = yield _click(tree, "link", task.params["notebook"])
        tree = AxTree(observation["axtree"])
        count = next(_COUNT.match(n.name) for n in tree if _COUNT.match(n.name))
        yield f"send_msg_to_user({json.dumps(f'There are {count[1]} notes in it.')})"

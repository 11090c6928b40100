"""Tidying the mailbox in bulk: undo an archiving by mistake, archive the issues of some
newsletters (several senders, several searches)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from webenv.axtree import AxTree
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
    register,
)
from webenv.world import World

from ._mail import (
    SITE,
    Allowed,
    click,
    expect_untouched,
    list_rows,
    opening,
    search,
    select_and_apply,
)

#: Chooses the rows to act on among a list's checkboxes.
Chosen = Callable[[list[Any]], list[Any]]


def senders_in(world: World, folder: str, relationship: str = "") -> list[dict[str, Any]]:
    """Contacts with messages in ``folder`` (optionally of one ``relationship``) whose name no
    other sender has: ``{name, ids}``, the ids of those messages, by contact id."""
    rows = world.query(
        SITE,
        "SELECT c.name, group_concat(m.id) AS ids FROM messages m"
        " JOIN contacts c ON c.email = m.sender"
        " WHERE m.folder = ? AND m.is_draft = 0 AND (? = '' OR c.relationship = ?)"
        " AND (SELECT COUNT(DISTINCT sender) FROM messages WHERE sender_name = c.name) = 1"
        " AND (SELECT COUNT(*) FROM contacts WHERE name = c.name) = 1"
        " GROUP BY c.id ORDER BY c.id",
        (folder, relationship, relationship),
    )
    return [{"name": r["name"], "ids": sorted(map(int, r["ids"].split(",")))} for r in rows]


def folders_of(world: World, ids: list[int]) -> dict[int, str]:
    marks = ", ".join("?" * len(ids))
    rows = world.query(SITE, f"SELECT id, folder FROM messages WHERE id IN ({marks})", ids)
    return {row["id"]: row["folder"] for row in rows}


def expect_filed(checks: Checks, world: World, ids: list[int], folder: str, what: str) -> None:
    """Expect every message of ``ids`` in ``folder``, and no other message changed."""
    found = folders_of(world, ids)
    left = sorted(i for i in ids if found.get(i) != folder)
    checks.expect(what, not left, f"not in {folder}: {left}")
    expect_untouched(checks, world, Allowed(messages=frozenset(ids)))


def move_found(query: str, chosen: Chosen, folder: str, observation: Mapping[str, Any]) -> Moves:
    """Search for ``query``, tick the rows ``chosen`` picks and move them to ``folder`` (its
    title in the toolbar's "Move to" list)."""
    observation = yield from search(query, observation)
    tree = AxTree(observation["axtree"])
    boxes = chosen([box for box, _star, _link in list_rows(tree)])
    move = f'select_option("{tree.id("combobox", "Move to")}", {json.dumps(folder)})\n' + click(
        tree, "button", "Move"
    )
    observation = yield from select_and_apply(boxes, move, observation)
    return observation


def _everything(rows: list[Any]) -> list[Any]:
    return rows


@register
class UnarchiveFromSender(TaskTemplate):
    name = "mail.unarchive_from_sender"
    sites = (SITE,)
    # Its messages may be opened before they are moved (the thread page has the buttons too).
    may_change = allow(mail={"messages": opening("folder").of_row("ids")})
    tags = ("organize", "undo", "archive", "bulk", "search")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        senders = senders_in(world, "archive")
        if len(senders) < 2:
            raise LookupError("this mailbox has fewer than two senders with archived mail")
        several = [sender for sender in senders if len(sender["ids"]) >= 2]
        chosen = rng.choice(several if several and rng.random() < 0.6 else senders)
        decoy = rng.choice([sender for sender in senders if sender is not chosen])
        return {"name": chosen["name"], "ids": chosen["ids"], "decoy": decoy}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["name"]
        return [
            f"I archived the messages from {name} by mistake. Move all of them back to my Inbox.",
            f"Everything {name} sent me that's sitting in the Archive should be in the Inbox. "
            "Please move it back.",
            f"Undo my archiving of {name}'s e-mails: put every one of them back in the Inbox.",
            f"Bring all the archived mail from {name} back into the Inbox.",
            f"I still need {name}'s messages in front of me, but I archived them. Move each of "
            "them back to the Inbox, please.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_filed(checks, world, params["ids"], "inbox", "all of them back in the Inbox")
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "all but one": self._policy(lambda rows: rows[1:]),
            "other sender": self.altered(lambda p: {**p, "name": p["decoy"]["name"]}),
            "everything archived": self._everything_archived,
        }

    def _policy(self, chosen: Chosen) -> NearMiss:
        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            query = f'from:"{task.params["name"]}" in:archive'
            yield from move_found(query, chosen, "Inbox", observation)

        return policy

    @staticmethod
    def _everything_archived(task: Task, observation: Mapping[str, Any]) -> Oracle:
        """Every archived message moved back, the sender's and everyone else's."""
        observation = yield click(AxTree(observation["axtree"]), "link", "Archive")
        tree = AxTree(observation["axtree"])
        boxes = [box for box, _star, _link in list_rows(tree)]
        yield from select_and_apply(boxes, click(tree, "button", "Move to Inbox"), observation)

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        query = f'from:"{task.params["name"]}" in:archive'
        yield from move_found(query, _everything, "Inbox", observation)


def _listed(names: list[str]) -> str:
    """``["A", "B", "C"]`` as ``A, B and C``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@register
class ArchiveNewsletters(TaskTemplate):
    name = "mail.archive_newsletters"
    sites = (SITE,)
    # Its messages may be opened before they are moved (the thread page has the buttons too).
    may_change = allow(mail={"messages": opening("folder").of_row("ids")})
    tags = ("organize", "archive", "bulk", "search")
    difficulty = "hard"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        letters = senders_in(world, "inbox", "newsletter")
        if len(letters) < 3:
            raise LookupError("this mailbox has fewer than three newsletters in the Inbox")
        chosen = rng.sample(letters, rng.choice((2, 3)) if len(letters) > 3 else 2)
        decoy = rng.choice([letter for letter in letters if letter not in chosen])
        return {
            "names": [letter["name"] for letter in chosen],
            "ids": sorted(i for letter in chosen for i in letter["ids"]),
            "decoy": decoy["name"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        names = _listed(params["names"])
        return [
            f"Archive every newsletter issue from {names} that is in my Inbox.",
            f"My Inbox is cluttered with newsletters. Move all the issues of {names} to the "
            "Archive.",
            f"Get the {names} newsletters out of my Inbox: archive every one of them.",
            f"I read the newsletters from {names} later, in the Archive. Please archive all of "
            "their issues that are in the Inbox now.",
            f"Clear out the Inbox: every e-mail there from {names} goes to the Archive.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return list(params["names"])

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_filed(checks, world, params["ids"], "archive", "every issue archived")
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "one newsletter left": self.altered(lambda p: {**p, "names": p["names"][1:]}),
            "another newsletter too": self.altered(
                lambda p: {**p, "names": [*p["names"], p["decoy"]]}
            ),
            "deleted instead": self._policy("Trash"),
        }

    def _policy(self, folder: str) -> NearMiss:
        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from self._file(task.params["names"], folder, observation)

        return policy

    @staticmethod
    def _file(names: list[str], folder: str, observation: Mapping[str, Any]) -> Oracle:
        for name in names:
            observation = yield from move_found(
                f'from:"{name}" in:inbox', _everything, folder, observation
            )

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from self._file(task.params["names"], "Archive", observation)

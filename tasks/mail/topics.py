"""Questions over many conversations: which colleagues wrote about a topic (a set answer)."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Mapping
from typing import Any

from webenv.sites.mail.personal import PROJECTS

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

from ._mail import (
    READING,
    SITE,
    click,
    expect_untouched,
    list_rows,
    persona_email,
    received,
    row_subject,
    search,
)

#: Topics of the colleagues' conversations: (how the goal says it, the threads' subjects as a
#: regular expression, the search an oracle makes).
TOPICS = (
    ("the budget numbers", r"Q\d budget numbers", 'subject:"budget numbers"'),
    ("a quick question", r"Quick question about \w+", 'subject:"Quick question about"'),
    ("a project retro", r"\w+ retro", 'subject:"retro"'),
    ("quarterly planning", r"Quarterly planning", 'subject:"Quarterly planning"'),
    ("a project kickoff", r"Kickoff: \w+ phase 2", 'subject:"Kickoff:"'),
    ("a design review", r"\w+ design review", 'subject:"design review"'),
)


def _by_subject(world: World, pattern: str) -> list[sqlite3.Row]:
    """Messages others sent the persona (outside Trash and Spam) in threads ``pattern``
    matches."""
    return [row for row in received(world) if re.fullmatch(pattern, row["thread_subject"])]


def _by_project(world: World, project: str) -> list[sqlite3.Row] | None:
    """Messages others sent the persona (outside Trash and Spam) that name ``project`` in
    their subject or text; None if a search for it would also find other words ("Ember" in
    "November") or mail in the Trash or Spam."""
    word = re.compile(rf"\b{project}\b")
    found, loose = [], set()
    for row in world.query(
        SITE, "SELECT * FROM messages WHERE is_draft = 0 AND sender != ?", (persona_email(world),)
    ):
        text = f"{row['subject']}\n{row['body']}"
        if project.lower() in text.lower():
            loose.add(row["id"])
        if word.search(text) and row["folder"] not in ("trash", "spam"):
            found.append(row)
    return found if loose == {row["id"] for row in found} else None


def _names(world: World, rows: list[sqlite3.Row]) -> tuple[set[str], set[str]]:
    """The names of the senders of ``rows``, and their relationships (``'?'`` if not a
    contact)."""
    contacts = {row["email"]: row for row in world.query(SITE, "SELECT * FROM contacts")}
    names, relationships = set(), set()
    for row in rows:
        contact = contacts.get(row["sender"])
        names.add(contact["name"] if contact else row["sender_name"])
        relationships.add(contact["relationship"] if contact else "?")
    return names, relationships


def topics(world: World) -> list[dict[str, Any]]:
    """What two colleagues or more wrote about, and nobody else: ``{topic, pattern, query,
    names}`` (``pattern`` None: every message the search finds is about it)."""
    found: list[tuple[str, str | None, str, list[sqlite3.Row]]] = []
    for topic, pattern, query in TOPICS:
        found.append((topic, pattern, query, _by_subject(world, pattern)))
    for project in PROJECTS:
        rows = _by_project(world, project)
        if rows is not None:
            found.append((f"the {project} project", None, project, rows))
    chosen = []
    for topic, about, query, rows in found:
        names, relationships = _names(world, rows)
        if len(names) >= 2 and relationships == {"colleague"}:
            chosen.append({"topic": topic, "pattern": about, "query": query, "names": names})
    return chosen


@register
class ColleaguesOnTopic(TaskTemplate):
    name = "mail.colleagues_on_topic"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("info-seeking", "search", "set")
    difficulty = "medium"
    answer_type = "set"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        colleagues = sorted(
            row["name"]
            for row in world.query(
                SITE, "SELECT name FROM contacts WHERE relationship = ?", ("colleague",)
            )
        )
        choices = topics(world)
        if not choices:
            raise LookupError("no topic two colleagues wrote about in this mailbox")
        chosen = rng.choice(choices)
        others = [name for name in colleagues if name not in chosen["names"]]
        return {**chosen, "names": sorted(chosen["names"]), "decoy": rng.choice(others)}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        topic = params["topic"]
        return [
            f"Which colleagues have written to me about {topic}? Give me their names.",
            f"List the names of everyone at work who e-mailed me about {topic}.",
            f"Who among my colleagues sent me mail about {topic}? Name all of them.",
            f"I need the names of the colleagues who wrote to me regarding {topic}.",
            f"Go through my mail and tell me which coworkers contacted me about {topic}.",
            f"Some people from work e-mailed me about {topic}. Who were they?",
            f"Name every colleague whose e-mail to me was about {topic}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["topic"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # Every contact's name is a candidate: the answer's names are read as the people they
        # are, in a sentence too ("It's Ann Lee and Bo Park."), and any other one counts.
        people = [row["name"] for row in world.query(SITE, "SELECT name FROM contacts")]
        self.check_answer(checks, answer, params["names"], candidates=people)
        expect_untouched(checks, world)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "one missing": self.answering(lambda t: ", ".join(t.params["names"][1:])),
            "one too many": self.answering(
                lambda t: ", ".join([*t.params["names"], t.params["decoy"]])
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield click(AxTree(observation["axtree"]), "link", "Contacts")
        contacts = [
            node.name.removeprefix("Edit ")
            for node in AxTree(observation["axtree"]).find_all("link")
            if node.name.startswith("Edit ")
        ]
        observation = yield from search(params["query"], observation)
        found: set[str] = set()
        for checkbox, _star, link in list_rows(AxTree(observation["axtree"])):
            subject = row_subject(checkbox).removeprefix("Re: ")
            sender = link.name.removeprefix("Unread, ")
            about = params["pattern"] is None or re.fullmatch(params["pattern"], subject)
            if about and not sender.startswith("To: "):
                found.update(name for name in contacts if sender.startswith(f"{name} "))
        yield f"send_msg_to_user({json.dumps('Colleagues: ' + ', '.join(sorted(found)))})"

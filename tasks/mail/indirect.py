"""Questions about a person the goal names only by what they sent: "the colleague who asked me
a quick question about Cobalt" (the mailbox says who; the address book has their number)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree, NotFound
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
    contact_cells,
    expect_untouched,
    list_rows,
    open_contacts,
    quoted,
    received,
    row_subject,
    search,
    unique_threads,
)

#: Conversations a colleague starts, as the goal refers to their sender: (subject pattern,
#: the description, from the subject's match).
OPENERS = (
    (r"Quick question about (\w+)", "the colleague who asked me a quick question about {0}"),
    (r"(\w+) design review", "the colleague who asked me to the {0} design review"),
    (r"Sync on (\w+)", "the colleague who wanted to meet to sync on {0}"),
    (r"Kickoff: (\w+) phase 2", "the colleague who invited me to the {0} phase 2 kickoff"),
    (r"(\w+) retro", "the colleague who set up the {0} retro"),
)


def senders_by_subject(world: World) -> list[dict[str, Any]]:
    """Colleagues who started a conversation of :data:`OPENERS` with a subject no other thread
    has, and have a phone number: ``{who, subject, name, phone}``."""
    unique = set(unique_threads(world).values())
    colleagues = {
        row["email"]: row
        for row in world.query(SITE, "SELECT * FROM contacts WHERE relationship = 'colleague'")
    }
    names = [row["name"] for row in world.query(SITE, "SELECT name FROM contacts")]
    found, seen = [], set()
    for row in received(world):
        subject = row["thread_subject"]
        contact = colleagues.get(row["sender"])
        if subject in seen or subject not in unique or contact is None or not contact["phone"]:
            continue
        seen.add(subject)
        for pattern, who in OPENERS:
            match = re.fullmatch(pattern, subject)
            if match and names.count(contact["name"]) == 1:
                found.append(
                    {
                        "who": who.format(match[1]),
                        "subject": subject,
                        "name": contact["name"],
                        "phone": contact["phone"],
                    }
                )
    return found


@register
class PhoneOfSender(TaskTemplate):
    name = "mail.phone_of_sender"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("info-seeking", "indirect", "search", "contacts")
    difficulty = "medium"
    answer_type = "phone"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        found = senders_by_subject(world)
        if not found:
            raise LookupError("no colleague started a conversation with a unique subject")
        chosen = rng.choice(found)
        others = [
            row["phone"]
            for row in world.query(
                SITE,
                "SELECT phone FROM contacts WHERE relationship = 'colleague' AND name != ?"
                " AND phone != '' ORDER BY id",
                (chosen["name"],),
            )
        ]
        return {**chosen, "other": rng.choice(others)}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        who = params["who"]
        return [
            f"What's the phone number of {who}?",
            f"I need to call {who}. Which number do I have for them?",
            f"Find {who} and tell me their phone number from my contacts.",
            f"Can you look up the phone number of {who}?",
            f"Give me the phone number I have saved for {who}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["who"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        self.check_answer(checks, answer, params["phone"])
        expect_untouched(checks, world)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "another colleague's number": self.answering(lambda t: t.params["other"]),
            "both numbers": self.answering(lambda t: f"{t.params['phone']} or {t.params['other']}"),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        subject = task.params["subject"]
        observation = yield from open_contacts(observation)
        contacts = [
            node.name.removeprefix("Edit ")
            for node in AxTree(observation["axtree"]).find_all("link")
            if node.name.startswith("Edit ")
        ]
        observation = yield from search(quoted(subject), observation)
        sender = None
        for checkbox, _star, link in list_rows(AxTree(observation["axtree"])):
            shown = link.name.removeprefix("Unread, ")
            if row_subject(checkbox) == subject and not shown.startswith("To: "):
                sender = next((n for n in contacts if shown.startswith(f"{n} ")), None)
        if sender is None:
            raise NotFound(f"no message about {subject!r} from a contact")
        observation = yield from open_contacts(observation, sender)
        phone = contact_cells(AxTree(observation["axtree"]), sender)[1]
        yield f"send_msg_to_user({json.dumps(phone)})"

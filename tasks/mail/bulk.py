"""A bulk chore over many messages: archive a newsletter's older issues, keeping the newer ones.

The seeded mailbox holds a few issues of each newsletter; the template's world setup delivers
a backlog of one newsletter (10 to 20 issues older than the day the goal names, a few newer)
and a few older issues of another, so that the chore spans pages of the Inbox and a careless
"archive everything from them" or "archive everything old" shows.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any

from webenv.sites.common import Message
from webenv.sites.mail import deliver
from webenv.sites.mail.newsletters import issue_stories

from webenv.axtree import AxTree, Node
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
from webenv.world import World, world_now

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

#: Chooses the rows to act on among those the oracle found older than the day.
Chosen = Callable[[list[Node]], list[Node]]
#: A list row's date: ``Mar 4``, ``Sep 28, 2025``, or a time today (``9:05 AM``).
_ROW_DATE = re.compile(r"(?:([A-Z][a-z]{2}) (\d{1,2})(?:, (\d{4}))?|\d{1,2}:\d{2} [AP]M)$")


def spoken_day(day: date, now: datetime) -> str:
    """``March 3``, with the year when it is not this year's: ``December 28, 2025``."""
    text = f"{day:%B} {day.day}"
    return text if day.year == now.year else f"{text}, {day.year}"


def _newsletters(world: World) -> list[dict[str, str]]:
    rows = world.query(
        SITE, "SELECT name, email FROM contacts WHERE relationship = 'newsletter' ORDER BY id"
    )
    return [{"name": row["name"], "email": row["email"]} for row in rows]


def _deliver_issue(world: World, sender: Mapping[str, str], issue: int, sent: datetime) -> None:
    """One issue of ``sender``'s newsletter, delivered unread into the Inbox at ``sent``."""
    assert world.persona is not None
    rng = random.Random(f"{sender['name']}-{issue}-{sent.isoformat()}")
    stories = issue_stories(rng, sender["name"], issue, sent)
    body = (
        f"{sender['name']} — Issue {issue}\n\nIn this issue:\n"
        + "\n".join(f"• {headline}" for headline, _ in stories)
        + "\n\n"
        + "\n\n".join(f"{headline}\n{blurb}" for headline, blurb in stories)
        + f"\n\nYou are receiving this because you subscribed with {world.persona.email}.\n"
        "Unsubscribe or manage your preferences at any time."
    )
    deliver(
        str(world.db_path(SITE)),
        Message(
            sender=sender["email"],
            sender_name=sender["name"],
            to=world.persona.email,
            subject=f"{sender['name']} #{issue}: {stories[0][0]}",
            body=body,
            date=sent,
        ),
    )


def _issue_times(rng: random.Random, newest: datetime, count: int, every: int) -> list[datetime]:
    """``count`` send times, newest first, ``every`` days apart, each at a morning time."""
    times = []
    for index in range(count):
        day = (newest - timedelta(days=index * every)).date()
        moment = time(rng.randint(5, 8), rng.randint(0, 59), rng.randint(0, 59))
        times.append(datetime.combine(day, moment))
    return times


def _inbox_issues(world: World, email: str, before: str) -> list[int]:
    rows = world.query(
        SITE,
        "SELECT id FROM messages WHERE sender = ? AND folder = 'inbox' AND is_draft = 0"
        " AND sent_at < ? ORDER BY id",
        (email, before),
    )
    return [row["id"] for row in rows]


def row_day(link: Node, now: datetime) -> date:
    """The day a message list row shows (its link ends with it)."""
    match = _ROW_DATE.search(link.name.strip())
    if match is None:
        raise ValueError(f"no date at the end of the row {link.name[-40:]!r}")
    if match[1] is None:
        return now.date()
    year = int(match[3]) if match[3] else now.year
    return datetime.strptime(f"{match[1]} {match[2]} {year}", "%b %d %Y").date()


@register
class ArchiveOldIssues(TaskTemplate):
    name = "mail.archive_old_issues"
    sites = (SITE,)
    # Opening any message to see its date reads it, and there may be thirty issues to look at;
    # the check allows moves of the issues alone (expect_untouched).
    may_change = allow(mail={"messages": opening("folder", opens=None)})
    tags = ("organize", "archive", "bulk", "search", "date", "pagination")
    difficulty = "hard"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        """Delivers the newsletter's backlog (and another's older issues) into the Inbox."""
        sender, other = rng.sample(_newsletters(world), 2)
        older, newer, every = rng.randint(10, 20), rng.randint(2, 5), rng.choice((1, 2, 3, 7))
        newest = world.now - timedelta(days=rng.randint(0, 2), hours=rng.randint(1, 3))
        times = _issue_times(rng, newest, older + newer, every)
        cutoff = times[newer].date() + timedelta(days=1)
        first = rng.randint(200, 600)
        for index, sent in enumerate(times):
            _deliver_issue(world, sender, first + older + newer - index, sent)
        for index in range(rng.randint(3, 5)):  # another newsletter's older issues stay
            sent = times[newer + 1 + index * 2] - timedelta(hours=rng.randint(2, 20))
            _deliver_issue(world, other, first // 2 + 20 - index, sent)
        ids = _inbox_issues(world, sender["email"], cutoff.isoformat())
        return {
            "name": sender["name"],
            "before": cutoff.isoformat(),
            "day": spoken_day(cutoff, world.now),
            "ids": ids,
            "decoy": other["name"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, day = params["name"], params["day"]
        return [
            f"Archive every {name} newsletter in my Inbox from before {day}. Keep the newer "
            "ones where they are.",
            f"My Inbox is full of {name} issues. Move all the ones sent before {day} to the "
            "Archive.",
            f"Clean up: archive all the {name} e-mails in the Inbox dated before {day}; leave "
            "the rest alone.",
            f"Please archive the {name} issues I got before {day}. The ones from {day} on "
            "should stay in the Inbox.",
            f"I never got around to reading {name}. Archive each issue in the Inbox older "
            f"than {day} (anything sent before that day).",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["day"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        ids = params["ids"]
        marks = ", ".join("?" * len(ids))
        folders = {
            row["id"]: row["folder"]
            for row in world.query(
                SITE, f"SELECT id, folder FROM messages WHERE id IN ({marks})", ids
            )
        }
        left = sorted(i for i in ids if folders.get(i) != "archive")
        checks.expect(f"all {len(ids)} older issues archived", not left, f"not archived: {left}")
        expect_untouched(checks, world, Allowed(messages=frozenset(ids)))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the newer issues too": self._policy(lambda rows: rows, newer_too=True),
            "all but the oldest": self._policy(lambda rows: rows[:-1]),
            "another newsletter": self.altered(lambda p: {**p, "name": p["decoy"]}),
            "deleted instead": self._policy(lambda rows: rows, button="Delete"),
        }

    def _policy(self, chosen: Chosen, button: str = "Archive", newer_too: bool = False) -> NearMiss:
        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            before = "9999-12-31" if newer_too else task.params["before"]
            yield from self._archive(task, observation, before, chosen, button)

        return policy

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from self._archive(task, observation, task.params["before"], lambda rows: rows)

    @staticmethod
    def _archive(
        task: Task,
        observation: Mapping[str, Any],
        before: str,
        chosen: Chosen,
        button: str = "Archive",
    ) -> Moves:
        """Search the newsletter's Inbox issues; on each page of results, tick those older
        than ``before`` and apply ``button`` (which takes them off the results), until a page
        has none and no older page follows."""
        now, cutoff = world_now(task.seed), date.fromisoformat(before)
        observation = yield from search(f'from:"{task.params["name"]}" in:inbox', observation)
        while True:
            tree = AxTree(observation["axtree"])
            rows = [box for box, _star, link in list_rows(tree) if row_day(link, now) < cutoff]
            picked = chosen(rows)
            if picked:
                action = click(tree, "button", button)
                observation = yield from select_and_apply(picked, action, observation)
                if len(picked) < len(rows):
                    return observation  # a near-miss leaving some: done with its choice
                continue
            older = [n for n in tree.find_all("link") if n.name == "Older messages"]
            if not older:
                return observation
            observation = yield f'click("{older[0].id}")'

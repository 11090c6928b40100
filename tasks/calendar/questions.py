"""Questions answered from the calendar: who has not replied, when the next 1:1 is."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import date, datetime
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

from .._facts import CANCELLED, FOLLOWING
from ._calendar import (
    SITE,
    awaited_meetings,
    day_name,
    events,
    home_zone,
    open_calendar,
    open_event,
    open_week,
    to_local,
)


def _say(text: str) -> str:
    return f"send_msg_to_user({json.dumps(text)})"


@register
class WhoHasNotReplied(TaskTemplate):
    name = "calendar.who_has_not_replied"
    sites = (SITE,)
    may_change = allow()
    answer_type = "set"
    tags = ("calendar", "question", "invitees")
    difficulty = "easy"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        # Two guests waiting at least (the seeded planning meeting always has them), so that
        # leaving one out is never the whole answer.
        event = rng.choice([e for e in awaited_meetings(world) if len(e["waiting"]) >= 2])
        day = to_local(event["starts_at"], home_zone(world)).date()
        return {
            "event_id": event["id"],
            "title": event["title"],
            "day": day.isoformat(),
            "waiting": [guest["name"] for guest in event["waiting"]],
            "answered": [guest["name"] for guest in event["answered"]],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        title = params["title"]
        day = day_name(date.fromisoformat(params["day"]))
        # Each asks for those names alone: an answer that also names who did reply reads as a
        # list of every guest.
        return [
            f"Who hasn't replied yet to my “{title}” meeting on {day}? Just give me their names.",
            f"I need to book a room for “{title}” ({day}). Which guests still haven't answered "
            "the invitation? Name only them.",
            f"Look at my {title} meeting on {day} and tell me who has not responded (only those "
            "names, please).",
            f"Which of the people I invited to {title} on {day} owe me a reply? List just them.",
            f"List the guests of my “{title}” meeting ({day}) who have neither accepted nor "
            "declined nor said maybe, and nobody else.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # Everyone the calendar knows is a name the items may be: naming any of them beside the
        # waiting guests is a wrong item, not words around the answer.
        sql = "SELECT name FROM people UNION SELECT name FROM users"
        known = [row["name"] for row in world.initial_query(SITE, sql)]
        self.check_answer(
            checks, answer, params["waiting"], candidates=[*params["answered"], *known]
        )
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["title"], day_name(date.fromisoformat(params["day"]))]

    def near_misses(self) -> dict[str, NearMiss]:
        def everyone(task: Task) -> str:
            return "Not replied: " + ", ".join(task.params["waiting"] + task.params["answered"])

        def one_short(task: Task) -> str:
            return f"Not replied: {task.params['waiting'][0]}"

        return {
            "every guest": self.answering(everyone),
            "one of them left out": self.answering(one_short),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_calendar(observation)
        day = date.fromisoformat(task.params["day"])
        observation = yield from open_event(task.params["title"], day, observation)
        tree = AxTree(observation["axtree"])
        waiting = []
        for row in tree.find_all("row"):
            cells = [n.name for n in tree.children(row) if n.role in ("cell", "gridcell")]
            if len(cells) == 2 and cells[1] == "No reply":
                waiting.append(cells[0].split(" (")[0])
        yield _say(f"These guests haven't replied yet: {', '.join(waiting)}.")


@register
class NextOneOnOne(TaskTemplate):
    name = "calendar.next_one_on_one"
    sites = (SITE,)
    may_change = allow()
    answer_type = "date"
    tags = ("calendar", "question", "recurring")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        titles = sorted(
            {e["title"] for e in events(world, "title LIKE '1:1 with %'", initial=True)}
        )
        cancelled = events(
            world,
            "title LIKE '1:1 with %' AND status = 'cancelled' AND starts_at > ?",
            (world.now.isoformat(),),
            initial=True,
        )
        # Half the time, when a week is cancelled, the 1:1 whose next meeting is not this week's.
        title = rng.choice(titles)
        if cancelled and rng.random() < 0.5:
            title = cancelled[0]["title"]
        zone = home_zone(world)
        upcoming = events(
            world,
            "title = ? AND status = 'confirmed' AND starts_at > ?",
            (title, world.now.isoformat()),
            initial=True,
        )
        skipped = events(
            world,
            "title = ? AND status = 'cancelled' AND starts_at > ? AND starts_at < ?",
            (title, world.now.isoformat(), upcoming[0]["starts_at"]),
            initial=True,
        )
        start = to_local(upcoming[0]["starts_at"], zone)
        following = to_local(upcoming[1]["starts_at"], zone)
        return {
            "person": title.removeprefix("1:1 with "),
            "date": start.date().isoformat(),
            "after": following.date().isoformat(),
            "skipped": [to_local(e["starts_at"], zone).date().isoformat() for e in skipped],
            "today": to_local(world.now.isoformat(), zone).date().isoformat(),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["person"]
        return [
            f"When is my next 1:1 with {name}? Give me the date.",
            f"What day is my next one-on-one with {name}?",
            f"Check my calendar: on which date do I next meet {name} for our 1:1?",
            f"I want to bring something up with {name} at our next 1:1. Which date is that?",
            f"Tell me the date of the next 1:1 I have with {name}.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        year = date.fromisoformat(params["date"]).year
        # A week cancelled, or the meeting after, named as such, is the answer's reason.
        # (a date said to be cancelled is no answer, whichever it is)
        facts: list[tuple[date | None, tuple[str, ...]]] = [(None, CANCELLED)]
        facts.append((date.fromisoformat(params["after"]), FOLLOWING))
        self.check_answer(
            checks, answer, date.fromisoformat(params["date"]), year=year, facts=facts
        )
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["person"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def the_week_after(task: Task) -> str:
            return f"Your next 1:1 is on {task.params['after']}."

        misses = {"the one after": self.answering(the_week_after)}
        return misses

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        title = f"1:1 with {task.params['person']}"
        today = date.fromisoformat(task.params["today"])
        observation = yield from open_calendar(observation)
        for weeks in range(3):
            day = date.fromordinal(today.toordinal() + 7 * weeks)
            observation = yield from open_week(day, observation)
            tree = AxTree(observation["axtree"])
            for region in tree.find_all("region"):
                shown = datetime.strptime(f"{region.name} {today.year}", "%a, %b %d %Y").date()
                inside = tree.children(region)
                if shown >= today and any(
                    n.role == "link" and n.name.endswith(title) for n in inside
                ):
                    when = f"{shown:%A, %B} {shown.day}, {shown.year}"
                    yield _say(f"Your next 1:1 with {task.params['person']} is on {when}.")
                    return
        raise LookupError(f"no {title} in the next three weeks")

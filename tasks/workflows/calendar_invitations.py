"""Invitations that arrived by e-mail, answered on the calendar: accept the one a colleague
sent, decline the one that clashes with a meeting you already have."""

from __future__ import annotations

import random
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
    register,
)
from webenv.world import World

from ..calendar._calendar import (
    ANSWERING,
    answer_invitation,
    expect_answered,
    invitations,
    open_calendar,
)
from ..mail._mail import READING
from ._flows import open_mail, read

BUTTONS = {"accepted": "Yes", "tentative": "Maybe", "declined": "No"}


@register
class AcceptEmailedInvitation(TaskTemplate):
    name = "workflows.calendar_accept_invitation"
    sites = ("mail", "calendar")
    may_change = allow(mail=READING, calendar=ANSWERING)
    tags = ("cross-site", "email", "calendar", "invitation")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        pending = invitations(world)
        senders = [item["organizer"] for item in pending]
        # An invitation its organizer sent alone, that clashes with nothing.
        fitting = [i for i in pending if senders.count(i["organizer"]) == 1 and not i["clashes"]]
        chosen = rng.choice(fitting or [i for i in pending if senders.count(i["organizer"]) == 1])
        other = next(item for item in pending if item["id"] != chosen["id"])
        return {
            "event_id": chosen["id"],
            "invitee_id": chosen["invitee_id"],
            "title": chosen["title"],
            "organizer": chosen["organizer"],
            "organizer_email": chosen["organizer_email"],
            "other_title": other["title"],
            "other_event_id": other["id"],
            "other_invitee_id": other["invitee_id"],
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["organizer"]
        return [
            f"{name} e-mailed me a meeting invitation. Accept it on my calendar.",
            f"Say yes to the meeting {name} invited me to by e-mail.",
            f"There's an invitation from {name} in my inbox: accept it in Northwind Calendar.",
            f"I'm going to the meeting {name} sent me an invite for. Please accept it.",
            f"Accept {name}'s meeting invitation (it came by e-mail); leave the other invitations "
            "alone.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_answered(checks, world, {params["invitee_id"]: (params["event_id"], "accepted")})
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["organizer"]]

    def near_misses(self) -> dict[str, NearMiss]:
        def other(params: dict[str, Any]) -> dict[str, Any]:
            return {**params, "title_override": params["other_title"]}

        return {
            "accepted another invitation": self.altered(other),
            "answered maybe": self.altered(lambda p: {**p, "button": "Maybe"}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        query = f"from:{params['organizer_email']}"
        observation = yield from open_mail(query, "Invitation:", observation)
        title = str(params.get("title_override") or read(r"Invitation: (.+?) @", observation)[1])
        observation = yield from open_calendar(observation)
        yield from answer_invitation(title, params.get("button", "Yes"), observation)


@register
class DeclineClashingInvitation(TaskTemplate):
    name = "workflows.calendar_decline_conflict"
    sites = ("mail", "calendar")
    may_change = allow(mail=READING, calendar=ANSWERING)
    tags = ("cross-site", "email", "calendar", "invitation", "conflict")
    difficulty = "hard"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        pending = invitations(world)
        clashing = [item for item in pending if item["clashes"]]
        assert len(clashing) == 1, "the world seeds one clashing invitation"
        chosen = clashing[0]
        others = [item for item in pending if item["id"] != chosen["id"]]
        return {
            "event_id": chosen["id"],
            "invitee_id": chosen["invitee_id"],
            "title": chosen["title"],
            "senders": sorted({item["organizer"] for item in pending}),
            "others": [
                {"title": o["title"], "event_id": o["id"], "invitee_id": o["invitee_id"]}
                for o in others
            ],
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "mail", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        senders = params["senders"]
        who = ", ".join(senders[:-1]) + f" and {senders[-1]}" if len(senders) > 1 else senders[0]
        return [
            f"{who} sent me meeting invitations by e-mail. One of them clashes with something "
            "already in my calendar: decline that one, and leave the others unanswered.",
            f"I got meeting invites by e-mail from {who}. Turn down the one that overlaps a "
            "meeting I already have; don't answer the rest.",
            f"Decline whichever invitation (from {who}, in my mailbox) conflicts with my "
            "existing calendar. The others I'll answer myself later.",
            f"Check the invitations {who} e-mailed me against my calendar and say no to the one "
            "that double-books me. Don't reply to any other.",
            f"Of the invitations from {who} in my mailbox, one overlaps one of my meetings: "
            "decline just that invitation.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_answered(checks, world, {params["invitee_id"]: (params["event_id"], "declined")})
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return list(params["senders"])

    def near_misses(self) -> dict[str, NearMiss]:
        def wrong_one(task: Task, observation: Mapping[str, Any]) -> Oracle:
            observation = yield from open_calendar(observation)
            title = task.params["others"][0]["title"]
            yield from answer_invitation(title, "No", observation)

        return {
            "declined one that fits": wrong_one,
            "declined it and accepted the others": self.altered(lambda p: {**p, "accept": True}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_mail("Invitation:", "Invitation:", observation)
        observation = yield from open_calendar(observation)
        observation = yield _click(observation, "link", "Invitations")
        titles = [
            n.name
            for n in AxTree(observation["axtree"]).find_all("link")
            if n.id
            and n.name in {task.params["title"], *(o["title"] for o in task.params["others"])}
        ]
        for title in titles:
            observation = yield _click(observation, "link", title)
            tree = AxTree(observation["axtree"])
            if tree.has(contains="This event overlaps another of yours"):
                observation = yield f'click("{tree.id("button", "No")}")'
            elif task.params.get("accept"):
                observation = yield f'click("{tree.id("button", "Yes")}")'
            observation = yield _click(observation, "link", "Invitations")


def _click(observation: Mapping[str, Any], role: str, name: str) -> str:
    return f'click("{AxTree(observation["axtree"]).id(role, name)}")'

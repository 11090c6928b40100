"""Questions answered from the mailbox: counts, amounts, dates, file names, phone numbers."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

from webenv.sites.common import Message
from webenv.sites.mail import deliver

from webenv.answers import parse_money
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
    PEOPLE,
    READING,
    SITE,
    contact_cells,
    expect_untouched,
    open_contacts,
    open_thread,
    people,
    pick,
    received,
    search,
    unique_threads,
)

_TOTAL = re.compile(r"Total: (\$[\d,]+\.\d\d)")
_SUBTOTAL = re.compile(r"Subtotal: (\$[\d,]+\.\d\d)")
_MEETING = re.compile(r"meet on \w+, (\w+ \d{1,2}) at")
_RANGE = re.compile(r"^\d+–\d+ of (\d+)$")


def answer_action(text: str) -> str:
    return f"send_msg_to_user({json.dumps(text)})"


def page_text(observation: Mapping[str, Any]) -> str:
    """The static text of a page, one node a line."""
    return "\n".join(
        node.name for node in AxTree(observation["axtree"]) if node.role == "StaticText"
    )


def _answered(
    template: TaskTemplate, world: World, answer: Answer | None, expected: Any, **options: Any
) -> CheckResult:
    """The check of a question: the typed answer, and nothing changed on the way."""
    checks = Checks()
    template.check_answer(checks, answer, expected, **options)
    expect_untouched(checks, world)
    return checks.result()


@register
class CountFromSender(TaskTemplate):
    name = "mail.count_from_sender"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("info-seeking", "search", "count")
    difficulty = "medium"
    answer_type = "number"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for row in received(world):
            counts[row["sender"]] = counts.get(row["sender"], 0) + 1
        shared = {
            row["sender_name"]
            for row in world.query(
                SITE,
                "SELECT sender_name FROM messages GROUP BY sender_name"
                " HAVING COUNT(DISTINCT sender) > 1",
            )
        }
        candidates = [
            p for p in people(world) if counts.get(p["email"], 0) >= 2 and p["name"] not in shared
        ]
        person = pick(rng, candidates, "person who wrote twice")
        return {"name": person["name"], "count": counts[person["email"]]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["name"]
        return [
            f"How many e-mails has {name} sent me? Count those in the Inbox and the Archive.",
            f"Count the messages from {name} in my Inbox and Archive. How many are there?",
            f"Tell me the number of e-mails I have received from {name}, archived ones included.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        return _answered(self, world, answer, params["count"])

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "one more": self.answering(lambda t: str(t.params["count"] + 1)),
            "one fewer": self.answering(lambda t: str(t.params["count"] - 1)),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from search(f'from:"{task.params["name"]}"', observation)
        count = next(
            m[1] for line in page_text(observation).splitlines() if (m := _RANGE.match(line))
        )
        yield answer_action(count)


def _receipts(world: World) -> list[dict[str, Any]]:
    """Order receipts: ``{vendor, order, total, subtotal}`` (amounts in cents)."""
    found = []
    for row in received(world, "m.subject LIKE 'Your % receipt for order %'"):
        vendor, order = re.match(r"Your (.+) receipt for order (\S+)", row["subject"]).groups()
        found.append(
            {
                "vendor": vendor,
                "order": order,
                "total": parse_money(_TOTAL.search(row["body"])[1]),
                "subtotal": parse_money(_SUBTOTAL.search(row["body"])[1]),
            }
        )
    return found


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


@register
class ReceiptTotal(TaskTemplate):
    name = "mail.receipt_total"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("info-seeking", "search", "receipt")
    difficulty = "easy"
    answer_type = "money"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return dict(pick(rng, _receipts(world), "receipt"))

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        vendor, order = params["vendor"], params["order"]
        return [
            f"What was the total, tax included, of my {vendor} order {order}?",
            f"How much did I pay in total for order {order} from {vendor}?",
            f"Look up the receipt for {vendor} order {order} and tell me the total amount.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["vendor"], params["order"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        return _answered(self, world, answer, params["total"])

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "subtotal": self.answering(lambda t: money(t.params["subtotal"])),
            "off by a cent": self.answering(lambda t: money(t.params["total"] + 1)),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        subject = f"Your {task.params['vendor']} receipt for order {task.params['order']}"
        observation = yield from open_thread(subject, observation)
        yield answer_action(_TOTAL.search(page_text(observation))[1])


def meeting_day(body: str, sent_at: str) -> date | None:
    """The day a meeting request proposes: the first such day on or after it was sent."""
    match = _MEETING.search(body)
    if match is None:
        return None
    sent = datetime.fromisoformat(sent_at).date()
    day = datetime.strptime(f"{match[1]} {sent.year}", "%B %d %Y").date()
    return day if day >= sent else day.replace(year=sent.year + 1)


def _deliver_meeting_request(rng: random.Random, world: World) -> dict[str, Any]:
    """A colleague's meeting request, for worlds whose mailbox has none."""
    colleague = rng.choice(
        world.query("mail", "SELECT name, email FROM contacts WHERE relationship = 'colleague'")
    )
    day = (world.now + timedelta(days=rng.randint(2, 9))).date()
    subject = f"Time to go over the {rng.choice(_TOPICS)}?"
    assert world.persona is not None
    deliver(
        str(world.db_path("mail")),
        Message(
            sender=colleague["email"],
            sender_name=colleague["name"],
            to=world.persona.email,
            subject=subject,
            body=f"Hi {world.persona.first_name},\n\nCould we meet on {day:%A}, {day:%B} "
            f"{day.day} at 2:30 PM in the small conference room?\n\n"
            f"{colleague['name'].split()[0]}",
            date=world.now - timedelta(hours=2),
        ),
    )
    return {"name": colleague["name"], "subject": subject, "day": day.isoformat()}


_TOPICS = ("quarterly numbers", "launch checklist", "vendor shortlist", "hiring plan")


@register
class MeetingDate(TaskTemplate):
    name = "mail.meeting_date"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("info-seeking", "search", "date")
    difficulty = "medium"
    answer_type = "date"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        unique = unique_threads(world)
        requests = []
        for row in received(world):
            day = meeting_day(row["body"], row["sent_at"])
            if day and row["thread_id"] in unique and row["subject"] == unique[row["thread_id"]]:
                requests.append(
                    {"name": row["sender_name"], "subject": row["subject"], "day": day.isoformat()}
                )
        if not requests:
            requests = [_deliver_meeting_request(rng, world)]
        return dict(pick(rng, requests, "meeting request"))

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, subject = params["name"], params["subject"]
        return [
            f"{name} asked to meet about “{subject}”. On what date did they propose to meet?",
            f"What day is the meeting that {name} suggested in the e-mail “{subject}”? "
            "Reply with the date.",
            f"Find {name}'s message “{subject}” and tell me the date of the proposed meeting.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["subject"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        day = date.fromisoformat(params["day"])
        # The e-mail names the day without a year; the year it means is the meeting's.
        return _answered(self, world, answer, day, year=day.year)

    def near_misses(self) -> dict[str, NearMiss]:
        def shifted(task: Task, days: int) -> str:
            return date.fromordinal(
                date.fromisoformat(task.params["day"]).toordinal() + days
            ).isoformat()

        return {
            "a day late": self.answering(lambda t: shifted(t, 1)),
            "a day early": self.answering(lambda t: shifted(t, -1)),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_thread(task.params["subject"], observation)
        tree = AxTree(observation["axtree"])
        first = tree.find("article")
        nodes = tree.children(first)
        body = next(
            node.name for node in nodes if node.role == "StaticText" and "meet on" in node.name
        )
        date_index = next(
            i for i, node in enumerate(nodes) if node.role == "term" and node.name == "Date"
        )
        sent = datetime.strptime(nodes[date_index + 1].name.split(" at ")[0], "%a, %b %d, %Y")
        day = meeting_day(body, sent.isoformat())
        yield answer_action(f"{day:%B} {day.day}, {day.year}")


@register
class AttachmentName(TaskTemplate):
    name = "mail.attachment_name"
    sites = (SITE,)
    may_change = allow(mail=READING)
    tags = ("info-seeking", "search", "attachment")
    difficulty = "easy"
    answer_type = "name"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        unique = unique_threads(world)
        rows = world.query(
            SITE,
            "SELECT a.filename, m.sender_name, m.thread_id FROM attachments a"
            " JOIN messages m ON m.id = a.message_id JOIN contacts c ON c.email = m.sender"
            f" AND c.relationship IN {PEOPLE}"
            " WHERE m.folder IN ('inbox', 'archive') ORDER BY a.id",
        )
        files = [
            {"filename": r["filename"], "name": r["sender_name"], "subject": unique[r["thread_id"]]}
            for r in rows
            if r["thread_id"] in unique
        ]
        chosen = pick(rng, files, "attachment from a person")
        others = sorted({f["filename"] for f in files} - {chosen["filename"]}) or ["notes.txt"]
        # Every other file, and every other name without its extension, is a candidate (not the
        # asked file's own stem, which the message's subject may hold: "Q1 budget numbers").
        stems = sorted(
            {f["filename"].rsplit(".", 1)[0] for f in files}
            - {chosen["filename"].rsplit(".", 1)[0]}
        )
        return {**chosen, "other": rng.choice(others), "others": [*others, *stems]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, subject = params["name"], params["subject"]
        return [
            f"What is the file name of the attachment {name} sent in “{subject}”? Reply with "
            "the file name.",
            f"{name} attached a file to the e-mail “{subject}”. What is the file called?",
            f"Tell me the exact name of the file attached to {name}'s message “{subject}”.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["subject"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        # Every file of the mailbox named beside the answer is a second candidate.
        files = [r["filename"] for r in world.query(SITE, "SELECT filename FROM attachments")]
        others = [*params["others"], *(name for name in files if name != params["filename"])]
        return _answered(self, world, answer, params["filename"], candidates=others)

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "another file": self.answering(lambda t: t.params["other"]),
            "without extension": self.answering(lambda t: t.params["filename"].rsplit(".", 1)[0]),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_thread(task.params["subject"], observation)
        tree = AxTree(observation["axtree"])
        region = tree.find("region", "Attachments")
        link = next(node for node in tree.children(region) if node.role == "link")
        yield answer_action(link.name.rsplit(" ", 2)[0])


@register
class ContactPhone(TaskTemplate):
    name = "mail.contact_phone"
    sites = (SITE,)
    may_change = allow()
    tags = ("info-seeking", "contacts")
    difficulty = "easy"
    answer_type = "phone"
    max_steps = 8

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        first, second = rng.sample(people(world), 2)
        return {"name": first["name"], "phone": first["phone"], "other": second["phone"]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["name"]
        return [
            f"What is {name}'s phone number? It's in my contacts.",
            f"Look up {name} in the address book and tell me their phone number.",
            f"I need to call {name}. Which phone number do I have for them?",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        return _answered(self, world, answer, params["phone"])

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "another contact's number": self.answering(lambda t: t.params["other"]),
            "without the area code": self.answering(lambda t: t.params["phone"].split(") ")[-1]),
            "both numbers": self.answering(lambda t: f"{t.params['phone']} or {t.params['other']}"),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_contacts(observation, task.params["name"])
        yield answer_action(contact_cells(AxTree(observation["axtree"]), task.params["name"])[1])

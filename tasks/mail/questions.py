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
from webenv.sites.mail.db import connect

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

from .._facts import SUBTOTAL
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
        # The seeded mailbox holds two to five messages from most people, so that "2" would
        # be right half the time without looking: the person has written more, up to a count
        # drawn evenly from 3 to 14.
        more = _deliver_notes(world, rng, person, rng.randint(3, 14) - counts[person["email"]])
        return {"name": person["name"], "count": counts[person["email"]] + more}

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


#: Short notes people send, by how they know the persona: (subject, the body's text between
#: the greeting and the sender's first name).
_NOTES = {
    "colleague": (
        ("Notes from today's sync", "Here are my notes from today's sync: we agreed to move "
         "the review to next week, and I'll send the updated plan by Friday."),
        ("Slides for Thursday", "I've put the slides for Thursday in the shared folder. Could "
         "you look over the timeline slide before then?"),
        ("Out of office on Friday", "A heads-up that I'm out on Friday. If anything urgent "
         "comes up, ping me before noon on Thursday."),
        ("Vendor call recap", "The vendor call went fine. They can deliver in three weeks if "
         "we confirm the order by the end of the month."),
        ("Draft agenda for the offsite", "Attached below is a first pass at the offsite "
         "agenda:\n\n- Morning: roadmap review\n- Afternoon: team workshops\n\nAnything to add?"),
        ("Thanks for covering", "Thanks for covering the client call yesterday. They "
         "mentioned how helpful you were."),
        ("Room booking for the review", "I booked the big room for the review. It holds 12, so "
         "we should be fine."),
        ("Can you share the latest numbers?", "When you get a chance, could you share the "
         "latest numbers? I'd like to fold them into Monday's update."),
        ("New starter next week", "We have a new starter on Monday. Would you be up for "
         "showing them around on their first afternoon?"),
        ("Interview feedback", "I've left my feedback on yesterday's candidate in the tracker. "
         "Strong on the technical side; let's compare notes."),
        ("Parking changes", "FYI: the parking garage is closed for repairs next week, so plan "
         "a little extra time in the mornings."),
        ("Reading for the workshop", "Here's the article I mentioned for the workshop. It's a "
         "short read and sets up the discussion well."),
    ),
    "friend": (
        ("Photos from the weekend", "Finally went through the photos from the weekend. A few "
         "of them came out really well. I'll put them in an album."),
        ("Are you around Sunday?", "Are you around on Sunday afternoon? I was thinking of a "
         "walk by the river if the weather holds."),
        ("That book I mentioned", "The book I mentioned is called The Overstory. I think "
         "you'd love it."),
        ("Running on Saturday?", "Are you still up for a run on Saturday morning? I can meet "
         "you at the park gate at 8."),
        ("Checking in", "Just checking in. It's been a while. How are things with you?"),
        ("Concert tickets", "I managed to get two tickets for the concert next month. Want "
         "the spare?"),
        ("Game night", "We're doing a game night at ours on Friday. Bring a snack if you "
         "can make it."),
        ("Recommendation", "If you're still looking for a dentist, mine is great and takes "
         "new patients."),
        ("Thanks for dinner", "Thanks again for dinner last night. The dessert was amazing."),
        ("Trip ideas", "I've been looking at places for a long weekend in the spring. Any "
         "preferences?"),
        ("Borrowed ladder", "I still have your ladder from when I painted the hallway. I'll "
         "drop it off this week."),
        ("Movie on Thursday?", "There's a showing of the new documentary on Thursday at 7. "
         "Interested?"),
    ),
    "family": (
        ("Sunday lunch", "We're doing lunch at ours on Sunday around 1. Let me know if you "
         "can come."),
        ("Photos of the kids", "Sending a few photos of the kids from the school play. They "
         "were so proud."),
        ("Grandma's birthday", "Don't forget Grandma's birthday is next Saturday. I'm "
         "ordering flowers from all of us."),
        ("Did you get home okay?", "Did you get home okay last night? The roads looked icy."),
        ("Holiday plans", "Have you thought about the holidays yet? We'd love to have you "
         "stay for a few days."),
        ("The old photo albums", "I found the old photo albums in the attic. Some real gems "
         "in there. I'll bring them next time."),
        ("Call this weekend?", "Let's catch up on the phone this weekend. Saturday morning "
         "works best for me."),
        ("Garden update", "The tomatoes are finally coming in. I'll save you a bag."),
        ("Car trouble", "The car's back from the garage. It was only the battery, thankfully."),
        ("Recipe card", "Found the recipe card you asked about. I'll copy it out and post it "
         "to you."),
        ("New neighbours", "We have new neighbours next door, a young couple with a dog. "
         "They seem lovely."),
        ("Doctor's appointment", "Just letting you know my appointment went well. Nothing to "
         "worry about."),
    ),
}  # fmt: skip


def _deliver_notes(world: World, rng: random.Random, person: Any, count: int) -> int:
    """Up to ``count`` more notes from ``person`` over the last ten weeks, each in a thread of
    its own, read, and some archived; how many were delivered."""
    if count <= 0:
        return 0
    assert world.persona is not None
    taken = {row["subject"] for row in world.query(SITE, "SELECT subject FROM threads")}
    notes = [note for note in _NOTES[person["relationship"]] if note[0] not in taken]
    first, me = person["name"].split()[0], world.persona.first_name
    chosen = rng.sample(notes, min(count, len(notes)))
    ago = sorted(rng.sample(range(2 * 24, 70 * 24), len(chosen)), reverse=True)
    connection = connect(str(world.db_path(SITE)))
    try:
        for (subject, text), hours in zip(chosen, ago, strict=True):
            sent = world.now - timedelta(hours=hours, minutes=rng.randint(0, 59))
            body = f"Hi {me},\n\n{text}\n\n{first}"
            to = world.persona.email
            number = deliver(
                connection,
                Message(person["email"], person["name"], to, subject, body, sent.replace(second=0)),
            )
            folder = "archive" if rng.random() < 0.35 else "inbox"
            connection.execute(
                "UPDATE messages SET is_read = 1, folder = ? WHERE id = ?", (folder, number)
            )
        connection.commit()
    finally:
        connection.close()
    return len(chosen)


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
        facts = [(params["subtotal"], SUBTOTAL)]  # "(subtotal $398.00 plus $28.85 tax)"
        return _answered(self, world, answer, params["total"], whole=True, facts=facts)

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

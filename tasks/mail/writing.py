"""Writing mail: reply to a conversation, write to a contact, forward an attachment."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from webenv.answers import as_typed
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
    SENDING,
    SITE,
    Allowed,
    attached_documents,
    click,
    contact_cells,
    expect_addressed,
    expect_forwarded_file,
    expect_one_sent,
    expect_untouched,
    open_contacts,
    open_thread,
    people,
    pick,
    says_only,
    search,
    send,
    unique_threads,
)

REPLIES = (
    "Thanks, I'll get back to you by Friday.",
    "Sounds good, count me in.",
    "Could we push this to next week?",
    "Thanks for the update, I'll take a look tomorrow morning.",
    "Got it, I'll follow up with the team today.",
    "Sorry, I can't make it this time.",
)

NOTES = (
    ("Lunch next week?", "Are you free for lunch on Tuesday or Wednesday next week?"),
    ("Notes from today", "I've put my notes from today in the shared folder."),
    ("Quick favor", "Could you send me the address of the venue when you have a moment?"),
    ("Running late", "I'm running about fifteen minutes late, start without me."),
    ("Weekend plans", "Want to join us for a walk by the river on Saturday morning?"),
    ("Document review", "Please review the draft I shared and leave comments by Thursday."),
)


def _reply_threads(world: World) -> list[dict[str, Any]]:
    """Inbox conversations with a unique subject whose latest message is from a person in the
    address book: ``{subject, name, email}``."""
    unique = unique_threads(world)
    rows = world.query(
        SITE,
        "SELECT m.thread_id, m.sender, m.folder, c.name FROM messages m"
        f" JOIN contacts c ON c.email = m.sender AND c.relationship IN {PEOPLE}"
        " WHERE m.id = (SELECT id FROM messages WHERE thread_id = m.thread_id AND is_draft = 0"
        " ORDER BY sent_at DESC, id DESC LIMIT 1) ORDER BY m.thread_id",
    )
    return [
        {"subject": unique[row["thread_id"]], "name": row["name"], "email": row["sender"]}
        for row in rows
        if row["folder"] == "inbox" and row["thread_id"] in unique
    ]


@register
class ReplyToThread(TaskTemplate):
    name = "mail.reply_to_thread"
    sites = (SITE,)
    may_change = allow(mail=SENDING)
    tags = ("compose", "reply", "search")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        threads = _reply_threads(world)
        thread = pick(rng, threads, "conversation to reply to")
        decoy = rng.choice([other for other in threads if other["email"] != thread["email"]])
        return {**thread, "sentence": rng.choice(REPLIES), "decoy": decoy}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, subject, sentence = params["name"], params["subject"], params["sentence"]
        return [
            f"Reply to {name}'s e-mail “{subject}” with this message: “{sentence}”",
            f"In the conversation “{subject}”, answer {name} by replying: “{sentence}”",
            f"{name} wrote to me about “{subject}”. Send a reply that says “{sentence}”",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["subject"], params["sentence"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        message = expect_one_sent(checks, world)
        if message is not None:
            thread = world.query(
                SITE, "SELECT subject FROM threads WHERE id = ?", (message["thread_id"],)
            )
            checks.expect(
                "a reply in the conversation",
                message["in_reply_to"] is not None and thread[0]["subject"] == params["subject"],
                f"in reply to {message['in_reply_to']}, thread {thread[0]['subject']!r}",
            )
            expect_addressed(checks, message, params["email"])
            checks.expect(
                "says the sentence", *says_only(message["body"], params["sentence"], REPLIES)
            )
        expect_untouched(checks, world, Allowed(new_messages=1))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other conversation": self.altered(lambda p: {**p, **p["decoy"]}),
            "other sentence": self.altered(
                lambda p: {**p, "sentence": REPLIES[(REPLIES.index(p["sentence"]) + 1) % 6]}
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_thread(task.params["subject"], observation)
        observation = yield click(AxTree(observation["axtree"]), "link", "Reply")
        yield from send({"Body": task.params["sentence"]}, observation)


@register
class WriteToContact(TaskTemplate):
    name = "mail.write_to_contact"
    sites = (SITE,)
    may_change = allow(mail=SENDING)
    tags = ("compose", "contacts")
    difficulty = "easy"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        first, second = rng.sample(people(world), 2)
        subject, body = rng.choice(NOTES)
        return {
            "name": first["name"],
            "email": first["email"],
            "subject": subject,
            "body": body,
            "decoy": {"name": second["name"], "email": second["email"]},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, subject, body = params["name"], params["subject"], params["body"]
        return [
            f"Send a new e-mail to my contact {name} with the subject “{subject}” and the "
            f"text “{body}”",
            f"Write to {name} (they are in your contacts). Subject: “{subject}”. Message: “{body}”",
            f"E-mail {name} from the address book: subject “{subject}”, body “{body}”",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["subject"], params["body"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        message = expect_one_sent(checks, world)
        if message is not None:
            expect_addressed(checks, message, params["email"])
            checks.expect(
                "subject",
                as_typed(message["subject"]) == as_typed(params["subject"]),
                message["subject"],
            )
            notes = [body for _, body in NOTES]
            checks.expect("says the text", *says_only(message["body"], params["body"], notes))
        expect_untouched(checks, world, Allowed(new_messages=1))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other contact": self.altered(lambda p: {**p, **p["decoy"]}),
            "no subject": self.altered(lambda p: {**p, "subject": ""}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_contacts(observation)
        observation = yield click(AxTree(observation["axtree"]), "link", f"Email {params['name']}")
        yield from send({"Subject": params["subject"], "Body": params["body"]}, observation)


@register
class ForwardAttachment(TaskTemplate):
    name = "mail.forward_attachment"
    sites = (SITE,)
    may_change = allow(mail=SENDING)
    tags = ("compose", "forward", "attachment", "contacts", "search")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        files = attached_documents(world)
        file = pick(rng, files, "receipt or itinerary")
        first, second = rng.sample(people(world), 2)
        return {
            **file,
            "name": first["name"],
            "email": first["email"],
            "decoy_file": rng.choice([other for other in files if other != file]),
            "decoy_person": {"name": second["name"], "email": second["email"]},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, filename = params["name"], params["filename"]
        return [
            f"Forward the e-mail that has the attachment {filename} to {name}.",
            f"{name} needs {filename}. Find the message it came with and forward it to them.",
            f"Send {name} the file {filename} by forwarding the e-mail it is attached to.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["filename"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        message = expect_one_sent(checks, world)
        if message is not None:
            expect_forwarded_file(checks, world, message, params, "the file")
        expect_untouched(checks, world, Allowed(new_messages=1))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other recipient": self.altered(lambda p: {**p, **p["decoy_person"]}),
            "other file": self.altered(lambda p: {**p, **p["decoy_file"]}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_contacts(observation, params["name"])
        email = contact_cells(AxTree(observation["axtree"]), params["name"])[0]
        observation = yield from search(f'has:attachment "{params["code"]}"', observation)
        tree = AxTree(observation["axtree"])
        link = next(node for node in tree.find_all("link") if node.href and "/thread/" in node.href)
        observation = yield f'click("{link.id}")'
        tree = AxTree(observation["axtree"])
        tree.find("link", contains=params["filename"])  # the file is in this conversation
        observation = yield click(tree, "link", "Forward")
        yield from send({"To": email}, observation)

"""Requests about mail that may or may not be in the mailbox: reply to someone's latest e-mail,
forward a vendor's receipt for an order. Some instances can be done (the person did write, the
receipt is there) and some cannot (no e-mail from that person, no receipt for that order); the
goal reads the same either way, so the agent must look, then do it or report it infeasible."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    Allowance,
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    draw_feasible,
    register,
)
from webenv.world import World

from ._mail import (
    READING,
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
    list_rows,
    open_contacts,
    people,
    pick,
    says_only,
    search,
    send,
)
from .writing import REPLIES


def report(reason: str) -> str:
    return f"report_infeasible({json.dumps(reason)})"


def _unknown(world: World, text: str) -> bool:
    """Whether ``text`` appears nowhere in the mailbox or the address book."""
    pattern = f"%{text}%"
    rows = world.query(
        SITE,
        "SELECT 1 FROM messages WHERE sender_name LIKE ? OR sender LIKE ? OR subject LIKE ?"
        " OR body LIKE ? UNION ALL SELECT 1 FROM contacts WHERE name LIKE ?",
        (pattern,) * 5,
    )
    return not rows


def _from_search(world: World, name: str) -> list[Any]:
    """What searching ``from:"name" in:anywhere`` lists, newest first."""
    pattern = f"%{name}%"
    return world.query(
        SITE,
        "SELECT * FROM messages WHERE sender LIKE ? OR sender_name LIKE ?"
        " ORDER BY sent_at DESC, id DESC",
        (pattern, pattern),
    )


def _reported_untouched(world: World, answer: Answer | None) -> CheckResult:
    checks = Checks()
    TaskTemplate.check_infeasible(checks, answer)
    expect_untouched(checks, world)
    return checks.result()


def _nothing_found(observation: Mapping[str, Any]) -> bool:
    return not list_rows(AxTree(observation["axtree"]))


def _latest_emails(world: World) -> list[dict[str, Any]]:
    """The people in the address book whose latest e-mail to the persona is in the Inbox or
    the Archive, is the latest message of its conversation (Reply answers it), and is the
    first that searching for their name lists: ``{name, email, message_id}``."""
    found = []
    for person in people(world):
        mail = world.query(
            SITE,
            "SELECT * FROM messages WHERE sender = ? AND is_draft = 0"
            " ORDER BY sent_at DESC, id DESC LIMIT 1",
            (person["email"],),
        )
        if not mail or mail[0]["folder"] not in ("inbox", "archive"):
            continue
        latest = mail[0]
        last_of_thread = world.query(
            SITE,
            "SELECT id FROM messages WHERE thread_id = ? AND is_draft = 0"
            " ORDER BY sent_at DESC, id DESC LIMIT 1",
            (latest["thread_id"],),
        )[0]["id"]
        listed = _from_search(world, person["name"])
        if last_of_thread == latest["id"] and listed[0]["id"] == latest["id"]:
            found.append(
                {"name": person["name"], "email": person["email"], "message_id": latest["id"]}
            )
    return found


def _never_wrote(world: World) -> list[str]:
    """Names no e-mail in the mailbox is from: contacts who never wrote, and names made of one
    contact's first name and another's last name that appear nowhere."""
    contacts = people(world)
    silent = [
        person["name"]
        for person in contacts
        if not _from_search(world, person["name"])
        and not world.query(SITE, "SELECT 1 FROM messages WHERE sender = ?", (person["email"],))
    ]
    firsts = sorted({person["name"].split()[0] for person in contacts})
    lasts = sorted({person["name"].split()[-1] for person in contacts})
    made_up = [
        f"{first} {last}"
        for first in firsts
        for last in lasts
        if _unknown(world, f"{first} {last}")
    ]
    return silent + made_up


class _SentIfFound(TaskTemplate):
    """A message to send if what it answers or forwards is in the mailbox: where it is, one
    message goes out as :meth:`expect_sent` checks; where it is not, nothing is sent and the
    agent reports it."""

    sites = (SITE,)
    may_change = allow(mail=SENDING)
    feasible = False

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        return super().allowance(params) if self.is_feasible(params) else allow(mail=READING)

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        if not self.is_feasible(params):
            return _reported_untouched(world, answer)
        checks = Checks()
        message = expect_one_sent(checks, world)
        if message is not None:
            self.expect_sent(checks, world, message, params)
        expect_untouched(checks, world, Allowed(new_messages=1))
        return checks.result()

    def expect_sent(
        self, checks: Checks, world: World, message: Any, params: Mapping[str, Any]
    ) -> None:
        """Expect the one message sent to be the one asked for."""
        raise NotImplementedError


@register
class ReplyToLatestFrom(_SentIfFound):
    """Reply to the latest e-mail from a person named in the goal, who may have written (the
    reply goes out) or may not have (there is nothing to reply to: report it)."""

    name = "mail.reply_to_latest_from"
    version = 1
    tags = ("infeasible", "compose", "reply", "search")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        writers = _latest_emails(world)
        if feasible:
            person = pick(rng, writers, "person whose latest e-mail can be answered")
        else:
            silent = _never_wrote(world)
            # Half the time a contact who never wrote (the address book has them), else a
            # name found nowhere.
            contacts = {p["name"] for p in people(world)}
            known = [name for name in silent if name in contacts]
            chosen = rng.choice(known if known and rng.random() < 0.5 else silent)
            person = {"name": chosen, "email": "", "message_id": 0}
        decoy = pick(
            rng, [w for w in writers if w["name"] != person["name"]], "another person who wrote"
        )
        return {
            "name": person["name"],
            "email": person["email"],
            "message_id": person["message_id"],
            "sentence": rng.choice(REPLIES),
            "decoy": {"name": decoy["name"]},
            "feasible": feasible,
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name, sentence = params["name"], params["sentence"]
        return [
            f"Reply to the latest e-mail from {name} with: “{sentence}”",
            f"Answer {name}'s most recent message by replying “{sentence}”",
            f"{name} e-mailed me recently. Reply to that e-mail saying “{sentence}”",
            f"Find the last e-mail {name} sent me and reply: “{sentence}”",
            f"Please write back to {name}'s latest e-mail. The reply should say “{sentence}”",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"], params["sentence"]]

    def expect_sent(
        self, checks: Checks, world: World, message: Any, params: Mapping[str, Any]
    ) -> None:
        checks.expect(
            "a reply to the latest e-mail",
            message["in_reply_to"] == params["message_id"],
            f"in reply to message {message['in_reply_to']}",
        )
        expect_addressed(checks, message, params["email"])
        checks.expect("says the sentence", *says_only(message["body"], params["sentence"], REPLIES))

    def near_misses(self) -> dict[str, NearMiss]:
        other_sentence = self.altered(
            lambda p: {**p, "sentence": REPLIES[(REPLIES.index(p["sentence"]) + 1) % len(REPLIES)]}
        )

        def other_sentence_or_latest(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """When the person wrote, the reply with another sentence; when not, a reply to
            the latest e-mail in the Inbox instead."""
            if task.params["feasible"]:
                yield from other_sentence(task, observation)
            else:
                yield from self._reply_to_latest(task, observation)

        return {
            "claims it is done": self.answering(lambda t: "Done, I replied."),
            "replies to someone else's latest e-mail": self.altered(
                lambda p: {**p, "name": p["decoy"]["name"]}
            ),
            "another sentence, or a reply to the latest e-mail": other_sentence_or_latest,
        }

    @staticmethod
    def _reply_to_latest(task: Task, observation: Mapping[str, Any]) -> Oracle:
        _box, _star, link = list_rows(AxTree(observation["axtree"]))[0]
        observation = yield f'click("{link.id}")'
        observation = yield click(AxTree(observation["axtree"]), "link", "Reply")
        yield from send({"Body": task.params["sentence"]}, observation)
        yield report("I replied to the latest e-mail instead.")

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        name = task.params["name"]
        observation = yield from search(f'from:"{name}" in:anywhere', observation)
        rows = list_rows(AxTree(observation["axtree"]))
        if not rows:
            yield report(
                f"There is no e-mail from {name} in the mailbox, so there is nothing to reply to."
            )
            return
        _box, _star, link = rows[0]  # newest first
        observation = yield f'click("{link.id}")'
        observation = yield click(AxTree(observation["axtree"]), "link", "Reply")
        yield from send({"Body": task.params["sentence"]}, observation)


def _one_off(rng: random.Random, code: str) -> str:
    """``code`` with one digit of its number changed: ``NO-52312`` → ``NO-52372``."""
    prefix, number = code.split("-", 1)
    index = rng.randrange(1, len(number))
    digit = rng.choice([d for d in "0123456789" if d != number[index]])
    return f"{prefix}-{number[:index]}{digit}{number[index + 1 :]}"


@register
class ForwardReceipt(_SentIfFound):
    """Forward a vendor's receipt for an order, named by its number, to a contact: the receipt
    may be in the mailbox (it is forwarded) or not (no such order: report it)."""

    name = "mail.forward_receipt"
    version = 1
    tags = ("infeasible", "compose", "forward", "attachment", "contacts", "search")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        receipts = [
            {**file, "vendor": self._sender(world, file["filename"])}
            for file in attached_documents(world)
            if file["filename"].startswith("receipt-") and self._forwardable(world, file)
        ]
        real = pick(rng, receipts, "receipt")
        decoy = pick(rng, [r for r in receipts if r != real], "second receipt")
        if feasible:
            order, filename, thread_id = real["code"], real["filename"], real["thread_id"]
        else:
            # A number one digit off the real one, or any number of that vendor's form.
            prefix = real["code"].split("-")[0]
            codes = [_one_off(rng, real["code"]) for _ in range(10)]
            codes += [f"{prefix}-{rng.randint(10000, 99999)}" for _ in range(20)]
            if rng.random() < 0.5:
                codes = codes[10:]
            order = next(code for code in codes if _unknown(world, code))
            filename, thread_id = "", 0
            decoy = real  # the vendor's receipt the careless forward instead
        first, second = rng.sample(people(world), 2)
        return {
            "vendor": real["vendor"],
            "order": order,
            "filename": filename,
            "thread_id": thread_id,
            "name": first["name"],
            "email": first["email"],
            "decoy_order": decoy["code"],
            "decoy_person": {"name": second["name"], "email": second["email"]},
            "feasible": feasible,
        }

    @staticmethod
    def _sender(world: World, filename: str) -> str:
        return str(
            world.query(
                SITE,
                "SELECT m.sender_name FROM attachments a JOIN messages m ON m.id = a.message_id"
                " WHERE a.filename = ?",
                (filename,),
            )[0]["sender_name"]
        )

    @staticmethod
    def _forwardable(world: World, file: Mapping[str, Any]) -> bool:
        """Whether the receipt's message is the latest of its conversation (Forward forwards
        that one, with its attachments) and its number appears in no other conversation."""
        latest = world.query(
            SITE,
            "SELECT a.filename FROM messages m LEFT JOIN attachments a ON a.message_id = m.id"
            " WHERE m.thread_id = ? AND m.is_draft = 0 ORDER BY m.sent_at DESC, m.id DESC LIMIT 1",
            (file["thread_id"],),
        )
        pattern = f"%{file['code']}%"
        elsewhere = world.query(
            SITE,
            "SELECT 1 FROM messages WHERE thread_id != ? AND (subject LIKE ? OR body LIKE ?)",
            (file["thread_id"], pattern, pattern),
        )
        return bool(latest) and latest[0]["filename"] == file["filename"] and not elsewhere

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        vendor, order, name = params["vendor"], params["order"], params["name"]
        return [
            f"Forward my {vendor} receipt for order {order} to {name}.",
            f"{name} needs the receipt of {vendor} order {order}. Forward it to them.",
            f"Find the {vendor} receipt for order {order} and forward that e-mail to {name}.",
            f"Please send {name} the {vendor} receipt e-mail for order {order} (forward it).",
            f"Could you forward {name} the receipt {vendor} sent me for order {order}?",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["vendor"], params["order"], params["name"]]

    def expect_sent(
        self, checks: Checks, world: World, message: Any, params: Mapping[str, Any]
    ) -> None:
        expect_forwarded_file(checks, world, message, params, "the receipt")

    def near_misses(self) -> dict[str, NearMiss]:
        to_someone_else = self.altered(lambda p: {**p, **p["decoy_person"]})
        other_to_someone_else = self.altered(
            lambda p: {**p, **p["decoy_person"], "order": p["decoy_order"]}
        )

        def someone_else(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """The receipt to another contact; when there is none, another receipt to them."""
            if task.params["feasible"]:
                yield from to_someone_else(task, observation)
            else:
                yield from other_to_someone_else(task, observation)

        return {
            "claims it is done": self.answering(lambda t: "Forwarded."),
            "forwards another receipt": self.altered(lambda p: {**p, "order": p["decoy_order"]}),
            "forwards to someone else": someone_else,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        order = params["order"]
        observation = yield from search(f'"{order}" in:anywhere', observation)
        if _nothing_found(observation):
            yield report(f"There is no receipt for order {order} in the mailbox.")
            return
        observation = yield from open_contacts(observation, params["name"])
        email = contact_cells(AxTree(observation["axtree"]), params["name"])[0]
        observation = yield from search(f'has:attachment "{order}" in:anywhere', observation)
        tree = AxTree(observation["axtree"])
        link = next(node for node in tree.find_all("link") if node.href and "/thread/" in node.href)
        observation = yield f'click("{link.id}")'
        tree = AxTree(observation["axtree"])
        tree.find("link", contains=order)  # the receipt is in this conversation
        observation = yield click(tree, "link", "Forward")
        yield from send({"To": email}, observation)

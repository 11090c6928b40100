"""Organizing the mailbox: archive, label, mark unread, restore from the Trash."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

from webenv.axtree import AxTree
from webenv.tasks import (
    ADD,
    Answer,
    CheckResult,
    Checks,
    May,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ._mail import (
    OPENS,
    PEOPLE,
    SITE,
    Allowed,
    click,
    expect_untouched,
    list_rows,
    open_thread,
    opening,
    pick,
    received,
    row_subject,
    search,
    select_and_apply,
    unique_threads,
)

NEW_LABELS = ("Follow up", "Read later", "Waiting on reply", "Priority", "Keep", "To do")


def _senders(world: World, folders: str, least: int, most: int) -> list[dict[str, Any]]:
    """People in the address book with ``least``–``most`` messages in ``folders`` (SQL list),
    and a name no other sender has: ``{name, email, ids}``."""
    rows = world.query(
        SITE,
        "SELECT c.name, c.email, group_concat(m.id) AS ids, COUNT(*) AS n FROM messages m"
        f" JOIN contacts c ON c.email = m.sender AND c.relationship IN {PEOPLE}"
        f" WHERE m.folder IN ({folders}) AND m.is_draft = 0"
        " AND (SELECT COUNT(DISTINCT sender) FROM messages WHERE sender_name = c.name) = 1"
        " GROUP BY c.id HAVING n BETWEEN ? AND ? ORDER BY c.id",
        (least, most),
    )
    return [
        {"name": row["name"], "email": row["email"], "ids": sorted(map(int, row["ids"].split(",")))}
        for row in rows
    ]


def _folders(world: World, ids: list[int]) -> dict[int, str]:
    marks = ", ".join("?" * len(ids))
    rows = world.query(SITE, f"SELECT id, folder FROM messages WHERE id IN ({marks})", ids)
    return {row["id"]: row["folder"] for row in rows}


def _own_replies(world: World, ids: list[int]) -> set[int]:
    """The user's own sent messages in the threads of messages ``ids``."""
    assert world.persona is not None
    marks = ", ".join("?" * len(ids))
    rows = world.initial_query(
        SITE,
        "SELECT id FROM messages WHERE is_draft = 0 AND sender = ? AND thread_id IN"
        f" (SELECT thread_id FROM messages WHERE id IN ({marks}))",
        [world.persona.email, *ids],
    )
    return {row["id"] for row in rows}


def _rows_of(query: Any, ids: list[int]) -> list[tuple[Any, ...]]:
    marks = ", ".join("?" * len(ids))
    return [tuple(row) for row in query(SITE, f"SELECT * FROM messages WHERE id IN ({marks})", ids)]


def _sender_rows(name: str, observation: Mapping[str, Any], where: str = "") -> Any:
    """Search for the messages from ``name``; return the new observation."""
    return search(f'from:"{name}" {where}'.strip(), observation)


@register
class ArchiveFromSender(TaskTemplate):
    name = "mail.archive_from_sender"
    sites = (SITE,)
    # Its messages may be opened before they are moved (the thread page has the buttons too).
    may_change = allow(mail={"messages": opening("folder").of_row("ids")})
    tags = ("organize", "archive", "bulk", "search")
    difficulty = "medium"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        senders = _senders(world, "'inbox'", 2, 9)
        sender = pick(rng, senders, "person with several Inbox messages")
        return {"name": sender["name"], "email": sender["email"], "ids": sender["ids"]}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        name = params["name"]
        return [
            f"Archive every message from {name} that is in my Inbox.",
            f"Clean up the Inbox: move all of {name}'s e-mails there to the Archive.",
            f"I've dealt with everything {name} sent me. Archive all their messages in the Inbox.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["name"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        folders = _folders(world, params["ids"])
        left = sorted(i for i in params["ids"] if folders.get(i) != "archive")
        checks.expect("all of them archived", not left, f"not archived: {left}")
        expect_untouched(checks, world, Allowed(messages=frozenset(params["ids"])))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "all but one": self._policy(lambda rows: rows[1:], "Archive"),
            "deleted instead": self._policy(lambda rows: rows, "Delete"),
        }

    def _policy(self, chosen: Callable[[list[Any]], list[Any]], button: str) -> NearMiss:
        def policy(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from self._archive(task, observation, chosen, button)

        return policy

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from self._archive(task, observation, lambda rows: rows, "Archive")

    @staticmethod
    def _archive(
        task: Task,
        observation: Mapping[str, Any],
        chosen: Callable[[list[Any]], list[Any]],
        button: str,
    ) -> Oracle:
        observation = yield from _sender_rows(task.params["name"], observation, "in:inbox")
        tree = AxTree(observation["axtree"])
        boxes = [box for box, _star, _link in list_rows(tree)]
        yield from select_and_apply(chosen(boxes), click(tree, "button", button), observation)


@register
class LabelFromSender(TaskTemplate):
    name = "mail.label_from_sender"
    sites = (SITE,)
    # Labelling their conversations from the thread page opens their messages: read, then.
    may_change = allow(
        mail={
            "labels": ADD,
            # Under the new label only: not one the user had, on these messages or others.
            "message_labels": May(add=True, adds_to_new=(("label_id", "labels"),)),
            "messages": opening().of_row("ids"),
        }
    )
    tags = ("organize", "labels", "bulk", "search")
    difficulty = "hard"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        senders = _senders(world, "'inbox', 'archive'", 2, 9)
        sender, decoy = rng.sample(senders, 2)
        return {
            "label": rng.choice(NEW_LABELS),
            "name": sender["name"],
            "ids": sender["ids"],
            "decoy": decoy["name"],
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        label, name = params["label"], params["name"]
        return [
            f"Create a new label called “{label}” and put it on every message from {name}.",
            f"Make a label named “{label}”, then label all the e-mails {name} sent me with it.",
            f"I want all of {name}'s messages under a new label, “{label}”. Set that up.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["label"], params["name"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        labels = world.query(
            SITE, "SELECT id FROM labels WHERE name = ? COLLATE BINARY", (params["label"],)
        )
        checks.expect("the label exists", len(labels) == 1, f"{len(labels)} labels so named")
        if labels:
            labelled = sorted(
                row["message_id"]
                for row in world.query(
                    SITE,
                    "SELECT message_id FROM message_labels WHERE label_id = ?",
                    (labels[0]["id"],),
                )
            )
            # Labelling their conversations from the thread page also labels the user's own
            # replies in them: the same outcome to a careful reader, so those may carry it.
            own = _own_replies(world, params["ids"])
            extra = set(labelled) - set(params["ids"])
            checks.expect(
                "exactly their messages labelled (and your replies in their threads)",
                set(params["ids"]) <= set(labelled) and extra <= own,
                f"labelled {labelled}",
            )
            kept = sorted(own)
            checks.expect(
                "your replies otherwise unchanged",
                _rows_of(world.query, kept) == _rows_of(world.initial_query, kept),
                f"replies {kept}",
            )
            allowed = frozenset(params["ids"]) | extra
        else:
            allowed = frozenset(params["ids"])
        expect_untouched(checks, world, Allowed(messages=allowed, new_labels=1))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other sender": self.altered(lambda p: {**p, "name": p["decoy"]}),
            "existing label": self.altered(lambda p: {**p, "label": "Work"}),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield click(AxTree(observation["axtree"]), "link", "Manage labels")
        tree = AxTree(observation["axtree"])
        observation = yield (
            f'fill("{tree.id("textbox", "Label name")}", {json.dumps(params["label"])})\n'
            + click(tree, "button", "Create label")
        )
        observation = yield from _sender_rows(params["name"], observation)
        tree = AxTree(observation["axtree"])
        boxes = [box for box, _star, _link in list_rows(tree)]
        apply = (
            f'select_option("{tree.id("combobox", "Apply label")}", {json.dumps(params["label"])})'
            f"\n{click(tree, 'button', 'Apply')}"
        )
        yield from select_and_apply(boxes, apply, observation)


def _read_conversations(world: World) -> list[dict[str, Any]]:
    """Inbox conversations with a unique subject, read through, whose latest message someone
    else sent: ``{subject, latest}``."""
    unique = unique_threads(world)
    rows = world.query(
        SITE,
        "SELECT thread_id, MAX(id) AS latest, MIN(is_read) AS all_read,"
        " SUM(folder = 'inbox') AS in_inbox FROM messages WHERE is_draft = 0 GROUP BY thread_id",
    )
    latest_received = {row["thread_id"]: row["id"] for row in received(world)}
    return [
        {"subject": unique[row["thread_id"]], "latest": row["latest"]}
        for row in rows
        if row["thread_id"] in unique
        and row["all_read"]
        and row["in_inbox"]
        and latest_received.get(row["thread_id"]) == row["latest"]
    ]


@register
class MarkUnread(TaskTemplate):
    name = "mail.mark_unread"
    sites = (SITE,)
    # Opened, and one made unread (the check looks for others made unread).
    may_change = allow(
        mail={
            "messages": May(
                edit=frozenset({"is_read", "opened_at"}),
                only_with=(("is_read", 1, "opened_at"),),
                at_most=(("opened_at", OPENS),),
            )
        }
    )
    tags = ("organize", "read-state", "search")
    difficulty = "easy"
    max_steps = 12

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        conversations = _read_conversations(world)
        first, second = rng.sample(conversations, 2)
        return {**first, "decoy": second}

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        subject = params["subject"]
        return [
            f"Mark the conversation “{subject}” as unread so I remember to come back to it.",
            f"I want “{subject}” to show up as unread again. Please mark it unread.",
            f"Flag the e-mail thread “{subject}” as unread.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["subject"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        row = world.query(SITE, "SELECT is_read FROM messages WHERE id = ?", (params["latest"],))
        if not row:
            checks.expect("latest message kept", False, "the message was deleted")
            return checks.result()
        checks.expect(
            "latest message unread", not row[0]["is_read"], f"is_read={row[0]['is_read']}"
        )
        thread = world.query(
            SITE, "SELECT thread_id FROM messages WHERE id = ?", (params["latest"],)
        )[0]["thread_id"]
        was_read = {
            r["id"] for r in world.initial_query(SITE, "SELECT id FROM messages WHERE is_read = 1")
        }
        now_unread = sorted(
            r["id"]
            for r in world.query(
                SITE, "SELECT id FROM messages WHERE is_read = 0 AND thread_id != ?", (thread,)
            )
            if r["id"] in was_read
        )
        checks.expect("no other message made unread", not now_unread, f"made unread {now_unread}")
        expect_untouched(checks, world)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {"other conversation": self.altered(lambda p: {**p, **p["decoy"]})}

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from open_thread(task.params["subject"], observation, "in:inbox")
        yield click(AxTree(observation["axtree"]), "button", "Mark as unread")


@register
class RestoreFromTrash(TaskTemplate):
    name = "mail.restore_from_trash"
    sites = (SITE,)
    may_change = allow(mail={"messages": opening("folder")})
    tags = ("organize", "trash")
    difficulty = "easy"
    max_steps = 10

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        rows = world.query(
            SITE,
            "SELECT id, subject FROM messages WHERE folder = 'trash' AND is_draft = 0 AND subject"
            " IN (SELECT subject FROM messages GROUP BY subject HAVING COUNT(*) = 1) ORDER BY id",
        )
        first, second = rng.sample(list(rows), 2)
        return {
            "id": first["id"],
            "subject": first["subject"],
            "decoy": {"id": second["id"], "subject": second["subject"]},
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        subject = params["subject"]
        return [
            f"I deleted “{subject}” by mistake. Move it from the Trash back to the Inbox.",
            f"Restore the message “{subject}” from the Trash to my Inbox.",
            f"Get “{subject}” out of the Trash and back into the Inbox.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["subject"]]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        folder = _folders(world, [params["id"]]).get(params["id"], "deleted")
        checks.expect("back in the Inbox", folder == "inbox", f"in {folder}")
        expect_untouched(checks, world, Allowed(messages=frozenset([params["id"]])))
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "other message": self.altered(lambda p: {**p, **p["decoy"]}),
            "everything": self._restore_all,
        }

    @staticmethod
    def _restore_all(task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield click(AxTree(observation["axtree"]), "link", "Trash")
        tree = AxTree(observation["axtree"])
        boxes = [box for box, _star, _link in list_rows(tree)]
        yield from select_and_apply(boxes, click(tree, "button", "Move to Inbox"), observation)

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield click(AxTree(observation["axtree"]), "link", "Trash")
        tree = AxTree(observation["axtree"])
        box = next(
            box for box, _s, _l in list_rows(tree) if row_subject(box) == task.params["subject"]
        )
        yield f'check("{box.id}")\n{click(tree, "button", "Move to Inbox")}'

"""What an e-mail the user sends says, read as its recipient reads it (on real worlds, without
a browser): a second value put in the subject is a hedge as it would be in the body, and an
e-mail that says every message a task of its kind could ask for says none in particular."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from webenv.suite.mail.writing import NOTES, REPLIES
from webenv.suite.workflows._flows import own_subject

from tests.tasks.test_collateral_sent import send
from webenv.tasks import Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]


@pytest.mark.parametrize(
    ("subject", "given", "own"),
    [
        ("Re: Price check?", ["Price check?"], ""),
        ("RE: Fwd: price check?", ["Price check?"], ""),
        ("Re: Re[2]: Price check?", ["Price check?"], ""),
        ("Re: Price check? $136.49 or so", ["Price check?"], "$136.49 or so"),
        ("Northwind order - $137.95 or so", ["Northwind order"], "$137.95 or so"),
        ("Northwind order", ["Northwind order"], ""),
        ("Order total: $122.95", ["Order total"], "$122.95"),
        ("Quick question", [], "Quick question"),
        ("", ["Price check?"], ""),
    ],
)
def test_the_subject_s_own_words_are_what_the_user_added(subject, given, own):
    assert own_subject(subject, given) == own


def _email_total(world: World, task: Task, subject: str) -> bool:
    params = task.params
    total = f"${params['total_cents'] / 100:,.2f}"
    send(world, params["contact"]["email"], subject, f"Hi,\n\nThe order total was {total}.\n")
    return task.check(world, None).success


@pytest.mark.parametrize("seed", [1, 2])
def test_a_second_amount_in_the_subject_of_the_order_total_fails(fresh_task: Fresh, seed):
    world, task = fresh_task("workflows.email_order_total", seed)
    other = f"${(task.params['total_cents'] + 1500) / 100:,.2f}"
    assert not _email_total(world, task, f"{task.params['subject']} - {other} or so")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_asked_subject_or_the_total_in_it_passes(fresh_task: Fresh, seed):
    world, task = fresh_task("workflows.email_order_total", seed)
    assert _email_total(world, task, task.params["subject"])
    world, task = fresh_task("workflows.email_order_total", seed)
    total = f"${task.params['total_cents'] / 100:,.2f}"
    assert _email_total(world, task, f"{task.params['subject']}: {total}")


def test_a_note_among_every_other_note_fails(fresh_task: Fresh):
    world, task = fresh_task("mail.write_to_contact", 1)
    params, notes = task.params, [body for _, body in NOTES]
    send(world, params["email"], params["subject"], "\n".join(notes))
    assert not task.check(world, None).success
    world, task = fresh_task("mail.write_to_contact", 1)
    send(world, params["email"], params["subject"], f"Hi,\n\n{params['body']}\n\nBest")
    assert task.check(world, None).success


@pytest.mark.parametrize(
    ("name", "seed"), [("mail.reply_to_thread", 1), ("mail.reply_to_latest_from", 2)]
)
def test_a_reply_that_says_every_reply_fails(fresh_task: Fresh, name, seed):
    world, task = fresh_task(name, seed)
    params = task.params
    replied = (
        params.get("message_id")
        or world.query(
            "mail",
            "SELECT m.id FROM messages m JOIN threads t ON t.id = m.thread_id WHERE t.subject = ?"
            " ORDER BY m.id DESC LIMIT 1",
            (params["subject"],),
        )[0]["id"]
    )
    thread = world.query(
        "mail", "SELECT thread_id, subject FROM messages WHERE id = ?", (replied,)
    )[0]
    for body, passes in (("\n".join(REPLIES), False), (params["sentence"], True)):
        world, task = fresh_task(name, seed)
        send(world, params["email"], "Re: " + thread["subject"], body, thread["thread_id"], replied)
        result = task.check(world, None)
        assert result.success is passes, result.to_dict()

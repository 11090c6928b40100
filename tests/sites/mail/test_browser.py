"""The site in a real browser: accessibility of every page type, and a reply end to end."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from playwright.sync_api import expect

from tests.axe import serious_violations, submit

PAGE_TYPES = {
    "inbox": "/",
    "folder": "/folder/sent",
    "label": "/label/Work",
    "search": "/search?q=has%3Aattachment",
    "empty search": "/search?q=zzzyxq",
    "thread": "/thread/{thread_id}",
    "compose": "/compose?reply={message_id}",
    "contacts": "/contacts",
    "contact form": "/contacts/new",
    "labels": "/labels",
    "not found": "/nowhere",
}


def test_every_page_type_passes_an_axe_audit(live_world: Callable) -> None:
    world = live_world("mail", seed=0)
    with sqlite3.connect(world.db_path("mail")) as db:
        message_id, thread_id = db.execute(
            "SELECT m.id, m.thread_id FROM messages m JOIN attachments a ON a.message_id = m.id"
            " WHERE m.folder = 'inbox' LIMIT 1"
        ).fetchone()
    page = world.new_page()
    page.goto(world.url("mail") + "/login")
    found = {"sign in": serious_violations(page)}
    submit(page.get_by_role("button", name="Sign in"))
    found["sign in with error"] = serious_violations(page)
    page = world.new_page(logged_in=True)
    for name, path in PAGE_TYPES.items():
        page.goto(world.url("mail") + path.format(thread_id=thread_id, message_id=message_id))
        found[name] = serious_violations(page)
    page.goto(world.url("mail") + "/compose")
    submit(page.get_by_role("button", name="Send"))
    found["compose with errors"] = serious_violations(page)
    page.goto(world.url("mail") + "/contacts/new")
    submit(page.get_by_role("button", name="Save contact"))
    found["contact form with errors"] = serious_violations(page)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_sign_in_open_a_thread_reply_and_find_it_in_sent(live_world: Callable) -> None:
    world = live_world("mail", seed=1)
    persona = world.persona
    page = world.new_page()
    page.goto(world.url("mail") + "/")
    page.get_by_label("Email or username").fill(persona.username)
    page.get_by_label("Password").fill(persona.password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Inbox", level=1)).to_be_visible()

    first = page.locator(".message-row .message-link").first
    subject = first.locator(".subject").inner_text().removeprefix("Re: ")
    first.click()
    expect(page.get_by_role("heading", name=subject, level=1)).to_be_visible()
    page.get_by_role("link", name="Reply", exact=True).click()
    page.get_by_label("Body").press("Control+Home")
    page.get_by_label("Body").type("Sounds good, thanks!")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_role("status")).to_have_text("Message sent.")

    page.get_by_role("navigation", name="Mailboxes").get_by_role(
        "link", name="Sent", exact=True
    ).click()
    expect(page.locator(".message-row").first.locator(".subject")).to_have_text(f"Re: {subject}")
    with sqlite3.connect(world.db_path("mail")) as db:
        body = db.execute(
            "SELECT body FROM messages WHERE folder = 'sent' ORDER BY id DESC LIMIT 1"
        ).fetchone()[0]
    assert body.startswith("Sounds good, thanks!") and " wrote:\n> " in body

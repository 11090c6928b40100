"""Northwind Calendar in the real browser: accessibility of every page type, and an invitation
answered end to end (the reply lands in the mailbox, and the diff leaves it out)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from playwright.sync_api import expect

from tests.axe import serious_violations, submit

PAGE_TYPES = {
    "week": "/week",
    "day": "/day",
    "month": "/month",
    "invitations": "/invitations",
    "event": "/event/{event_id}",
    "new event": "/event/new",
    "edit series": "/event/{series_id}/edit?scope=series",
    "settings": "/settings",
    "not found": "/event/999999",
}


def test_every_page_type_passes_an_axe_audit(live_world: Callable) -> None:
    world = live_world("calendar", seed=2)
    with sqlite3.connect(world.db_path("calendar")) as db:
        event_id = db.execute("SELECT max(id) FROM events").fetchone()[0]
        series_id = db.execute("SELECT min(id) FROM events WHERE series_id IS NOT NULL").fetchone()
    page = world.new_page()
    page.goto(world.url("calendar") + "/login")
    found = {"sign in": serious_violations(page)}
    page = world.new_page(logged_in=True)
    for name, path in PAGE_TYPES.items():
        page.goto(world.url("calendar") + path.format(event_id=event_id, series_id=series_id[0]))
        found[name] = serious_violations(page)
    page.goto(world.url("calendar") + "/event/new")
    page.get_by_label("Title").fill("")
    submit(page.get_by_role("button", name="Create event"))
    found["form with errors"] = serious_violations(page)
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_sign_in_browse_and_accept_an_invitation(live_world: Callable) -> None:
    world = live_world("mail", "calendar", seed=3)
    page = world.new_page()
    page.goto(world.url("calendar") + "/")
    page.get_by_label("Username").fill(world.persona.username)
    page.get_by_label("Password").fill(world.persona.password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Week of")
    page.get_by_role("link", name="Next week ›").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Week of")
    page.get_by_role("link", name="Invitations", exact=True).click()
    invitation = page.get_by_role("main").get_by_role("link").first
    title = invitation.inner_text()
    invitation.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    page.get_by_role("button", name="Yes", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("a reply was sent to the organizer")
    expect(page.get_by_text("Yes, going")).to_be_visible()
    with sqlite3.connect(world.db_path("mail")) as db:
        replies = db.execute(
            "SELECT subject FROM messages WHERE sender = ? AND subject LIKE 'Accepted: %'",
            (world.persona.email,),
        ).fetchall()
    assert [row[0].split(" @ ")[0] for row in replies] == [f"Accepted: {title}"]
    changed = {(c.site, c.table, c.kind) for c in world.world.changes()}
    assert changed == {("calendar", "invitees", "changed"), ("calendar", "replies", "added")}

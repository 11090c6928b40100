"""The help centre in the real browser: searching, reading an older revision, and opening a
ticket whose confirmation reaches the mailbox."""

from __future__ import annotations

import sqlite3

from playwright.sync_api import expect


def test_search_read_history_and_open_a_ticket(live_world):
    world = live_world("mail", "help", seed=2)
    page = world.new_page(logged_in=True)
    page.goto(world.url("help"))
    page.get_by_label("Search help articles").first.fill("return window")
    page.get_by_role("button", name="Search").first.click()
    assert "found" in page.locator(".result-count").inner_text()
    page.get_by_role("link", name="Our return policy").click()
    expect(page.get_by_text("Last updated").first).to_be_visible()
    page.get_by_role("link", name="Revision history").click()
    page.get_by_role("link", name="Revision 1").click()
    assert "older version" in page.get_by_role("note").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280

    page.get_by_role("link", name="Contact support").first.click()
    page.get_by_role("button", name="Send request").click()
    # The error summary, nothing stored (is_visible() does not wait: it once looked at the
    # page before the answer to the submission had replaced it).
    expect(page.get_by_role("alert")).to_be_visible()
    page.get_by_label("Topic").select_option("Returns & refunds")
    page.get_by_label("Order number or reference (optional)").fill("NM-12345-6")
    page.get_by_label("Subject").fill("Refund not received")
    page.get_by_label("Message").fill("My refund has not arrived after two weeks.")
    page.get_by_role("button", name="Send request").click()
    assert "has been sent to our support team" in page.get_by_role("status").inner_text()
    number = page.locator(".details dd").first.inner_text()
    with sqlite3.connect(world.db_path("mail")) as conn:
        subjects = [row[0] for row in conn.execute("SELECT subject FROM messages")]
    assert f"We received your request {number}: Refund not received" in subjects

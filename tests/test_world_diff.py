"""The world's diff of the user's data since the episode's start, without a browser: rows added,
removed and changed are named; the catalogue, mirrors and mail the world delivered are not."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterator
from datetime import datetime

import pytest
from webenv.sites.common import Message

from webenv.changes import USER_DATA
from webenv.tasks import (
    ADD,
    NOTHING_ELSE,
    May,
    allow,
    edit,
    edit_to,
    nothing_else_changed,
    templates,
)
from webenv.world import SnapshotStore, World

SEED = 0


@pytest.fixture(scope="module")
def store() -> SnapshotStore:
    return SnapshotStore()


@pytest.fixture
def world(store: SnapshotStore) -> Iterator[World]:
    world = World(store=store)
    world.restore(SEED)
    world.mark_start()
    yield world
    world.close()


def write(world: World, site: str, *statements: str) -> None:
    """Change a site's database as a request of the site would: committed writes."""
    conn = sqlite3.connect(world.db_path(site))
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def described(world: World) -> list[str]:
    return sorted(change.describe() for change in world.changes())


def test_a_fresh_episode_has_no_changes(world: World) -> None:
    assert world.changes() == []


def test_rows_added_removed_and_changed_are_named(world: World) -> None:
    last = world.query("shop", "SELECT MAX(id) AS id FROM addresses")[0]["id"]
    write(
        world,
        "shop",
        "UPDATE users SET phone = '(555) 010-0199', newsletter = 1 - newsletter WHERE id = 1",
        f"DELETE FROM addresses WHERE id = {last}",
        "INSERT INTO wishlist_items (user_id, product_id, created_at) VALUES (1, 5, 'now')",
    )
    write(world, "mail", "UPDATE contacts SET notes = 'x' WHERE id = 3")
    write(world, "forms", "UPDATE users SET zip = '00000' WHERE id = 1")
    assert described(world) == [
        "forms.users 1 changed (zip)",
        "mail.contacts 3 changed (notes)",
        f"shop.addresses {last} removed",
        "shop.users 1 changed (phone, newsletter)",
        "shop.wishlist_items 1/5 added",
    ]


def test_a_row_changed_back_is_no_change(world: World) -> None:
    phone = world.query("shop", "SELECT phone FROM users WHERE id = 1")[0]["phone"]
    write(world, "shop", "UPDATE users SET phone = 'x' WHERE id = 1")
    assert described(world) == ["shop.users 1 changed (phone)"]
    write(world, "shop", f"UPDATE users SET phone = '{phone}' WHERE id = 1")
    assert world.changes() == []


def test_every_write_is_seen_even_when_the_file_keeps_its_size(world: World) -> None:
    # The rows are cached between writes: two writes of the same size must both be seen.
    for value in ("a", "b"):
        write(world, "shop", f"UPDATE users SET phone = '{value}' WHERE id = 1")
        now = world.query("shop", "SELECT phone FROM users WHERE id = 1")[0]["phone"]
        assert now == value and described(world) == ["shop.users 1 changed (phone)"]
    write(world, "shop", "UPDATE users SET first_name = 'Zed' WHERE id = 1")
    assert described(world) == ["shop.users 1 changed (first_name, phone)"]


def test_the_catalogue_and_mirrors_are_not_the_users_data(world: World) -> None:
    write(
        world,
        "shop",
        "UPDATE products SET stock = stock - 1 WHERE id = 1",
        "UPDATE reviews SET title = 'x' WHERE user_id != 1",
        "INSERT INTO carts (token) VALUES ('a visitor')",
    )
    write(world, "mail", "UPDATE threads SET subject = 'x' WHERE id = 1")
    write(world, "forms", "UPDATE slots SET taken = 1 - taken WHERE id = 1")
    assert world.changes() == []


def test_mail_the_world_delivers_is_not_counted(world: World) -> None:
    assert world.persona is not None
    world.deliver_mail(
        Message(
            "no-reply@shop.example",
            "Shop security",
            world.persona.email,
            "Your code",
            "123456",
            datetime(2026, 3, 2),
        )
    )
    assert world.changes() == []
    write(world, "mail", "UPDATE messages SET folder = 'trash' WHERE id = 1")
    assert described(world) == ["mail.messages 1 changed (folder)"]


def test_mail_the_world_delivers_may_be_read_but_not_thrown_away(world: World) -> None:
    # A shop's order confirmation arrives during the episode: it is the user's mail from then.
    assert world.persona is not None
    message = Message(
        "orders@shop.example",
        "Shop",
        world.persona.email,
        "Your order",
        "Thanks",
        datetime(2026, 3, 2),
    )
    world.deliver_mail(message)
    delivered = world.query("mail", "SELECT MAX(id) AS id FROM messages")[0]["id"]
    write(
        world,
        "mail",
        "UPDATE messages SET is_read = 1, opened_at = '2026-03-02T10:00:00'"
        f" WHERE id = {delivered}",
    )
    assert world.changes() == []  # reading it is no change
    write(world, "mail", f"UPDATE messages SET is_starred = 1 WHERE id = {delivered}")
    assert described(world) == [f"mail.messages {delivered} changed (is_starred)"]
    write(world, "mail", f"DELETE FROM messages WHERE id = {delivered}")
    assert described(world) == [f"mail.messages {delivered} removed"]


def test_a_new_episode_starts_a_new_diff(world: World) -> None:
    write(world, "shop", "UPDATE users SET phone = 'x' WHERE id = 1")
    assert world.changes()
    world.restore(SEED)
    world.mark_start()
    assert world.changes() == []


def test_the_condition_lists_what_the_allowance_does_not_cover(world: World) -> None:
    write(
        world,
        "shop",
        "UPDATE users SET phone = 'x' WHERE id = 1",
        "INSERT INTO wishlist_items (user_id, product_id, created_at) VALUES (1, 5, 'now')",
    )
    condition = nothing_else_changed(world, allow(shop={"wishlist_items": ADD}))
    assert condition.name == NOTHING_ELSE and not condition.passed
    assert condition.message == "shop.users 1 changed (phone)"
    assert not nothing_else_changed(world, allow(shop={"users": edit("email")})).passed
    allowed = allow(shop={"wishlist_items": ADD, "users": edit("phone")})
    assert nothing_else_changed(world, allowed).passed


@pytest.mark.parametrize("name", sorted(templates()))
def test_every_template_declares_what_it_may_change(name: str) -> None:
    template = templates()[name]
    assert template.may_change is not None, f"{name} declares no may_change"
    for site, tables in template.may_change.items():
        assert site in template.sites, (name, site)
        assert set(tables) <= set(USER_DATA[site]), (name, site, set(tables) - set(USER_DATA[site]))


def test_reading_may_mark_mail_read_by_opening_it_but_not_from_a_list_nor_unread():
    # Opening a message marks it read and records when; marking mail read from a list (the
    # whole Inbox at once) or read mail unread is damage to the mailbox.
    from webenv.suite.mail._mail import READING, SENDING, opening

    from webenv.changes import RowChange

    def change(columns: tuple[str, ...], values: tuple[object, ...]) -> RowChange:
        return RowChange("mail", "messages", (7,), "changed", columns, values)

    opened = change(("is_read", "opened_at"), (1, "2026-05-14T09:30:00"))
    marked = change(("is_read",), (1,))
    unread = change(("is_read",), (0,))
    for allowance in (READING, SENDING):
        assert allowance["messages"].allows(opened)
        assert not allowance["messages"].allows(marked)
        assert not allowance["messages"].allows(unread)
    # So a collateral damage that marks mail read from a list is paired with reading tasks.
    assert not READING["messages"].overlaps(edit_to(is_read=1))
    # And one that opens every unread message (a damage stands for as many rows as it likes)
    # with every reading task whose allowance bounds how many it may open.
    many = May(edit=frozenset({"is_read", "opened_at"}), only_to=(("is_read", 1),))
    assert not READING["messages"].overlaps(many)
    assert opening(opens=None).overlaps(many)
    # A damage bounded itself is not "as many as it likes": an unbounded allowance allows it.
    assert opening(opens=None).overlaps(dataclasses.replace(many, at_most=(("opened_at", 3),)))


def test_reading_opens_a_few_messages_not_the_whole_mailbox(world: World) -> None:
    from webenv.suite.mail._mail import OPENS, READING

    unread = [row["id"] for row in world.query("mail", "SELECT id FROM messages WHERE is_read = 0")]
    assert len(unread) > OPENS

    def open_(ids: list[int]) -> None:
        write(world, "mail", *(
            f"UPDATE messages SET is_read = 1, opened_at = '2026-05-14T09:30:00' WHERE id = {i}"
            for i in ids
        ))  # fmt: skip

    open_(unread[:OPENS])
    assert nothing_else_changed(world, {"mail": READING}).passed
    open_(unread[OPENS : OPENS + 1])
    condition = nothing_else_changed(world, {"mail": READING})
    assert not condition.passed
    assert (
        condition.message
        == f"mail.messages: {OPENS + 1} rows changed opened_at (at most {OPENS} may)"
    )


def test_sending_mail_may_not_leave_a_draft_behind():
    from webenv.suite.mail._mail import SENDING

    from webenv.changes import RowChange

    def added(folder: str, is_draft: int) -> RowChange:
        row = (("folder", folder), ("is_draft", is_draft))
        return RowChange("mail", "messages", (9,), "added", row=row)

    assert SENDING["messages"].allows(added("sent", 0))
    assert not SENDING["messages"].allows(added("drafts", 1))
    assert SENDING["messages"].allows(added("trash", 1))  # a draft thrown away

"""Writing mail: send, reply, reply all, forward, drafts, and the form's validation."""

from __future__ import annotations

import sqlite3

import pytest
from flask.testing import FlaskClient
from markupsafe import escape
from webenv.sites.common import Persona


def sent_since(db: sqlite3.Connection, last_id: int) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT * FROM messages WHERE id > ? AND folder = 'sent'", (last_id,)
    ).fetchall()


def last_id(db: sqlite3.Connection) -> int:
    return db.execute("SELECT MAX(id) FROM messages").fetchone()[0]


def received(db: sqlite3.Connection, where: str = "1") -> sqlite3.Row:
    return db.execute(
        f"SELECT * FROM messages WHERE folder = 'inbox' AND {where} ORDER BY id LIMIT 1"
    ).fetchone()


def test_send_stores_one_sent_message_with_normalised_recipients(
    client: FlaskClient, db: sqlite3.Connection, persona: Persona, now
) -> None:
    before = last_id(db)
    response = client.post(
        "/compose",
        data={
            "to": "Ann Lee <Ann@Example.org>; bob@example.net, ann@example.org",
            "cc": "carol@example.com",
            "bcc": " dave@example.com ",
            "subject": "Lunch plans",
            "body": "Noon at the usual place?",
            "action": "send",
        },
    )
    [message] = sent_since(db, before)
    assert (message["recipients"], message["cc"], message["bcc"]) == (
        "ann@example.org, bob@example.net",
        "carol@example.com",
        "dave@example.com",
    )
    assert (message["subject"], message["body"]) == ("Lunch plans", "Noon at the usual place?")
    assert message["sender"] == persona.email and message["is_draft"] == 0
    assert message["sent_at"] == now.isoformat()
    assert response.location == f"/thread/{message['thread_id']}#message-{message['id']}"
    page = client.get("/folder/sent").get_data(as_text=True)
    assert "Lunch plans" in page


def test_reply_quotes_the_original_and_joins_its_thread(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    original = received(db, "subject NOT LIKE 'Re:%'")
    form = client.get(f"/compose?reply={original['id']}").get_data(as_text=True)
    assert f'value="{original["sender"]}"' in form
    assert f'value="Re: {escape(original["subject"])}"' in form
    assert f", {escape(original['sender_name'])} wrote:" in form
    assert "On " in form
    before = last_id(db)
    client.post(
        "/compose",
        data={
            "to": original["sender"],
            "subject": f"Re: {original['subject']}",
            "body": "Thanks!",
            "reply_to": original["id"],
            "action": "send",
        },
    )
    [reply] = sent_since(db, before)
    assert reply["thread_id"] == original["thread_id"]
    assert reply["in_reply_to"] == original["id"]


def test_reply_all_writes_to_everyone_but_oneself(
    client: FlaskClient, db: sqlite3.Connection, persona: Persona
) -> None:
    original = db.execute(
        "SELECT * FROM messages WHERE cc != '' AND sender != ? AND is_draft = 0 LIMIT 1",
        (persona.email,),
    ).fetchone()
    form = client.get(f"/compose?reply_all={original['id']}").get_data(as_text=True)
    assert f'id="to" name="to" type="text" value="{original["sender"]}"' in form
    assert f'id="cc" name="cc" type="text" value="{original["cc"]}"' in form
    assert persona.email not in form.split('id="to"')[1].split("</div>")[0]


def test_forward_copies_the_attachments(client: FlaskClient, db: sqlite3.Connection) -> None:
    source = db.execute(
        "SELECT m.* FROM messages m JOIN attachments a ON a.message_id = m.id"
        " WHERE m.folder = 'inbox' LIMIT 1"
    ).fetchone()
    form = client.get(f"/compose?forward={source['id']}").get_data(as_text=True)
    assert "---- Forwarded message ----" in form
    assert 'value="Fwd: ' in form
    before = last_id(db)
    client.post(
        "/compose",
        data={
            "to": "friend@example.net",
            "subject": f"Fwd: {source['subject']}",
            "body": "FYI",
            "forward_of": source["id"],
            "action": "send",
        },
    )
    [forward] = sent_since(db, before)
    copied = db.execute(
        "SELECT filename, content FROM attachments WHERE message_id = ?", (forward["id"],)
    ).fetchall()
    original = db.execute(
        "SELECT filename, content FROM attachments WHERE message_id = ?", (source["id"],)
    ).fetchall()
    assert [tuple(row) for row in copied] == [tuple(row) for row in original]


def test_draft_saves_reopens_and_sends_as_one_message(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    before = last_id(db)
    response = client.post(
        "/compose",
        data={
            "to": "zoe@example.org",
            "subject": "Plans",
            "body": "\n\nFirst line\n",
            "action": "save",
        },
    )
    draft = db.execute("SELECT * FROM messages WHERE id > ?", (before,)).fetchone()
    assert (draft["folder"], draft["is_draft"]) == ("drafts", 1)
    assert response.location == f"/compose?draft={draft['id']}"
    page = client.get(response.location).get_data(as_text=True)
    assert 'value="zoe@example.org"' in page and "Edit draft" in page
    assert ">\n\n\nFirst line\n</textarea>" in page
    client.post(
        "/compose",
        data={
            "to": "zoe@example.org",
            "subject": "Plans v2",
            "body": "Done",
            "draft_id": draft["id"],
            "action": "send",
        },
    )
    rows = db.execute("SELECT * FROM messages WHERE id > ?", (before,)).fetchall()
    assert [(row["folder"], row["is_draft"], row["subject"]) for row in rows] == [
        ("sent", 0, "Plans v2")
    ]


def test_discarding_a_draft_deletes_it(client: FlaskClient, db: sqlite3.Connection) -> None:
    draft_id = db.execute("SELECT id FROM messages WHERE folder = 'drafts'").fetchone()[0]
    assert client.post("/compose", data={"draft_id": draft_id, "action": "discard"}).location == "/"
    assert db.execute("SELECT COUNT(*) FROM messages WHERE id = ?", (draft_id,)).fetchone()[0] == 0


def test_contacts_are_offered_for_autocomplete(client: FlaskClient, db: sqlite3.Connection) -> None:
    email = db.execute("SELECT email FROM contacts LIMIT 1").fetchone()[0]
    page = client.get("/compose").get_data(as_text=True)
    assert f'<option value="{email}"' in page and 'list="contact-addresses"' in page
    assert 'value="x@example.com"' in client.get("/compose?to=x@example.com").get_data(as_text=True)


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({}, "to", "Add at least one recipient."),
        ({"to": "   ,  ; "}, "to", "Add at least one recipient."),
        ({"to": "not-an-address"}, "to", "To: “not-an-address” is not a valid email address."),
        ({"to": "a@example.com", "cc": "b@"}, "cc", "Cc: “b@” is not a valid email address."),
        (
            {"to": "a@example.com", "bcc": "Bob <bob>"},
            "bcc",
            "Bcc: “Bob &lt;bob&gt;” is not a valid email address.",
        ),
        (
            {"to": "a@example.com", "subject": "x" * 251},
            "subject",
            "The subject is too long: use at most 250 characters.",
        ),
        (
            {"to": "a@example.com", "body": "x" * 50_001},
            "body",
            "The message is too long: use at most 50,000 characters.",
        ),
    ],
)
def test_invalid_messages_are_not_sent_and_errors_sit_on_their_field(
    client: FlaskClient, db: sqlite3.Connection, fields: dict, field: str, message: str
) -> None:
    before = last_id(db)
    response = client.post("/compose", data={**fields, "action": "send"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f'<p class="error-text" id="{field}-error">{message}</p>' in page
    assert (
        f'aria-describedby="{field}-error"' in page
        or f'aria-describedby="{field}-hint {field}-error"' in page
    )
    assert last_id(db) == before


def test_draft_may_be_saved_without_recipients(client: FlaskClient, db: sqlite3.Connection) -> None:
    before = last_id(db)
    client.post("/compose", data={"subject": "Ideas", "action": "save"})
    assert (
        db.execute("SELECT folder FROM messages WHERE id > ?", (before,)).fetchone()[0] == "drafts"
    )

"""The search box: words, phrases and operators, checked against a direct SQL count."""

from __future__ import annotations

import re
import sqlite3

import pytest
from flask.testing import FlaskClient

OUTSIDE_BIN = "folder NOT IN ('trash', 'spam')"


def result_ids(client: FlaskClient, query: str) -> set[int]:
    page = client.get("/search", query_string={"q": query}).get_data(as_text=True)
    return {int(value) for value in re.findall(r'name="ids" value="(\d+)"', page)}


def ids_where(db: sqlite3.Connection, where: str, *params: object) -> set[int]:
    rows = db.execute(
        f"SELECT m.id FROM messages m WHERE {where} ORDER BY sent_at DESC, id DESC LIMIT 25", params
    )
    return {row[0] for row in rows}


def like(text: str, *columns: str) -> str:
    """SQL true when any of ``columns`` contains ``text``."""
    return "(" + " OR ".join(f"{column} LIKE '%{text}%'" for column in columns) + ")"


TEXT = ("subject", "body", "sender", "sender_name")
TRAVEL = (
    "id IN (SELECT message_id FROM message_labels JOIN labels l ON l.id = label_id"
    " WHERE l.name = 'Travel')"
)


@pytest.mark.parametrize(
    ("query", "where"),
    [
        ("receipt", f"{like('receipt', *TEXT)} AND {OUTSIDE_BIN}"),
        ("from:skyline", f"{like('skyline', 'sender', 'sender_name')} AND {OUTSIDE_BIN}"),
        ("subject:budget", f"subject LIKE '%budget%' AND {OUTSIDE_BIN}"),
        (
            "has:attachment",
            f"EXISTS (SELECT 1 FROM attachments a WHERE a.message_id = m.id) AND {OUTSIDE_BIN}",
        ),
        ("is:unread", f"is_read = 0 AND {OUTSIDE_BIN}"),
        ("is:starred", f"is_starred = 1 AND {OUTSIDE_BIN}"),
        ("label:travel", f"{TRAVEL} AND {OUTSIDE_BIN}"),
        ('"Thanks for your order"', f"{like('Thanks for your order', *TEXT)} AND {OUTSIDE_BIN}"),
        (
            'subject:"quick question" is:read',
            f"subject LIKE '%quick question%' AND is_read = 1 AND {OUTSIDE_BIN}",
        ),
        ("in:spam", "folder = 'spam'"),
        ("in:anywhere gift card", f"{like('gift', *TEXT)} AND {like('card', *TEXT)}"),
        ("has:unicorns", "0"),
        ("100%", "0"),
    ],
)
def test_search_operators_match_the_right_messages(
    client: FlaskClient, db: sqlite3.Connection, query: str, where: str
) -> None:
    expected = ids_where(db, where)
    assert expected or where == "0"
    assert result_ids(client, query) == expected


def test_to_operator_matches_address_or_contact_name(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    contact = db.execute(
        "SELECT c.name, c.email FROM contacts c JOIN messages m ON m.recipients = c.email LIMIT 1"
    ).fetchone()
    by_address = ids_where(
        db,
        f"(recipients LIKE ? OR cc LIKE ? OR bcc LIKE ?) AND {OUTSIDE_BIN}",
        *[f"%{contact['email']}%"] * 3,
    )
    assert by_address
    assert result_ids(client, f"to:{contact['email']}") == by_address
    assert by_address <= result_ids(client, f'to:"{contact["name"]}"')


def test_empty_search_returns_to_the_inbox(client: FlaskClient) -> None:
    assert client.get("/search?q=+").location == "/"


def test_no_results_page_explains_the_operators(client: FlaskClient) -> None:
    page = client.get("/search?q=zzzyxq").get_data(as_text=True)
    assert "No messages match your search." in page
    assert 'value="zzzyxq"' in page

"""Arbitrary form input never breaks the site (no 5xx) and never loses stored data."""

from __future__ import annotations

import sqlite3

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ODD_VALUES = [
    "",
    " ",
    "0",
    "-1",
    "1",
    "2",
    "99999999999999999999",
    "a@b.co",
    "x" * 300,
    "<script>alert(1)</script>",
    "²",
    "١٢",
    "Ann <ann@example.com>, bad",
    "inbox",
    "trash",
    "%_\\",
]
values = st.one_of(
    st.sampled_from(ODD_VALUES),
    st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40),
)

#: Form routes and the fields they read. Actions that delete on purpose (delete forever,
#: discard a draft, delete a contact or label) are left out: everything else must keep data.
ROUTES = [
    ("/login", ("login", "password", "next")),
    ("/compose", ("to", "cc", "bcc", "subject", "body", "draft_id", "reply_to", "forward_of")),
    ("/messages/bulk", ("ids", "folder", "label_id", "next")),
    ("/thread/1/action", ("folder", "label_id", "next")),
    ("/message/1/star", ("next",)),
    ("/contacts/new", ("name", "email", "phone", "company", "notes")),
    ("/contacts/1/edit", ("name", "email", "phone", "company", "notes")),
    ("/labels", ("name", "next")),
]
SAFE_ACTIONS = [
    "send",
    "save",
    "archive",
    "trash",
    "read",
    "unread",
    "move",
    "label",
    "unlabel",
    "restore",
    "star",
    "unstar",
    "",
    "bogus",
]


def totals(db: sqlite3.Connection) -> tuple[int, int, int, int]:
    return tuple(
        db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        for table in ("messages", "contacts", "labels", "attachments")
    )


@pytest.mark.parametrize(("url", "fields"), ROUTES, ids=[route[0] for route in ROUTES])
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_form_routes_never_fail_or_lose_data(
    client: FlaskClient,
    db: sqlite3.Connection,
    url: str,
    fields: tuple[str, ...],
    data: st.DataObject,
) -> None:
    form = {name: data.draw(values, label=name) for name in fields}
    form["action"] = data.draw(st.sampled_from(SAFE_ACTIONS), label="action")
    contact_before = db.execute("SELECT * FROM contacts WHERE id = 1").fetchone()
    before = totals(db)
    response = client.post(url, data=form)
    assert response.status_code < 500
    assert all(after >= was for after, was in zip(totals(db), before, strict=True))
    if response.status_code >= 400:
        assert tuple(db.execute("SELECT * FROM contacts WHERE id = 1").fetchone()) == tuple(
            contact_before
        )


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=values, page=values)
def test_search_never_fails(client: FlaskClient, query: str, page: str) -> None:
    response = client.get("/search", query_string={"q": query, "page": page})
    assert response.status_code in (200, 302)

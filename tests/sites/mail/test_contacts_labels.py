"""The address book and label management, with their validation."""

from __future__ import annotations

import sqlite3

import pytest
from flask.testing import FlaskClient

VALID = {
    "name": "Rosa Diaz",
    "email": "Rosa.Diaz@Example.com",
    "phone": "(555) 201-3344",
    "company": "Nine-Nine",
    "notes": "Met at the precinct.",
}


def test_contacts_are_listed_by_name_and_filtered(
    client: FlaskClient, db: sqlite3.Connection
) -> None:
    page = client.get("/contacts").get_data(as_text=True)
    emails = [
        row[0] for row in db.execute("SELECT email FROM contacts ORDER BY name COLLATE NOCASE, id")
    ]
    positions = [page.index(f"<td>{email}</td>") for email in emails]
    assert positions == sorted(positions)
    filtered = client.get("/contacts?q=Skyline").get_data(as_text=True)
    assert filtered.count("<td>") // 3 == 1 and "reservations@skylineairways.com" in filtered


@pytest.mark.parametrize("query", ["%", "_", "%%", "\\"])
def test_a_search_for_a_wildcard_finds_that_character_not_every_contact(
    client: FlaskClient, db: sqlite3.Connection, query: str
) -> None:
    client.post("/contacts/new", data={**VALID, "company": f"100{query} Nine-Nine"})
    found = client.get("/contacts", query_string={"q": query}).get_data(as_text=True)
    assert found.count("<td>") // 3 == 1 and "rosa.diaz@example.com" in found


def test_add_contact_stores_trimmed_values(client: FlaskClient, db: sqlite3.Connection) -> None:
    response = client.post("/contacts/new", data={**VALID, "name": "  Rosa Diaz "})
    assert response.location == "/contacts"
    row = db.execute("SELECT * FROM contacts WHERE email = 'rosa.diaz@example.com'").fetchone()
    assert (row["name"], row["phone"], row["company"], row["notes"], row["user_id"]) == (
        "Rosa Diaz",
        "(555) 201-3344",
        "Nine-Nine",
        "Met at the precinct.",
        1,
    )


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("555.201.3344", "(555) 201-3344"),
        ("+1 555 201 3344", "(555) 201-3344"),
        ("5552013344", "(555) 201-3344"),
        (" (555) 201-3344 ", "(555) 201-3344"),
        ("+44 20 7946 0958", "+44 20 7946 0958"),
    ],
)
def test_phone_numbers_are_stored_in_one_form(
    client: FlaskClient, db: sqlite3.Connection, typed: str, stored: str
) -> None:
    client.post("/contacts/new", data={**VALID, "phone": typed})
    row = db.execute("SELECT phone FROM contacts WHERE email = 'rosa.diaz@example.com'").fetchone()
    assert row["phone"] == stored


def test_edit_contact_changes_it(client: FlaskClient, db: sqlite3.Connection) -> None:
    contact = db.execute("SELECT * FROM contacts LIMIT 1").fetchone()
    form = client.get(f"/contacts/{contact['id']}/edit").get_data(as_text=True)
    assert f'value="{contact["email"]}"' in form
    client.post(f"/contacts/{contact['id']}/edit", data={**VALID, "email": contact["email"]})
    row = db.execute("SELECT * FROM contacts WHERE id = ?", (contact["id"],)).fetchone()
    assert (row["name"], row["email"]) == ("Rosa Diaz", contact["email"])
    assert client.get("/contacts/99999/edit").status_code == 404


def test_delete_contact(client: FlaskClient, db: sqlite3.Connection) -> None:
    contact_id = db.execute("SELECT id FROM contacts LIMIT 1").fetchone()[0]
    client.post(f"/contacts/{contact_id}/delete")
    assert (
        db.execute("SELECT COUNT(*) FROM contacts WHERE id = ?", (contact_id,)).fetchone()[0] == 0
    )


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"name": "  "}, "name", "Enter a name."),
        ({"name": "x" * 101}, "name", "A name is too long: use at most 100 characters."),
        ({"email": ""}, "email", "Enter an email address."),
        ({"email": "rosa@"}, "email", "Enter a valid email address, like name@example.com."),
        ({"phone": "call me"}, "phone", "Enter a valid phone number, like (555) 123-4567."),
        ({"phone": "12-34"}, "phone", "Enter a valid phone number, like (555) 123-4567."),
        ({"company": "c" * 101}, "company", "The company is too long: use at most 100 characters."),
        ({"notes": "n" * 2001}, "notes", "The notes is too long: use at most 2000 characters."),
    ],
)
def test_invalid_contacts_are_refused_with_a_message_on_the_field(
    client: FlaskClient, db: sqlite3.Connection, changes: dict, field: str, message: str
) -> None:
    count = db.execute("SELECT COUNT(*) FROM contacts").fetchone()[0]
    response = client.post("/contacts/new", data={**VALID, **changes})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert f'<p class="error-text" id="{field}-error">{message}</p>' in page
    assert db.execute("SELECT COUNT(*) FROM contacts").fetchone()[0] == count


def test_duplicate_contact_email_is_refused(client: FlaskClient, db: sqlite3.Connection) -> None:
    existing = db.execute("SELECT name, email FROM contacts LIMIT 1").fetchone()
    response = client.post("/contacts/new", data={**VALID, "email": existing["email"].upper()})
    assert response.status_code == 400
    assert f"{existing['name']} already has this email address." in response.get_data(as_text=True)


def test_create_and_delete_a_label(client: FlaskClient, db: sqlite3.Connection) -> None:
    assert client.post("/labels", data={"name": "  Side   projects "}).location == "/labels"
    label_id = db.execute("SELECT id FROM labels WHERE name = 'Side projects'").fetchone()[0]
    assert "Side projects" in client.get("/").get_data(as_text=True)
    client.post(f"/labels/{label_id}/delete")
    assert db.execute("SELECT COUNT(*) FROM labels WHERE id = ?", (label_id,)).fetchone()[0] == 0
    assert client.post("/labels/99999/delete").status_code == 404


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Enter a label name."),
        ("x" * 41, "A label name is too long: use at most 40 characters."),
        ("a/b", "Use only letters, numbers, spaces and . &amp; &#39; + - _ in a label name."),
        ("work", "A label named “work” already exists."),
        ("Inbox", "“Inbox” is the name of a folder; choose another name."),
    ],
)
def test_invalid_label_names_are_refused(
    client: FlaskClient, db: sqlite3.Connection, name: str, message: str
) -> None:
    response = client.post("/labels", data={"name": name})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert db.execute("SELECT COUNT(*) FROM labels").fetchone()[0] == 4

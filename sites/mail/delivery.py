"""Delivering another site's e-mail into the persona's Inbox (a Python API, never a route)."""

from __future__ import annotations

import os
import sqlite3

from ..common import Message
from .addresses import join_addresses, parse_addresses
from .db import connect
from .store import NewMessage, add_attachment, insert_message, thread_for_subject


def _store(connection: sqlite3.Connection, message: Message) -> int:
    with connection:
        thread_id = thread_for_subject(connection, message.subject)
        sent_at = message.date.replace(microsecond=0).isoformat()
        message_id = insert_message(
            connection,
            NewMessage(
                thread_id=thread_id,
                folder="inbox",
                sender=message.sender.strip().lower(),
                sender_name=message.sender_name,
                recipients=join_addresses(parse_addresses(message.to).valid),
                subject=message.subject,
                body=message.body,
                sent_at=sent_at,
            ),
        )
        for attachment in message.attachments:
            add_attachment(
                connection,
                message_id,
                attachment.filename,
                attachment.content_type,
                attachment.content,
            )
    return message_id


def deliver(db_path_or_conn: str | os.PathLike[str] | sqlite3.Connection, message: Message) -> int:
    """Put ``message`` into the Inbox, unread, in the thread of its subject; return its id."""
    if isinstance(db_path_or_conn, sqlite3.Connection):
        return _store(db_path_or_conn, message)
    connection = connect(os.fspath(db_path_or_conn))
    try:
        return _store(connection, message)
    finally:
        connection.close()

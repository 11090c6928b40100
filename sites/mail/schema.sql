-- The persona's mailbox. Dates are ISO 8601 text (naive UTC); address lists are lower-cased
-- bare addresses joined by ", " in the order they were entered, without duplicates.

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL
);

CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    relationship TEXT NOT NULL DEFAULT 'other',
    UNIQUE (user_id, email)
);

CREATE TABLE threads (
    id INTEGER PRIMARY KEY,
    subject TEXT NOT NULL,
    subject_key TEXT NOT NULL
);

CREATE INDEX threads_by_subject_key ON threads (subject_key);

CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: the diff tells delivered mail by id
    thread_id INTEGER NOT NULL REFERENCES threads (id),
    folder TEXT NOT NULL
        CHECK (folder IN ('inbox', 'sent', 'drafts', 'archive', 'trash', 'spam')),
    sender TEXT NOT NULL,
    sender_name TEXT NOT NULL,
    recipients TEXT NOT NULL DEFAULT '',
    cc TEXT NOT NULL DEFAULT '',
    bcc TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    sent_at TEXT NOT NULL,
    is_read INTEGER NOT NULL DEFAULT 0,
    -- When the user last opened it unread (its thread's page marks it read): set only then, so
    -- that a message read by opening it is told from one marked read from a list.
    opened_at TEXT,
    is_starred INTEGER NOT NULL DEFAULT 0,
    is_draft INTEGER NOT NULL DEFAULT 0,
    in_reply_to INTEGER REFERENCES messages (id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);

CREATE INDEX messages_by_folder ON messages (folder, sent_at);
CREATE INDEX messages_by_thread ON messages (thread_id, sent_at);

CREATE TABLE labels (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    name TEXT NOT NULL COLLATE NOCASE,
    UNIQUE (user_id, name)
);

CREATE TABLE message_labels (
    message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    label_id INTEGER NOT NULL REFERENCES labels (id) ON DELETE CASCADE,
    PRIMARY KEY (message_id, label_id)
);

CREATE TABLE attachments (
    id INTEGER PRIMARY KEY,
    message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    content BLOB NOT NULL
);

CREATE INDEX attachments_by_message ON attachments (message_id);

-- Every message the user sent, as it went out. Mail that left cannot be unsent: the database
-- writes a row here whenever a message enters Sent (composed and sent, or a draft sent), and
-- no page changes or removes one, so moving the message to the Trash or deleting it forever
-- leaves its record. ``message_id`` names the message as it was filed (it may be gone since).
CREATE TABLE sent_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id INTEGER NOT NULL,
    thread_id INTEGER NOT NULL,
    in_reply_to INTEGER,
    sender TEXT NOT NULL,
    recipients TEXT NOT NULL,
    cc TEXT NOT NULL,
    bcc TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_at TEXT NOT NULL
);

CREATE TRIGGER sent_log_on_send AFTER INSERT ON messages
WHEN NEW.folder = 'sent' AND NEW.is_draft = 0
BEGIN
    INSERT INTO sent_log (message_id, thread_id, in_reply_to, sender, recipients, cc, bcc,
                          subject, body, sent_at)
    VALUES (NEW.id, NEW.thread_id, NEW.in_reply_to, NEW.sender, NEW.recipients, NEW.cc, NEW.bcc,
            NEW.subject, NEW.body, NEW.sent_at);
END;

CREATE TRIGGER sent_log_on_draft_sent AFTER UPDATE OF is_draft ON messages
WHEN OLD.is_draft = 1 AND NEW.is_draft = 0
BEGIN
    INSERT INTO sent_log (message_id, thread_id, in_reply_to, sender, recipients, cc, bcc,
                          subject, body, sent_at)
    VALUES (NEW.id, NEW.thread_id, NEW.in_reply_to, NEW.sender, NEW.recipients, NEW.cc, NEW.bcc,
            NEW.subject, NEW.body, NEW.sent_at);
END;

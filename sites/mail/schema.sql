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

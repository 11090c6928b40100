-- Help centre: articles and their revisions, and the user's support tickets.

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL
);

CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  service TEXT NOT NULL CHECK (service IN ('shop', 'forms')),
  summary TEXT NOT NULL,
  position INTEGER NOT NULL
);

CREATE TABLE articles (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  category_id INTEGER NOT NULL REFERENCES categories (id),
  title TEXT NOT NULL,
  summary TEXT NOT NULL,
  is_policy INTEGER NOT NULL DEFAULT 0,
  views INTEGER NOT NULL DEFAULT 0
);

-- Every published version of an article; the highest number is the current one.
CREATE TABLE revisions (
  id INTEGER PRIMARY KEY,
  article_id INTEGER NOT NULL REFERENCES articles (id),
  number INTEGER NOT NULL,
  body TEXT NOT NULL,
  note TEXT NOT NULL,
  published_at TEXT NOT NULL,
  UNIQUE (article_id, number)
);

CREATE TABLE tickets (
  id INTEGER PRIMARY KEY,
  number TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL REFERENCES users (id),
  topic TEXT NOT NULL,
  reference TEXT NOT NULL DEFAULT '',
  subject TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'awaiting_reply', 'resolved')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE ticket_messages (
  id INTEGER PRIMARY KEY,
  ticket_id INTEGER NOT NULL REFERENCES tickets (id),
  from_support INTEGER NOT NULL,
  author TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL
);

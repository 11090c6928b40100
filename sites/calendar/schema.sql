-- Northwind Calendar: the persona's calendar, the colleagues in it, and the replies sent.

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT UNIQUE NOT NULL,
  password_hash TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  timezone TEXT NOT NULL
);

CREATE TABLE people (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT UNIQUE NOT NULL,
  team TEXT NOT NULL,
  timezone TEXT NOT NULL
);

-- A recurring event's occurrences are rows of events sharing series_id; one moved or
-- cancelled on its own is marked is_exception.
CREATE TABLE series (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  rule TEXT NOT NULL
);

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  series_id INTEGER REFERENCES series (id),
  is_exception INTEGER NOT NULL DEFAULT 0,
  title TEXT NOT NULL,
  starts_at TEXT NOT NULL,
  ends_at TEXT NOT NULL,
  location TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  organizer_email TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled')),
  updated_at TEXT NOT NULL
);
CREATE INDEX events_by_start ON events (starts_at);

CREATE TABLE invitees (
  id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  name TEXT NOT NULL,
  response TEXT NOT NULL DEFAULT 'none'
    CHECK (response IN ('accepted', 'declined', 'tentative', 'none')),
  UNIQUE (event_id, email)
);

-- Every reply the user sent an organizer (kept when the event goes).
CREATE TABLE replies (
  id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL,
  organizer_email TEXT NOT NULL,
  response TEXT NOT NULL,
  sent_at TEXT NOT NULL
);

-- Civic Forms portal: accounts, reference data, drafts in progress and submitted forms.

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  username TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  phone TEXT NOT NULL,
  birthdate TEXT NOT NULL,
  street TEXT NOT NULL,
  street2 TEXT NOT NULL DEFAULT '',
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE offices (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  street TEXT NOT NULL,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  zip TEXT NOT NULL,
  phone TEXT NOT NULL
);

CREATE TABLE slots (
  id INTEGER PRIMARY KEY,
  office_id INTEGER NOT NULL REFERENCES offices (id),
  starts_at TEXT NOT NULL,
  taken INTEGER NOT NULL DEFAULT 0,
  submission_id INTEGER REFERENCES submissions (id),
  UNIQUE (office_id, starts_at)
);

CREATE TABLE expense_categories (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  limit_cents INTEGER
);

CREATE TABLE job_openings (
  id INTEGER PRIMARY KEY,
  reference TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  department TEXT NOT NULL,
  location TEXT NOT NULL,
  salary_min_cents INTEGER NOT NULL,
  salary_max_cents INTEGER NOT NULL,
  closes_on TEXT NOT NULL,
  summary TEXT NOT NULL
);

CREATE TABLE policies (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  policy_number TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('vehicle', 'property')),
  insured_item TEXT NOT NULL,
  registration TEXT,
  starts_on TEXT NOT NULL,
  ends_on TEXT NOT NULL
);

CREATE TABLE drafts (
  id INTEGER PRIMARY KEY,
  form_slug TEXT NOT NULL,
  resume_code TEXT NOT NULL UNIQUE,
  user_id INTEGER REFERENCES users (id),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'saved', 'submitted')),
  data_json TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE submissions (
  id INTEGER PRIMARY KEY,
  form_slug TEXT NOT NULL,
  confirmation TEXT NOT NULL UNIQUE,
  user_id INTEGER REFERENCES users (id),
  status TEXT NOT NULL,
  submitted_at TEXT NOT NULL,
  data_json TEXT NOT NULL
);

CREATE TABLE uploads (
  id INTEGER PRIMARY KEY,
  submission_id INTEGER REFERENCES submissions (id),
  draft_id INTEGER REFERENCES drafts (id),
  field TEXT NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  content BLOB NOT NULL
);

CREATE INDEX slots_by_office_time ON slots (office_id, starts_at);
CREATE INDEX drafts_by_user ON drafts (user_id);
CREATE INDEX submissions_by_user ON submissions (user_id);
CREATE INDEX uploads_by_draft ON uploads (draft_id);
CREATE INDEX uploads_by_submission ON uploads (submission_id);

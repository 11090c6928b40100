"""Forms in progress: drafts with their raw answers, resume codes and uploaded files.

Every answer is saved as it is posted, valid or not, so nothing an applicant types is lost;
a resume code lets them come back later from any browser.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime

from werkzeug.datastructures import FileStorage

from .fields import Answers, Field

RESUME_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_FILES_PER_FIELD = 5


@dataclass(frozen=True)
class Draft:
    id: int
    form_slug: str
    resume_code: str
    user_id: int | None
    status: str
    answers: Answers
    updated_at: str


def resume_code_for(draft_id: int, form_slug: str, created_at: str) -> str:
    """The draft's resume code, like ``K7QM-4TZP``: derived from the draft row itself."""
    digest = hashlib.sha256(f"resume|{draft_id}|{form_slug}|{created_at}".encode()).digest()
    letters = "".join(RESUME_ALPHABET[byte % len(RESUME_ALPHABET)] for byte in digest[:8])
    return f"{letters[:4]}-{letters[4:]}"


def normalise_code(text: str) -> str:
    """A resume code as typed (any case, spaces or dashes) in its canonical ``XXXX-XXXX`` form."""
    letters = re.sub(r"[^A-Z0-9]", "", text.upper())[:16]
    return f"{letters[:4]}-{letters[4:]}"


def create_draft(db: sqlite3.Connection, form_slug: str, user_id: int | None, now: str) -> int:
    """A new empty draft of ``form_slug``; returns its id."""
    cursor = db.execute(
        "INSERT INTO drafts (form_slug, resume_code, user_id, created_at, updated_at)"
        " VALUES (?, '', ?, ?, ?)",
        (form_slug, user_id, now, now),
    )
    draft_id = int(cursor.lastrowid or 0)
    db.execute(
        "UPDATE drafts SET resume_code = ? WHERE id = ?",
        (resume_code_for(draft_id, form_slug, now), draft_id),
    )
    return draft_id


def _draft_from_row(row: sqlite3.Row | None) -> Draft | None:
    if row is None:
        return None
    return Draft(
        id=row["id"],
        form_slug=row["form_slug"],
        resume_code=row["resume_code"],
        user_id=row["user_id"],
        status=row["status"],
        answers=json.loads(row["data_json"]),
        updated_at=row["updated_at"],
    )


def load_draft(db: sqlite3.Connection, draft_id: int) -> Draft | None:
    return _draft_from_row(db.execute("SELECT * FROM drafts WHERE id = ?", (draft_id,)).fetchone())


def find_draft_by_code(db: sqlite3.Connection, code: str) -> Draft | None:
    row = db.execute(
        "SELECT * FROM drafts WHERE resume_code = ? AND status != 'submitted'",
        (normalise_code(code),),
    ).fetchone()
    return _draft_from_row(row)


def save_answers(
    db: sqlite3.Connection, draft_id: int, answers: Answers, now: str, status: str | None = None
) -> None:
    """Store the draft's raw answers (and optionally a new status)."""
    db.execute(
        "UPDATE drafts SET data_json = ?, updated_at = ?, status = COALESCE(?, status)"
        " WHERE id = ?",
        (json.dumps(answers, ensure_ascii=False, sort_keys=True), now, status, draft_id),
    )


def claim_draft(db: sqlite3.Connection, draft_id: int, user_id: int) -> None:
    """Tie an anonymous draft to the account that is now signed in."""
    db.execute(
        "UPDATE drafts SET user_id = ? WHERE id = ? AND user_id IS NULL", (user_id, draft_id)
    )


def draft_uploads(db: sqlite3.Connection, draft_id: int | None) -> dict[str, list[sqlite3.Row]]:
    """The draft's uploaded files by field name, oldest first."""
    files: dict[str, list[sqlite3.Row]] = {}
    if draft_id is None:
        return files
    rows = db.execute(
        "SELECT id, field, filename, content_type, size, sha256 FROM uploads"
        " WHERE draft_id = ? ORDER BY id",
        (draft_id,),
    )
    for row in rows:
        files.setdefault(row["field"], []).append(row)
    return files


def store_upload(
    db: sqlite3.Connection, draft_id: int, spec: Field, upload: FileStorage, already: int
) -> str | None:
    """Save one uploaded file for ``spec``; returns an error message if it is refused.

    A single-file field keeps only the newest file; a multiple one keeps up to a limit.
    """
    filename = (upload.filename or "").replace("\\", "/").rsplit("/", 1)[-1][:200]
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    kinds = [e.upper() for e in spec.accept]
    allowed = f"{', '.join(kinds[:-1])} or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
    if extension not in spec.accept:
        return f"{filename or 'The selected file'} must be a {allowed} file"
    content = upload.read(MAX_FILE_BYTES + 1)
    if not content:
        return f"{filename} is empty"
    if len(content) > MAX_FILE_BYTES:
        return f"{filename} must be smaller than 5 MB"
    if spec.multiple and already >= MAX_FILES_PER_FIELD:
        return f"You can upload up to {MAX_FILES_PER_FIELD} files for {spec.label.lower()}"
    if not spec.multiple:
        db.execute("DELETE FROM uploads WHERE draft_id = ? AND field = ?", (draft_id, spec.name))
    db.execute(
        "INSERT INTO uploads (draft_id, field, filename, content_type, size, sha256, content)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            draft_id,
            spec.name,
            filename,
            mimetypes.guess_type(filename)[0] or "application/octet-stream",
            len(content),
            hashlib.sha256(content).hexdigest(),
            content,
        ),
    )
    return None


def delete_upload(db: sqlite3.Connection, draft_id: int, upload_id: int) -> None:
    db.execute("DELETE FROM uploads WHERE id = ? AND draft_id = ?", (upload_id, draft_id))


def attach_uploads(db: sqlite3.Connection, draft_id: int, submission_id: int) -> None:
    """Move the draft's files onto its submission."""
    db.execute(
        "UPDATE uploads SET submission_id = ?, draft_id = NULL WHERE draft_id = ?",
        (submission_id, draft_id),
    )


def stamp(now: datetime) -> str:
    """A timestamp as stored in the database."""
    return now.isoformat(timespec="seconds")

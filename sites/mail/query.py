"""The search language of the search box: words, "quoted phrases" and operators.

Operators: ``from:``, ``to:`` (To, Cc or Bcc), ``subject:``, ``label:``, ``in:<folder>`` (or
``in:anywhere``), ``has:attachment``, ``is:unread``, ``is:read``, ``is:starred``. Values may be
quoted (``subject:"lunch on friday"``). Every term must match. Without ``in:``, the Trash and
Spam are left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..common import like_pattern
from .listing import NOT_BINNED, Filter
from .store import FOLDERS

_TOKEN = re.compile(
    r'(?P<operator>[A-Za-z]+):(?:"(?P<quoted_value>[^"]*)"?|(?P<value>\S+))'
    r'|"(?P<phrase>[^"]*)"?'
    r"|(?P<word>\S+)"
)
_MATCHES_NOTHING = Filter("0")
_FLAGS = {
    "unread": Filter("m.is_read = 0"),
    "read": Filter("m.is_read = 1"),
    "starred": Filter("m.is_starred = 1"),
}


@dataclass(frozen=True)
class Term:
    """One term of a query: an operator and its value, or free text (operator ``""``)."""

    operator: str
    value: str


def _any_column_like(columns: tuple[str, ...], value: str) -> Filter:
    sql = " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in columns)
    return Filter(f"({sql})", (like_pattern(value),) * len(columns))


def _text(value: str) -> Filter:
    return _any_column_like(("m.subject", "m.body", "m.sender", "m.sender_name"), value)


def _from(value: str) -> Filter:
    return _any_column_like(("m.sender", "m.sender_name"), value)


def _to(value: str) -> Filter:
    """Recipients by address, or by the name of a contact whose address they hold."""
    by_address = _any_column_like(("m.recipients", "m.cc", "m.bcc"), value)
    by_name = Filter(
        "EXISTS (SELECT 1 FROM contacts c WHERE c.name LIKE ? ESCAPE '\\' AND"
        " (', ' || m.recipients || ', ' || m.cc || ', ' || m.bcc || ', ')"
        " LIKE '%, ' || c.email || ', %')",
        (like_pattern(value),),
    )
    return Filter(f"({by_address.sql} OR {by_name.sql})", by_address.params + by_name.params)


def _subject(value: str) -> Filter:
    return _any_column_like(("m.subject",), value)


def _label(value: str) -> Filter:
    return Filter(
        "EXISTS (SELECT 1 FROM message_labels ml JOIN labels l ON l.id = ml.label_id"
        " WHERE ml.message_id = m.id AND l.name = ?)",
        (value,),
    )


def _has(value: str) -> Filter:
    if value.lower() in ("attachment", "attachments"):
        return Filter("EXISTS (SELECT 1 FROM attachments a WHERE a.message_id = m.id)")
    return _MATCHES_NOTHING


def _is(value: str) -> Filter:
    return _FLAGS.get(value.lower(), _MATCHES_NOTHING)


def _in(value: str) -> Filter:
    folder = value.lower()
    if folder in ("anywhere", "all"):
        return Filter("1")
    return Filter("m.folder = ?", (folder,)) if folder in FOLDERS else _MATCHES_NOTHING


_OPERATORS: dict[str, Callable[[str], Filter]] = {
    "from": _from,
    "to": _to,
    "subject": _subject,
    "label": _label,
    "has": _has,
    "is": _is,
    "in": _in,
}


def parse_query(text: str) -> list[Term]:
    """The terms of a query; unknown operators are searched for as plain text."""
    terms = []
    for match in _TOKEN.finditer(text):
        operator = (match.group("operator") or "").lower()
        if operator in _OPERATORS:
            value = match.group("quoted_value") or match.group("value") or ""
            if value.strip():
                terms.append(Term(operator, value.strip()))
        elif match.group("phrase") is not None:
            if match.group("phrase").strip():
                terms.append(Term("", match.group("phrase").strip()))
        else:
            terms.append(Term("", match.group(0)))
    return terms


def search_filter(terms: list[Term]) -> Filter:
    """The condition matching every term (all messages outside Trash and Spam if none)."""
    conditions = [
        _OPERATORS[term.operator](term.value) if term.operator else _text(term.value)
        for term in terms
    ]
    if not any(term.operator == "in" for term in terms):
        conditions.append(Filter(NOT_BINNED))
    sql = " AND ".join(condition.sql for condition in conditions)
    return Filter(sql, tuple(param for condition in conditions for param in condition.params))

"""Forms declared as data: fields, repeated groups, steps and whole forms.

Each form of the portal is a :class:`FormSpec`; one generic wizard renders, validates, saves
and submits them all, so every form behaves the same way for people and agents alike.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

#: Raw answers of a draft: field name → posted text, group name → list of rows of posted text.
Answers = dict[str, Any]

#: Kinds of input a field can be; each has a parser in ``values.py`` and a macro in templates.
FIELD_KINDS = frozenset(
    {
        "text", "email", "tel", "number", "money", "date", "time", "password", "textarea",
        "select", "radio", "checkbox", "file", "calendar",
    }
)  # fmt: skip


@dataclass(frozen=True)
class FormContext:
    """What a form needs to know about the world while it validates or renders."""

    db: sqlite3.Connection
    now: datetime
    user: sqlite3.Row | None
    answers: Answers


@dataclass(frozen=True)
class Choice:
    """One option of a select, radio group or calendar."""

    value: str
    label: str
    disabled: bool = False
    hint: str = ""


ChoiceSource = Sequence[Choice] | Callable[[FormContext], Sequence[Choice]]
#: A check on a parsed value; returns an error message or None.
Validator = Callable[[Any, FormContext], str | None]


@dataclass(frozen=True)
class Field:
    """One question of a form."""

    name: str
    label: str
    kind: str = "text"
    required: bool = True
    hint: str = ""
    choices: ChoiceSource = ()
    max_length: int = 200
    minimum: int | None = None
    maximum: int | None = None
    validators: tuple[Validator, ...] = ()
    autocomplete: str = ""
    width: str = ""
    accept: tuple[str, ...] = ()
    multiple: bool = False
    missing: str = ""
    prefill: Callable[[FormContext], str] | None = None

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")

    @property
    def short_label(self) -> str:
        """The label without its "(optional)" marker, for messages."""
        return self.label.removesuffix(" (optional)")

    def options(self, ctx: FormContext) -> Sequence[Choice]:
        """The field's choices, computed from the world when they depend on it."""
        return self.choices(ctx) if callable(self.choices) else self.choices

    def missing_message(self) -> str:
        """What to say when a required answer is empty."""
        if self.missing:
            return self.missing
        label = self.short_label[0].lower() + self.short_label[1:]
        if self.kind in {"select", "radio", "calendar"}:
            return f"Select {label}"
        if self.kind == "file":
            return f"Upload {label}"
        return f"Enter {label}"


@dataclass(frozen=True)
class Group:
    """Rows of the same fields that the applicant adds and removes (line items, jobs)."""

    name: str
    item_label: str
    fields: tuple[Field, ...]
    add_label: str
    min_rows: int = 1
    max_rows: int = 10


#: A cross-field check of a step: parsed values → {field id (``wizard.field_id``): message}.
StepCheck = Callable[[Mapping[str, Any], FormContext], dict[str, str]]


@dataclass(frozen=True)
class Step:
    """One page of a form. ``when`` makes it conditional on earlier answers."""

    slug: str
    title: str
    fields: tuple[Field, ...] = ()
    group: Group | None = None
    intro: str = ""
    when: Callable[[Answers], bool] | None = None
    check: StepCheck | None = None

    def applies(self, answers: Answers) -> bool:
        return self.when is None or self.when(answers)

    def has_files(self) -> bool:
        return any(f.kind == "file" for f in self.fields)


#: What a form does to the world when submitted, besides storing the submission.
SubmitHook = Callable[[sqlite3.Connection, Mapping[str, Any], int, FormContext], None]


@dataclass(frozen=True)
class FormSpec:
    """A whole form: its steps, what the applicant needs, and what submitting it does."""

    slug: str
    #: Prefix of the form's confirmation numbers, like ``CLM``.
    code: str
    title: str
    summary: str
    minutes: int
    steps: tuple[Step, ...]
    #: The label of the button on the review page that submits the form.
    submit_label: str
    #: The heading of the confirmation page, like "Claim submitted".
    done_title: str
    login_required: bool = False
    you_need: tuple[str, ...] = ()
    declaration: str = "I confirm that the information I have given is true and complete."
    next_steps: str = ""
    #: The field whose address receives the confirmation e-mail (else the account's e-mail).
    email_field: str = ""
    #: Fields used on submit (a password) but never stored in the submission.
    secret_fields: tuple[str, ...] = ()
    #: Extra values computed from the answers and stored with them (a total).
    derive: Callable[[Mapping[str, Any], FormContext], dict[str, Any]] | None = None
    #: Label and text pairs the confirmation page and e-mail show (the appointment's time).
    highlights: Callable[[Mapping[str, Any], FormContext], list[tuple[str, str]]] | None = None
    on_submit: SubmitHook | None = None

    def step(self, slug: str) -> Step | None:
        return next((s for s in self.steps if s.slug == slug), None)

    def applicable_steps(self, answers: Answers) -> list[Step]:
        return [s for s in self.steps if s.applies(answers)]

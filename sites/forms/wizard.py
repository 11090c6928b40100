"""The generic multi-step form engine: read posted answers, validate steps, collect values.

Raw answers are kept exactly as posted (see ``drafts.py``); parsing them into normalised values
happens here, step by step, so the same rules apply on each step, on review and on submit.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .fields import Answers, Field, FormContext, FormSpec, Group, Step
from .values import MAX_RAW_LENGTH, Invalid, parse_value


def field_id(name: str, row: int | None = None, group: str = "") -> str:
    """The HTML id (and posted name, after the prefix) of a field, or of a field in a row."""
    return f"field-{group}-{row}-{name}" if row is not None else f"field-{name}"


def input_name(spec: Field, row: int | None = None, group: str = "") -> str:
    return f"{group}-{row}-{spec.name}" if row is not None else spec.name


@dataclass
class StepResult:
    """Parsed values of one step and its errors keyed by field id, in page order."""

    values: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def _raw(posted: Mapping[str, str], name: str) -> str:
    return str(posted.get(name, ""))[:MAX_RAW_LENGTH]


def read_step(step: Step, posted: Mapping[str, str], answers: Answers) -> Answers:
    """The answers with this step's posted values merged in (files are stored separately)."""
    merged = dict(answers)
    for spec in step.fields:
        if spec.kind != "file":
            merged[spec.name] = _raw(posted, spec.name)
    if step.group:
        merged[step.group.name] = [
            {
                spec.name: _raw(posted, input_name(spec, row, step.group.name))
                for spec in step.group.fields
            }
            for row in range(_posted_row_count(step.group, posted))
        ]
    return merged


def _posted_row_count(group: Group, posted: Mapping[str, str]) -> int:
    try:
        count = int(str(posted.get(f"{group.name}-rows", "0")))
    except ValueError:
        count = 0
    return max(0, min(count, group.max_rows))


def group_rows(group: Group, answers: Answers) -> list[dict[str, str]]:
    """The group's rows as answered so far; at least ``min_rows`` (blank) rows to fill in."""
    stored = answers.get(group.name)
    rows = [dict(r) for r in stored if isinstance(r, dict)] if isinstance(stored, list) else []
    while len(rows) < max(group.min_rows, 1):
        rows.append({})
    return rows


def add_row(group: Group, answers: Answers) -> Answers:
    rows = group_rows(group, answers)
    if len(rows) < group.max_rows:
        rows.append({})
    return {**answers, group.name: rows}


def remove_row(group: Group, answers: Answers, index: int) -> Answers:
    rows = group_rows(group, answers)
    if 0 <= index < len(rows):
        del rows[index]
    return {**answers, group.name: rows}


def _blank(row: Mapping[str, str]) -> bool:
    return not any(str(v).strip() for v in row.values())


def _parse_into(
    spec: Field, raw: str, ctx: FormContext, key: str, result: StepResult, into: dict[str, Any]
) -> None:
    try:
        into[spec.name] = parse_value(spec, raw, ctx)
    except Invalid as problem:
        result.errors[key] = str(problem)


def validate_step(
    step: Step, ctx: FormContext, uploads: Mapping[str, list[sqlite3.Row]]
) -> StepResult:
    """Parse every answer of ``step``; cross-field checks run once each field is valid."""
    result = StepResult()
    for spec in step.fields:
        if spec.kind == "file":
            files = uploads.get(spec.name, [])
            if spec.required and not files:
                result.errors[field_id(spec.name)] = spec.missing_message()
            result.values[spec.name] = [_file_value(f) for f in files]
        else:
            raw = str(ctx.answers.get(spec.name, ""))
            _parse_into(spec, raw, ctx, field_id(spec.name), result, result.values)
    if step.group:
        result.values[step.group.name] = _validate_rows(step.group, ctx, result)
    if step.check and not result.errors:
        result.errors.update(step.check(result.values, ctx))
    return result


def _validate_rows(group: Group, ctx: FormContext, result: StepResult) -> list[dict[str, Any]]:
    rows = [row for row in group_rows(group, ctx.answers) if not _blank(row)]
    if len(rows) < group.min_rows:
        first = group.fields[0]
        result.errors[field_id(first.name, 0, group.name)] = (
            f"Add at least {group.min_rows} {group.item_label.lower()}"
        )
        return []
    parsed_rows = []
    for index, row in enumerate(rows):
        parsed: dict[str, Any] = {}
        for spec in group.fields:
            key = field_id(spec.name, index, group.name)
            _parse_into(spec, str(row.get(spec.name, "")), ctx, key, result, parsed)
        parsed_rows.append(parsed)
    return parsed_rows


def _file_value(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "filename": row["filename"],
        "content_type": row["content_type"],
        "size": row["size"],
        "sha256": row["sha256"],
    }


def compact_rows(step: Step, answers: Answers) -> Answers:
    """Drop the blank rows of the step's group, as validation ignores them."""
    if not step.group:
        return answers
    rows = [r for r in group_rows(step.group, answers) if not _blank(r)]
    return {**answers, step.group.name: rows}


@dataclass
class FormResult:
    """All values of a form, or the first step that still needs answers."""

    values: dict[str, Any]
    first_invalid: Step | None


def validate_form(
    form: FormSpec, ctx: FormContext, uploads: Mapping[str, list[sqlite3.Row]]
) -> FormResult:
    """Validate every step that applies to the answers, in order."""
    values: dict[str, Any] = {}
    for step in form.applicable_steps(ctx.answers):
        result = validate_step(step, ctx, uploads)
        if result.errors:
            return FormResult(values, step)
        values.update(result.values)
    return FormResult(values, None)

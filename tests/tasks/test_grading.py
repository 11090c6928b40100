"""Grading a careful annotator would agree with: another way to the same end state earns
full reward, and what the goal insists on is checked."""

from __future__ import annotations

from webenv.tasks import templates


def test_expense_items_entered_in_another_order_are_the_same_report(task_env, run_policy):
    template = templates()["forms.file_expense_report"]
    reversed_items = template.altered(lambda p: {**p, "items": p["items"][::-1]})
    reward, info = run_policy(task_env(template.name), 0, reversed_items)
    assert reward == 1.0, info.get("check")

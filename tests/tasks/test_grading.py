"""Grading a careful annotator would agree with: another way to the same end state earns
full reward, and what the goal insists on is checked."""

from __future__ import annotations

from typing import Any

import pytest

from webenv.tasks import templates


def test_expense_items_entered_in_another_order_are_the_same_report(task_env, run_policy):
    template = templates()["forms.file_expense_report"]
    reversed_items = template.altered(lambda p: {**p, "items": p["items"][::-1]})
    reward, info = run_policy(task_env(template.name), 0, reversed_items)
    assert reward == 1.0, info.get("check")


@pytest.mark.parametrize("name", ["mail.add_contact", "mail.update_contact_phone"])
def test_a_phone_number_typed_another_way_is_the_same_number(task_env, run_policy, name):
    template = templates()[name]

    def dotted(params: dict[str, Any]) -> dict[str, Any]:
        digits = "".join(char for char in params["phone"] if char.isdigit())
        return {**params, "phone": f"{digits[:3]}.{digits[3:6]}.{digits[6:]}"}

    reward, info = run_policy(task_env(name), 0, template.altered(dotted))
    assert reward == 1.0, info.get("check")

"""What the shared template tests leave out for cross-site workflows: each involves several
sites, and its oracle needs a real workflow of at least six steps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from webenv.tasks import Task, templates

WORKFLOWS = sorted(name for name in templates() if name.startswith("workflows."))


@pytest.mark.parametrize("name", WORKFLOWS)
def test_workflow_spans_sites(name):
    template = templates()[name]
    assert len(template.sites) >= 2
    assert "cross-site" in template.tags


@pytest.mark.slow
@pytest.mark.parametrize("name", WORKFLOWS)
def test_oracle_takes_a_real_workflow(task_env, run_policy, name):
    steps = []

    def counting(task: Task, observation: Mapping[str, Any]):
        oracle = task.template.oracle(task, observation)
        action = next(oracle)
        while True:
            steps.append(action)
            observation = yield action
            try:
                action = oracle.send(observation)
            except StopIteration:
                return

    reward, _ = run_policy(task_env(name), 0, counting)
    assert reward == 1.0
    assert len(steps) >= 6, steps

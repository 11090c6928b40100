"""What the shared template tests leave out for cross-site workflows: each involves several
sites (the shared oracle test checks they take a median of at least six steps)."""

from __future__ import annotations

import pytest

from webenv.tasks import templates

WORKFLOWS = sorted(name for name in templates() if name.startswith("workflows."))


@pytest.mark.parametrize("name", WORKFLOWS)
def test_workflow_spans_sites(name):
    template = templates()[name]
    assert len(template.sites) >= 2
    assert "cross-site" in template.tags

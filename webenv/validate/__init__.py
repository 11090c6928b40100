"""Auditing task templates: the checks a careful annotator would make of each, as a library.

For each template and seed, :func:`validate_template` verifies that the oracle succeeds, clean
and under perturbation; that doing nothing, acting at random and every near-miss fail; that an
info-seeking task's answer check takes a careful sentence and refuses a hedge; that every
phrasing of the goal states what the check depends on; that a seed always gives the same
instance; and that the seeds give varied instances with answers that are not free. The
``webenv validate`` command runs it over the built-in suite or any registered templates.

Episodes run through the public env API (``gym.make(webenv.tasks.env_id(template))``) with
:func:`run_policy`, the loop the task tests share. Checks that need no browser (the untouched
world, the goal's wording, determinism, diversity) are :func:`check_instances`.
"""

from .audit import PROFILES, validate_template, validate_templates
from .battery import (
    alternatives,
    answer_battery,
    check_answers,
    check_nonzero,
    is_degenerate,
    same_kind_candidates,
)
from .episodes import DONE, Policy, PolicyRun, idle, oracle_policy, random_policy, run_policy
from .instances import check_instances
from .report import (
    CHECKS,
    RUN,
    Case,
    CheckReport,
    TemplateReport,
    ValidationInterrupted,
    ValidationReport,
    table,
)

__all__ = [
    "CHECKS",
    "DONE",
    "PROFILES",
    "RUN",
    "Case",
    "CheckReport",
    "Policy",
    "PolicyRun",
    "TemplateReport",
    "ValidationInterrupted",
    "ValidationReport",
    "alternatives",
    "answer_battery",
    "check_answers",
    "check_instances",
    "check_nonzero",
    "idle",
    "is_degenerate",
    "oracle_policy",
    "random_policy",
    "run_policy",
    "same_kind_candidates",
    "table",
    "validate_template",
    "validate_templates",
]

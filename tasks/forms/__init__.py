"""Forms portal task templates."""

from . import account_changes, appointments, expenses, history, insurance, jobs  # noqa: F401

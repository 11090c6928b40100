"""Forms portal task templates."""

from . import (  # noqa: F401
    account_changes,
    appointments,
    booking_more,
    draft_edits,
    expenses,
    history,
    insurance,
    jobs,
    lapsed_claim,
    rescheduling,
    withdrawing,
)

"""Forms portal task templates."""

from . import (  # noqa: F401
    account_changes,
    appointments,
    booking_more,
    car_damage_claim,
    draft_edits,
    expenses,
    history,
    insurance,
    jobs,
    rescheduling,
    withdrawing,
)

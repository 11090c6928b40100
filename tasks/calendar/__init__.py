"""Task templates of the calendar: booking, rescheduling, series, questions about meetings."""

from . import collateral, meetings, questions  # noqa: F401

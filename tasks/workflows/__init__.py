"""Cross-site workflow templates: tasks that need the shop, the mailbox and the forms portal."""

from . import (  # noqa: F401
    book_proposed_appointment,
    buy_requested_item,
    calendar_booking,
    calendar_from_appointment,
    calendar_invitations,
    email_order_total,
    forward_confirmation,
    help_damaged_return,
    help_expense_limits,
    help_free_shipping_gap,
    help_return_policy,
    help_ticket_for_order,
    meeting_supplies,
    phone_from_carrier,
    receipts_tax,
    reply_with_price,
    reply_with_tracking,
    return_from_confirmation,
    send_saved_address,
)

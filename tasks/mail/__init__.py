"""Mail task templates."""

from . import (  # noqa: F401
    address_book,
    contact_edits,
    impossible,
    organizing,
    questions,
    tidying,
    topics,
    writing,
)

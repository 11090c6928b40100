"""Mail task templates."""

from . import (  # noqa: F401
    address_book,
    bulk,
    contact_edits,
    if_found,
    indirect,
    organizing,
    questions,
    tidying,
    topics,
    writing,
)

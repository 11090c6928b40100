"""Mail task templates."""

from . import address_book, impossible, organizing, questions, tidying, writing  # noqa: F401

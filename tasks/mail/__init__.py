"""Mail task templates."""

from . import address_book, impossible, organizing, questions, writing  # noqa: F401

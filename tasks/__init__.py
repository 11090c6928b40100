"""The built-in task templates, one package per site plus cross-site workflows."""

from . import _collateral, calendar, forms, help, mail, shop, workflows  # noqa: F401

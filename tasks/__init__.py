"""The built-in task templates, one package per site plus cross-site workflows."""

from . import shop  # noqa: F401

"""Workflows task templates."""

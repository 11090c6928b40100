"""Forms task templates."""

"""Mail task templates."""

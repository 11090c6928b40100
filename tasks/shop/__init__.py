"""Shop task templates."""

from . import buy_product, cheapest_by_brand, fill_cart  # noqa: F401

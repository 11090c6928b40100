"""Shop task templates."""

from . import (  # noqa: F401
    add_address,
    add_to_wishlist,
    buy_cheapest_in_stock,
    buy_missing_product,
    buy_missing_size,
    buy_product,
    buy_with_coupon,
    cancel_order,
    change_phone,
    cheapest_by_brand,
    fill_cart,
    order_date,
    order_total,
    request_return,
    review_count,
    set_default_address,
    top_rated_under_price,
    tracking_number,
    write_review,
)

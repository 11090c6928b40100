"""The words that name the facts an answer cites as its reasons (see ``facts`` of
:func:`webenv.answers.grade`): a value named by one of them in its clause, in a sentence that
offers and doubts nothing, is no second candidate. Each set names one thing and no other, so
that naming a candidate by another's words ("the cheapest is $X" for the next cheapest) still
leaves it a second candidate."""

from __future__ import annotations

#: A per-item limit an answer applied: "the limit is $325.00", "capped at $65.00".
LIMIT = ("limit", "limits", "cap", "caps", "capped", "maximum", "max", "allowance", "ceiling")
#: The free-shipping threshold: "free shipping starts at $45.00", "orders of $45.00 or more".
THRESHOLD = (
    "free shipping", "free-shipping", "ship free", "ships free", "shipping is free", "minimum",
    "threshold", "orders of", "orders over", "qualify", "qualifies",
)  # fmt: skip
#: A product's price (with its name, which a template adds): "it costs $19.00", "the item is
#: $19.00", "at $19.00 you need $26.00 more".
PRICE = ("price", "priced", "costs", "cost", "sells for", "retails for", "item", "at")
#: The revision of an article before the current one.
PREVIOUS = (
    "previous revision", "previous version", "revision before", "version before", "before that",
    "prior revision", "prior version", "earlier revision", "earlier version", "older revision",
    "previously",
)  # fmt: skip
#: A week's meeting that was cancelled, and the meeting after the next one.
CANCELLED = ("cancelled", "canceled", "called off", "skipped")
FOLLOWING = ("following one", "the one after", "after that", "week after", "then the next")
#: An order's amount before tax and shipping.
SUBTOTAL = ("subtotal", "sub-total", "before tax", "pre-tax", "merchandise")
#: The next cheapest item after the cheapest.
NEXT_CHEAPEST = ("next cheapest", "second cheapest", "second-cheapest", "runner-up", "next lowest")
#: The cheapest item of all, rated below the bar.
CHEAPEST_OVERALL = (
    "cheapest overall", "very cheapest", "cheapest of all", "rated only", "rated below",
    "rated under", "only rated", "poorly rated", "badly rated", "low rating", "too low",
)  # fmt: skip
#: A report's largest line, and the total of another report.
LARGEST_ITEM = ("largest item", "biggest item", "largest line", "biggest line", "largest expense",
                "biggest expense", "largest single", "biggest single")  # fmt: skip
OTHER_REPORT = ("other report", "other travel report", "other expense report", "other trip")

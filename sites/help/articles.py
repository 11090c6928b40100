"""The help centre's articles: their categories, and every revision of each, oldest first.

The *current* revision of a policy article states what the shop and the forms portal really
do; older revisions state what they used to do (a longer return window, another free-shipping
threshold), as any help centre keeps them. The policy values are named once here
(:data:`CURRENT`, :data:`SUPERSEDED`), so the text and the tests read the same numbers.

A body is plain text: paragraphs separated by a blank line, ``## `` starts a subheading,
lines starting ``- `` make a bullet list and lines starting ``1. `` a numbered one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..common import expense_caps, free_shipping_min

#: What the sites do today, as the current articles state it.
CURRENT: dict[str, Any] = {
    "return_window_days": 30,
    "free_shipping_min_cents": 5000,
    "standard_shipping_cents": 599,
    "card_brands": ("Visa", "Mastercard", "American Express", "Discover"),
    "booking_window_days": 21,
    "claim_window_days": 365,
    "expense_window_days": 365,
    "move_window_days": 90,
    "receipt_max_mb": 5,
    # Expense category name -> its limit per item in cents (None: no limit). Meals and
    # Lodging are each world's own (common.expense_caps); the values here are a world's like.
    "expense_limits": {
        "Airfare": None,
        "Lodging": 30000,
        "Meals": 7500,
        "Taxi, rideshare or transit": 15000,
        "Car rental": None,
        "Mileage": 50000,
        "Conference registration": None,
        "Parking and tolls": 10000,
        "Other": 20000,
    },
}

#: What older revisions said, before the policy changed (each differs from :data:`CURRENT`).
SUPERSEDED: dict[str, Any] = {
    "return_window_days": (60, 45),
    "free_shipping_min_cents": (3500, 7500),
    "standard_shipping_cents": (499, 699),
    "card_brands": ("Visa", "Mastercard", "American Express", "PayPal"),
    "booking_window_days": (14,),
    "claim_window_days": (180,),
}


@dataclass(frozen=True)
class Category:
    slug: str
    name: str
    #: Which service the category is about: "shop" (Northwind Market) or "forms" (Civic Forms).
    service: str
    summary: str


@dataclass(frozen=True)
class Revision:
    body: str
    #: What changed in this revision (the first one's note says it was published).
    note: str


@dataclass(frozen=True)
class Article:
    slug: str
    category: str
    title: str
    summary: str
    #: Oldest first; the last is the current one.
    revisions: tuple[Revision, ...]
    #: A policy article states rules the sites enforce.
    policy: bool = False


CATEGORIES = (
    Category("orders-shipping", "Orders & shipping", "shop",
             "Placing an order, delivery, tracking and cancelling."),
    Category("returns-refunds", "Returns & refunds", "shop",
             "Sending items back and getting your money."),
    Category("payments", "Payments", "shop", "Cards, coupons, sales tax and billing."),
    Category("account", "Account", "shop",
             "Signing in, addresses, your wishlist, reviews and e-mail."),
    Category("appointments", "Appointments", "forms",
             "Booking a visit to a service center."),
    Category("expenses", "Expenses", "forms", "Travel expense reports and reimbursement."),
    Category("job-applications", "Job applications", "forms",
             "Applying for a city job and what happens next."),
    Category("insurance-claims", "Insurance claims", "forms",
             "Claiming on your vehicle or home policy."),
    Category("forms-account", "Forms account", "forms",
             "Your Civic Forms account, saved forms and changes of address."),
)  # fmt: skip


def dollars(cents: int) -> str:
    """``5000`` -> ``$50.00``."""
    return f"${cents / 100:,.2f}"


def _shipping(minimum: int, standard: int) -> str:
    return (
        f"Orders of {dollars(minimum)} or more ship free. The amount is counted after any "
        "coupon discount and before sales tax.\n\n"
        f"Orders under {dollars(minimum)} pay a flat standard shipping rate of "
        f"{dollars(standard)}, whatever the number of items.\n\n"
        "## Where you see it\n\n"
        "Your cart shows how much more you need to add for free shipping. The shipping cost "
        "is shown again on the review page before you place the order, and on your order "
        "confirmation.\n\n"
        "We ship to addresses in the United States only."
    )


def _returns(days: int) -> str:
    return (
        f"Our return window is {days} days. You can return items from a delivered order for "
        f"{days} days after the day you "
        "placed the order. The last day you can return is shown on the order's page under "
        "Order history.\n\n"
        "## What can be returned\n\n"
        "- Any item of a delivered order, in any quantity up to what you bought\n"
        "- Part of an order: you do not have to send everything back\n"
        "- Orders that have not been delivered yet cannot be returned; cancel them instead, "
        "or wait until they arrive\n\n"
        "## Reasons and refunds\n\n"
        "When you request a return, choose a reason (for example Doesn't fit, Arrived "
        "damaged or Wrong item sent) and how you would like your refund: to your original "
        "payment method, or as store credit.\n\n"
        f"After {days} days the Return items button disappears from the order and we can no "
        "longer accept a return online."
    )


def _cards(brands: tuple[str, ...], note: str = "") -> str:
    listed = "\n".join(f"- {brand}" for brand in brands)
    return (
        "Northwind Market accepts these payment methods:\n\n"
        f"{listed}\n\n"
        "You can save a card at checkout and choose it next time. Only the card's brand, its "
        "last four digits and its expiry date are kept.\n\n"
        "We do not accept cash on delivery, checks or gift cards from other stores." + note
    )


def _booking(days: int) -> str:
    return (
        "You can book an appointment at any of our service centers online, up to "
        f"{days} days ahead. Appointments are on working days only.\n\n"
        "1. Open the form Book an appointment on Civic Forms\n"
        "2. Choose the service and the office\n"
        "3. Pick a day shown in the calendar; fully booked days cannot be chosen\n"
        "4. Pick a time and give your contact details\n\n"
        "You can ask for a text message reminder the day before. If no day is free within "
        f"the next {days} days, check again tomorrow: new times open every day."
    )


def _claims(days: int) -> str:
    return (
        "You can claim on a current vehicle or home policy online. The incident must have "
        f"happened within the last {days} days, and the date cannot be in the future.\n\n"
        "## Before you start\n\n"
        "- Your policy number (shown when you choose the policy)\n"
        "- The date, time and place of the incident\n"
        "- An estimate of the cost of the damage\n"
        "- Photos or documents, if you have them\n\n"
        "A claims handler will review your claim within 2 working days and contact you."
    )


#: How an expense over its category's limit is paid back, as the limits article states it: the
#: forms portal refuses an amount over the limit and takes the item at the limit.
OVER_LIMIT_RULE = (
    "Each item of a travel expense report is paid back up to its category's limit per item: "
    "an item that cost more is claimed at its limit."
)


def _limits(meals: int, lodging: int) -> str:
    rows = []
    for name, limit in CURRENT["expense_limits"].items():
        if name == "Meals":
            limit = meals
        elif name == "Lodging":
            limit = lodging
        shown = "no limit per item" if limit is None else f"up to {dollars(limit)} per item"
        rows.append(f"- {name}: {shown}")
    return (
        f"{OVER_LIMIT_RULE} The report form does not accept an amount over the limit: enter "
        "such an item at its limit. Split a hotel stay into one item a night.\n\n"
        + "\n".join(rows)
        + "\n\nExpenses must fall between the trip's departure and return dates."
    )


_A = Article
_R = Revision


def shipping_article(free_from: int) -> Article:
    """The "Shipping costs and free shipping" article of a world whose shop ships free from
    ``free_from`` cents (:func:`~webenv.sites.common.free_shipping_min`), after two older
    amounts (:data:`SUPERSEDED`)."""
    (first, then), (first_fee, then_fee) = (
        SUPERSEDED["free_shipping_min_cents"],
        SUPERSEDED["standard_shipping_cents"],
    )
    fee = CURRENT["standard_shipping_cents"]
    return _A("shipping-costs", "orders-shipping", "Shipping costs and free shipping",
              "What shipping costs, and when your order ships free.",
              (_R(_shipping(first, first_fee), "Published"),
               _R(_shipping(then, then_fee), f"Free shipping now starts at {dollars(then)}; "
                  f"standard shipping is {dollars(then_fee)}."),
               _R(_shipping(free_from, fee), f"Free shipping now starts at {dollars(free_from)}; "
                  f"standard shipping is {dollars(fee)}.")), policy=True)  # fmt: skip


def expense_limits_article(caps: Mapping[str, tuple[int, int]]) -> Article:
    """The "Travel expense limits" article of a world whose capped categories have the
    limits ``caps`` (:func:`~webenv.sites.common.expense_caps`): the older limits in its
    first revision, the current ones in its last."""
    (meals, old_meals), (lodging, old_lodging) = caps["Meals"], caps["Lodging"]
    note = f"Meals now up to {dollars(meals)} and lodging up to {dollars(lodging)} per item."
    return _A("expense-limits", "expenses", "Travel expense limits",
              "The most you can claim per item, by category.",
              (_R(_limits(old_meals, old_lodging), "Published"), _R(_limits(meals, lodging), note)),
              policy=True)  # fmt: skip


ARTICLES: tuple[Article, ...] = (
    # -- Orders & shipping --------------------------------------------------------------
    # Each world states its own amount (articles(seed)); this is a world's like.
    shipping_article(CURRENT["free_shipping_min_cents"]),
    _A("delivery-times", "orders-shipping", "How long delivery takes",
       "When to expect your parcel.",
       (_R("Most orders leave our warehouse within one working day. Standard delivery then "
           "takes 3 to 5 working days.\n\nOnce your order ships, its page shows the carrier's "
           "tracking number. Delivery dates given by the carrier are estimates.", "Published"),
        _R("Most orders leave our warehouse within one working day. Standard delivery then "
           "takes 3 to 5 working days, a little longer to Alaska and Hawaii.\n\nOnce your "
           "order ships, its page shows the carrier's tracking number. Delivery dates given "
           "by the carrier are estimates; weather and holidays can add a day or two.",
           "Added Alaska and Hawaii.")), ),
    _A("track-order", "orders-shipping", "Tracking your order",
       "Find the tracking number of a shipped order.",
       (_R("1. Sign in to Northwind Market and open Orders\n"
           "2. Choose the order\n"
           "3. The tracking number is shown once the order has shipped\n\n"
           "An order that says Order placed has not left the warehouse yet, so it has no "
           "tracking number.", "Published"),)),
    _A("cancel-order", "orders-shipping", "Cancelling an order",
       "Cancel an order before it ships.",
       (_R("You can cancel an order within 24 hours of placing it. Open the order under "
           "Orders and choose Cancel order.", "Published"),
        _R("You can cancel an order as long as it has not shipped: its status is Order "
           "placed. Open the order under Orders and choose Cancel order. You are not "
           "charged for a cancelled order.\n\nOnce an order has shipped it can no longer be "
           "cancelled. Wait for it to arrive and request a return instead.",
           "Orders can now be cancelled at any time until they ship.")), policy=True),
    _A("change-order-address", "orders-shipping", "Changing the address of an order",
       "What to do if an order is going to the wrong address.",
       (_R("We cannot change the delivery address of an order once it is placed. If the "
           "order has not shipped yet, cancel it and order again with the right address.\n\n"
           "To avoid this next time, set your usual address as the default in your address "
           "book: checkout chooses it for you.", "Published"),)),
    _A("order-confirmation", "orders-shipping", "I didn't get an order confirmation",
       "Where your confirmation e-mail goes.",
       (_R("We e-mail a confirmation to the address on your account as soon as you place an "
           "order. It names the order number and what you bought.\n\nIf you cannot find it, "
           "check your spam folder. Your order is also listed under Orders in your account, "
           "whether or not the e-mail arrived.", "Published"),)),
    _A("where-we-ship", "orders-shipping", "Where we ship",
       "Countries and addresses we deliver to.",
       (_R("Northwind Market ships to addresses in the United States, including Alaska, "
           "Hawaii and military addresses. We do not ship abroad yet.", "Published"),)),
    # -- Returns & refunds --------------------------------------------------------------
    _A("return-policy", "returns-refunds", "Our return policy",
       "How long you have to return items, and what can go back.",
       (_R(_returns(60), "Published"),
        _R(_returns(45), "The return window is now 45 days."),
        _R(_returns(30), "The return window is now 30 days from the day you placed the "
           "order.")), policy=True),
    _A("start-return", "returns-refunds", "How to start a return",
       "Request a return from your order history.",
       (_R("1. Sign in and open Orders\n"
           "2. Choose the delivered order and select Return items\n"
           "3. Choose how many of each item you are sending back\n"
           "4. Choose a reason and how you want to be refunded\n"
           "5. Submit the return request\n\n"
           "You get a return number starting with RMA. Keep it until your refund arrives.",
           "Published"),)),
    _A("refund-times", "returns-refunds", "When will I get my refund?",
       "How long refunds take.",
       (_R("Once we receive your return, refunds to your original payment method take 5 to "
           "10 working days to appear, depending on your bank. Store credit is added to your "
           "account the day your return arrives.", "Published"),
        _R("Once we receive your return, refunds to your original payment method take 5 to "
           "10 working days to appear, depending on your bank. Store credit is added to your "
           "account the day your return arrives.\n\nIf your refund has not arrived after 10 "
           "working days, contact support with your order number.",
           "Added when to contact us.")), ),
    _A("damaged-items", "returns-refunds", "An item arrived damaged or wrong",
       "What to do when something is not right.",
       (_R("We are sorry. Request a return from the order's page and choose the reason "
           "Arrived damaged or Wrong item sent. You do not pay for the return.\n\nIf a whole "
           "order is missing, contact support with the order number.", "Published"),)),
    _A("store-credit", "returns-refunds", "Store credit",
       "Getting a refund as store credit.",
       (_R("When you request a return you can choose store credit instead of a refund to "
           "your card. Store credit is added the day the return arrives and never expires.",
           "Published"),)),
    _A("partial-returns", "returns-refunds", "Returning part of an order",
       "Send back some items and keep the rest.",
       (_R("You can return only some of the items of an order, or fewer than you bought of "
           "one item. The order is marked Returned once every item of it has gone back.",
           "Published"),)),
    # -- Payments -----------------------------------------------------------------------
    _A("payment-methods", "payments", "Payment methods we accept",
       "The cards you can pay with.",
       (_R(_cards(SUPERSEDED["card_brands"]), "Published"),
        _R(_cards(CURRENT["card_brands"], "\n\nWe no longer accept PayPal."),
           "Added Discover. PayPal is no longer accepted.")), policy=True),
    _A("coupons", "payments", "Using a coupon code",
       "Where to enter a coupon and why one may not work.",
       (_R("Enter your coupon code on the review page of checkout and choose Apply coupon. "
           "One coupon can be used per order.\n\n## Why a code may not work\n\n"
           "- The code has expired\n"
           "- Your subtotal is below the coupon's minimum\n"
           "- The code was typed with a mistake; codes are not case-sensitive\n\n"
           "The discount is taken off before shipping is worked out, so a coupon can take an "
           "order below the free shipping amount.", "Published"),)),
    _A("sales-tax", "payments", "Sales tax",
       "How sales tax is charged.",
       (_R("Sales tax depends on the state you ship to. It is worked out on the review page "
           "once you have chosen the delivery address, and charged on the amount after any "
           "coupon discount.", "Published"),)),
    _A("card-declined", "payments", "My card was declined or has expired",
       "Common card problems at checkout.",
       (_R("A card can be used until the last day of its expiry month. An expired card is "
           "marked Expired at checkout and cannot be chosen.\n\nThe security code is the 3 "
           "digits on the back of the card, or the 4 digits on the front of an American "
           "Express card. Check the card number too: we tell you if it is not valid.",
           "Published"),)),
    # -- Account ------------------------------------------------------------------------
    _A("reset-password", "account", "Forgot your password?",
       "Getting back into your account.",
       (_R("If you cannot sign in, contact support with the topic Account and the e-mail "
           "address of your account. For your security we never ask for your password.",
           "Published"),)),
    _A("address-book", "account", "Managing saved addresses",
       "Add, edit and choose a default address.",
       (_R("Open Account, then Manage addresses. You can add an address, edit or delete one, "
           "and make one your default. Checkout picks your default address first.",
           "Published"),
        _R("Open Account, then Manage addresses. You can add an address, edit or delete one, "
           "and make one your default. Checkout picks your default address first.\n\nChanging "
           "an address does not change orders you have already placed.",
           "Explained that past orders keep their address.")), ),
    _A("wishlist", "account", "Your wishlist",
       "Save products for later.",
       (_R("Choose Add to wishlist on a product's page to save it. Your wishlist is under "
           "Account. Items stay there until you remove them or buy them.", "Published"),)),
    _A("write-review", "account", "Writing a product review",
       "Share what you thought of a product.",
       (_R("Open the product's page and choose Write a review. Give a rating from 1 to 5 "
           "stars, a title and a few words. Reviews appear straight away under your first "
           "name.", "Published"),)),
    _A("email-preferences", "account", "E-mail preferences and the newsletter",
       "Choose which e-mails you get.",
       (_R("Order and return e-mails are always sent. The newsletter is optional: turn it "
           "on or off in Account settings.", "Published"),)),
    # -- Appointments -------------------------------------------------------------------
    _A("book-appointment", "appointments", "Booking an appointment at a service center",
       "How far ahead you can book, and how.",
       (_R(_booking(14), "Published"),
        _R(_booking(21), "Appointments can now be booked up to 21 days ahead.")),
       policy=True),
    _A("appointment-services", "appointments", "Services that need an appointment",
       "What you can book a visit for.",
       (_R("These services are by appointment only:\n\n"
           "- Passport application or renewal\n"
           "- Driver's license\n"
           "- State ID card\n"
           "- Birth or death certificate\n"
           "- Vehicle registration\n"
           "- Marriage license\n\n"
           "Bring a photo ID to every appointment.", "Published"),)),
    _A("appointment-day", "appointments", "On the day of your appointment",
       "What to bring and when to arrive.",
       (_R("Arrive 10 minutes before your time and bring your confirmation number, a photo "
           "ID and any documents the service needs. If you are more than 15 minutes late we "
           "may ask you to book again.", "Published"),)),
    # -- Expenses -----------------------------------------------------------------------
    # Each world states its own limits (articles(seed)); these are a world's like.
    expense_limits_article({"Meals": (7500, 6000), "Lodging": (30000, 25000)}),
    _A("submit-expenses", "expenses", "Submitting a travel expense report",
       "What you need before you start.",
       (_R("Travel expense reports are for trips within the last year: the departure and "
           "return dates must be within the last 365 days.\n\n## You will need\n\n"
           "- The purpose and destination of the trip\n"
           "- Each expense with its date, category and amount\n"
           f"- Your receipts as PDF files or photos, up to {CURRENT['receipt_max_mb']} MB "
           "each\n\n"
           "You can save the report and finish it later.", "Published"),)),
    _A("expense-reimbursement", "expenses", "When are expenses paid back?",
       "From approval to your paycheck.",
       (_R("Your manager approves the report, then Finance reimburses approved expenses with "
           "your next paycheck.", "Published"),)),
    # -- Job applications ---------------------------------------------------------------
    _A("apply-for-job", "job-applications", "Applying for a city job",
       "How to apply, and until when.",
       (_R("Open Apply for a job on Civic Forms and choose a position. Each opening shows "
           "its salary range and its closing date; closed openings are no longer listed.\n\n"
           "You will be asked about your experience and education and for your resume. You "
           "can save the application and come back to it.", "Published"),)),
    _A("after-you-apply", "job-applications", "After you apply",
       "What happens to your application.",
       (_R("Our recruitment team reviews every application after the closing date. If you "
           "are shortlisted, we contact you by e-mail to arrange an interview.",
           "Published"),)),
    # -- Insurance claims ---------------------------------------------------------------
    _A("file-claim", "insurance-claims", "Filing an insurance claim",
       "Who can claim, and how long after the incident.",
       (_R(_claims(180), "Published"),
        _R(_claims(365), "Claims can now be made up to a year after the incident.")),
       policy=True),
    _A("lapsed-policy", "insurance-claims", "Claiming on a lapsed policy",
       "Why a policy may not be listed.",
       (_R("Only current policies are listed in the claim form. A policy that has lapsed "
           "cannot be claimed on online; call the help line to discuss an incident that "
           "happened while it was current.", "Published"),)),
    # -- Forms account ------------------------------------------------------------------
    _A("change-of-address", "forms-account", "Telling us you have moved",
       "Updating your address with the city.",
       (_R("Use Change of address on Civic Forms. The date you move must be within 90 days "
           "before or after today. We update your account straight away; other departments "
           "are told within 5 working days.", "Published"),)),
    _A("save-and-resume", "forms-account", "Saving a form and finishing later",
       "Pick up where you left off.",
       (_R("Choose Save and continue later on any step. Signed in, your saved forms are "
           "listed under My account; otherwise keep the resume code we give you.",
           "Published"),)),
    _A("contact-support", "forms-account", "Contacting support",
       "How to reach us.",
       (_R("Choose Contact support at the bottom of any help page. Pick a topic, give your "
           "order number or form reference if you have one, and tell us what happened. We "
           "reply by e-mail and under My tickets, usually within one working day.",
           "Published"),)),
)  # fmt: skip


def article(slug: str, seed: int | None = None) -> Article:
    """The article with this slug (as the world of ``seed`` has it)."""
    return next(a for a in (ARTICLES if seed is None else articles(seed)) if a.slug == slug)


def articles(seed: int) -> tuple[Article, ...]:
    """The articles of the world of ``seed``: :data:`ARTICLES`, with its own free-shipping
    amount and expense limits."""
    own = {
        a.slug: a
        for a in (
            shipping_article(free_shipping_min(seed)),
            expense_limits_article(expense_caps(seed)),
        )
    }
    return tuple(own.get(a.slug, a) for a in ARTICLES)

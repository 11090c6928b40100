"""Seeded mail from businesses: receipts, bills, travel bookings, newsletters and spam."""

from __future__ import annotations

from datetime import timedelta

from ..common import Attachment
from .conversation import Conversation, Mail, Scene, day_name
from .newsletters import issue_stories
from .people import Person
from .samplefiles import pdf_document

CATALOG = {
    "outfitter": [
        ("Merino wool sweater", 89.0),
        ("Trail running shoes", 129.0),
        ("Rain shell jacket", 149.0),
        ("Wool hiking socks (3-pack)", 24.0),
        ("Insulated water bottle", 32.0),
    ],
    "grocer": [
        ("Organic coffee beans, 1 lb", 14.5),
        ("Olive oil, 750 ml", 18.0),
        ("Sourdough loaf", 6.25),
        ("Aged cheddar", 9.75),
        ("Fresh berries", 7.5),
    ],
    "electronics": [
        ("Wireless headphones", 199.0),
        ("USB-C charger, 65 W", 45.0),
        ("Mechanical keyboard", 119.0),
        ("4K monitor, 27 in", 329.0),
        ("HDMI cable, 2 m", 12.0),
    ],
    "books": [
        ("The Lighthouse Year (hardcover)", 27.0),
        ("A Field Guide to Birds", 22.0),
        ("Cooking with Fire", 35.0),
        ("The Quiet Engineer", 18.0),
    ],
}
CITIES = ("Lisbon", "Denver", "Seattle", "Chicago", "Montreal", "Austin", "Boston", "Vancouver")
SALES_TAX = 0.0725


def _code(scene: Scene, length: int) -> str:
    return "".join(scene.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(length))


def receipt(scene: Scene, role: str) -> Conversation:
    """An order receipt with items, tax, total and a PDF copy."""
    vendor, me = scene.cast.vendors[role], scene.cast.me
    items = scene.rng.sample(CATALOG[role], scene.rng.randint(1, 3))
    lines = [(name, scene.rng.randint(1, 2), price) for name, price in items]
    subtotal = sum(quantity * price for _, quantity, price in lines)
    tax = round(subtotal * SALES_TAX, 2)
    total = subtotal + tax
    order = f"{vendor.name[:2].upper()}-{scene.rng.randint(10000, 99999)}"
    item_lines = [
        f"{quantity} x {name} — ${quantity * price:,.2f}" for name, quantity, price in lines
    ]
    summary = [
        *item_lines,
        f"Subtotal: ${subtotal:,.2f}",
        f"Tax: ${tax:,.2f}",
        f"Total: ${total:,.2f}",
    ]
    body = (
        f"Hi {me.first_name},\n\nThanks for your order! Here is your receipt.\n\n"
        f"Order number: {order}\n\n" + "\n".join(summary) + "\n\n"
        f"Shipping to: {me.name}, {scene.cast.home_address}\n\n"
        f"Questions? Just reply to this email.\n\n— The {vendor.name} team"
    )
    pdf = pdf_document(f"{vendor.name} — Receipt {order}", [f"Order {order}", "", *summary])
    mail = Mail(
        vendor,
        [me],
        body,
        attachments=(Attachment(f"receipt-{order}.pdf", "application/pdf", pdf),),
    )
    return Conversation(
        f"Your {vendor.name} receipt for order {order}", [mail], labels=("Receipts",)
    )


def utility_bill(scene: Scene) -> Conversation:
    """A monthly statement with an amount due."""
    vendor, me = scene.cast.vendors["utility"], scene.cast.me
    amount = scene.rng.randint(4500, 21000) / 100
    due = scene.start + timedelta(days=scene.rng.randint(10, 20))
    body = (
        f"Hello {me.first_name},\n\nYour {scene.start:%B} statement is ready.\n\n"
        f"Amount due: ${amount:,.2f}\nDue date: {day_name(due)}\n"
        f"Account: {scene.rng.randint(1000000, 9999999)}\n\n"
        "Autopay is off for this account. Pay online any time.\n\n— Brightside Energy"
    )
    return Conversation(
        f"Your {scene.start:%B} energy statement is ready",
        [Mail(vendor, [me], body)],
        labels=("Receipts",),
    )


def bank_alert(scene: Scene) -> Conversation:
    """A notice from the bank."""
    bank, me = scene.cast.vendors["bank"], scene.cast.me
    last4 = scene.rng.randint(1000, 9999)
    subject, text = scene.rng.choice(
        (
            (
                "Your monthly statement is available",
                f"Your statement for the account ending in {last4} is now available online.",
            ),
            (
                "New sign-in to your account",
                f"We noticed a new sign-in to online banking from {scene.fake.city()}. "
                "If this was you, no action is needed.",
            ),
            (
                "Deposit received",
                f"A deposit of ${scene.rng.randint(200, 4000):,}.00 was made to the account "
                f"ending in {last4}.",
            ),
        )
    )
    body = f"Hello {me.first_name},\n\n{text}\n\nFirst Harbor Bank\nThis is an automated message."
    return Conversation(subject, [Mail(bank, [me], body)])


def flight_booking(scene: Scene, forward_to: Person | None) -> Conversation:
    """A flight itinerary with a confirmation code; optionally forwarded to family."""
    airline, me = scene.cast.vendors["airline"], scene.cast.me
    city = scene.rng.choice(CITIES)
    code = _code(scene, 6)
    out = (scene.start + timedelta(days=scene.rng.randint(12, 45))).replace(
        hour=scene.rng.randint(6, 19), minute=scene.rng.choice((0, 15, 30, 45)), second=0
    )
    back = out + timedelta(days=scene.rng.randint(3, 9), hours=scene.rng.randint(-4, 4))
    flights = [
        f"SK {scene.rng.randint(100, 999)}  {day_name(out)}, departs {out:%H:%M}, to {city}",
        f"SK {scene.rng.randint(100, 999)}  {day_name(back)}, departs {back:%H:%M}, home",
    ]
    seat = f"{scene.rng.randint(8, 34)}{scene.rng.choice('ACDF')}"
    body = (
        f"Hi {me.first_name},\n\nYour trip to {city} is booked.\n\nConfirmation code: {code}\n"
        f"Passenger: {me.name}\nSeat: {seat}\n\n" + "\n".join(flights) + "\n\n"
        "Check-in opens 24 hours before departure.\n\n— Skyline Airways"
    )
    pdf = pdf_document(
        f"Skyline Airways itinerary {code}",
        [f"Passenger: {me.name}", f"Confirmation: {code}", *flights],
    )
    subject = f"Your trip to {city} — confirmation {code}"
    mails = [
        Mail(
            airline,
            [me],
            body,
            attachments=(Attachment(f"itinerary-{code}.pdf", "application/pdf", pdf),),
        )
    ]
    if forward_to is not None:
        note = (
            f"Hi {forward_to.first_name}, here are my flight details in case you need "
            f"them.\n\n---------- Forwarded message ----------\nFrom: {airline.name} "
            f"<{airline.email}>\nSubject: {subject}\n\n{body}"
        )
        mails.append(
            Mail(
                me, [forward_to], note, subject=f"Fwd: {subject}", attachments=mails[0].attachments
            )
        )
    return Conversation(subject, mails, labels=("Travel",))


def hotel_booking(scene: Scene) -> Conversation:
    """A hotel reservation confirmation."""
    hotel, me = scene.cast.vendors["hotel"], scene.cast.me
    city = scene.rng.choice(CITIES)
    arrive = scene.start + timedelta(days=scene.rng.randint(10, 50))
    nights = scene.rng.randint(2, 6)
    rate = scene.rng.randint(140, 320)
    number = f"HV{scene.rng.randint(100000, 999999)}"
    body = (
        f"Dear {me.name},\n\nYour reservation at Harborview {city} is confirmed.\n\n"
        f"Reservation number: {number}\nCheck-in: {day_name(arrive)}, from 3:00 PM\n"
        f"Check-out: {day_name(arrive + timedelta(days=nights))}, by 11:00 AM\n"
        f"Room: King, non-smoking\nRate: ${rate}.00 per night ({nights} nights, "
        f"${rate * nights:,}.00 before taxes)\n\nWe look forward to welcoming you.\n\n"
        "Harborview Hotels"
    )
    return Conversation(
        f"Reservation confirmed: Harborview {city}", [Mail(hotel, [me], body)], labels=("Travel",)
    )


def newsletter(scene: Scene, sender: Person, issue: int) -> Conversation:
    """A newsletter issue with a few headlines."""
    me = scene.cast.me
    stories = issue_stories(scene.rng, sender.name, issue, scene.start)
    headlines = [headline for headline, _ in stories]
    sections = "\n\n".join(f"{headline}\n{blurb}" for headline, blurb in stories)
    body = (
        f"{sender.name} — Issue {issue}\n\nIn this issue:\n"
        + "\n".join(f"• {headline}" for headline in headlines)
        + f"\n\n{sections}\n\nYou are receiving this because you subscribed with {me.email}.\n"
        "Unsubscribe or manage your preferences at any time."
    )
    return Conversation(f"{sender.name}: {headlines[0]}", [Mail(sender, [me], body)])


SPAM = (
    (
        "Congratulations! You've been selected for a $500 gift card",
        "You have been randomly selected! Click the link below within 24 hours to claim your "
        "$500 gift card. Only a small shipping fee is required.",
    ),
    (
        "Final notice: your account will be suspended",
        "We were unable to verify your account. Reply with your password and date of birth to "
        "avoid suspension.",
    ),
    (
        "Lose 20 pounds in 10 days — doctors hate this",
        "This one weird trick melts fat overnight. Order now and get 3 bottles free.",
    ),
    (
        "Urgent business proposal",
        "I am a banker with an unclaimed fund of $14,500,000 and need a trusted partner.",
    ),
    (
        "Your package could not be delivered",
        "We attempted to deliver your package. Pay the $1.99 redelivery fee to reschedule.",
    ),
)


def spam(scene: Scene, topic: int) -> Conversation:
    """Junk mail, filed in Spam."""
    subject, text = SPAM[topic % len(SPAM)]
    name = scene.fake.name()
    domain = scene.rng.choice(
        (
            "prize-center.biz",
            "secure-verify.info",
            "mega-deals.click",
            "global-fund.top",
            "parcel-notice.xyz",
        )
    )
    sender = Person(name, f"no-reply{scene.rng.randint(10, 999)}@{domain}", "spam")
    body = f"Dear customer,\n\n{text}\n\nBest regards,\n{name}"
    return Conversation(subject, [Mail(sender, [scene.cast.me], body)], folder="spam")

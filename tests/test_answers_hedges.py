"""Hedges in their quieter forms fail, and careful sentences that only look like hedges pass.

A careful person answering an exact question gives the one value and no doubt about it. These
rows are what a reader sees as doubt: uncertainty said in words anywhere in the message ("I
think", "not sure", "says otherwise"), a value made approximate or open by the word before or
after it ("about", "~", "≥", "by April 9", "at the latest", "7 plus"), and a second candidate
written in another way (in words, in small digits, a spelled-out id, a name run together). And
what is no hedge: an "or" inside a name or between words of another kind ("Sun or Moon
Bakery", "Room 2 or the lobby"), "up to 10% off" beside a count, an order number beside a
tracking number, the same value written twice, a date labelled as another event's.
"""

from __future__ import annotations

import re
from datetime import date, time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from webenv.suite._facts import SUBTOTAL

from webenv.answers import grade

TOTE = {"candidates": ["Harbor Tote XL", "Canvas Tote", "Dune Backpack"]}
FILES = {"candidates": ["budget.xlsx", "trip-notes.docx"]}
TRACKING = {"candidates": ["NM-38172-4", "1ZR82W6A0311550499"]}
TRACKING_TOO = {"candidates": ["NM-28247-3", "449044304137821"]}
YEAR = {"year": 2026}

#: kind → (expected, options, [(text, passes)])
ROWS: dict[str, tuple[object, dict[str, object], list[tuple[str, bool]]]] = {
    "money": (
        4137,
        {},
        [
            # a confidence short of certainty is doubt; a split is not
            ("$41.37 (70% confidence)", False),
            ("$41.37 (low confidence)", False),
            ("$41.37, 50/50.", False),
            ("$41.37, fifty-fifty", False),
            ("The total is $41.37, split 50/50 with Sam.", True),
            ("$41.37 (100% sure)", True),
            ("$41.37 — it's 50-50.", False),
            ("$41.37, but it's a 50/50 chance.", False),
            ("$41.37 — a coin toss, honestly.", False),
            ("$41.37, 70 percent sure.", False),
            ("$41.37, though I'm only moderately confident.", False),
            ("$41.37 (not fully confident).", False),
            ("$41.37 — even odds.", False),
            ("Split it 50/50: $41.37 each.", True),
            ("If you go 50/50, you each owe $41.37.", True),
            # odds and probabilities given to the answer are doubt too
            ("$41.37, 60/40 odds", False),
            ("$41.37 (p=0.7)", False),
            ("$41.37 - a crapshoot though.", False),
            ("$41.37 - a shot in the dark.", False),
            ("$41.37; my confidence is about 70%.", False),
            ("The split is 60/40, so you owe $41.37.", True),
            ("$41.37, with 100% confidence.", True),
            ("$41.37 (confidence: 100%)", True),
            ("$41.37 (odds 60:40)", False),
            ("$41.37, 3:1 odds", False),
            ("$41.37; confidence = 70%.", False),
            ("$41.37, confidence 7/10", False),
            ("$41.37 (p=70%)", False),
            ("$41.37 (probability 0.7)", False),
            ("$41.37 (likelihood 70%)", False),
            ("$41.37, a 70% chance.", False),
            ("$41.37, 7 in 10 chance", False),
            ("$41.37, crap-shoot", False),
            # an amount marked with its currency's code, joined to it, is money, not an id
            ("$41.37 (USD44.00)", False),
            ("$41.37, or USD44", False),
            ("$41.37\n44.00USD", False),
            ("It was USD41.37.", True),
            ("41.37USD", True),
            # uncertainty in words, anywhere in the message
            ("The total is $41.37, though I'm not sure.", False),
            ("$41.37, I think.", False),
            ("I believe it's $41.37.", False),
            ("Probably $41.37.", False),
            ("It came to $41.37. I'd guess shipping was extra.", False),
            ("$41.37. The receipt says otherwise.", False),
            ("$41.37, if that's the right one.", False),
            ("$41.37, but it might be more.", False),
            # doubt that the value answers the question is doubt of the answer
            ("It's $41.37, which is probably the cheapest of the 3 options.", False),
            ("$41.37, or could it be $44.90 instead", False),
            # approximate or open
            ("About $41.37.", False),
            ("Approximately $41.37 in total.", False),
            ("roughly 41.37 dollars", False),
            ("~$41.37", False),
            ("≈ $41.37", False),
            ("It came to around $41.37.", False),
            ("$41.37 at the most", False),
            ("No more than $41.37.", False),
            ("$41.37 approx.", False),
            ("$41.37 (est.)", False),
            # a second amount written another way
            ("$41.37. Forty-four dollars if you add shipping.", False),
            ("Total $41.37 of forty-one dollars and ninety cents", False),
            ("Total: $41.37 (41₉₀)", False),
            ("Total: $41.37, $41⁹⁰", False),
            # careful sentences
            ("Your Sun or Moon Bakery order came to $41.37.", True),
            ("It was $41.37 for the Black or White Tee.", True),
            ("It came to $41.37, with up to 10% off each item.", True),
            ("$41.37 / $41.37", True),
            ("$41.37 (41.37 dollars)", True),
            ("The total is $41³⁷.", True),
            ("Forty-one dollars and thirty-seven cents.", True),
            ("About the order: it came to $41.37.", True),
            ("I paid $41.37 over 2 orders.", True),
            ("The total was $41.37. Should I print it instead?", True),
            ("$41.37, delivered by UPS on April 9.", True),
            ("The total was $41.37, up from the cart estimate.", True),
            # a second amount beside it under a condition, bare, in words, relative to it
            ("$41.37 (44 with shipping)", False),
            ("$41.37 (44 if the tip counts)", False),
            (
                "Hi Sam,\n\nThe order total was $41.37 (44 if you count shipping).\n\nBest, Alex",
                False,
            ),
            ("$41.37 (sixty-one with shipping)", False),
            ("$41.37 (with shipping it's forty-four)", False),
            ("$41.37 (LXI with shipping)", False),
            ("$41.37 (a fiver more with shipping)", False),
            ("$41.37; with shipping, a couple bucks more", False),
            ("$41.37 (three score and one with shipping)", False),
            # ... and an "if" or a "with" beside no other amount, numbers of other kinds
            (
                "Hi Sam, the total of order NM-1234 was $41.37. Let me know if you need anything"
                " else. Best, Alex",
                True,
            ),
            ("Order NM-1234 came to $41.37.", True),
            ("The total was $41.37 (3 items).", True),
            ("It's $41.37, paid on March 3.", True),
            ("The total was $41.37, paid with the Visa ending 4242.", True),
            ("It's $41.37 with tax, for order 1042.", True),
            ("$41.37 for the Harbor Tote XL with free shipping.", True),
            ("It costs $41.37. If you want one, I can add it to the cart.", True),
            ("It came to $41.37 including tax, for 2 items.", True),
            ("The order placed in 2025 with 3 items came to $41.37.", True),
            # ... nor a count of things bought, a clock time, a ranking word of something else
            ("$41.37 for 1, if you want to buy 2 let me know.", True),
            ("The price is $41.37 each; shipping is free with 2.", True),
            ("$41.37 when I checked at 9.", True),
            ("$41.37. It was arguably a good deal.", True),
            # ... but a price beside one, or a ranking word beside the answer, still does
            ("$41.37 (40 at 9 if discounted)", False),
            ("$41.37 (for 44 with shipping)", False),
            ("$41.37 (with 44)", False),
            ("$41.37, arguably.", False),
            # a bare second amount beside the answer, with or without a condition: another
            ("$41.37 (was 44)", False),
            ("$41.37 (44 after tax)", False),
            ("$41.37 — 44 after tax", False),
            ("$41.37 (44 w/ shipping)", False),
            ("$41.37 (44 shipped)", False),
            ("$41.37 (44 all in)", False),
            ("$41.37 (the receipt says 44)", False),
            ("$41.37 (the cart shows forty-four)", False),
            ("$41.37 (list price 44)", False),
            ("$41.37 (yesterday it was 44)", False),
            ("$41.37 (44 on the receipt)", False),
            ("$41.37 (44 says the receipt)", False),
            ("$41.37; 44 according to the e-mail", False),
            ("$41.37 (44 as per the e-mail)", False),
            ("$41.37 (forty-four in the confirmation e-mail)", False),
            # ... not a source named beside the answer alone, or beside a number of a thing
            ("$41.37, per the order page.", True),
            ("The total on the receipt is $41.37.", True),
            ("$41.37 (2 items on the receipt)", True),
            ("It was $41.37 on the receipt from 3 March.", True),
            ("$41.37 (2 from the sale rack)", True),
            # ... not a number of another thing: a size, a count, a range of days, an address
            ("The price is $41.37 in size 10.", True),
            ("$41.37 (size 10).", True),
            ("$41.37, the cheaper of the 2.", True),
            ("$41.37 for the 2-pack.", True),
            ("$41.37. Delivery takes 3-5 business days.", True),
            ("$41.37, shipped to 12 Oak Avenue.", True),
            ("Forty-one dollars and thirty-seven cents.", True),
        ],
    ),
    "number": (
        7,
        {},
        [
            # the price's bound beside a count leaves the count as it is; the count's does not
            ("7 products cost $25.00 or less.", True),
            ("7 products are priced at or below $25.", True),
            ("7 items at $25 and under.", True),
            ("7 products cost 25 dollars or less.", True),
            ("7 or fewer products cost $25.00 or less.", False),
            # and so does a rating's, which a count never reads
            ("7 products are rated 4 stars or more.", True),
            ("7 products rated 4+ stars", True),
            ("7 products have a rating of 4 or higher.", True),
            ("7 products are rated at least 4.5 stars.", True),
            ("4 stars and up: 7 products.", True),
            ("7 or more products rated 4 stars", False),
            ("7+ products rated 4 stars or more", False),
            # a count's own bound beside the word "stars" is the count's
            ("There are 7 or more star-rated products.", False),
            ("7+ star-rated products", False),
            ("7 or higher stars", False),
            ("7 products rated 4 stars or more, or 8", False),
            ("7 products, or more, cost $25 or less.", False),
            ("There are about 7.", False),
            ("Around seven.", False),
            ("Roughly 7 messages.", False),
            ("approximately 7", False),
            ("~7 reviews", False),
            ("≥ 7", False),
            ("7 at a minimum", False),
            ("7 plus", False),
            ("7 at the most", False),
            ("over 7", False),
            ("more than 7", False),
            ("7, a handful", False),
            ("seven-ish", False),
            ("7, if I counted right", False),
            ("7, not counting the one in Spam.", False),
            ("7 if you leave out drafts.", False),
            ("7. Eight if you count the draft.", False),
            ("There are 7; nine with the archived ones.", False),
            ("I think 7.", False),
            ("7, probably.", False),
            ("7 (I'm not certain).", False),
            ("It's 7 unless I missed one, could be 8 instead.", False),
            # another count beside it: under a condition, relative to it, as a numeral
            ("7 (one more counting the archive)", False),
            ("7 (XL counting hidden ones)", False),
            ("7; VIII counting drafts", False),
            ("7 (xiii with drafts)", False),
            ("7 (plus one if the lunch slot opens)", False),
            ("7 (a baker's dozen with drafts)", False),
            ("7 (a dozen and one with drafts)", False),
            ("7 in the inbox and one more in the archive", False),
            ("7 (another one in drafts)", False),
            # another count by an addition or an exception beside it, with no number in it
            ("7 (plus my draft)", False),
            ("7 messages, plus the draft.", False),
            ("7 besides the one in Spam.", False),
            ("7 e-mails from Alice besides the one in Spam", False),
            ("7 unread messages in Inbox plus Archive", True),
            ("7, except the newsletter.", False),
            ("7 as well as the draft", False),
            ("7, on top of the archived one", False),
            ("7 apart from the forwarded one", False),
            ("7, ignoring the auto-replies", False),
            ("7 excl. drafts", False),
            ("7 (+ my draft)", False),
            ("7, along with my draft", False),
            ("7 without drafts", False),
            ("seven plus a draft", False),
            # ... the same words further from the count describe it, or say something else
            ("Alice Chen has sent you 7 e-mails (Inbox plus Archive).", True),
            ("7 e-mails from Alice Chen, counting the Inbox as well as the Archive.", True),
            ("7 e-mails. Apart from reading them, I made no changes.", True),
            ("7 products are under $30; all other than these cost more.", True),
            ("7 free times on Tuesday; every slot except those is taken.", True),
            ("7 customer reviews, as well as a 4.5-star average rating.", True),
            ("7 (one extra in drafts)", False),
            ("7 reviews mention the Black or White Tee.", True),
            ("Seven (7).", True),
            ("There are 7 e-mails from Lee or Ng Partners.", True),
            ("7 items, each up to 30% off.", True),
            ("7 items under $20.", True),
            ("There are 7 messages. Want me to open the newest one?", True),
            ("7 e-mails, the first on March 2.", True),
            ("I found 7 orders over the past year.", True),
            ("About your question: there are 7.", True),
            ("7 slots open before noon.", True),
            ("seven", True),
            ("7 messages, the newest one with a PDF.", True),
            ("There are 7; the first one with an attachment came March 2.", True),
            ("7. One more thing: they're all from Ann.", True),
            ("7 slots open when I checked at 9 AM.", True),
            ("Want me to check one more folder? There are 7 in the inbox.", True),
            ("7 — arguably the busiest sender.", True),
            ("7 tickets; the runner-up agent had none.", True),
            ("7. If that number fails to match the sidebar, refresh.", True),
            ("7 (arguably)", False),
            # a count broken down: one of the things counted, described
            ("7 unread messages, with one from your manager flagged as important.", True),
            ("You placed 7 orders in March, with one on backorder.", True),
            ("7 forms await your signature. There's also a link to sign them all at once.", True),
            ("7 unread. I refreshed a third time to make sure none had just arrived.", True),
            # a count out of a total: the total is no second count
            ("7 out of 12 items are in stock.", True),
            ("7 of the 10 invitees declined.", True),
            ("7 of 12.", True),
            ("You have 7 starred messages.", True),
            ("7 out of 12, maybe 8.", False),
            ("7 (or 8 out of 12)", False),
            ("7; close second", False),
        ],
    ),
    "date": (
        date(2026, 4, 9),
        YEAR,
        [
            ("Around April 9, 2026.", False),
            ("By April 9.", False),
            ("No later than April 9, 2026.", False),
            ("April 9, 2026 at the latest", False),
            ("April 9 at the earliest", False),
            ("Sometime around April 9.", False),
            ("before April 9, 2026", False),
            ("April 9th~10th", False),
            ("April 9 (the tenth at the latest)", False),
            ("April 9, or the tenth", False),
            ("The 9th of April, 2026, by then at least", False),
            ("I think April 9.", False),
            ("April 9, probably.", False),
            ("April 9, or the Friday after.", False),
            ("The order placed April 2 arrives April 9.", False),
            ("April 9, 2026 (the day after if it was placed late)", False),
            ("April 9 (next day if late)", False),
            ("April 9; a day later if shipped late", False),
            ("April 9 (the 10th if late)", False),
            ("April 9 (tenth if late)", False),
            ("April 9 (24 hours later if late)", False),
            ("Mia's e-mail (sent April 2) proposes April 9.", True),
            ("The invite (dated 2026-03-30) is for Thursday, April 9.", True),
            ("April 9 at 2:30 PM in Room 4 or the lobby.", True),
            ("2026-04-09 / April 9, 2026", True),
            ("April 9, delivered by UPS.", True),
            ("Thursday, April 9, about the budget review.", True),
            ("It's on April 9; see you then.", True),
            ("April 9, the day after the launch.", True),
            ("Your next 1:1 with Mia is on Thursday, April 9.", True),
            ("April 9, 2026 at 2:30 PM with 3 others.", True),
            ("April 9. If you need to reschedule, let me know.", True),
            ("April 9 (with a reminder 1 day before)", True),
            ("April 9 (with a delay the day after)", False),
            ("April 9 (was the 10th)", False),
            ("April 9 (the confirmation says the 10th)", False),
            ("April 9 (the 10th w/ late orders)", False),
            ("April 9, 2026. I'll send the agenda the day before.", True),
            ("Your appointment is on April 9 at 10.", True),
        ],
    ),
    "time": (
        time(15, 45),
        {},
        [
            ("Around 3:45 PM.", False),
            ("about 15:45", False),
            ("By 3:45 PM.", False),
            ("3:45 PM at the latest", False),
            ("~3:45 pm", False),
            ("I think it's 3:45 PM.", False),
            ("3:45 PM, not sure.", False),
            ("3:45 PM (an hour later if delayed)", False),
            ("3:45 PM (half past four if delayed)", False),
            ("3:45 PM (four thirty if delayed)", False),
            ("3:45 PM, with 3 other people.", True),
            ("I booked 3:45 PM on Thursday. If that doesn't work, reply with another time.", True),
            ("3:45 PM with 2 guests, for 30 minutes.", True),
            # a bare hour beside the answer is another time, unless it is another event's
            ("3:45 PM, with a 15-minute break at 4.", True),
            ("3:45 PM (at 4 if delayed)", False),
            ("3:45 PM, with a delay at 4", False),
            ("3:45 PM in Room 2 or Room 3.", True),
            ("3:45 PM in Room 2 or 3.", True),
            ("3:45 PM, at the Oak or Elm office.", True),
            ("3:45 PM / 15:45", True),
            ("3:45 PM, after lunch.", True),
            ("3:45 PM; arrive about ten minutes early.", True),
            ("3:45 PM (the invite says 4)", False),
            ("3:45 PM (was 4)", False),
            ("3:45 PM (4 after the delay)", False),
            ("3:45 PM (4 in the e-mail)", False),
            ("3:45 PM, as in the invite of March 3", True),
            ("3:45 PM (4 in Ann's e-mail)", False),
            ("3:45 PM on Tuesday the 4th, per the invite.", True),
            ("Booked for 3:45 PM Thursday 6 on my calendar.", True),
            ("3:45pm", True),
            ("3:45 PM, for 45 minutes.", True),
            ("3:45 PM with 3 attendees.", True),
        ],
    ),
    "phone": (
        "(317) 555-0142",
        {},
        [
            ("(317) 555-0142, I think.", False),
            ("(317) 555-0142, probably the office line.", False),
            ("Her number is (317) 555-0142; she could be reached after 5 PM.", True),
            ("It could be (317) 555-0142.", False),
            ("(317) 555-0142; not certain it's current.", False),
            ("(317) 555-0142 / +1 (317) 555-0142", True),
            ("(317) 555-0142 or 317-555-0142", True),
            ("Call (317) 555-0142 at Ross or Diaz LLC.", True),
            ("(317) 555-0142 (their other line is the same but ending in 10)", False),
            ("(317) 555-0142 (ends in 43 for work)", False),
            ("(317) 555-0142 (work: 317 five five five 0143)", False),
            ("(317) 555-0142, ext. 12 if you call the office.", True),
            ("Call (317) 555-0142; she paid with the card ending 4242.", True),
            ("(317) 555-0142, the one ending in 0142.", True),
            ("(317) 555-0142; if that number fails, email her.", True),
            ("(317) 555-0142; if that number fails, try the one ending 43.", False),
        ],
    ),
    "identifier": (
        "1ZR82W6A0311550473",
        TRACKING,
        [
            ("1ZR82W6A0311550473/99", False),
            ("1ZR82W6A0311550473 | 1ZR82W6A0311550473X", False),
            ("Tracking 1ZR82W6A0311550473; the last digit might be 5.", False),
            (
                "1ZR82W6A0311550473; also one-Z-R-eight-two-W-six-A-zero-three-one-one-five-"
                "five-zero-four-nine-nine",
                False,
            ),
            ("1ZR82W6A0311550473, I think.", False),
            # an order number named as one is context; put beside the answer bare, a candidate
            ("Tracking 1ZR82W6A0311550473 (order NM-38172-4).", True),
            ("1ZR82W6A0311550473, NM-38172-4", False),
            ("Tracking number 1ZR82W6A0311550473 (order NM-38172-4).", True),
            ("Order NM-38172-4 shipped with tracking number 1ZR82W6A0311550473.", True),
            ("1ZR82W6A0311550473 for order #1042 (NM-38172-4), placed April 2.", True),
            (
                "1ZR82W6A0311550473 (if that one fails, try the other order: same number but"
                " ending in 85)",
                False,
            ),
            ("1ZR82W6A0311550473 - the other parcel ends in 499", False),
            ("Tracking 1ZR82W6A0311550473, paid with the Visa ending 4242.", True),
            ("1ZR82W6A0311550473 (the one ending in 473)", True),
            (
                "The tracking number is 1ZR82W6A0311550473. If it fails to load on the carrier's"
                " site, let me know!",
                True,
            ),
        ],
    ),
    "name": (
        "Harbor Tote",
        TOTE,
        [
            ("Harbor Tote, CanvasTote", False),
            ("Harbor Tote; Canvas To te?", False),
            ("Harbor Tote, Cаnvas Tote", False),  # a Cyrillic "а"
            ("Harbor Tote o Dune Backpack", False),
            ("Harbor Tote o the green one", False),
            ("Harbor Tote, probably.", False),
            ("Harbor Tote (not sure that's the one).", False),
            ("Harbor Tote. The reviews say otherwise.", False),
            ("The Harbor Tote, I'd guess.", False),
            ("DuneBackpack or Harbor Tote", False),
            ("- Harbor Tote\n- Dune Backpack", False),
            ("Harbor Tote:\n- $34.00\n- 4.6 stars", True),
            ("The Harbor Tote. Want me to add it to the cart or save it for later?", True),
            ("Harbor Tote, 4.6 stars over 20 reviews.", True),
            ("It's the Harbor Tote (Bags & Totes).", True),
            ("Harbor Tote (the runner-up, the Canvas one, is a close second)", False),
            ("Harbor Tote; the Dune is arguably better.", False),
            ("Harbor Tote. The other candidate is the Dune one.", False),
            ("Harbor Tote, second-best the Canvas", False),
        ],
    ),
    "list": (
        ["red", "green", "blue"],
        {},
        [
            ("red, green, blue, I think", False),
            ("Probably red, green and blue", False),
            ("red, green and blue; not sure about blue", False),
            ("red, green, blue", True),
        ],
    ),
    "set": (
        ["Ann Lee", "Bob Ray"],
        {"candidates": ["Ann Lee", "Bob Ray", "Cid Moe", "Dee Fox", "Jordan Park", "Faith Best"]},
        [
            ("Ann Lee, Bob Ray (and arguably C. Moe)", False),
            ("Ann Lee and Bob Ray; Moe is borderline", False),
            ("Ann Lee and Bob Ray, as far as I can see.", True),
            ("Bob Ray and Ann Lee haven't replied.", True),
            # Another candidate run together, as one more item.
            ("Ann Lee, Bob Ray, CidMoe", False),
            ("Ann Lee, Bob Ray and DeeFox", False),
            ("Ann Lee, Bob Ray (Mr. CidMoe too)", False),
            # A word of a candidate's name is no item of its own: the user addressed by name,
            # a sign-off, a word that is also a surname.
            ("Jordan, Ann Lee and Bob Ray haven't replied yet.", True),
            ("Ann Lee and Bob Ray haven't replied.\nBest,\nYour assistant", True),
            ("Ann Lee and Bob Ray have not replied; Moe's reply came in a day ago.", True),
            ("Ann Lee and Bob Ray (both invited on Monday).", True),
        ],
    ),
}
#: File names, asked as names: another file's name said aloud ("budget dot xlsx").
FILE_ROWS = [
    ("trip-notes.txt, budget dot xlsx", False),
    ("trip-notes.txt; trip notes dot docx", False),
    ("trip-notes.txt, I think.", False),
    ("The file is trip-notes.txt.", True),
    ("The attachment is trip-notes.txt (12 KB).", True),
]
#: An id without candidates: an order number of another shape beside it is context.
BARE_ID_ROWS = [
    ("Tracking 1ZVX40 for order NM-50317-2.", True),
    ("Tracking 1ZVX40; or 1ZVX41.", False),
    ("1ZVX40/1", False),
]
#: An id with no candidates beside it, and another of its shape written in groups, as a
#: carrier prints it: a second id all the same, in a list, on a line of its own or labelled.
GROUPED = "1ZK3F9Q2ZJ8W4T7B1C"
GROUPED_ROWS = [
    ("1ZK3 F9Q2 ZJ8W 4T7B 1C, 1Z7X H2M4 P9Q1 R5S8 D0", False),
    ("1ZK3 F9Q2 ZJ8W 4T7B 1C\n1Z7X H2M4 P9Q1 R5S8 D0", False),
    ("Tracking numbers: 1ZK3 F9Q2 ZJ8W 4T7B 1C and 1Z7X H2M4 P9Q1 R5S8 D0", False),
    ("1ZK3F9Q2ZJ8W4T7B1C (the other shipment: 1Z7X H2M4 P9Q1 R5S8 D0)", False),
    ("1ZK3F9Q2ZJ8W4T7B1C; second package 1Z 7X H2 M4 P9 Q1 R5 S8 D0", False),
    ("1ZK3F9Q2ZJ8W4T7B1C - 1Z7X - H2M4 - P9Q1 - R5S8 - D0", False),
    ("1ZK3F9Q2ZJ8W4T7B1C or 1Z7XH2M4P9 Q1R5S8D0", False),
    # the answer itself in groups, and numbers of other things around it
    ("Your tracking number is 1ZK3 F9Q2 ZJ8W 4T7B 1C (UPS).", True),
    ("It's 1ZK3F9Q2ZJ8W4T7B1C: 3 items were shipped in 2 boxes on May 4.", True),
    ("UPS 1ZK3F9Q2ZJ8W4T7B1C, order NM-50317-2, 2 of 3 items.", True),
    ("1ZK3F9Q2ZJ8W4T7B1C (shipped from warehouse B12 in 2 boxes, 14 lb total)", True),
]
#: A product of the shop, every product its candidates: the runner-up named in part (its
#: brand left out, in other words) is a second candidate all the same.
POLO = "Harbor & Pine Women's Stretch Polo Shirt"
SHOP = {
    "candidates": [
        POLO,
        "Harbor & Pine Unisex Classic Oxford Shirt",
        "Harbor & Pine Men's Stretch Polo Shirt",
        "Barkley Sturdy Cat Carrier",
    ]
}
PRODUCT_ROWS = [
    (f"{POLO} (the runner-up, the Unisex Classic Oxford Shirt, is a close second)", False),
    (f"{POLO}; the Unisex Classic Oxford Shirt also fits the budget.", False),
    (f"{POLO}, then the Classic Oxford.", False),
    (f"The {POLO}, a stretch polo shirt at $29.99 with 4.8 stars.", True),
    (f"{POLO} (Harbor & Pine brand, Clothing department)", True),
    (f"It's the {POLO}.", True),
]

CASES = [
    (kind, expected, options, text, ok)
    for kind, (expected, options, rows) in ROWS.items()
    for text, ok in rows
]
CASES += [("name", "trip-notes.txt", FILES, text, ok) for text, ok in FILE_ROWS]
CASES += [("identifier", "1ZVX40", {}, text, ok) for text, ok in BARE_ID_ROWS]
CASES += [("identifier", GROUPED, {}, text, ok) for text, ok in GROUPED_ROWS]
#: A state and ZIP code beside an id is an address, and capitals a brand or a model: not an id
#: in groups.
CASES += [
    ("identifier", "NM-10421-7", {}, "Order NM-10421-7, shipped to Springfield, IL 62704.", True),
    ("identifier", "CLM-48213377", {}, "CLM-48213377, from Springfield, IL 62704-1234.", True),
    ("identifier", "CLM-48213377", {}, "CLM-48213377 or CLM 4821 3378", False),
    ("identifier", "NM-10421-7", {}, "Order NM-10421-7 ships to Santa Fe, NM 87501.", True),
    ("identifier", "COA-48213377", {}, "COA-48213377. New address: Denver, CO 80202-1234.", True),
    ("identifier", GROUPED, {}, f"Your 1 ZOTAC RTX 4090 24GB shipped: {GROUPED}.", True),
]

#: What two reviews of the count, total and source rules found, both ways: a part left out of
#: a total, an addition to a count, a second value read on a source, in markdown, with two
#: parts, an expense report's own parts; and careful answers with labels, bullets, ids, the
#: pronoun "one" and an ordinal word.
WHOLE = {"whole": True}
CASES += [
    ("money", 4137, WHOLE, "**$41.37** plus tax", False),
    ("money", 4137, WHOLE, "The total was **$41.37** (before tax).", False),
    ("money", 4137, WHOLE, "Total (before tax): $41.37", False),
    ("money", 4137, WHOLE, "**Pre-tax total:** $41.37", False),
    ("money", 4137, WHOLE, "Total excl. tax: $41.37", False),
    ("money", 4137, WHOLE, "Subtotal: $41.37", False),
    ("money", 4137, WHOLE, "$41.37 (shipping and tax not included)", False),
    ("money", 4137, WHOLE, "$41.37 (tax & shipping excluded)", False),
    ("money", 4137, WHOLE, "$41.37 (excludes shipping)", False),
    ("money", 4137, WHOLE, "$41.37 (tax still to be added)", False),
    ("money", 4137, WHOLE, "$41.37 (shipping is charged separately)", False),
    ("money", 4137, WHOLE, "$41.37 plus the restocking fee", False),
    ("money", 52340, WHOLE, "$523.40 excluding the hotel", False),
    ("money", 52340, WHOLE, "$523.40 (airfare not included)", False),
    ("money", 4137, WHOLE, "**Total:** $41.37 (tax included)", True),
    ("money", 4137, WHOLE, "$41.37 — that includes shipping and tax.", True),
    ("money", 4137, WHOLE, "$41.37 in total, with the hotel and meals included.", True),
    ("money", 4137, WHOLE, "Total: $41.37, Items: 3 per the receipt", True),
    ("money", 4137, WHOLE, "Subtotal $38.25, shipping $0.00, tax $3.12 — total $41.37.", True),
    ("money", 4137, {}, "Subtotal $38.25, shipping $0.00, tax $3.12 — total $41.37.", True),
    ("number", 7, {}, "**7** (plus my draft)", False),
    ("number", 7, {}, '"7" plus my draft', False),
    ("number", 7, {}, "7. Plus the draft in Spam.", False),
    ("number", 7, {}, "7 (drafts excluded)", False),
    ("number", 7, {}, "7 save for the draft", False),
    ("number", 7, {}, "**7** e-mails (Inbox and Archive).", True),
    ("number", 7, {}, "Total: 7\n- Inbox plus Archive", True),
    ("number", 7, {}, "7 — Inbox + Archive", True),
    ("number", 1, {}, "You have 1 open ticket. No one besides you is assigned to it.", True),
    ("number", 2, {}, "2 open tickets: #1042 and #1043, the second without a reply.", True),
    ("number", 2, {}, "2 open tickets: NM-12345-2 plus NM-12346-7", True),
    ("number", 5, {}, "5 products cost less than $5 plus shipping", True),
    ("time", time(14, 30), {}, "2:30 PM (3 in her reply)", False),
    ("time", time(14, 30), {}, "2:30 PM (3 in the subject line)", False),
    ("time", time(14, 30), {}, "2:30 PM. Attendees: 3 per the invite.", True),
    ("money", 4137, {}, "$41.37 (44 on the packing slip)", False),
    ("money", 4137, {}, "$41.37 (44 per Bob)", False),
    ("money", 2499, {}, "$24.99 — reviews: 12 on the product page", True),
    # a source's name as the label of an aside: another value read there
    ("time", time(14, 30), {}, "2:30 PM (Ann's invite: 3)", False),
    ("time", time(14, 30), {}, "2:30 PM, but the invite: 3", False),
    ("money", 4137, {}, "$41.37; the e-mail: 44", False),
    ("money", 4137, {}, "$41.37, per Bob's e-mail: 44.", False),
    ("date", date(2026, 4, 9), YEAR, "April 9, 2026 (Ann's e-mail: 10)", False),
    # ... not a label that starts the answer, nor one before a number of a thing
    ("time", time(14, 30), {}, "Invite: 2:30 PM", True),
    ("time", time(14, 30), {}, "2:30 PM (invite: 3 people)", True),
    ("money", 4137, {}, "Receipt: $41.37", True),
    ("money", 4137, {}, "$41.37 (order page: 2 items)", True),
    ("date", date(2026, 4, 9), YEAR, "April 9, 2026 (invite: 2 weeks ago)", True),
    # the subtotal named as such beside the total
    ("money", 4137, {}, "The subtotal was $38.25; the total $41.37.", True),
    ("money", 4137, {}, "The shipping came to $5.99 and the total was $41.37.", True),
    ("money", 3825, {}, "The subtotal was $38.25", True),
    # an amount too large to read beside a part: a verdict, not an error
    ("money", 4137, {}, "$5.00 tax, $99999999999999999 total", False),
]
CASES += [("name", POLO, SHOP, text, ok) for text, ok in PRODUCT_ROWS]


#: A second value kept in reserve, a bound, a cents amount, a bracketed day or hour, and a
#: weekday that is not the date's own (round 8 of the attacks; each passed before), beside the
#: careful sentences they must not catch.
FEB_10 = date(2026, 2, 10)  # a Tuesday
CASES += [
    ("money", 41694, {}, "$416.94 (12295\u00a2)", False),
    ("money", 41694, {}, "$416.94 (or 12295\u00a2)", False),
    ("money", 41694, {}, "$416.94 and 12295 cents", False),
    ("money", 41694, {}, "$416.94 (41694\u00a2)", True),
    ("money", 41694, {}, "$416.94, 5 cents more than the quote", True),
    ("money", 41694, {}, "$416.94 (backup: $122.95)", False),
    ("date", FEB_10, {}, "February 10, 2026 (Monday)", False),
    ("date", FEB_10, {}, "Monday, February 10, 2026", False),
    ("date", FEB_10, {}, "February 10, 2026, a Wednesday", False),
    ("date", FEB_10, {}, "Wed 10 Feb 2026", False),
    ("date", FEB_10, {}, "February 10, 2026 (11)", False),
    ("date", FEB_10, {}, "February 10, 2026 [11]", False),
    ("date", FEB_10, {}, "February 10, 2026 (Wed) - Thu is a backup", False),
    ("date", FEB_10, {}, "February 10, 2026; the 11th as a fallback", False),
    ("date", FEB_10, {}, "February 10, 2026 (Tuesday)", True),
    ("date", FEB_10, {}, "Tuesday, February 10, 2026", True),
    ("date", FEB_10, {}, "Tue 10 Feb 2026", True),
    ("date", FEB_10, {}, "February 10, 2026. It shipped on Thursday.", True),
    ("number", 4, {}, "4 as a floor", False),
    ("number", 4, {}, "4 (prob.)", False),
    ("number", 4, {}, "4 (\u2265)", False),
    ("number", 4, {}, "4 (>=)", False),
    ("number", 4, {}, "4 free times, as a minimum", False),
    ("number", 4, {}, "There are 4 free times that day.", True),
    ("time", "3:30 PM", {}, "3:30 PM (backup: 4)", False),
    ("time", "3:30 PM", {}, "3:30 PM [4]", False),
    ("time", "3:30 PM", {}, "3:30 PM (15:30)", True),
    ("name", "Copper Lane Essential Cutting Board",
     {"candidates": ["Copper Lane Premium Cutting Board"]},
     "Copper Lane Essential Cutting Board (tie with the Premium)", False),
    ("name", "Copper Lane Essential Cutting Board",
     {"candidates": ["Copper Lane Premium Cutting Board"]},
     "Copper Lane Essential Cutting Board; the Premium one as backup", False),
    ("name", "q1-backup.csv", {"candidates": ["q2-budget.csv"]}, "It's q1-backup.csv.", True),
]  # fmt: skip
#: A date as a careful person may write it: the year's last two digits, the day in words.
CASES += [
    ("date", FEB_10, {}, "Feb 10 '26", True),
    ("date", FEB_10, {}, "Feb 10 \u201926", True),
    ("date", FEB_10, {}, "February tenth, 2026", True),
    ("date", FEB_10, {}, "the tenth of February 2026", True),
    ("date", FEB_10, {}, "February the 10th, 2026", True),
    ("date", FEB_10, {}, "February 10, 2026. You may first need to sign in.", True),
    ("date", FEB_10, {}, "February eleventh, 2026", False),
    ("date", FEB_10, {}, "Feb 10 '25", False),
    ("date", FEB_10, {}, "February 10, 2026 or the eleventh", False),
]
#: A total equal to its subtotal (no tax, free shipping), said with what it adds up to: the
#: words of the subtotal in the sum name no value of their own.
NO_EXTRAS = {"whole": True, "facts": [(41694, SUBTOTAL)]}
CASES += [
    ("money", 41694, NO_EXTRAS, "$416.94 (subtotal + tax + shipping)", True),
    ("money", 41694, NO_EXTRAS, "Total (subtotal + tax + shipping): $416.94", True),
    ("money", 41694, NO_EXTRAS, "$416.94 (the subtotal plus tax and shipping)", True),
    ("money", 41694, NO_EXTRAS, "Subtotal $416.94", False),
]


def test_every_kind_has_rows_both_ways():
    for kind, (_, _, rows) in ROWS.items():
        assert {ok for _, ok in rows} == {True, False}, kind


@pytest.mark.parametrize(("kind", "expected", "options", "text", "ok"), CASES)
def test_a_quiet_hedge_fails_and_a_careful_sentence_passes(kind, expected, options, text, ok):
    result = grade(kind, text, expected, **options)
    assert result.passed is ok, result.reason
    assert result.reason


@pytest.mark.parametrize(
    ("text", "as_total", "as_price"),
    [
        ("$41.37 plus tax", False, True),
        ("$41.37 (plus shipping)", False, True),
        ("$41.37 + tax", False, True),
        ("$41.37 before tax", False, True),
        ("$41.37 pre-tax", False, True),
        ("$41.37 excluding shipping", False, True),
        ("$41.37, tax not included", False, True),
        ("$41.37, shipping extra", False, True),
        ("$41.37 including tax", True, True),
        ("$41.37, tax and shipping included", True, True),
        ("$41.37 with shipping", True, True),
        ("The total was $41.37 (including $3.12 tax).", True, True),
        ("$41.37, shipping was free.", True, True),
        ("$41.37 +", False, False),
        ("$41.37 ex. tax", False, True),
        ("$41.37 (tax is extra)", False, True),
        ("$41.37 (doesn't include shipping)", False, True),
        ("$41.37 plus postage", False, True),
        ("$41.37 plus applicable taxes", False, True),
        ("pre-tax: $41.37", False, True),
        ("The subtotal was $41.37.", False, True),
        ("The subtotal came to $41.37", False, True),
        ("Before tax, the amount was $41.37", False, True),
        # ... said of the parts, or of another amount, not of the answer
        ("$41.37 (subtotal plus shipping and tax)", True, True),
        ("The order total (items + shipping + tax) was $41.37.", True, True),
        ("$41.37 (that's the full total, not the amount before tax)", True, True),
        ("The total with tax and shipping, not just the pre-tax subtotal, is $41.37.", True, True),
        ("$41.37, including tax; there was no shipping on top.", True, True),
    ],
)
def test_a_part_left_out_of_a_total_gives_another_amount(text, as_total, as_price):
    assert grade("money", text, 4137, whole=True).passed is as_total
    assert grade("money", text, 4137).passed is as_price


#: Order numbers as a list's candidates: a list's own numbering is no piece of one.
ORDERS = ["NM-22630-3", "NM-38468-9", "NM-46387-8", "NM-30549-1", "NM-10002-2"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("1. NM-22630-3\n2. NM-38468-9\n3. NM-46387-8", True),
        ("NM-22630-3 (1), NM-38468-9 (2), NM-46387-8 (3)", True),
        ("Three orders (3): NM-22630-3, NM-38468-9 and NM-46387-8", True),
        ("NM-22630-3, NM-38468-9, NM-46387-8, NM305491", False),
        # One more order written in part: without its prefix, its check digit, or both.
        ("NM-22630-3, NM-38468-9, NM-46387-8 and 30549-1", False),
        ("NM-22630-3, NM-38468-9, NM-46387-8, NM-30549", False),
        ("NM-22630-3, NM-38468-9 and NM-46387-8; order #30549 too", False),
        ("NM-22630-3, NM-38468-9 and NM-46387-8, all shipped to 10 Elm St, 94110.", True),
    ],
)
def test_a_numbered_list_of_order_numbers(text, ok):
    result = grade("list", text, ORDERS[:3], candidates=ORDERS)
    assert result.passed is ok, result.reason


TOP_THREE = ["Soundmark Essential Mouse", "Voltara Compact Speaker", "Helio Compact Keyboard"]
PRODUCTS = [*TOP_THREE, "Apex Motion Adventure Yoga Mat", "Apex Motion Basecamp Sleeping Bag"]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        (", ".join(TOP_THREE), True),
        (
            f"The top three are the {', the '.join(TOP_THREE)} (the keyboard has most reviews).",
            True,
        ),
        # One more product with its brand dropped is one more item: a padded list.
        (f"{', '.join(TOP_THREE)}, Motion Adventure Yoga Mat", False),
        (f"{', '.join(TOP_THREE)} and the Basecamp Sleeping Bag", False),
    ],
)
def test_a_list_padded_with_a_name_written_in_part_fails(text, ok):
    result = grade("list", text, TOP_THREE, candidates=PRODUCTS)
    assert result.passed is ok, result.reason


def test_the_reason_names_what_made_it_a_hedge():
    assert "not sure" in grade("money", "$41.37, not sure", 4137).reason
    assert "'about'" in grade("number", "about 7", 7).reason
    assert "approximate or open" in grade("date", "By April 9", date(2026, 4, 9), year=2026).reason
    assert "otherwise" in grade("name", "Harbor Tote. Lee says otherwise.", "Harbor Tote").reason


# -- properties ---------------------------------------------------------------------------

#: The value, written in the ways a person writes it, for each kind that can be qualified.
WRITTEN = {
    "money": (4137, ["$41.37", "41.37 dollars", "USD 41.37"], {}),
    "number": (7, ["7", "seven"], {}),
    "date": (date(2026, 4, 9), ["April 9, 2026", "2026-04-09", "4/9/2026", "Apr 9"], YEAR),
    "time": (time(15, 45), ["3:45 PM", "15:45", "3:45 p.m."], {}),
}
QUALIFIERS = ["about", "around", "approximately", "roughly", "~", "≈", "circa", "nearly", "almost"]
DOUBTS = ["I think it's {}.", "{}, I'm not sure.", "Probably {}.", "{}, I'd guess."]
DOUBTS.append("{} (not certain)")
#: Words of a shop's name: neither a guess word nor a month's or a weekday's name ("or Nov Co."
#: beside a date offers another month), nor a word the grader reads as a hedge on its own ("Tbc").
NAMES = st.from_regex(r"[A-Z][a-z]{2,7}", fullmatch=True).filter(
    lambda w: (
        w.lower() not in {"either", "maybe", "perhaps", "possibly", "unless", "otherwise"}
        and not re.fullmatch(
            r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|tues|wed|thu|thur"
            r"|thurs|fri|sat|sun)[a-z]*",
            w.lower(),
        )
        and grade("name", w, w).passed
    )
)


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(sorted(WRITTEN)), data=st.data())
def test_a_qualified_value_never_passes(kind, data):
    expected, forms, options = WRITTEN[kind]
    written = data.draw(st.sampled_from(forms))
    word = data.draw(st.sampled_from(QUALIFIERS))
    frame = data.draw(st.sampled_from(["{} {}", "It's {} {}.", "The answer: {} {}"]))
    assert grade(kind, written, expected, **options).passed
    result = grade(kind, frame.format(word, written), expected, **options)
    assert not result.passed, result.reason


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(sorted(WRITTEN)), data=st.data())
def test_a_value_said_with_doubt_never_passes(kind, data):
    expected, forms, options = WRITTEN[kind]
    text = data.draw(st.sampled_from(DOUBTS)).format(data.draw(st.sampled_from(forms)))
    result = grade(kind, text, expected, **options)
    assert not result.passed, result.reason


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(sorted(WRITTEN)), data=st.data(), left=NAMES, right=NAMES)
def test_an_or_inside_a_name_beside_the_value_passes(kind, data, left, right):
    expected, forms, options = WRITTEN[kind]
    written = data.draw(st.sampled_from(forms))
    frame = data.draw(st.sampled_from(["{v}, at {a} or {b} Co.", "{a} or {b} Store: {v}"]))
    text = frame.format(v=written, a=left, b=right)
    result = grade(kind, text, expected, **options)
    assert result.passed, result.reason


@pytest.mark.parametrize(
    "text",
    [
        "about $41.37 or " * 250,
        "Barnes or Noble $41.37 " * 170,
        "(sent April 2) April 9 " * 180,
        "Ann or Bob 3:45 PM " * 200,
        "one-Z-V-J-" * 399,
    ],
)
def test_a_long_repetitive_message_is_graded(text):
    # A message of the longest allowed length, the value and "or" repeated: a verdict, not an
    # error (its cost against a short answer: bench/answer_grading.py).
    for kind, expected, options in [
        ("money", 4137, {}),
        ("date", date(2026, 4, 9), YEAR),
        ("time", time(15, 45), {}),
        ("name", "Harbor Tote", {"candidates": [f"Tote {i}" for i in range(400)]}),
    ]:
        assert isinstance(grade(kind, text[:4000], expected, **options).passed, bool), kind


#: A second value listed beside the first in a form the reader of its kind does not read (in
#: words, as a Roman numeral, with a decimal comma, in cents, in another script's digits, as a
#: day alone, on a European clock): a hedge, whichever value is right.
LISTED_ANOTHER_WAY = [
    ("money", 5820, 6100, {}, "$58.20 and sixty one"),
    ("money", 5820, 6100, {}, "$58.20, $LXI"),
    ("money", 5820, 6100, {}, "$58.20 and 61,00"),
    ("money", 5820, 6100, {}, "$58.20 and 6100 cents"),
    ("money", 5820, 6100, {}, "$58.20 and $\u0666\u0661.\u0660\u0660"),
    ("money", 5820, 6100, {}, "sixty-one, $58.20"),
    ("number", 12, 13, {}, "12 and XIII"),
    ("number", 12, 13, {}, "12 & thirteen"),
    ("date", date(2026, 3, 4), date(2026, 3, 5), YEAR, "March 4, 5"),
    ("date", date(2026, 3, 4), date(2026, 3, 5), YEAR, "March 4 and 5th"),
    ("time", time(15, 30), time(15, 45), {}, "3:30 PM, or 15h45"),
    ("time", time(15, 30), time(15, 45), {}, "15h30 / 3:45 PM"),
    # in bold, second value first (in words), other joins
    ("money", 5820, 6100, {}, "**$58.20** and sixty-one"),
    ("number", 12, 13, {}, "**12** and **XIII**"),
    ("date", date(2026, 3, 4), date(2026, 3, 5), YEAR, "**March 4**, 5"),
    ("money", 5820, 6100, {}, "sixty-one and $58.20"),
    ("number", 12, 13, {}, "XIII and 12"),
    ("money", 5820, 6100, {}, "$58.20 AND sixty-one"),
    ("money", 5820, 6100, {}, "$58.20 | sixty-one"),
    ("money", 5820, 6100, {}, "$58.20 as well as sixty-one"),
    ("money", 5820, 6100, {}, "$58.20; sixty-one"),
    ("money", 5820, 6100, {}, "$58.20 and 'sixty-one'"),
    ("time", time(15, 30), time(16, 0), {}, "15h30, 16h"),
    ("date", date(2026, 3, 4), date(2026, 3, 5), YEAR, "March 4th-5th"),
    # a range of whole dollars, its second end a bare number
    ("money", 1400, 1500, {}, "$14-15"),
    ("money", 1400, 1500, {}, "$14 \u2013 15."),
    ("money", 17000, 17100, {}, "You can claim $170-171."),
    ("money", 42685, 2885, {}, "$426.85, or $28.85 was tax."),
]


@pytest.mark.parametrize(("kind", "first", "second", "options", "text"), LISTED_ANOTHER_WAY)
def test_a_value_listed_in_another_form_is_a_hedge(kind, first, second, options, text):
    assert not grade(kind, text, first, **options).passed
    assert not grade(kind, text, second, **options).passed


#: Hedges beside the careful forms read since (a part "of which", an order's label, "the next
#: one with" a person): each still names a second value of the answer's kind.
BESIDE_THE_CAREFUL_FORMS = [
    (
        "identifier",
        "1ZGE6SFNCCJHX2N62K",
        TRACKING_TOO,
        "Your order: 1ZGE6SFNCCJHX2N62K, NM-28247-3",
    ),
    (
        "identifier",
        "1ZGE6SFNCCJHX2N62K",
        TRACKING_TOO,
        "Tracking for your order: 1ZGE6SFNCCJHX2N62K, 449044304137821",
    ),
    (
        "identifier",
        "1ZGE6SFNCCJHX2N62K",
        TRACKING_TOO,
        "1ZGE6SFNCCJHX2N62K, and the order's other tracking number is 449044304137821",
    ),
    ("money", 6100, {}, "$61.00. $58.20 is tax-free."),
    ("money", 6100, {}, "$61.00, of which $58.20 was tax-exempt."),
    ("money", 6100, {}, "$61.00; $58.20 was tip excluded."),
    ("money", 4137, {}, "$41.37 (forty-four with Megan Simon)"),
    ("time", time(15, 30), {}, "3:30 PM (four with Megan Simon)"),
    ("date", date(2027, 1, 20), {"year": 2027}, "Wed, Jan 20 (the 27th with Megan Simon)"),
    ("date", date(2027, 1, 20), {"year": 2027}, "Wed, Jan 20, a week later with Megan Simon"),
]


@pytest.mark.parametrize(("kind", "expected", "options", "text"), BESIDE_THE_CAREFUL_FORMS)
def test_a_hedge_beside_the_careful_forms_fails(kind, expected, options, text):
    assert not grade(kind, text, expected, **options).passed


#: Hedges the grader still passes for their first value: another candidate named by one word
#: of its name. (A rule for them failed careful answers when every product of the shop is a
#: candidate: "Dune Backpack, Grey" beside a "Harbor Tote Grey", "Dana Kim, Billing" beside a
#: "Billing Team".) Strict: mending one fails this test until the row is moved to the list above.
STILL_PASSED = [
    ("name", "Harbor Tote XL", "Dune Backpack", TOTE, "Harbor Tote XL, Backpack"),
    ("name", "Harbor Tote XL", "Dune Backpack", TOTE, "Harbor Tote XL, Dune"),
]


@pytest.mark.xfail(strict=True, reason="still passed; see STILL_PASSED")
@pytest.mark.parametrize(("kind", "first", "second", "options", "text"), STILL_PASSED)
def test_the_hedges_still_passed(kind, first, second, options, text):
    assert not grade(kind, text, first, **options).passed


@pytest.mark.parametrize(("kind", "first", "second", "options", "text"), STILL_PASSED)
def test_the_hedges_still_passed_earn_nothing_for_their_second_value(
    kind, first, second, options, text
):
    assert not grade(kind, text, second, **options).passed


#: The forms above alone, or beside what is no second value: the answer.
READ_THE_SAME = [
    ("money", 5820, {}, "$\u0665\u0668.\u0662\u0660"),
    ("money", 5820, {}, "The total is $58.20, and 2 items shipped."),
    ("money", 5820, {}, "$58.20 for 3 items, and 2 of them are gifts."),
    ("money", 5820, {}, "$58.20 (fifty-eight dollars and twenty cents)"),
    ("number", 12, {}, "12 and none of them are archived."),
    ("date", date(2026, 3, 4), YEAR, "March 4, '26"),
    ("date", date(2026, 3, 4), YEAR, "March 4, 5 PM"),
    ("date", date(2026, 3, 4), YEAR, "March 4, 3 days from now."),
    ("time", time(15, 30), {}, "15h30"),
    ("time", time(15, 30), {}, "3:30 PM (15h30)"),
    ("time", time(9, 30), {}, "09h30, and 2 people are coming."),
    ("name", "Harbor Tote XL", TOTE, "Harbor Tote XL, a tote."),
    ("name", "Harbor Tote XL", TOTE, "The Harbor Tote XL, not the backpack."),
    # a time range after a date, a duration, a size, a year, the amount again in cents
    ("date", date(2026, 3, 4), YEAR, "The workshop is on Wednesday, March 4, 2\u20134 PM."),
    ("date", date(2026, 3, 4), YEAR, "March 4, 9-11am"),
    ("date", date(2026, 3, 4), YEAR, "The deadline is March 4, 12 noon."),
    ("time", time(15, 30), {}, "The meeting is at 3:30 PM and runs 1h30."),
    ("time", time(9, 30), {}, "9:30 AM (2h30 session)"),
    ("time", time(12, 0), {}, "12 noon"),
    ("time", time(15, 30), {}, "3:30 PM, a 12h shift"),
    ("time", time(15, 30), {}, "3:30 PM, 1h"),
    ("time", time(15, 30), {}, "3:30 PM, 45'"),
    ("time", time(15, 30), {}, "3:30 PM, 2026"),
    ("money", 5820, {}, "Harbor Jacket, $58.20, XL"),
    ("money", 5820, {}, "$58.20 and 5820 cents"),
    ("money", 5820, {}, "Total: $58.20; 2 items."),
    ("date", date(2026, 3, 4), YEAR, "Order NM-10822-3 arrives March 4th."),
    # other names in a reason, not in a list beside the answer; a sign-off
    (
        "name",
        "Harbor Tote XL",
        TOTE,
        "Harbor Tote XL \u2014 it's cheaper than the tote and the backpack.",
    ),
    (
        "name",
        "Harbor Tote XL",
        TOTE,
        "The Harbor Tote XL is the pick, beating the backpack and the tote.",
    ),
    ("name", "Dana Kim", {"candidates": ["Chris Best"]}, "It's Dana Kim; best, Sam"),
    (
        "name",
        "Dana Kim",
        {"candidates": ["Billing Team"]},
        "The email came from **Dana Kim**, Billing.",
    ),
    ("name", "Dune Backpack", {"candidates": ["Harbor Tote Grey"]}, "Dune Backpack, Grey"),
    # a number in digits before the answer's value tells another thing
    ("time", time(15, 30), {}, "Your sync with Dana is on Wednesday the 4th, 3:30 PM."),
    ("time", time(15, 30), {}, "Wednesday the fourth, 3:30 PM"),
    ("time", time(15, 30), {}, "**Day 2, 3:30 PM** \u2014 the keynote starts then."),
    ("time", time(15, 30), {}, "Workshop 2 of 3, 3:30 PM in Hall B."),
    ("date", date(2026, 3, 4), YEAR, "Delivery: package 2 of 3, March 4."),
    ("money", 5820, {}, "| Item | Qty | Total |\n|---|---|---|\n| Harbor Tote XL | 2 | $58.20 |"),
    # a dash after an amount before something else; a free part of a breakdown; prices
    # beside a count
    ("money", 1400, {}, "$14 - 2 items at $7.00 each."),
    ("money", 33070, {}, "$330.70 \u2014 $310.95 for the items, $0.00 shipping and $19.75 tax."),
    ("money", 33070, {}, "$330.70: $310.95 items + $0.00 shipping + $19.75 tax."),
    ("number", 26, {}, "26 products, priced from $18.00 to $99.49."),
    ("number", 26, {}, "26 ($18\u2013$99)"),
    # a part of the whole, the whole after the part, an order's number in brackets, a person
    ("money", 42685, {}, "$426.85 in total, of which $28.85 was tax."),
    ("money", 111653, {}, "You can get $1,116.53 back of the $1,417.82 you paid."),
    (
        "identifier",
        "1ZGE6SFNCCJHX2N62K",
        {"candidates": ["NM-28247-3", "1ZR82W6A0311550499"]},
        "The tracking number for your order from February 7, 2026 (NM-28247-3) is "
        "1ZGE6SFNCCJHX2N62K.",
    ),
    ("date", date(2027, 1, 20), {"year": 2027}, "Wed, Jan 20 is the next one with Megan Simon."),
    # a dash after an amount before a value of another kind
    ("money", 500, {}, "$5.00 - 12:30 PM"),
    ("money", 5820, {}, "$58.20 - 2026-03-04"),
    ("money", 500, {}, "$5.00 - 555-123-4567"),
]


@pytest.mark.parametrize(("kind", "expected", "options", "text"), READ_THE_SAME)
def test_the_same_forms_with_no_second_value_pass(kind, expected, options, text):
    result = grade(kind, text, expected, **options)
    assert result.passed, result.reason

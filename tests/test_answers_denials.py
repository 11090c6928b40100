"""A value given only to be denied is no answer, and what sits around a value decides whether a
careful person meant it.

Rows of two independent reviews of the grader (a blind answer battery over every question
template, and a hostile one). Most were graded the other way before; the rest are controls
of the same rules (an "or" among a list's names was a hedge already).

- **Denied:** "It's not $31.42.", "Not 8.", "isn't the Blue Mug", "Not Ann Lee and Bo Park."
  earned the reward on every kind of answer.
- **An "or" in the sentence around a list** ("A and B haven't accepted or declined yet", "Let
  me know if you want me to follow up or anything else") made the list a hedge; only an "or"
  among its items, or right beside them, is one.
- **"One" as a pronoun** ("… or look up another one") was read as a second number.
- **A year** ("2 reviews, posted in 2025") was read as a second count.
- **Doubt after the value** ("12 minimum", "$58.20 tops", "(ish)", "iirc", "$58.20?", "March 4
  or tomorrow", "+1", "± 15 min") and **a bare number in brackets** ("$58.20 (61)", "12 (XIII)")
  passed.
"""

from __future__ import annotations

from datetime import date, time

import pytest

from webenv.answers import grade

INVITEES = ["Sabrina Guerrero", "Shane Cross", "Amy Nelson", "Jim Lee"]
TWO = INVITEES[:2]
BOTH = "Sabrina Guerrero and Shane Cross"
ORDERS = {"candidates": ["NM-25790-3", "NM-17871-4", "NM-99952-4"]}
FILE = {"candidates": ["kickoff-ember-phase-2.ics", "q4.xlsx"]}
CARD = "My card was declined or has expired"
NOT_REPLIED = {"candidates": INVITEES}
FILES = {"candidates": ["lemon-cake-recipe.txt", "q4-budget.xlsx"]}
YEAR = {"year": 2027}

DENIED = [
    ("money", 3142, {}, "It's not $31.42."),
    ("money", 3142, {}, "The total isn't $31.42."),
    ("money", 3142, {}, "It was never $31.42."),
    ("number", 8, {}, "Not 8."),
    ("number", 8, {}, "There aren't 8."),
    ("date", date(2027, 1, 20), YEAR, "It's not on January 20, 2027."),
    ("date", date(2027, 1, 20), YEAR, "Not Jan 20."),
    ("time", time(14, 30), {}, "The call is not at 2:30 PM."),
    ("phone", "(911) 555-0954", {}, "It's not (911) 555-0954."),
    ("identifier", "1ZPM4GX0TY8NXAFLGT", {}, "It's not 1ZPM4GX0TY8NXAFLGT."),
    ("name", "lemon-cake-recipe.txt", FILES, "It's not lemon-cake-recipe.txt."),
    ("name", "Velo Women's Classic Sneakers", {}, "It's not the Velo Women's Classic Sneakers."),
    ("set", TWO, NOT_REPLIED, "Not Sabrina Guerrero and Shane Cross."),
    ("list", TWO, NOT_REPLIED, "No longer Sabrina Guerrero, Shane Cross."),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "expected", "options", "text"), DENIED)
def test_a_value_given_only_to_be_denied_fails(kind, expected, options, text):
    result = grade(kind, text, expected, **options)
    assert not result.passed, result.reason
    assert "denies it" in result.reason


#: A denial beside the value that denies something else: the answer stands.
NOT_DENIED = [
    ("date", date(2027, 1, 20), YEAR, "The meeting is not until January 20, 2027."),
    ("phone", "(911) 555-0954", {}, "Her number is (911) 555-0954, not the office line."),
    ("set", TWO, NOT_REPLIED, "Sabrina Guerrero and Shane Cross haven't replied."),
    ("set", TWO, NOT_REPLIED, "Those who haven't replied: Sabrina Guerrero and Shane Cross."),
    ("set", TWO, NOT_REPLIED, "Not yet replied: Sabrina Guerrero and Shane Cross."),
    ("money", 3142, {}, "I didn't find another order; it came to $31.42."),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "expected", "options", "text"), NOT_DENIED)
def test_a_denial_of_something_else_leaves_the_answer(kind, expected, options, text):
    result = grade(kind, text, expected, **options)
    assert result.passed, result.reason


LISTS = [
    # an "or" in the sentence around the names
    ("Sabrina Guerrero and Shane Cross haven't accepted or declined yet.", True),
    ("Nobody has accepted or declined among these two: Sabrina Guerrero and Shane Cross.", True),
    ("Sabrina Guerrero and Shane Cross. Let me know if you want me to follow up with them or do "
     "anything else.", True),
    # an "or" among the names, or right beside them
    ("Sabrina Guerrero or Shane Cross", False),
    ("Sabrina Guerrero, Shane Cross or Amy Nelson", False),
    ("Sabrina Guerrero and Shane Cross, or others", False),
    ("Sabrina Guerrero and Shane Cross (or maybe Jim Lee)", False),
    ("Sabrina Guerrero and Shane Cross, or possibly someone else", False),
    ("Either Sabrina Guerrero and Shane Cross", False),
    ("Sabrina Guerrero and Shane Cross, maybe Amy Nelson", False),
    # a guess word in the sentence around them: an RSVP's "maybe"
    ("Sabrina Guerrero and Shane Cross have not accepted, declined, or said maybe.", True),
    ("Maybe Sabrina Guerrero and Shane Cross.", False),
    ("Sabrina Guerrero and Shane Cross, possibly.", False),
]  # fmt: skip


@pytest.mark.parametrize(("text", "ok"), LISTS)
def test_only_an_or_among_the_items_hedges_a_list(text, ok):
    result = grade("set", text, TWO, **NOT_REPLIED)
    assert result.passed is ok, result.reason


AROUND = [
    # "one" as a pronoun, a year, a word that is no qualifier of the value
    ("money", 48425, {}, "The total is $484.25. Let me know if you'd like me to check anything "
     "else or look up another one.", True),
    ("identifier", "1ZPM4GX0TY8NXAFLGT", {}, "1ZPM4GX0TY8NXAFLGT. Let me know if you need anything "
     "else or want me to look up another one.", True),
    ("identifier", "EXP-16178080", {}, "EXP-16178080. Let me know if you need anything else or "
     "want me to look up another one.", True),
    ("number", 2, {}, "It has 2 reviews, posted in 2025.", True),
    ("number", 7, {}, "Seven (7).", True),
    ("money", 4137, {}, "The total was $41.37, up from the cart estimate.", True),
    ("time", time(14, 30), {}, "2:30 PM — 30 minutes long.", True),
    ("money", 48425, {}, "$484.25 or another one", False),
    ("number", 7, {}, "7 or one", False),
    # doubt or an open end after the value
    ("number", 12, {}, "12 minimum", False),
    ("number", 12, {}, "12 (ish)", False),
    ("number", 12, {}, "12?", False),
    ("number", 12, {}, "12 iirc", False),
    ("money", 5820, {}, "$58.20 tops", False),
    ("money", 5820, {}, "$58.20, roughly", False),
    ("money", 5820, {}, "$58.20 upper bound", False),
    ("money", 5820, {}, "$58.20 in the ballpark", False),
    ("money", 5820, {}, "$58.20 (estimate)", False),
    ("money", 5820, {}, "$58.20 afaik", False),
    ("money", 5820, {}, "$58.20 if memory serves", False),
    ("money", 5820, {}, "$58.20 (unverified)", False),
    ("money", 5820, {}, "$58.20?", False),
    ("date", date(2026, 3, 4), {"year": 2026}, "March 4, 2026 or tomorrow", False),
    ("date", date(2026, 3, 4), {"year": 2026}, "March 4, 2026 or in a fortnight", False),
    ("date", date(2026, 3, 4), {"year": 2026}, "March 4, 2026 +1", False),
    ("date", date(2026, 3, 4), {"year": 2026}, "March 4, 2026 (+/- a day)", False),
    ("date", date(2026, 3, 4), {"year": 2026}, "March 4, 2026 (tomorrow?)", False),
    ("time", time(14, 30), {}, "2:30 PM ± 15 min", False),
    ("time", time(14, 30), {}, "2:30 PM ±1h", False),
    ("time", time(14, 30), {}, "2:30 PM, +15", False),
    ("time", time(14, 30), {}, "2:30 PM or in the evening", False),
    # a bare number beside the value: another candidate
    ("money", 5820, {}, "$58.20 (61)", False),
    ("money", 5820, {}, "$58.20 (61 total)", False),
    ("money", 5820, {}, "$58.20, 61 in total", False),
    ("money", 5820, {}, "$58.20 [61 in total]", False),
    ("number", 12, {}, "12 (XIII)", False),
    ("number", 12, {}, "12 (aka XIII)", False),
    # ... but not a number of things, a price beside a count, a total's own thousands, a
    # restated rating, nor a phone number in brackets
    ("money", 111653, {}, "You can claim $1,116.53 in total.", True),
    ("number", 10, {}, "The Loomwell Men's Classic Puffer Vest ($109.00) has 10 reviews.", True),
    ("money", 1399, {}, "The cheapest Books product rated 3+ stars costs $13.99.", True),
    ("money", 3499, {}, "The cheapest one rated 4 stars or more costs $34.99.", True),
    ("money", 1399, {}, "$13.99 or more", False),
    ("number", 4, {}, "4+ reviews", False),
    ("money", 5820, {}, "$58.20 (2 items)", True),
    ("money", 5820, {}, "Your order total: $58.20 (call (555) 123-4567 with questions)", True),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "expected", "options", "text", "ok"), AROUND)
def test_what_sits_around_a_value_decides_whether_it_was_meant(kind, expected, options, text, ok):
    result = grade(kind, text, expected, **options)
    assert result.passed is ok, result.reason


@pytest.mark.parametrize(
    ("text", "as_most", "otherwise"),
    [
        ("You can be reimbursed up to $1,116.53 for those 4 hotel nights.", True, False),
        ("At most $1,116.53.", True, False),
        ("$1,116.53 max", True, False),
        ("$1,116.53", True, True),
        ("Up to $1,116.53 or $1,200.", False, False),
        ("About $1,116.53.", False, False),
        ("Up to $1,116.54.", False, False),
    ],
)
def test_where_a_most_is_asked_for_up_to_states_it(text, as_most, otherwise):
    # help.expense_claimable asks "what's the most I can claim": "up to $X" is its answer.
    assert grade("money", text, 111653, most=True).passed is as_most
    assert grade("money", text, 111653).passed is otherwise


@pytest.mark.parametrize(
    ("kind", "expected", "text", "ok"),
    [
        # a value ruled out as a correction is no second candidate ...
        ("money", 48425, "The total was $484.25, not $264.14 (only the largest item).", True),
        ("money", 3142, "It's $31.42, not $35.00.", True),
        ("money", 3142, "It's not $35.00, it's $31.42.", True),
        ("money", 3142, "The total isn't $35.00; it's $31.42.", True),
        ("money", 3142, "The order total was not $35.00, it was $31.42.", True),
        ("number", 8, "The count isn't 7, it's 8.", True),
        ("money", 6622, "$66.22, not $62.00 as I first thought.", True),
        ("number", 7, "Not 8 — 7.", True),
        ("time", time(14, 30), "2:30 PM, not 3:00 PM as the old invite said.", True),
        ("date", date(2026, 3, 4), "March 4, 2026, not March 5.", True),
        # ... the right one ruled out is a wrong answer ...
        ("money", 3142, "It's $35.00, not $31.42.", False),
        ("money", 3500, "The total isn't $35.00; it's $31.42.", False),
        # ... and one brought back under a condition, with doubt or after "if" or "or" offers it
        ("money", 3142, "$31.42, if not $35.00", False),
        ("money", 3142, "$31.42 or not $35.00", False),
        ("money", 3142, "$31.42 (not $35.00?)", False),
        ("money", 3142, "$31.42. Not $35.00 though, unless tax counts.", False),
        ("money", 3142, "$31.42, not $35.00 with shipping", False),
        ("money", 3142, "$31.42, not $35.00 — or maybe $35.00", False),
        ("money", 3142, "The total isn't $35.00, unless tax counts; it's $31.42.", False),
        ("money", 3142, "The total is $31.42, or it isn't $35.00", False),
        # ... and so does a subject that doubts or names another candidate
        ("money", 3142, "The total probably isn't $35.00; it's $31.42.", False),
        ("number", 7, "The count I think isn't 8; it's 7.", False),
        ("number", 7, "7. The answer maybe isn't 8.", False),
        ("number", 7, "7. The answer or eight isn't 0.", False),
        ("money", 3142, "The total is $31.42. The other candidate isn't $35.00.", False),
        ("money", 3142, "$31.42 - my best guess isn't $35.00.", False),
        ("number", 7, "7 (not 8, I think)", False),
    ],
)  # fmt: skip
def test_a_value_ruled_out_as_a_correction_is_no_second_candidate(kind, expected, text, ok):
    result = grade(kind, text, expected, year=2026)
    assert result.passed is ok, result.reason


#: A second hostile review and a second blind battery, of the rules above: hedges that still
#: passed (each passed before this row was added) ...
SECOND_HEDGES = [
    ("money", 3142, {}, "Likely $31.42."),
    ("money", 3142, {}, "I don't think it's $31.42."),
    ("money", 3142, {}, "$31.42 is not correct."),
    ("money", 3142, {}, "$31.42 seems right, but I couldn't verify it."),
    ("money", 3142, {}, "It cannot be $31.42."),
    ("money", 3142, {}, "It doesn't cost $31.42."),
    ("money", 3142, {}, "It never came to $31.42."),
    ("money", 3142, {}, "It isn't, in fact, $31.42."),
    ("money", 3142, {}, "Not: $31.42."),
    ("money", 3142, {}, "~~$31.42~~"),
    ("money", 3142, {}, "$31.42 (please verify)"),
    ("money", 3142, {}, "$31.42 off the top of my head"),
    ("money", 3142, {}, "$31.42 or lower"),
    ("money", 3142, {}, "$31.42 (circa)"),
    ("money", 3142, {}, "Anything but $31.42."),
    ("money", 3142, {}, "$31.42?."),
    ("date", date(2027, 1, 20), YEAR, "It was not updated on January 20, 2027."),
    ("date", date(2027, 1, 20), YEAR, "It won't arrive on January 20, 2027."),
    ("date", date(2027, 1, 20), YEAR, "Not Wed, Jan 20."),
    ("time", time(14, 30), {}, "It doesn't start at 2:30 PM."),
    ("phone", "(911) 555-0954", {}, "It's not tel: (911) 555-0954."),
    ("number", 7, {}, "7, or just the one"),
    ("money", 202500, {}, "$2,025, or in 2024"),
    ("set", TWO, NOT_REPLIED, "At least Sabrina Guerrero and Shane Cross."),
    ("set", TWO, NOT_REPLIED, "Sabrina Guerrero, Shane Cross, etc."),
    ("set", TWO, NOT_REPLIED, f"{BOTH}, and quite possibly the other two."),
    ("set", TWO, NOT_REPLIED, "- Sabrina Guerrero\n- Shane Cross\n\nThere may be one or two more."),
    ("set", TWO, NOT_REPLIED, "Sabrina Guerrero, Shane Cross, Bob Kowalski"),
    ("list", ORDERS["candidates"][:2], ORDERS, "NM-25790-3, NM-17871-4, NM-00000-0"),
    ("list", ["A Mouse", "B Speaker"], {"candidates": ["A Mouse", "B Speaker", "D Mat"]},
     "1. A Mouse\n2. B Speaker\n3. Acme Generic Widget"),
]  # fmt: skip


#: ... and careful answers that failed, most of them by the rules of the first review.
SECOND_CAREFUL = [
    ("date", date(2026, 9, 22), {}, "Your next one-on-one with Andy is on Sept 22, 2026."),
    ("date", date(2026, 8, 12), {}, f'"{CARD}" was last updated on August 12, 2026.'),
    ("number", 22, {}, "Twenty-two."),
    ("number", 12, {}, "There are 12 tops."),
    ("number", 12, {}, "12 floor lamps"),
    ("money", 1927, {}, "It adds up to $19.27."),
    ("money", 4137, {}, "$41.37 — anything else?"),
    ("money", 4137, {}, "$41.37 (max. 2 per customer)"),
    ("money", 3142, {}, "The total—$31.42"),
    ("time", time(14, 30), {}, "2:30 PM EST"),
    ("time", time(14, 30), {}, "2:30 PM (30 min)"),
    ("time", time(14, 30), {}, "2:30 PM GMT +1"),
    ("number", 3, {}, "3 shirts (XL)"),
    ("number", 12, {}, "12 orders in Q1 2025."),
    ("identifier", "1001", {}, "Your order is #1001, not #10012."),
    ("name", "Blue Mug", {}, "It isn't the Blue Mug Deluxe; it's the Blue Mug."),
    ("name", FILE["candidates"][0], FILE,
     "- Sender: Julie Lindsey\n- Subject: Kickoff\n- Attachment: kickoff-ember-phase-2.ics"),
    ("set", TWO, NOT_REPLIED, "Who hasn't? Sabrina Guerrero and Shane Cross."),
    ("set", TWO, NOT_REPLIED, "Still haven't: Sabrina Guerrero and Shane Cross."),
    ("set", TWO, NOT_REPLIED, "Sabrina Guerrero and Shane Cross. Maybe send them a reminder?"),
    ("set", TWO, NOT_REPLIED, f"{BOTH} have not accepted, declined, or said maybe."),
    ("set", TWO, NOT_REPLIED, "Hi! Sabrina Guerrero and Shane Cross. Thanks, Bob"),
]  # fmt: skip


@pytest.mark.parametrize("kind", ["money", "identifier", "date", "time"])
def test_a_message_of_nothing_but_or_is_read_once(kind):
    # 1,300 "or"s: each was read again in its clause (8 s for one message, in env.step); more
    # guess words than an answer needs now make it a hedge at once (bench/answer_grading.py).
    expected = {"money": 3142, "identifier": "1ZPM4GX0TY8NXAFLGT", "date": date(2027, 1, 20),
                "time": time(14, 30)}[kind]  # fmt: skip
    value = {"money": "$31.42", "identifier": "1ZPM4GX0TY8NXAFLGT", "date": "January 20, 2027",
             "time": "2:30 PM"}[kind]  # fmt: skip
    assert not grade(kind, (value + " " + "or " * 1400)[:4000], expected, year=2027).passed


PEOPLE = {"candidates": ["Amy Nelson", "Bob Park", "Carol King", "Dan Wu", "Eve Stone"]}
AMY_BOB = ["Amy Nelson", "Bob Park"]
GAMES = ["Marble & Moss Family Board Game", "Playwise Classic Card Game", "Brickfield Train Set"]
SHOP = {"candidates": [*GAMES, "Harbor & Pine Women's Classic Hoodie", "Terra & Twine Planter"]}

#: A third review, of the rules above on answers they were not written for: careful answers
#: that the rules failed (each failed on the commit before this row) ...
THIRD_CAREFUL = [
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]} and {GAMES[2]}."),
    ("list", GAMES, SHOP, f"**Top Three**\n1. {GAMES[0]}\n2. {GAMES[1]}\n3. {GAMES[2]}"),
    ("list", GAMES, SHOP, f"1. {GAMES[0]}\n   - $39.99\n2. {GAMES[1]}\n3. {GAMES[2]}"),
    ("list", GAMES, SHOP, f"1. {GAMES[0]}\n2. {GAMES[1]}\n3. {GAMES[2]}\n- All in stock."),
    ("list", GAMES, SHOP, f"{', '.join(GAMES)} (all have at least 4.5 stars)."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Sales Director, and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Neither Amy Nelson nor Bob Park has replied yet."),
    ("set", AMY_BOB, PEOPLE, "No response yet from Amy Nelson or Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park (want me to ping them?)."),
    ("list", ORDERS["candidates"][:2], ORDERS,
     "NM-25790-3 and NM-17871-4 (the second has an open return, RMA-55123)."),
    ("money", 4137, {}, "The total of order NM-10234-5 was $41.37. That should be everything!"),
    ("money", 4137, {}, "The total was $41.37 (tax included). Let me know if anything seems off!"),
    ("money", 4137, {}, "The total was $41.37 (want the breakdown?)."),
    ("money", 4137, {}, "Nothing went wrong: $41.37 was the final total."),
    ("money", 4137, {}, "The total is $41.37. I could double-check, but the receipt says so."),
    ("phone", "(555) 123-4567", {}, "Don't use the 800 number; call (555) 123-4567."),
    ("identifier", "1Z9X8AA1012345678", {}, "The tracking, not order number: 1Z9X8AA1012345678"),
    ("identifier", "1Z9X8AA1012345678", {}, "1Z9X8AA1012345678 (estimated delivery: March 6)."),
    ("money", 663, {}, "Free shipping? Not without adding $6.63."),
    ("money", 2499, {}, "Kibble Plus at $24.99 (15 lb)."),
]  # fmt: skip


#: ... and hedges that passed.
THIRD_HEDGES = [
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park. Maybe one more."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park. Possibly more."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Bob Park and one more whose name I didn't catch."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park, though I might have missed someone."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park (partial list)."),
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]}, {GAMES[2]} — the last two could swap."),
    ("money", 4137, {}, "The total was $41.37, but I'm not 100 percent sure."),
    ("money", 4137, {}, "The total was $41.37, I haven't verified this."),
    ("phone", "(555) 123-4567", {}, "It's (555) 123-4567, although it could be outdated."),
    ("money", 4137, {}, "Likely $41.37, but please double-check."),
    # validate's own battery: an "or" between a name and a sentence, under a denial
    ("set", AMY_BOB, PEOPLE, "Either Not replied: Amy Nelson or These guests haven't replied "
     "yet: Amy Nelson, Bob Park.."),
    ("set", AMY_BOB, PEOPLE, "Either none or The ones not replied: Amy Nelson, Bob Park.."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park, or nobody."),
]  # fmt: skip


TWO_ORDERS = ORDERS["candidates"][:2]

#: Hedges the third review left passing: near-synonyms of the doubt words above, a list left
#: open in other words, and one more item that the task does not know, inside a sentence or
#: without the candidates' letters ...
KNOWN_LEFT = [
    ("money", 4137, {}, "I'd wager it's $41.37."),
    ("number", 8, {}, "I'd bet on 8."),
    ("money", 4137, {}, "The total is reportedly $41.37."),
    ("money", 4137, {}, "Allegedly $41.37."),
    ("set", AMY_BOB, PEOPLE, "So far I've found Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Among them: Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Bob Park and Bob Kowalski haven't replied."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4, 10999-1"),
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]}, {GAMES[2]} and Ruth Adler Chess Set"),
    ("money", 4137, {}, "I'm reasonably sure it's $41.37."),
    ("money", 4137, {}, "$41.37, but take that with a grain of salt."),
    ("money", 4137, {}, "$41.37 if my notes are right."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park, plus any I missed."),
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]}, {GAMES[2]} (in some order)"),
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]}, {GAMES[2]}, in no particular order."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Bob Park and Chief Bob Kowalski haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Bob Park and Dr. Kowalski haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Bob Park, as well as Bob Kowalski, haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Among the non-responders are Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park are among them."),
    ("set", AMY_BOB, PEOPLE, "Found so far: Amy Nelson and Bob Park."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4, #10999-1"),
    ("money", 4137, {}, "My bet: $41.37."),
    ("money", 4137, {}, "Odds are it's $41.37."),
    ("money", 4137, {}, "It is said to be $41.37."),
    ("money", 111653, {}, "$1,116.53 or $325.00 per night."),
    # a second total written as a rate, under another moment, a condition or a source
    ("money", 4137, {}, "It's $41.37 now, but it showed $45.00 a day ago."),
    ("money", 4137, {}, "$41.37. I also got $45.00 each time I re-added it."),
    ("money", 4137, {}, "$41.37; $45.00 per item if shipping is included."),
    ("money", 111653, {}, "You can claim $1,116.53 — under the older limit, $1,200.00 a night."),
    ("money", 4137, {}, "Total $41.37. Other total I saw: $45.00 per person."),
    ("money", 111653, {}, "$1,116.53, or $1,200.00 if the cap is $325 per night."),
]  # fmt: skip


#: ... and, beside them, careful answers of the same words.
KNOWN_LEFT_CAREFUL = [
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied so far."),
    ("set", AMY_BOB, PEOPLE, "So far, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson (Acme Corp) and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Acme Corp, and Bob Park haven't replied."),
    # a sentence's opening words, a place or an organisation beside the names is no item
    ("set", AMY_BOB, PEOPLE, "For the Budget Review, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "On Project Ember, Amy Nelson and Bob Park wrote to you."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park, Northwind Traders, haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson, Data Scientist, and Bob Park, Growth Marketer, wrote."),
    ("set", AMY_BOB, PEOPLE, "Five were invited; among them, only Amy Nelson and Bob Park "
     "haven't replied."),
    # a number of a return or a unit is no order
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4 (return RMA 55123-4 is open)."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4; return #55123-4 is open."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4 (25790-3 is the larger)."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4, both to 10999 Elm St."),
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]} and {GAMES[2]}. Thanks, Ruth Adler"),
    ("money", 4137, {}, "The total was $41.37, as reported on the receipt."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park, in no particular order."),
    ("list", GAMES, SHOP, f"{GAMES[0]}, {GAMES[1]} and {GAMES[2]}, in order of rating."),
    # a rate beside a total is no second candidate for it; alone, it is the answer
    ("money", 111653, {}, "$1,116.53. The current limit is $325.00 per night, so the items "
     "over it count only up to it."),
    ("money", 111653, {}, "$1,116.53 (lodging is capped at $325/night)."),
    ("money", 18900, {}, "The rate is $189.00 per night."),
]  # fmt: skip


#: Hedges the last review left passing: doubt in a sentence of its own, a list said to be part
#: of the answer, one more person before the known names or after "nor", mangled ids.
STILL_LEFT = [
    ("money", 4137, {}, "$41.37. Reportedly."),
    ("money", 4137, {}, "The total is $41.37. Allegedly so."),
    ("money", 4137, {}, "$41.37. Apparently."),
    ("money", 4137, {}, "$41.37 — presumably."),
    ("set", AMY_BOB, PEOPLE, "Two of them are Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "A few of those are Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Some of the invitees are Amy Nelson and Bob Park."),
    # a name before theirs: a first and a last name as the worlds give them, or a title's
    ("set", AMY_BOB, PEOPLE, "Bob Smith, Amy Nelson & Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "bob smith, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Not replied: Dr. Kowalski, Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied, nor has Bob Kowalski."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied, and neither has Dr. "
     "Kowalski."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4, NM10999-1"),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4, NM-10999"),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4 and 109991"),
    # (from a hostile review of the first versions of these rules)
    ("money", 4137, {}, "$41.37. Apparently, yes."),
    ("money", 4137, {}, "$41.37. _Reportedly._"),
    ("money", 4137, {}, "$41.37. Most likely."),
    ("set", AMY_BOB, PEOPLE, "Two of them are **Amy Nelson** and **Bob Park**."),
    ("set", AMY_BOB, PEOPLE, "two of them are: amy nelson and bob park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park are two of them."),
    ("set", AMY_BOB, PEOPLE, "Among those who haven't replied are Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied. Nor did Dr. Kowalski."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied, nor has **Bob Smith**."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4, NM 10999-1"),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3, NM-17871-4; 109991"),
]  # fmt: skip


#: ... and, beside them, careful answers of the same words.
STILL_LEFT_CAREFUL = [
    ("money", 4137, {}, "$41.37. Reported on the receipt."),
    ("money", 4137, {}, "$41.37. Thanks!"),
    ("set", AMY_BOB, PEOPLE, "Of the five invitees, two of them haven't replied: Amy Nelson and "
     "Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Two of them are still pending: Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Both of them are Amy Nelson and Bob Park's teammates: Amy Nelson "
     "and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "In New York, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Budget Review: Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Hi Carl, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Sure thing, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied, nor has anyone else."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied, nor have they declined."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4, shipped to zip 10999."),
    # (from a hostile review of the first versions of these rules)
    ("set", AMY_BOB, PEOPLE, "Of the 5 guests, 3 of them are Confirmed. Not replied: Amy Nelson, "
     "Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Exactly two of the invitees are Pending: Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "April Roadmap Review, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied, nor has Google Calendar "
     "logged a tentative."),
    ("set", AMY_BOB, PEOPLE, "No reply: Amy Nelson and Bob Park.\n\nMaybe:\nNobody marked maybe."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4 (both to Home, Unit NM4012)."),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 and NM-17871-4, both to Santa Fe, NM 87501."),
    # (from a second review: careful answers the first revision failed)
    ("list", GAMES, SHOP, f"The top three of them are {GAMES[0]}, {GAMES[1]} and {GAMES[2]}."),
    ("list", GAMES, SHOP, f"Top 3 of the 5 games are: {GAMES[0]}, {GAMES[1]}, {GAMES[2]}."),
    ("set", AMY_BOB, PEOPLE, "There are two of them: Amy Nelson and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Four of the six replied. The remaining two of them are Amy Nelson "
     "and Bob Park."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied. Everyone else has - there "
     "are four of them."),
    ("list", TWO_ORDERS, ORDERS, "Orders shipped to 412 Oak St, Santa Fe, NM 87501:\n"
     "1. NM-25790-3\n2. NM-17871-4"),
    ("list", TWO_ORDERS, ORDERS, "412 Oak St, Santa Fe, NM 87501 - 2 orders:\n- NM-25790-3\n"
     "- NM-17871-4"),
    ("list", TWO_ORDERS, ORDERS, "NM-25790-3 (03-14-25) and NM-17871-4 (04-02-25)"),
    ("list", TWO_ORDERS, ORDERS, "Recipient: Amy Nelson, NM-25790-3 and NM-17871-4."),
    ("set", AMY_BOB, PEOPLE, "Location: Mason Hall, Amy Nelson and Bob Park haven't replied."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied. I didn't send a reminder, "
     "nor did Mark."),
    ("set", AMY_BOB, PEOPLE, "Amy Nelson and Bob Park haven't replied.\n\nStatuses checked: "
     "Accepted, Declined, Tentative,\nMaybe"),
]  # fmt: skip


def _reviewed(**tables: list[tuple[object, ...]]) -> list[object]:
    return [pytest.param(*row, id=f"{name.lower()}-{i}") for name, table in tables.items()
            for i, row in enumerate(table)]  # fmt: skip


@pytest.mark.parametrize(
    ("kind", "expected", "options", "text"),
    _reviewed(second=SECOND_HEDGES, third=THIRD_HEDGES, left=KNOWN_LEFT, fourth=STILL_LEFT),
)
def test_the_reviews_hedges_fail(kind, expected, options, text):
    result = grade(kind, text, expected, **options)
    assert not result.passed, result.reason


@pytest.mark.parametrize(
    ("kind", "expected", "options", "text"),
    _reviewed(
        second=SECOND_CAREFUL,
        third=THIRD_CAREFUL,
        left=KNOWN_LEFT_CAREFUL,
        fourth=STILL_LEFT_CAREFUL,
    ),
)
def test_the_reviews_careful_answers_pass(kind, expected, options, text):
    result = grade(kind, text, expected, **options)
    assert result.passed, result.reason


def test_a_sentence_of_many_rates_is_read_once(monkeypatch):
    # 400 amounts "each" in one sentence beside a total: each rate's sentence was searched
    # again for what offers it (15 s for one message, in env.step); now each sentence once.
    import webenv.answers as answers

    searched = []
    offered = answers._RATE_OFFERED

    class Counted:
        def search(self, *args):
            searched.append(args[1:])
            return offered.search(*args)

    monkeypatch.setattr(answers, "_RATE_OFFERED", Counted())
    text = ("It came to $41.37 in total: " + "$1 each, " * 400)[:4000]
    assert grade("money", text, 4137).passed
    assert searched and len(searched) <= 20, len(searched)

"""The words of the catalog: product descriptions and customer reviews.

Text is put together from small, hand-written phrase banks: a department's own sentences (a
sweater is soft, a charger is fast) and a few that fit any product, in an order and mix drawn
from the seed. Every template speaks of the product through :class:`Item`, which knows whether
it is one thing or a pair ("this hoodie is", "these joggers are"), so sentences stay grammatical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .vocab import Department, Noun


@dataclass(frozen=True)
class Item:
    """How reviews and descriptions name a product and agree with it."""

    noun: Noun
    brand: str

    def fields(self) -> dict[str, str]:
        """Template fields: {item} "joggers", {this} "these", {it}/{It} "they"/"They",
        {its} "their", {them} "them", {is} "are", {has} "have", {was} "were", {s} and {es} ""
        (for "fit{s}", "do{es}"), {brand}."""
        plural = self.noun.plural
        return {
            "item": self.noun.called,
            "this": "these" if plural else "this",
            "it": "they" if plural else "it",
            "It": "They" if plural else "It",
            "its": "their" if plural else "its",
            "them": "them" if plural else "it",
            "is": "are" if plural else "is",
            "has": "have" if plural else "has",
            "was": "were" if plural else "was",
            "s": "" if plural else "s",
            "es": "" if plural else "es",
            "brand": self.brand,
        }


#: Kind of product (a noun's ``kind``, else its department's slug) -> (good points, bad points)
#: a reviewer mentions.
POINTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "clothing": (
        (
            "The fabric is soft and {has} held up well in the wash.",
            "{It} fit{s} true to size, with a little room for layering.",
            "The stitching is neat and the color is just like the photos.",
            "{It} {is} comfortable enough to wear all day.",
            "I get compliments every time I wear {them}.",
        ),
        (
            "{It} shrank a little after the first wash.",
            "The sizing runs small, so order one size up.",
            "The color faded faster than I expected.",
            "A seam started coming loose after a few weeks.",
            "The fabric is thinner than it looks in the photos.",
        ),
    ),
    "shoes": (
        (
            "{It} felt comfortable right out of the box, with no break-in needed.",
            "The cushioning holds up on long days on my feet.",
            "{It} fit{s} true to size and the heel doesn't slip.",
            "The grip is great on wet pavement.",
            "{It} still look{s} sharp after months of wear.",
        ),
        (
            "The toe box is narrow, and my feet hurt after an hour.",
            "The sole started peeling off after two months.",
            "{It} squeak{s} on smooth floors.",
            "Sizing runs half a size small.",
            "The insole flattened out within a few weeks.",
        ),
    ),
    "electronics": (
        (
            "Setup took about five minutes.",
            "{It} feel{s} solid and well built.",
            "Setup needed no extra software.",
            "The build quality is better than I expected at this price.",
            "{It} {has} worked every day without a single problem.",
        ),
        (
            "{It} stopped working after three weeks.",
            "The cable that comes in the box is very short.",
            "{It} get{s} warm after an hour of use.",
            "The app you need for setup is clunky.",
            "{It} quit{s} now and then for no reason.",
        ),
    ),
    "home-kitchen": (
        (
            "{It} {is} easy to clean and look{s} great.",
            "The quality feels like something twice the price.",
            "We use {them} every day and {it} still look{s} new.",
            "{It} {was} well packed and arrived in perfect shape.",
            "{It} {is} sturdy and nicely finished.",
        ),
        (
            "The finish scratched within the first week.",
            "{It} {is} smaller than I expected from the photos.",
            "One piece arrived chipped.",
            "{It} {is} harder to clean than I hoped.",
            "The handle feels flimsy.",
        ),
    ),
    "sports-outdoors": (
        (
            "{It} held up well on a rainy weekend trip.",
            "{It} {is} light enough that I barely notice {them} in my pack.",
            "Setup is quick, even on your own.",
            "{It} {is} sturdy and well made.",
            "{It} {has} been on every trip with me this season.",
        ),
        (
            "A buckle broke on the second trip.",
            "{It} {is} heavier than the listing suggests.",
            "The carry bag is too tight to pack {them} back into.",
            "The zipper snags every time.",
            "{It} did not survive the first real storm.",
        ),
    ),
    "books": (
        (
            "I couldn't put it down and finished it in two evenings.",
            "The writing is clear and never dull.",
            "It is beautifully printed, and the binding feels sturdy.",
            "I've already lent it to two friends.",
            "It is full of details I hadn't read anywhere else.",
        ),
        (
            "The middle drags, and I nearly gave up.",
            "The ending felt rushed.",
            "My copy arrived with a creased cover.",
            "The print is small and hard to read.",
            "Much of it repeats what I already knew.",
        ),
    ),
    "beauty": (
        (
            "A little goes a long way.",
            "It has a light, clean scent that doesn't linger.",
            "My skin feels soft and it never feels greasy.",
            "It didn't irritate my sensitive skin at all.",
            "I noticed a difference within a week.",
        ),
        (
            "The scent is much stronger than I expected.",
            "It left my skin feeling sticky.",
            "The packaging leaked in my bag.",
            "It broke me out after a few days.",
            "It runs out quickly for the price.",
        ),
    ),
    "toys-games": (
        (
            "Our kids played with it all weekend.",
            "The pieces are sturdy and the box is easy to store.",
            "The instructions are clear enough for a seven-year-old.",
            "It has become our family's favorite for game night.",
            "It keeps everyone busy for hours.",
        ),
        (
            "A few pieces were missing from the box.",
            "It broke within the first week of play.",
            "The instructions are confusing.",
            "It is smaller than it looks in the photos.",
            "Our kids lost interest after a day.",
        ),
    ),
    "garden": (
        (
            "{It} {has} made weekend gardening much easier.",
            "{It} survived a whole season outside and still look{s} good.",
            "{It} {was} easy to put together in under half an hour.",
            "{It} feel{s} sturdy and well made.",
            "The quality is better than the one I had before.",
        ),
        (
            "Rust spots showed up after a month outside.",
            "{It} {is} smaller than the photos suggest.",
            "The hardware in the box did not fit.",
            "{It} cracked after the first cold night.",
            "Assembly took far longer than it should have.",
        ),
    ),
    "textile": (
        (
            "{It} {is} soft and thick, and {it} came out of the wash even softer.",
            "The color is rich and matches our room perfectly.",
            "{It} {has} held up to weekly washing without pilling.",
            "{It} feel{s} much more expensive than {it} {was}.",
        ),
        (
            "{It} started pilling after a few washes.",
            "The color bled in the first wash.",
            "{It} {is} thinner than I expected.",
            "Loose threads appeared after a month.",
        ),
    ),
    "fitness": (
        (
            "{It} {has} held up to daily workouts.",
            "The grip is comfortable, even when my hands are sweaty.",
            "{It} {is} compact enough to store under the bed.",
            "The quality is great for the price.",
        ),
        (
            "{It} started to wear out after a month of workouts.",
            "{It} {has} a strong rubber smell that won't go away.",
            "The grip gets slippery quickly.",
            "{It} {is} lighter duty than the listing suggests.",
        ),
    ),
    "hair": (
        (
            "My hair feels soft and looks shiny.",
            "A little goes a long way.",
            "It has a light, fresh scent.",
            "It tamed my frizz without weighing my hair down.",
        ),
        (
            "It left my hair feeling greasy.",
            "The scent is much stronger than I expected.",
            "It dried out my scalp.",
            "It runs out quickly for the price.",
        ),
    ),
    "tool": (
        (
            "{It} feel{s} solid and comfortable in the hand.",
            "{It} {has} made weekend gardening much easier.",
            "{It} survived a whole season outside and still look{s} good.",
            "The quality is better than the one I had before.",
        ),
        (
            "Rust spots showed up after a month outside.",
            "{It} {is} smaller than the photos suggest.",
            "{It} cracked after the first cold night.",
            "{It} feel{s} flimsy for the price.",
        ),
    ),
    "cat": (
        (
            "Our cat took to {them} right away.",
            "{It} {is} sturdy, and our two cats use {them} every day.",
            "{It} {was} easy to set up and {is} easy to clean.",
            "{It} {is} well made and feel{s} solid.",
        ),
        (
            "Our cat ignores {them} completely.",
            "{It} wobble{s} more than I'd like.",
            "{It} {is} harder to clean than I hoped.",
            "{It} {has} a strong chemical smell.",
        ),
    ),
    "pet-supplies": (
        (
            "My dog loved {them} from day one.",
            "{It} {has} held up to a very energetic puppy.",
            "{It} {is} easy to clean and dries quickly.",
            "{It} {is} well made and feel{s} sturdy.",
        ),
        (
            "My dog destroyed {them} in a day.",
            "{It} {is} harder to clean than I hoped.",
            "The stitching came apart within a week.",
            "{It} {is} smaller than I expected for a large dog.",
            "{It} {has} a strong chemical smell.",
        ),
    ),
}

#: How a review starts, by tone: how long the reviewer has had the product, or why they bought.
OPENERS: dict[str, tuple[str, ...]] = {
    "good": (
        "I've had {this} {item} for a couple of months now.",
        "I bought {this} {item} to replace an old one, and {it} {is} a big step up.",
        "I ordered {this} {item} after reading the reviews here.",
        "This is my second purchase from {brand}.",
        "I bought {this} {item} as a gift and ended up ordering another for myself.",
        "{It} arrived a day early and well packed.",
        "I did a lot of comparing before choosing {this} {item}.",
        "I was unsure at this price, but {it} won me over.",
        "We have had {this} {item} since the spring.",
        "My partner picked {this} {item} out, and I'm glad we went with {it}.",
        "",
        "",
    ),
    "mixed": (
        "I have mixed feelings about {this} {item}.",
        "{It} {is} fine, but not great.",
        "I've used {this} {item} for a few weeks.",
        "{It} do{es} the job.",
        "There is a lot to like here, with a catch.",
        "",
    ),
    "bad": (
        "I was excited about {this} {item}, but it didn't work out.",
        "I really wanted to like {this} {item}.",
        "Unfortunately, {this} {item} did not live up to the description.",
        "I've bought from {brand} before, but this one disappointed me.",
        "I had high hopes after the description.",
        "",
    ),
}
#: Departments whose products are not "replaced" or "used" like things.
BOOK_OPENERS: dict[str, tuple[str, ...]] = {
    "good": (
        "I picked up this {item} on a whim and loved it.",
        "This {item} was recommended by a friend, and she was right.",
        "I read this {item} for my book club.",
    ),
    "mixed": (
        "This {item} started strong.",
        "I have mixed feelings about this {item}.",
        "This {item} has some wonderful moments.",
    ),
    "bad": (
        "I really wanted to like this {item}.",
        "After all the praise, this {item} let me down.",
        "This {item} was not for me.",
    ),
}
CLOSERS: dict[int, tuple[str, ...]] = {
    5: ("Highly recommend.", "I would buy {them} again in a heartbeat.", "Worth every penny.",
        "Five stars from me."),
    4: ("Recommended, with that one caveat.", "I would buy from {brand} again.",
        "Good value overall.", ""),
    3: ("Fine for the price.", "Okay if you don't expect too much.", ""),
    2: ("I expected more from {brand}.", "I'm thinking about returning {them}.", ""),
    1: ("I sent {them} back.", "Save your money.", "I would not buy {them} again."),
}  # fmt: skip
TITLES: dict[int, tuple[str, ...]] = {
    5: ("Absolutely love it", "Exceeded my expectations", "Best purchase this year",
        "Worth every penny", "Would buy again"),
    4: ("Really good", "Very happy with it", "Great value", "Solid choice", "Nearly perfect"),
    3: ("It's okay", "Does the job", "Mixed feelings", "Average", "Fine for the price"),
    2: ("Disappointed", "Not as described", "Expected more", "Had some problems"),
    1: ("Would not recommend", "Very disappointed", "Not worth the money", "Poor quality"),
}  # fmt: skip

#: Department slug -> sentences that open a product's description.
PITCHES: dict[str, tuple[str, ...]] = {
    "clothing": (
        "{brand} cut {this} {item} for everyday wear, from the commute to the weekend.",
        "A wardrobe staple in a soft, durable fabric that keeps {its} shape wash after wash.",
        "Made to layer easily and move with you all day.",
    ),
    "shoes": (
        "{brand} built {this} {item} for long days on your feet.",
        "A cushioned footbed and a grippy outsole keep every step comfortable.",
        "Broken in from the first wear, with support that lasts.",
    ),
    "electronics": (
        "{brand} designed {this} {item} to work with the devices you already own.",
        "Setup takes minutes, and {it} stay{s} reliable for years.",
        "Clean design and solid build quality, at a fair price.",
    ),
    "home-kitchen": (
        "{brand} makes {this} {item} for everyday use in a busy home.",
        "Built to be used daily and easy to clean afterward.",
        "A practical piece that looks good enough to leave out.",
    ),
    "sports-outdoors": (
        "{brand} built {this} {item} to keep up with an active life.",
        "Tough enough for hard use and light enough to take anywhere.",
        "Ready for weekend adventures and everyday workouts alike.",
    ),
    "books": (
        "A {item} readers keep recommending to their friends.",
        "Published by {brand}, and one of this season's most talked-about titles.",
        "Perfect for a long weekend or a quiet evening at home.",
    ),
    "beauty": (
        "{brand} formulates {this} {item} with gentle, skin-loving ingredients.",
        "A lightweight formula that absorbs quickly and fits any routine.",
        "Made for daily use, morning and night.",
    ),
    "toys-games": (
        "{brand} designed {this} {item} for hours of play, alone or together.",
        "Sturdy enough for enthusiastic hands and fun for the whole family.",
        "A gift that gets played with long after the wrapping is gone.",
    ),
    "garden": (
        "{brand} makes {this} {item} to stand up to sun, rain and frost.",
        "Practical, sturdy and made for years of use outdoors.",
        "A simple way to make time in the garden easier.",
    ),
    "pet-supplies": (
        "{brand} designed {this} {item} with busy pets and their people in mind.",
        "Made from pet-safe materials and easy to keep clean.",
        "Built to hold up to everyday chewing, scratching and play.",
    ),
}
#: Sentences that close any description.
ASSURANCES: tuple[str, ...] = (
    "Backed by our 30-day return policy, so you can buy with confidence.",
    "Ships from our warehouse within one working day.",
    "One of our best-selling {department} picks.",
    "Customers keep coming back to {brand} for quality and value.",
)


def _fill(template: str, item: Item, **extra: str) -> str:
    return template.format(**item.fields(), **extra)


def description(rng: random.Random, department: Department, noun: Noun, brand: str) -> str:
    """A product's opening paragraph: two sentences of its department and one assurance."""
    item = Item(noun, brand)
    lines = [*rng.sample(PITCHES[department.slug], 2), rng.choice(ASSURANCES)]
    return _fill(" ".join(lines), item, department=department.name.lower())


def review(
    rng: random.Random, rating: int, department: Department, noun: Noun, brand: str
) -> tuple[str, str]:
    """A customer review's (title, body) for a product and a star rating from 1 to 5."""
    item = Item(noun, brand)
    tone = "good" if rating >= 4 else "mixed" if rating == 3 else "bad"
    good, bad = POINTS[noun.kind or department.slug]
    openers = BOOK_OPENERS if department.slug == "books" else OPENERS
    if tone == "good":
        points = rng.sample(good, 2 if rating == 5 else 1)
        if rating == 4:
            points.append(f"My only complaint: {_lower_first(rng.choice(bad))}")
    elif tone == "mixed":
        points = [rng.choice(good), f"On the other hand, {_lower_first(rng.choice(bad))}"]
    else:
        points = rng.sample(bad, 2 if rating == 1 else 1)
    sentences = [rng.choice(openers[tone]), *points, rng.choice(CLOSERS[rating])]
    title = rng.choice(TITLES[rating])
    # One format for title and body: "\n" cannot occur in a template.
    title, body = _fill(f"{title}\n{' '.join(filter(None, sentences))}", item).split("\n")
    return title, body


def _lower_first(sentence: str) -> str:
    """A sentence to follow a colon or comma: "{It} shrank" stays a field, "The" becomes "the"."""
    if sentence.startswith("{It}"):
        return "{it}" + sentence[4:]
    return sentence[0].lower() + sentence[1:]

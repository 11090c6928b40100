"""Word lists the catalog generator combines into product names, descriptions and reviews.

Each department lists its brands, the adjectives that fit it and its product nouns. A noun
carries a typical price and which options it is sold in, so a generated hiking jacket comes in
sizes and colours while a cookbook comes in neither.
"""

from __future__ import annotations

from dataclasses import dataclass

APPAREL_SIZES = ("XS", "S", "M", "L", "XL", "XXL")
SHOE_SIZES = ("6", "7", "8", "9", "10", "11", "12", "13")
COLORS = (
    "Black",
    "White",
    "Navy",
    "Charcoal",
    "Forest Green",
    "Burgundy",
    "Sand",
    "Sky Blue",
    "Coral",
    "Olive",
    "Slate Gray",
    "Mustard",
)


@dataclass(frozen=True)
class Noun:
    """A kind of product: its name, a typical price in dollars and the options it comes in.

    ``plural`` says the name is a plural ("Joggers"), ``spoken`` is what a shopper calls it
    when it differs from the name in lower case ("novel" for "Orchard: A Novel"), and ``kind``
    groups it for review text when its department's is a poor fit ("hair" for shampoo).
    """

    word: str
    price: float
    sizes: tuple[str, ...] = ()
    colored: bool = False
    plural: bool = False
    spoken: str = ""
    kind: str = ""

    @property
    def called(self) -> str:
        """How reviews and descriptions name it: "joggers", "charger", "novel"."""
        return self.spoken or self.word.lower()


@dataclass(frozen=True)
class Department:
    slug: str
    name: str
    description: str
    brands: tuple[str, ...]
    adjectives: tuple[str, ...]
    nouns: tuple[Noun, ...]
    audiences: tuple[str, ...] = ("",)
    #: Points true of every product of the department (each kind's own: ``features.py``).
    features: tuple[str, ...] = ()
    brand_in_name: bool = True


def _apparel(word: str, price: float, plural: bool = False) -> Noun:
    return Noun(word, price, APPAREL_SIZES, True, plural)


def _shoe(word: str, price: float) -> Noun:
    return Noun(word, price, SHOE_SIZES, True, plural=True)


def _colored(
    word: str, price: float, plural: bool = False, spoken: str = "", kind: str = ""
) -> Noun:
    return Noun(word, price, (), True, plural, spoken, kind)


DEPARTMENTS: tuple[Department, ...] = (
    Department(
        "clothing",
        "Clothing",
        "Everyday layers, outerwear and basics built to last.",
        ("Trailpeak", "Harbor & Pine", "Kestrel", "Northbound", "Loomwell", "Solstice"),
        (
            "Classic",
            "Lightweight",
            "Relaxed-Fit",
            "Slim-Fit",
            "Everyday",
            "Heritage",
            "Performance",
            "Essential",
            "Stretch",
            "Recycled",
            "Premium",
        ),
        (
            _apparel("Hiking Jacket", 129),
            _apparel("Rain Shell", 98),
            _apparel("Crewneck Sweater", 64),
            _apparel("Oxford Shirt", 48),
            _apparel("Chino Pants", 58, plural=True),
            _apparel("Hoodie", 52),
            _apparel("Puffer Vest", 89),
            _apparel("Henley Tee", 28),
            _apparel("Cardigan", 72),
            _apparel("Joggers", 45, plural=True),
            _apparel("Denim Jacket", 94),
            _apparel("Polo Shirt", 38),
        ),
        ("Men's", "Women's", "Unisex"),
        (
            "Free size exchanges within 30 days",
            "Made in a fair-trade certified factory",
            "Designed to last for years of wear",
        ),
    ),
    Department(
        "shoes",
        "Shoes",
        "Running, trail and everyday shoes for every stride.",
        ("Stridewell", "Trailpeak", "Cobblestone", "Velo", "Summit Run"),
        (
            "Cushioned",
            "Lightweight",
            "Leather",
            "Breathable",
            "Classic",
            "Everyday",
            "Performance",
            "Comfort",
            "Heritage",
            "Recycled",
        ),
        (
            _shoe("Running Shoes", 110),
            _shoe("Trail Runners", 125),
            _shoe("Hiking Boots", 149),
            _shoe("Sneakers", 79),
            _shoe("Loafers", 95),
            _shoe("Chelsea Boots", 139),
            _shoe("Walking Shoes", 89),
            _shoe("Sandals", 49),
            _shoe("Court Shoes", 69),
        ),
        ("Men's", "Women's"),
        (
            "True to size; order your usual size",
            "Free size exchanges within 30 days",
        ),
    ),
    Department(
        "electronics",
        "Electronics",
        "Headphones, chargers, smart home and the gear that keeps you connected.",
        ("Voltara", "Lumen", "Soundmark", "Pixelnest", "Arcwave", "Helio"),
        (
            "Pro",
            "Compact",
            "Smart",
            "Premium",
            "Ultra",
            "Essential",
            "Max",
            "Lite",
            "Plus",
            "Studio",
        ),
        (
            _colored("Over-Ear Headphones", 149, plural=True, spoken="headphones"),
            _colored("Earbuds", 79, plural=True),
            _colored("Speaker", 59),
            Noun("Power Bank", 39),
            Noun("USB-C Charger", 29, spoken="charger"),
            Noun("Webcam", 69),
            Noun("Mechanical Keyboard", 99),
            _colored("Mouse", 35),
            Noun("Streaming Stick", 49),
            Noun("Security Camera", 89),
            _colored("Smartwatch", 199),
            Noun("Monitor", 279),
        ),
        ("",),
        (
            "Two-year limited warranty",
            "Quick-start guide in the box",
        ),
    ),
    Department(
        "home-kitchen",
        "Home & Kitchen",
        "Cookware, small appliances and comforts for every room.",
        ("Hearthstone", "Copper Lane", "Nestwell", "Oakridge Home", "Brightmill"),
        (
            "Modern",
            "Classic",
            "Premium",
            "Everyday",
            "Compact",
            "Deluxe",
            "Essential",
            "Heritage",
            "Signature",
            "Studio",
        ),
        (
            Noun("Skillet", 45),
            Noun("Dutch Oven", 89),
            Noun("Coffee Maker", 79),
            Noun("Knife Set", 119),
            _colored("Bath Towel Set", 39, kind="textile"),
            _colored("Throw Blanket", 49, kind="textile"),
            Noun("Food Storage Set", 32),
            _colored("Mug Set", 28),
            Noun("Blender", 99),
            Noun("Cutting Board", 25),
            Noun("Electric Kettle", 42),
            _colored("Table Lamp", 58),
        ),
        ("",),
        (
            "Backed by a one-year warranty",
            "Arrives in gift-ready packaging",
        ),
    ),
    Department(
        "sports-outdoors",
        "Sports & Outdoors",
        "Camping, fitness and trail gear for your next adventure.",
        ("Trailpeak", "Ridgeline", "Basecamp Co.", "Tidewater", "Apex Motion"),
        (
            "Ultralight",
            "Trail",
            "Expedition",
            "Adventure",
            "Summit",
            "Pro",
            "Compact",
            "Classic",
            "Everyday",
            "Basecamp",
        ),
        (
            Noun("Two-Person Tent", 189, spoken="tent"),
            Noun("Sleeping Bag", 119),
            _colored("Daypack", 69),
            _colored("Water Bottle", 24),
            _colored("Yoga Mat", 35, kind="fitness"),
            Noun("Trekking Poles", 59, plural=True),
            Noun("Camp Stove", 54),
            Noun("Headlamp", 29),
            Noun("Dumbbell Set", 79, kind="fitness"),
            Noun("Resistance Bands", 19, plural=True, kind="fitness"),
            Noun("Camping Chair", 45),
            Noun("Cooler", 99),
        ),
        ("",),
        (
            "Backed by a one-year warranty",
            "Tested by our outdoor team",
        ),
    ),
    Department(
        "books",
        "Books",
        "Bestselling fiction, cookbooks and guides, in paperback and hardcover.",
        ("Harbor House Press", "Lantern Books", "Meridian", "Foxglove Publishing", "Quill & Ink"),
        (
            "Silent",
            "Last",
            "Hidden",
            "Golden",
            "Winter",
            "Forgotten",
            "Midnight",
            "Wild",
            "Painted",
            "Lost",
        ),
        (
            Noun("Orchard: A Novel", 17, spoken="novel"),
            Noun("Lighthouse: A Novel", 18, spoken="novel"),
            Noun("Garden Cookbook", 29, spoken="cookbook"),
            Noun("River: A Memoir", 22, spoken="memoir"),
            Noun("Kingdom: A Novel", 16, spoken="novel"),
            Noun("Atlas of Trails", 34, spoken="trail atlas"),
            Noun("Letters: A Novel", 15, spoken="novel"),
            Noun("Kitchen Handbook", 27, spoken="kitchen handbook"),
            Noun("Harbor: A Thriller", 19, spoken="thriller"),
            Noun("Field Guide to Birds", 24, spoken="field guide"),
        ),
        ("The",),
        (
            "Ships in protective packaging",
            "Also available as an e-book",
        ),
        brand_in_name=False,
    ),
    Department(
        "beauty",
        "Beauty",
        "Skin care, hair care and grooming essentials.",
        ("Glowleaf", "Purely", "Maison Belle", "Driftwood Botanicals", "Lumi Skin"),
        (
            "Hydrating",
            "Fragrance-Free",
            "Gentle",
            "Nourishing",
            "Daily",
            "Botanical",
            "Sensitive",
            "Clean",
            "Restoring",
            "Essential",
        ),
        (
            Noun("Face Moisturizer", 28, spoken="moisturizer"),
            Noun("Cleanser", 18),
            Noun("Serum", 34),
            Noun("Sunscreen SPF 50", 22, spoken="sunscreen"),
            Noun("Shampoo", 16, kind="hair"),
            Noun("Conditioner", 16, kind="hair"),
            Noun("Lip Balm Set", 12),
            Noun("Body Lotion", 19),
            Noun("Eye Cream", 38),
            Noun("Hair Oil", 24, kind="hair"),
        ),
        ("",),
        (
            "Cruelty-free",
            "Dermatologist tested",
            "Recyclable packaging",
        ),
    ),
    Department(
        "toys-games",
        "Toys & Games",
        "Puzzles, building sets and games for all ages.",
        ("Playwise", "Brickfield", "Tumbletown", "Marble & Moss", "Kiddo Lab"),
        (
            "Classic",
            "Deluxe",
            "Educational",
            "Family",
            "Jumbo",
            "Travel",
            "Creative",
            "Junior",
            "Ultimate",
            "Adventure",
        ),
        (
            Noun("Building Set", 49),
            Noun("1000-Piece Puzzle", 22, spoken="puzzle"),
            Noun("Board Game", 35),
            Noun("Card Game", 14),
            _colored("Plush Bear", 19),
            Noun("Train Set", 79),
            Noun("Science Kit", 39),
            Noun("Marble Run", 45),
            _colored("Kick Scooter", 69),
            Noun("Art Easel", 59),
        ),
        ("",),
        (
            "Meets US toy safety standards",
            "Arrives in a gift-ready box",
        ),
    ),
    Department(
        "garden",
        "Garden",
        "Tools, planters and outdoor living for yards and balconies.",
        ("Greenhaven", "Rootstock", "Terra & Twine", "Sunpatch", "Fernhill"),
        (
            "Ergonomic",
            "Weatherproof",
            "Heritage",
            "Classic",
            "Pro",
            "Essential",
            "Premium",
            "Heavy-Duty",
            "Everyday",
            "Compact",
        ),
        (
            Noun("Planter", 39),
            Noun("Garden Hose", 45, kind="tool"),
            Noun("Pruning Shears", 24, plural=True, kind="tool"),
            Noun("Garden Bed", 119),
            Noun("String Lights", 29, plural=True),
            Noun("Kneeling Pad", 19, kind="tool"),
            Noun("Bird Feeder", 27),
            Noun("Watering Can", 22, kind="tool"),
            Noun("Compost Bin", 79),
            Noun("Potting Bench", 149),
        ),
        ("",),
        (
            "Backed by a one-year warranty",
            "Chosen by our garden team",
        ),
    ),
    Department(
        "pet-supplies",
        "Pet Supplies",
        "Food bowls, beds, toys and travel gear for cats and dogs.",
        ("Pawsome", "Tailwind", "Furrow & Co.", "Barkley", "Whisker Works"),
        (
            "Cozy",
            "Deluxe",
            "Everyday",
            "Comfort",
            "Premium",
            "Classic",
            "Adventure",
            "Eco",
            "Sturdy",
            "Essential",
        ),
        (
            _colored("Dog Bed", 69),
            _colored("Dog Leash", 22),
            _colored("Harness", 32),
            Noun("Cat Tree", 89, kind="cat"),
            Noun("Food Bowl Set", 24),
            Noun("Puzzle Feeder", 18),
            _colored("Cat Carrier", 45, kind="cat"),
            Noun("Grooming Brush", 15),
            Noun("Litter Box", 35, kind="cat"),
            Noun("Treat Pouch", 12),
        ),
        ("",),
        (
            "Made from pet-safe materials",
            "Backed by a 90-day guarantee",
        ),
    ),
)


def noun_of(name: str) -> Noun | None:
    """The kind of product a catalog name is of (names end with their noun's word:
    "Trailpeak Men's Classic Hiking Jacket" is a Hiking Jacket), or None for another name."""
    found = [
        noun for department in DEPARTMENTS for noun in department.nouns if name.endswith(noun.word)
    ]
    return max(found, key=lambda noun: len(noun.word), default=None)

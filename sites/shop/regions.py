"""The US states the store ships to, with the sales-tax rate charged in each (percent)."""

from __future__ import annotations

#: Postal code -> (name, sales tax percent). States without a sales tax charge none.
STATES: dict[str, tuple[str, float]] = {
    "AL": ("Alabama", 4.0),
    "AK": ("Alaska", 0.0),
    "AZ": ("Arizona", 5.6),
    "AR": ("Arkansas", 6.5),
    "CA": ("California", 7.25),
    "CO": ("Colorado", 2.9),
    "CT": ("Connecticut", 6.35),
    "DE": ("Delaware", 0.0),
    "DC": ("District of Columbia", 6.0),
    "FL": ("Florida", 6.0),
    "GA": ("Georgia", 4.0),
    "HI": ("Hawaii", 4.0),
    "ID": ("Idaho", 6.0),
    "IL": ("Illinois", 6.25),
    "IN": ("Indiana", 7.0),
    "IA": ("Iowa", 6.0),
    "KS": ("Kansas", 6.5),
    "KY": ("Kentucky", 6.0),
    "LA": ("Louisiana", 4.45),
    "ME": ("Maine", 5.5),
    "MD": ("Maryland", 6.0),
    "MA": ("Massachusetts", 6.25),
    "MI": ("Michigan", 6.0),
    "MN": ("Minnesota", 6.875),
    "MS": ("Mississippi", 7.0),
    "MO": ("Missouri", 4.225),
    "MT": ("Montana", 0.0),
    "NE": ("Nebraska", 5.5),
    "NV": ("Nevada", 6.85),
    "NH": ("New Hampshire", 0.0),
    "NJ": ("New Jersey", 6.625),
    "NM": ("New Mexico", 5.125),
    "NY": ("New York", 4.0),
    "NC": ("North Carolina", 4.75),
    "ND": ("North Dakota", 5.0),
    "OH": ("Ohio", 5.75),
    "OK": ("Oklahoma", 4.5),
    "OR": ("Oregon", 0.0),
    "PA": ("Pennsylvania", 6.0),
    "RI": ("Rhode Island", 7.0),
    "SC": ("South Carolina", 6.0),
    "SD": ("South Dakota", 4.5),
    "TN": ("Tennessee", 7.0),
    "TX": ("Texas", 6.25),
    "UT": ("Utah", 6.1),
    "VT": ("Vermont", 6.0),
    "VA": ("Virginia", 5.3),
    "WA": ("Washington", 6.5),
    "WV": ("West Virginia", 6.0),
    "WI": ("Wisconsin", 5.0),
    "WY": ("Wyoming", 4.0),
}

COUNTRY = "United States"


def tax_rate(state: str) -> float:
    """The sales-tax percent charged on orders shipped to ``state`` (0 when unknown)."""
    return STATES.get(state, ("", 0.0))[1]

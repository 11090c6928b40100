"""File a travel expense report at what the help centre's *current* expense limits allow.

The help centre's "Travel expense limits" article caps meals and hotel nights per item; its
first revision stated lower caps than the current one (each world has its own, from
:func:`~webenv.sites.common.expense_caps`). The user lists
what each item cost; one of them costs more than the current cap (claimed at the cap: the
portal refuses more), and one costs more than the old cap but less than the current one, so
that a reader of the superseded revision claims too little for it, which the portal accepts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from webenv.sites.common import EXPENSE_CAP_CHOICES, expense_caps

from webenv.answers import as_typed
from webenv.axtree import AxTree
from webenv.errors import SamplingError
from webenv.tasks import (
    MAX_DRAWS,
    Answer,
    CheckResult,
    Checks,
    NearMiss,
    Oracle,
    Task,
    TaskTemplate,
    allow,
    register,
)
from webenv.world import World

from ..forms._forms import (
    answer_step,
    click,
    money,
    place_file,
    spoken_date,
    start_form,
    submitting,
    typed_amount,
)
from ..forms.expenses import COST_CENTERS, DESTINATIONS, PURPOSES, expect_expense_report
from ..help._help import expect_no_new_ticket, open_article
from ._flows import go

ARTICLE = "Travel expense limits"
#: The capped categories, whose limit an older revision stated lower: code -> name.
CAPPED = {"meals": "Meals", "lodging": "Lodging"}
MEALS = ("Working dinner", "Dinner with the hosts", "Team dinner", "Conference dinner")
#: Other expenses, all under their limits: code, name, description, range in dollars.
OTHERS = (
    ("ground", "Taxi, rideshare or transit", "Taxi from the airport", 20, 80),
    ("parking", "Parking and tolls", "Airport parking", 15, 90),
    ("airfare", "Airfare", "Round-trip flight", 180, 520),
    ("registration", "Conference registration", "Registration fee", 120, 480),
)
NAMES = {**CAPPED, **{o[0]: o[1] for o in OTHERS}}


def limits(seed: int, older: bool = False) -> dict[str, int]:
    """The current (or ``older``) limit per item of the capped categories in the world of
    ``seed``, in cents, by code; the others' are never reached (:data:`OTHERS`)."""
    caps = expense_caps(seed)
    return {code: caps[name][1 if older else 0] for code, name in CAPPED.items()}


def claimed(
    items: Sequence[Mapping[str, Any]], limits: Mapping[str, int | None]
) -> list[dict[str, Any]]:
    """The line items as claimed: each item's cost, up to its category's limit in ``limits``."""
    found = []
    for item in items:
        cap = limits.get(item["category"])
        amount = item["spent"] if cap is None else min(item["spent"], cap)
        kept = {key: item[key] for key in ("date", "category", "description")}
        found.append({**kept, "amount": amount})
    return found


def _sample_items(
    rng: random.Random,
    departure: date,
    nights: int,
    current: Mapping[str, int],
    old: Mapping[str, int],
) -> list[dict[str, Any]]:
    """A capped item over its current limit, one between the old limit and the current one,
    and perhaps one expense of another kind."""
    meals = iter(rng.sample(MEALS, len(MEALS)))
    nights_left = iter(rng.sample(range(nights), nights))
    items = []
    for kind in ("over", "between"):
        code = rng.choice(sorted(CAPPED))
        night = next(nights_left, -1) if code == "lodging" else -1
        if night < 0:
            code = "meals"
        # Drawn over every limit a world may have, until it falls where it must for this
        # world's: drawn around this world's limits, the amounts told them.
        choices = EXPENSE_CAP_CHOICES[CAPPED[code]]
        high = choices[-1] * 14 // 10 if kind == "over" else choices[-1]
        for _ in range(MAX_DRAWS):
            cents = rng.randint(choices[0], high)
            if kind == "over" and cents >= current[code] + 100:
                break
            if kind == "between" and old[code] + 100 <= cents <= current[code] - 100:
                break
        else:
            raise SamplingError(f"no amount {kind} the {code} limit in {MAX_DRAWS} draws")
        if code == "lodging":
            day = departure + timedelta(days=night)
            description = f"Hotel, night of {day:%B} {day.day}"
        else:
            day = departure + timedelta(days=rng.randint(0, nights))
            description = next(meals)
        items.append({"date": day.isoformat(), "category": code, "description": description,
                      "spent": cents})  # fmt: skip
    if rng.random() < 0.6:
        code, _name, description, low, high = rng.choice(OTHERS)
        day = departure + timedelta(days=rng.randint(0, nights))
        items.append({"date": day.isoformat(), "category": code, "description": description,
                      "spent": rng.randint(low * 100, high * 100)})  # fmt: skip
    return sorted(items, key=lambda item: (item["date"], item["description"]))


def _in_any_order(items: list[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
    keys = ("date", "category", "description", "amount")
    return sorted(tuple(as_typed(item.get(key)) for key in keys) for item in items)


@register
class HelpExpenseLimits(TaskTemplate):
    name = "workflows.help_expense_limits"
    sites = ("help", "forms")
    may_change = allow(forms=submitting("travel-expenses"))
    tags = ("cross-site", "expenses", "policy", "outdated-information", "repeated-rows")
    difficulty = "hard"
    max_steps = 30

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        nights = rng.randint(1, 3)
        departure = world.now.date() - timedelta(days=rng.randint(5, 40))
        current, old = limits(world.seed), limits(world.seed, older=True)
        items = _sample_items(rng, departure, nights, current, old)
        return {
            "purpose": rng.choice(PURPOSES),
            "destination": rng.choice(DESTINATIONS),
            "departure": departure.isoformat(),
            "return": (departure + timedelta(days=nights)).isoformat(),
            "cost_center": rng.choice(sorted(COST_CENTERS)),
            "items": items,
            "claimed": claimed(items, current),
            "old_claimed": claimed(items, old),
            "current_limits": current,
            "old_limits": old,
            "receipts": place_file(world, rng, "trip-receipts.pdf"),
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "help", "/"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        trip = (
            f'"{params["purpose"]}" in {params["destination"]}, {spoken_date(params["departure"])}'
            f" to {spoken_date(params['return'])}"
        )
        center = f"cost center {params['cost_center']}"
        spent = "; ".join(
            f'{spoken_date(i["date"])}, {NAMES[i["category"]]}, "{i["description"]}", '
            f"{money(i['spent'])}"
            for i in params["items"]
        )
        receipts = params["receipts"][0]
        return [
            f"File a travel expense report for my trip {trip}, on {center}. What I spent (date, "
            f"category, description, cost): {spent}. Claim each item at what the help centre's "
            f"current travel expense limits allow, and attach {receipts}.",
            f"I need to claim my trip {trip} ({center}). The costs were: {spent}. Check the "
            "travel expense limits in the help centre first and enter each amount as they allow "
            f"it today; the receipts are in {receipts}.",
            f"Submit my expense report for {trip}, charged to {center}, with these expenses: "
            f"{spent}. Some may be over the per-item limits: go by the current limits in the "
            f"help centre. Upload {receipts} as the receipts.",
            f"Please claim back the trip {trip} on {center}. Receipts: {receipts}. Expenses as "
            f"they cost me: {spent}. Claim every item, each up to what the help centre's expense "
            "limits let me claim now.",
            f"Read the help centre's current rules on travel expense limits, then file the "
            f"report for {trip} ({center}): {spent}. Attach {receipts} and submit.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_expense_report(
            checks,
            world,
            params,
            params["claimed"],
            "each item claimed up to its current limit",
            _in_any_order,
        )
        expect_no_new_ticket(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        values = [
            params["purpose"], params["destination"], spoken_date(params["departure"]),
            spoken_date(params["return"]), params["cost_center"], params["receipts"][0],
        ]  # fmt: skip
        for item in params["items"]:
            values += [spoken_date(item["date"]), NAMES[item["category"]]]
            values += [item["description"], money(item["spent"])]
        return values

    def near_misses(self) -> dict[str, NearMiss]:
        def over_item_left_out(params: dict[str, Any]) -> dict[str, Any]:
            caps = params["current_limits"]
            kept = [i for i in params["items"] if i["spent"] <= caps.get(i["category"], i["spent"])]
            return {**params, "items": kept}

        return {
            "the older revision's limits": self.altered(lambda p: {**p, "limits": p["old_limits"]}),
            "left out the item over its limit": self.altered(over_item_left_out),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from open_article(ARTICLE, observation)
        tree = AxTree(observation["axtree"])
        limits: dict[str, int | None] = {}
        for code, name in CAPPED.items():
            line = tree.find("listitem", contains=f"{name}: up to").name
            limits[code] = round(float(line.split("$", 1)[1].split()[0].replace(",", "")) * 100)
        limits = params.get("limits", limits)  # (a near-miss reads another revision's)
        items = claimed(params["items"], limits)
        observation = yield from go("forms", "/", observation)
        observation = yield from start_form("Submit a travel expense report", observation)
        observation = yield from answer_step(
            observation,
            [
                ("fill", "Purpose of the trip", params["purpose"]),
                ("fill", "Destination", params["destination"]),
                ("fill", "Departure date", params["departure"]),
                ("fill", "Return date", params["return"]),
                ("select", "Cost center", f"({params['cost_center']})"),
            ],
        )
        for number, item in enumerate(items, start=1):
            row = f"(line item {number})"
            entries = [
                ("fill", f"Date {row}", item["date"]),
                ("select", f"Category {row}", NAMES[item["category"]]),
                ("fill", f"Description {row}", item["description"]),
                ("fill", f"Amount {row}", typed_amount(item["amount"])),
            ]
            press = "Continue" if number == len(items) else "Add line item"
            observation = yield from answer_step(observation, entries, press)
        observation = yield from answer_step(
            observation, [("upload", "Receipts", params["receipts"][0])]
        )
        yield from click(observation, "button", "Submit expense report")

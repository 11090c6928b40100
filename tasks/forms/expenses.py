"""Travel expense reports: file one with line items and a receipt, finish a saved one, and
look up the total of a past one."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from datetime import date, timedelta
from typing import Any

from webenv.answers import as_typed, parse_money
from webenv.axtree import AxTree
from webenv.tasks import (
    Allowance,
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

from .._facts import LARGEST_ITEM, OTHER_REPORT
from ._forms import (
    PERSONA_ID,
    SITE,
    answer_step,
    click,
    expect_answers,
    expect_files,
    expect_no_submission,
    expect_one_submission,
    money,
    place_file,
    read_definition,
    resuming,
    spoken_date,
    submitting,
    typed_amount,
)

#: Answers that leave a field blank, as the portal stores them.
EMPTY: tuple[object, ...] = (None, "", [], False)
PURPOSES = (
    "Site visit to the water treatment plant",
    "Annual GIS users conference",
    "Procurement training workshop",
    "Regional transit planning summit",
    "Audit of the branch library",
)
DESTINATIONS = ("Sacramento", "Portland", "Denver", "Madison", "Raleigh", "Tucson", "Albany")
COST_CENTERS = {
    "CC-110": "City Manager's Office",
    "CC-220": "Finance",
    "CC-310": "Public Works",
    "CC-420": "Parks and Recreation",
    "CC-530": "Information Technology",
    "CC-640": "Community Development",
}
#: Expense kinds: category code, its name, a description, and the range of amounts in dollars
#: (under the lowest limit a world may set: :data:`~webenv.sites.common.EXPENSE_CAP_CHOICES`).
EXPENSES = (
    ("lodging", "Lodging", "Hotel, one night", 110, 220),
    ("meals", "Meals", "Working dinner", 18, 60),
    ("ground", "Taxi, rideshare or transit", "Taxi from the airport", 20, 80),
    ("parking", "Parking and tolls", "Airport parking", 15, 90),
    ("registration", "Conference registration", "Registration fee", 120, 480),
    ("airfare", "Airfare", "Round-trip flight", 180, 520),
)


def sample_items(rng: random.Random, departure: date, nights: int) -> list[dict[str, Any]]:
    items = []
    for code, _name, description, low, high in rng.sample(EXPENSES, rng.randint(2, 3)):
        day = departure + timedelta(days=rng.randint(0, nights))
        cents = rng.randint(low * 100, high * 100)
        items.append(
            {"date": day.isoformat(), "category": code, "description": description, "amount": cents}
        )
    return sorted(items, key=lambda item: item["date"])


def category_name(code: str) -> str:
    return next(name for c, name, *_ in EXPENSES if c == code)


def _in_any_order(items: list[Mapping[str, Any]]) -> list[str]:
    """Line items as a sorted list, for comparing them whatever order they were entered in
    (each as typed: :func:`webenv.answers.as_typed`)."""
    return sorted(json.dumps(as_typed(item), sort_keys=True) for item in items)


def expect_expense_report(
    checks: Checks,
    world: World,
    params: Mapping[str, Any],
    items: list[Mapping[str, Any]],
    label: str = "items",
    comparable: Callable[[list[Mapping[str, Any]]], list[Any]] = _in_any_order,
) -> None:
    """Expect one travel expense report of the trip in ``params`` (purpose, destination,
    dates, cost center, receipts), claiming ``items`` (compared as ``comparable`` gives them)
    and their total."""
    submission = expect_one_submission(checks, world, "travel-expenses")
    if not submission:
        return
    data = submission["data"]
    expect_answers(
        checks,
        data,
        {
            "trip_purpose": params["purpose"],
            "destination": params["destination"],
            "departure_date": params["departure"],
            "return_date": params["return"],
            "cost_center": params["cost_center"],
            "total_cents": sum(item["amount"] for item in items),
        },
    )
    # The goal lists the items, it does not order them: any order is the same report.
    claimed = data.get("items") or []
    checks.expect(label, comparable(claimed) == comparable(items), f"items = {claimed!r}")
    expect_files(checks, data, "receipts", [params["receipts"]])


def describe_item(item: Mapping[str, Any]) -> str:
    return (
        f"{spoken_date(item['date'])}, {category_name(item['category'])}, "
        f'"{item["description"]}", {money(item["amount"])}'
    )


@register
class FileExpenseReport(TaskTemplate):
    name = "forms.file_expense_report"
    sites = ("forms",)
    may_change = allow(forms=submitting("travel-expenses"))
    tags = ("expenses", "repeated-rows", "file-upload", "multi-step")
    difficulty = "hard"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        nights = rng.randint(1, 3)
        departure = world.now.date() - timedelta(days=rng.randint(5, 40))
        items = sample_items(rng, departure, nights)
        return {
            "purpose": rng.choice(PURPOSES),
            "destination": rng.choice(DESTINATIONS),
            "departure": departure.isoformat(),
            "return": (departure + timedelta(days=nights)).isoformat(),
            "cost_center": rng.choice(sorted(COST_CENTERS)),
            "items": items,
            "receipts": place_file(world, rng, "trip-receipts.pdf"),
        }

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/travel-expenses"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        trip = (
            f'"{params["purpose"]}" in {params["destination"]}, from '
            f"{spoken_date(params['departure'])} to {spoken_date(params['return'])}"
        )
        center = f"{COST_CENTERS[params['cost_center']]} ({params['cost_center']})"
        items = "; ".join(describe_item(item) for item in params["items"])
        receipts = params["receipts"][0]
        return [
            f"File a travel expense report for my trip {trip}, charged to cost center {center}. "
            f"Line items: {items}. Attach {receipts} as the receipts.",
            f"Submit an expense report. Trip: {trip}. Cost center: {center}. Expenses (date, "
            f"category, description, amount): {items}. Receipts file: {receipts}.",
            f"Claim back my expenses for the trip {trip} (cost center {center}): {items}. "
            f"Upload {receipts} with the report, then submit it.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        expect_expense_report(checks, world, params, params["items"])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        values = [
            params["purpose"], params["destination"], spoken_date(params["departure"]),
            spoken_date(params["return"]), params["cost_center"], params["receipts"][0],
        ]  # fmt: skip
        for item in params["items"]:
            values += [spoken_date(item["date"]), category_name(item["category"])]
            values += [item["description"], money(item["amount"])]
        return values

    def near_misses(self) -> dict[str, NearMiss]:
        def a_cent_more(params: dict[str, Any]) -> dict[str, Any]:
            params["items"][0]["amount"] += 1
            return params

        return {
            "an item left out": self.altered(lambda p: {**p, "items": p["items"][:-1]}),
            "an amount off by a cent": self.altered(a_cent_more),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        params = task.params
        observation = yield from click(observation, "link", "Start now")
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
        items = params["items"]
        for number, item in enumerate(items, start=1):
            row = f"(line item {number})"
            entries = [
                ("fill", f"Date {row}", item["date"]),
                ("select", f"Category {row}", category_name(item["category"])),
                ("fill", f"Description {row}", item["description"]),
                ("fill", f"Amount {row}", typed_amount(item["amount"])),
            ]
            press = "Continue" if number == len(items) else "Add line item"
            observation = yield from answer_step(observation, entries, press)
        observation = yield from answer_step(
            observation, [("upload", "Receipts", params["receipts"][0])]
        )
        yield from click(observation, "button", "Submit expense report")


def saved_expense_draft(world: World) -> Mapping[str, Any]:
    return world.query(
        SITE,
        "SELECT * FROM drafts WHERE user_id = ? AND form_slug = 'travel-expenses' "
        "AND status = 'saved' ORDER BY id",
        (PERSONA_ID,),
    )[0]


@register
class FinishSavedExpenseReport(TaskTemplate):
    name = "forms.finish_saved_expense_report"
    sites = ("forms",)
    may_change = allow(forms=submitting("travel-expenses"))
    tags = ("expenses", "drafts", "resume", "file-upload")
    difficulty = "medium"
    max_steps = 20

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        draft = saved_expense_draft(world)
        answers = json.loads(draft["data_json"])
        items = [
            {**item, "amount": parse_money(item["amount"])}
            for item in answers.pop("items")  # amounts as typed, like "130.70"
        ]
        names = ("conference-receipts.pdf", "hotel-bill.pdf")
        files = [place_file(world, rng, name) for name in names]
        rng.shuffle(files)
        return {
            "draft_id": draft["id"],
            "purpose": answers["trip_purpose"],
            "answers": {**answers, "items": items},
            "receipt": files[0],
            "other_file": files[1],
        }

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        """The saved draft the task resumes is its own (it is submitted); no other is."""
        return allow(forms=resuming(submitting("travel-expenses"), params["draft_id"]))

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        purpose, receipt = params["purpose"], params["receipt"][0]
        place = params["answers"]["destination"]
        return [
            f'I saved my expense report for the "{purpose}" trip to {place} without finishing '
            f"it. Attach {receipt} as the receipt and submit it, without changing anything else.",
            f'Finish my saved travel expense report ("{purpose}", {place}): add the receipt '
            f"file {receipt} and send the report as it is.",
            f'Please resume the expense report I started for "{purpose}" in {place}, upload '
            f"{receipt} to it and submit it. Don't start a new report.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "travel-expenses")
        if submission:
            data = submission["data"]
            expect_answers(checks, data, params["answers"])
            expect_files(checks, data, "receipts", [params["receipt"]])
            # "Without changing anything else": no answer the draft did not have (the total
            # is the portal's sum of the items, not an answer).
            added = sorted(
                key
                for key, value in data.items()
                if key not in {*params["answers"], "receipts", "total_cents"} and value not in EMPTY
            )
            checks.expect("nothing else filled in", not added, f"also answered: {added}")
            status = world.query(
                SITE, "SELECT status FROM drafts WHERE id = ?", (params["draft_id"],)
            )[0]["status"]
            checks.expect("the saved draft was submitted", status == "submitted", status)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["purpose"], params["answers"]["destination"], params["receipt"][0]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "the other file": self.altered(lambda p: {**p, "receipt": p["other_file"]}),
            "both files": self.altered(lambda p: {**p, "receipt": p["receipt"] + p["other_file"]}),
            "a note added for the approver": self.altered(
                lambda p: {**p, "note": "Taxi receipts to follow."}
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        files = task.params["receipt"][::2]
        observation = yield from click(observation, "link", "My account")
        observation = yield from click(
            observation, "link", "Continue submit a travel expense report"
        )
        answers = [("upload", "Receipts", files)]
        if "note" in task.params:  # a near-miss's
            answers.append(("fill", "Notes for your approver (optional)", task.params["note"]))
        observation = yield from answer_step(observation, answers)
        yield from click(observation, "button", "Submit expense report")


@register
class PastExpenseTotal(TaskTemplate):
    name = "forms.past_expense_total"
    sites = ("forms",)
    may_change = allow()
    tags = ("info-seeking", "history")
    difficulty = "easy"
    answer_type = "money"
    max_steps = 15

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        rows = world.query(
            SITE,
            "SELECT data_json FROM submissions WHERE user_id = ? AND form_slug = "
            "'travel-expenses' ORDER BY id",
            (PERSONA_ID,),
        )
        reports = [json.loads(row["data_json"]) for row in rows]
        data = rng.choice(reports)
        other = next(report for report in reports if report is not data)
        return {
            "other_total_cents": other["total_cents"],
            "purpose": data["trip_purpose"],
            "destination": data["destination"],
            "total_cents": data["total_cents"],
            "largest_cents": max(item["amount"] for item in data["items"]),
        }

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        trip = f'"{params["purpose"]}" trip to {params["destination"]}'
        return [
            f"How much did I claim in total on my expense report for the {trip}?",
            f"What was the total amount of the travel expense report I submitted for the {trip}? "
            "Answer with the amount.",
            f"Look up my past expense report for the {trip} and reply with its total.",
        ]

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        # The report's largest line, or the other report's total, named as such, is no second
        # answer.
        facts = [
            (params["largest_cents"], LARGEST_ITEM),
            (params["other_total_cents"], OTHER_REPORT),
        ]
        self.check_answer(checks, answer, params["total_cents"], whole=True, facts=facts)
        expect_no_submission(checks, world)
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return [params["purpose"], params["destination"]]

    def near_misses(self) -> dict[str, NearMiss]:
        return {
            "off by a cent": self.answering(lambda t: money(t.params["total_cents"] - 1)),
            "the largest item": self.answering(lambda t: money(t.params["largest_cents"])),
            "the other trip's report": self.answering(
                lambda t: money(t.params["other_total_cents"])
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        observation = yield from click(observation, "link", "My account")
        links = AxTree(observation["axtree"]).find_all("link")
        reports = [link.name for link in links if link.name.startswith("EXP-")]
        for index, number in enumerate(reports):  # open each report until it is the trip's
            if index:  # back by the link: going back could land on a dead link's 404
                observation = yield from click(observation, "link", "My account")
            observation = yield from click(observation, "link", number)
            if task.params["purpose"] in observation["axtree"]:
                break
        total = read_definition(observation, "Total claimed")
        yield f"send_msg_to_user({json.dumps(total)})"

"""Grading a careful annotator would agree with: another way to the same end state earns
full reward, and what the goal insists on is checked."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from webenv.suite.mail._mail import click, list_rows, search
from webenv.suite.shop import _shop as shop

from webenv.axtree import AxTree
from webenv.claims import says_infeasible
from webenv.tasks import Oracle, Task, templates
from webenv.world import World


def test_expense_items_entered_in_another_order_are_the_same_report(task_env, run_policy):
    template = templates()["forms.file_expense_report"]
    reversed_items = template.altered(lambda p: {**p, "items": p["items"][::-1]})
    reward, info = run_policy(task_env(template.name), 0, reversed_items)
    assert reward == 1.0, info.get("check")


@pytest.mark.parametrize("name", ["mail.add_contact", "mail.update_contact_phone"])
def test_a_phone_number_typed_another_way_is_the_same_number(task_env, run_policy, name):
    template = templates()[name]

    def dotted(params: dict[str, Any]) -> dict[str, Any]:
        digits = "".join(char for char in params["phone"] if char.isdigit())
        return {**params, "phone": f"{digits[:3]}.{digits[3:6]}.{digits[6:]}"}

    reward, info = run_policy(task_env(name), 0, template.altered(dotted))
    assert reward == 1.0, info.get("check")


def test_labelling_their_conversations_from_the_thread_page_is_accepted(task_env, run_policy):
    # The thread page's "Apply label" labels the whole conversation: the sender's messages and
    # the user's reply in it (seed 0 has one).
    name = "mail.label_from_sender"

    def by_thread(task: Task, observation: Mapping[str, Any]) -> Oracle:
        label, sender = task.params["label"], task.params["name"]
        observation = yield click(AxTree(observation["axtree"]), "link", "Manage labels")
        tree = AxTree(observation["axtree"])
        observation = yield (
            f'fill("{tree.id("textbox", "Label name")}", {json.dumps(label)})\n'
            + click(tree, "button", "Create label")
        )
        for index in range(len(task.params["ids"])):
            observation = yield from search(f'from:"{sender}"', observation)
            link = list_rows(AxTree(observation["axtree"]))[index][2]
            observation = yield f'click("{link.id}")'
            tree = AxTree(observation["axtree"])
            observation = yield (
                f'select_option("{tree.id("combobox", "Apply label")}", {json.dumps(label)})\n'
                + click(tree, "button", "Apply")
            )

    reward, info = run_policy(task_env(name), 0, by_thread)
    assert reward == 1.0, info.get("check")


def test_paying_with_another_card_than_the_saved_one_earns_nothing(task_env, run_policy):
    # "Use your saved card": a new card typed in at checkout is not what was asked.
    def new_card(task: Task, observation: Mapping[str, Any]) -> Oracle:
        item, quantity = task.params["item"], task.params["quantity"]
        observation = yield from shop.open_product(item["name"], observation)
        observation = yield from shop.add_to_cart(item, quantity, observation)
        observation = yield from shop.open_cart(observation)
        tree = AxTree(observation["axtree"])
        observation = yield f'click("{tree.find(name="Proceed to checkout").id}")'
        tree = AxTree(observation["axtree"])
        default = tree.find("radio", contains="Default")
        observation = yield f'check("{default.id}")\n' + shop.click(
            tree, "button", "Continue to payment"
        )
        tree = AxTree(observation["axtree"])
        fields = [
            ("Name on card", "Jordan Avery"),
            ("Card number", "4242 4242 4242 4242"),
            ("Expiration date", "12/30"),
            ("Security code", "123"),
        ]
        observation = yield "\n".join(
            [
                f'check("{tree.id("radio", "Use a new card")}")',
                *(f'fill("{tree.id("textbox", label)}", "{value}")' for label, value in fields),
                shop.click(tree, "button", "Continue to review"),
            ]
        )
        yield shop.click(AxTree(observation["axtree"]), "button", "Place order")

    env = task_env("shop.buy_product")
    reward, info = run_policy(env, 0, new_card)
    placed = [c for c in info["check"]["conditions"] if c["name"] == "order is placed"]
    assert placed and placed[0]["passed"], info["trail"]  # the order went through
    assert reward == 0.0, info.get("check")


def test_booking_the_proposed_slot_under_the_relatives_details_earns_nothing(task_env, run_policy):
    # The goal asks for the user's own contact details on the booking.
    template = templates()["workflows.book_proposed_appointment"]
    policy = template.near_misses()["under the relative's details"]
    reward, info = run_policy(task_env(template.name), 0, policy)
    slot = [c for c in info["check"]["conditions"] if c["name"] == "appointment_time"]
    assert slot and slot[0]["passed"], info["trail"]  # the proposed slot was booked
    assert reward == 0.0, info.get("check")


# -- what decides the answer (no browser) -----------------------------------------------------


def _instances(name: str, seeds: range = range(30)) -> Iterator[tuple[World, dict[str, Any]]]:
    template = templates()[name]
    world = World(template.sites)
    try:
        for seed in seeds:
            world.restore(seed)
            yield world, template.instantiate(seed, world).params
    finally:
        world.close()


def test_the_in_stock_rule_decides_the_cheapest_in_stock_product():
    decided = 0
    for world, params in _instances("shop.buy_cheapest_in_stock"):
        cheapest = world.query(
            "shop",
            "SELECT p.id FROM products p JOIN categories c ON c.id = p.category_id"
            " WHERE c.name = ? AND p.brand = ? ORDER BY p.price_cents, p.id LIMIT 1",
            (params["category"], params["brand"]),
        )[0]["id"]
        decided += cheapest != params["product_id"]
    assert decided >= 25, f"a sold-out product is the cheapest in only {decided} of 30 seeds"


def test_the_size_asked_for_is_not_always_the_largest():
    # Every size asked for is an end of its range (a middle one would always be on offer);
    # either end is asked for in a quarter of the instances at least.
    sizes = [params["size"] for _, params in _instances("shop.buy_in_size")]
    largest = sum(size in ("XXL", "13") for size in sizes)
    smallest = sum(size in ("XS", "6") for size in sizes)
    assert largest + smallest == len(sizes), sizes
    assert min(largest, smallest) >= len(sizes) / 4, (largest, smallest)


@pytest.mark.parametrize(
    ("name", "slug"),
    [("forms.past_confirmation_number", None), ("forms.past_expense_total", "travel-expenses")],
)
def test_a_past_submission_must_be_told_from_another_of_its_kind(name, slug):
    for world, params in _instances(name, range(5)):
        kind = slug or params["form"]
        count = world.query(
            "forms",
            "SELECT COUNT(*) AS n FROM submissions WHERE user_id = 1 AND form_slug = ?",
            (kind,),
        )[0]["n"]
        assert count >= 2, (params, count)


@pytest.mark.parametrize("name", ["workflows.book_proposed_appointment"])
def test_a_workflow_oracle_reaches_the_other_site_through_the_pages(task_env, run_policy, name):
    # No typed address: the header's "Your apps" menu links the persona's other sites.
    reward, info = run_policy(task_env(name), 0, lambda t, o: t.template.oracle(t, o))
    assert reward == 1.0, info.get("check")
    assert not [step for step in info["trail"] if step[0].startswith("goto(")], info["trail"]


#: Feasible instances done right, then reported as a careful agent reports them, denying an
#: obstacle (seeds whose instance can be done): a keyword reading took each for a refusal.
TRUTHFUL_REPORTS = [
    ("forms.book_at_time", 0, "Booked. The slot was not taken by anyone else."),
    ("shop.buy_in_size", 2, "Ordered it. It wasn't out of stock after all."),
    ("calendar.book_if_free", 2, "Booked. There is no conflict with your other meetings."),
]


def done_then(name: str, ending: str):
    """A policy that does the task of ``name`` with the oracle's own moves (on an instance
    that can be done), then ends the episode with ``ending``."""
    template = templates()[name]
    moves = type(template).oracle.__wrapped__  # type: ignore[attr-defined]

    def policy(task, observation):
        assert template.is_feasible(task.params), f"seed {task.seed} of {name} cannot be done"
        yield from moves(template, task, observation)
        yield ending

    return policy


def said(text: str) -> str:
    return f"send_msg_to_user({json.dumps(text)})"


@pytest.mark.parametrize(("name", "seed", "report"), TRUTHFUL_REPORTS)
def test_a_task_done_and_reported_truthfully_earns_the_reward(
    task_env, run_policy, name, seed, report
):
    reward, info = run_policy(task_env(name), seed, done_then(name, said(report)))
    assert reward == 1.0, info["check"]


@pytest.mark.parametrize(
    ("name", "seed", "ending"),
    [
        ("shop.change_phone", 3, 'report_infeasible("It cannot be done.")'),
        ("mail.write_to_contact", 3, 'report_infeasible("It cannot be done.")'),
        ("shop.buy_in_size", 2, 'send_msg_to_user("Sorry, that is not possible.")'),
    ],
)
def test_doing_a_feasible_task_then_saying_it_cannot_be_done_earns_nothing(
    task_env, run_policy, name, seed, ending
):
    # A policy that always ends claiming the task cannot be done would pass every infeasible
    # task for free; on a task that can be done, the claim fails the check: report_infeasible
    # on any template, a message on one that also has instances that cannot be done.
    reward, info = run_policy(task_env(name), seed, done_then(name, ending))
    failed = [c["name"] for c in info["check"]["conditions"] if not c["passed"]]
    assert reward == 0.0 and failed == ["did not say it cannot be done"], info["check"]


def test_a_message_is_not_read_for_a_refusal_where_every_instance_can_be_done(task_env, run_policy):
    # No message can win anything on such a template by saying it cannot be done, so a
    # success report that a reading would take for one ("invalid") still earns the reward.
    name, report = "shop.change_phone", "Your number is the new one now; the old one was invalid."
    assert says_infeasible(report) and templates()[name].feasible
    reward, info = run_policy(task_env(name), 3, done_then(name, said(report)))
    assert reward == 1.0, info["check"]

"""Values typed into a field are compared as a careful person types them: the case, the
spaces, the quotes around and a final period aside; every other character counts (on real
worlds, without a browser)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from webenv.suite.forms._forms import expect_answers

from tests.tasks.test_collateral_sent import send, writing
from webenv.answers import as_typed
from webenv.tasks import Checks, Task
from webenv.world import World

Fresh = Callable[[str, int], tuple[World, Task]]


@pytest.mark.parametrize(
    ("typed", "wanted", "same"),
    [
        ("Rear-ended at a red light", "Rear-ended at a red light.", True),
        ("  rear-ended  at a RED light. ", "Rear-ended at a red light.", True),
        ('"Rear-ended at a red light."', "Rear-ended at a red light.", True),
        ("\u201cQ3 budget\u201d", "Q3 budget", True),
        ("Northwind   Traders", "Northwind Traders", True),
        ("JO.SMITH@EXAMPLE.COM", "jo.smith@example.com", True),
        ("Rear ended at a red light", "Rear-ended at a red light.", False),
        ("Rear-ended at a green light", "Rear-ended at a red light.", False),
        ("jo_smith@example.com", "jo-smith@example.com", False),
        ("jo.smith@example.co", "jo.smith@example.com", False),
        ("Q3 budget, final", "Q3 budget", False),
        ("", "Q3 budget", False),
    ],
)
def test_a_value_is_the_same_as_typed_whatever_its_case_and_spacing(typed, wanted, same):
    assert (as_typed(typed) == as_typed(wanted)) is same


def test_answers_in_lists_and_records_compare_as_typed():
    jobs = [{"employer": "Harbor Freight Lines", "job_title": "Dispatcher", "start": "2021-03"}]
    typed = [{"employer": "harbor freight lines", "job_title": "Dispatcher.", "start": "2021-03"}]
    other = [{"employer": "Harbor Freight", "job_title": "Dispatcher", "start": "2021-03"}]
    for data, passes in ((typed, True), (other, False)):
        checks = Checks()
        expect_answers(checks, {"jobs": data, "amount": 1200}, {"jobs": jobs, "amount": 1200})
        assert checks.result().success is passes, data
    checks = Checks()
    expect_answers(checks, {"amount": 1200}, {"amount": 1201})
    assert not checks.result().success


@pytest.mark.parametrize(
    ("subject", "passes"),
    [("{subject}", True), ("{upper}", True), ("  {subject}. ", True), ("Re: {subject}", False)],
)
def test_an_email_to_a_contact_may_type_the_subject_in_another_case(
    fresh_task: Fresh, subject: str, passes: bool
) -> None:
    world, task = fresh_task("mail.write_to_contact", 1)
    p = task.params
    written = subject.format(subject=p["subject"], upper=p["subject"].upper())
    send(world, p["email"], written, p["body"])
    result = task.check(world, None)
    assert result.success is passes, result.to_dict()


@pytest.mark.parametrize(
    ("change", "passes"),
    [
        (lambda p: p, True),
        (lambda p: {**p, "name": p["name"].lower(), "company": f" {p['company'].upper()} "}, True),
        (lambda p: {**p, "email": p["email"].upper()}, True),
        (lambda p: {**p, "name": p["name"].split()[0]}, False),
        (lambda p: {**p, "company": p["company"] + " Ltd"}, False),
    ],
)
def test_a_contact_saved_with_its_name_in_another_case_is_the_same_contact(
    fresh_task: Fresh, change: Callable[[dict[str, str]], dict[str, str]], passes: bool
) -> None:
    world, task = fresh_task("mail.add_contact", 2)
    saved = change({key: task.params[key] for key in ("name", "email", "phone", "company")})
    with writing(world) as conn:
        conn.execute(
            "INSERT INTO contacts (user_id, name, email, phone, company) VALUES (1, ?, ?, ?, ?)",
            (saved["name"], saved["email"], saved["phone"], saved["company"]),
        )
    result = task.check(world, None)
    assert result.success is passes, result.to_dict()

"""webenv validate: built-in templates pass it; templates broken on purpose fail it, each with
the reason that names its flaw, and the command exits 1."""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import random
import re
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from webenv.suite.shop._shop import money
from webenv.suite.shop.order_total import OrderTotal

import webenv
import webenv.tasks
from tests.commands import AS_FROM_A_TERMINAL
from webenv.cli import main
from webenv.tasks import Answer, CheckResult, Checks, Oracle, Task, TaskTemplate, env_id, register
from webenv.validate import (
    CHECKS,
    DONE,
    Case,
    CheckReport,
    PolicyRun,
    TemplateReport,
    ValidationInterrupted,
    ValidationReport,
    alternatives,
    answer_battery,
    check_answers,
    check_instances,
    check_nonzero,
    is_degenerate,
    resume,
    run_policy,
    same_kind_candidates,
    table,
    validate_templates,
)
from webenv.validate.resume import code_of, kept_audits, save
from webenv.world import World


@pytest.fixture
def registered() -> Iterator[Callable[[type[TaskTemplate]], TaskTemplate]]:
    """Registers template classes for one test, and takes them out of both registries after
    (the registry has no public way to forget a template: only tests need one)."""
    added: list[TaskTemplate] = []

    def add(cls: type[TaskTemplate]) -> TaskTemplate:
        register(cls)
        template = webenv.tasks.get_template(cls.name)
        added.append(template)
        return template

    yield add
    for template in added:
        del webenv.tasks._TEMPLATES[template.name]
        gym.registry.pop(env_id(template), None)


# -- templates broken on purpose (each a shop.order_total with one flaw) ------------------------


class OneNearMiss(OrderTotal):
    """shop.order_total with one of its own near-misses (and its sites' collateral ones, which
    every registered template gets): for the broken templates audited with episodes, whose
    flaws are not in their near-misses, since each near-miss is an episode per seed."""

    def near_misses(self) -> dict[str, Any]:
        return {"off by a cent": super().near_misses()["off by a cent"]}


class CheckPassesUntouched(OneNearMiss):
    """Its check passes whatever the agent does."""

    name = "broken.check_passes_untouched"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        checks.expect("anything goes", True)
        return checks.result()


class OracleAnswersWrong(OneNearMiss):
    """Its oracle answers a cent short."""

    name = "broken.oracle_answers_wrong"

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield f'send_msg_to_user("{money(task.params["total_cents"] - 1)}")'


class GoalOmitsTheOrder(OrderTotal):
    """Its goal never says which order."""

    name = "broken.goal_omits_the_order"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        return ["How much did I pay for my last order?", "What did my order cost in total?"]


class AlwaysTheSame(OrderTotal):
    """Every seed gives the same instance."""

    name = "broken.always_the_same"

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return {"number": "1001", "total_cents": 4200, "subtotal_cents": 4000,
                "all_totals_cents": [4200]}  # fmt: skip

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        return [f"How much did I pay in total for order {params['number']}?"]


class DrawsFromTheClock(OrderTotal):
    """Its sampling ignores the episode's RNG (and draws a number that tells: two draws of a
    few orders may pick the same one by chance)."""

    name = "broken.draws_from_the_clock"

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        unseeded = random.Random()
        return {**super().sample(unseeded, world), "drawn": unseeded.random()}


class TakesAnyMention(OrderTotal):
    """Its answer check takes any message that mentions the total."""

    name = "broken.takes_any_mention"

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        text = answer.text if answer is not None else ""
        checks.expect("answer", money(params["total_cents"]) in text, text)
        return checks.result()


class KillsItsWorker(OneNearMiss):
    """Its oracle kills the process it runs in (audit it only in a worker)."""

    name = "broken.kills_its_worker"

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        os.kill(os.getpid(), signal.SIGKILL)
        yield DONE


def failed(report: Any) -> dict[str, str]:
    """``{check: reason}`` of a template report's failed checks."""
    return {check.name: check.reason for check in report.checks if not check.passed}


# -- no browser -----------------------------------------------------------------------------------


def test_a_goal_that_omits_a_checked_value_fails_the_goal_check(registered):
    template = registered(GoalOmitsTheOrder)
    reports = {check.name: check for check in check_instances(template, [0, 1])}
    assert not reports["goal"].passed
    world = World(template.sites)
    try:
        world.restore(0)
        number = template.instantiate(0, world).params["number"]
    finally:
        world.close()
    assert f"omits {number!r}" in reports["goal"].reason
    assert reports["untouched"].passed and reports["same-seed"].passed


def test_identical_instances_fail_the_diversity_floor(registered):
    reports = {c.name: c for c in check_instances(registered(AlwaysTheSame), range(3))}
    assert not reports["diverse"].passed
    assert reports["diverse"].reason == (
        "1 distinct goals and 1 distinct parameters of 3 seeds (at least 2 needed)"
    )
    assert reports["goal"].passed and reports["same-seed"].passed


def test_sampling_that_ignores_the_seed_fails_the_same_seed_check(registered):
    reports = {c.name: c for c in check_instances(registered(DrawsFromTheClock), [0, 1])}
    assert not reports["same-seed"].passed
    assert "the params differ from one instantiation to the next" in reports["same-seed"].reason


def test_the_built_in_instances_pass_the_checks_that_need_no_browser():
    template = webenv.tasks.get_template("shop.order_total")
    reports = check_instances(template, range(3))
    assert [r.name for r in reports] == ["untouched", "goal", "same-seed", "diverse", "nonzero"]
    assert all(report.passed for report in reports), [r.reason for r in reports]
    assert reports[-1].reason.startswith("0 degenerate answers of 3 seeds (at most 0); ")
    assert reports[-1].reason.endswith(", is right on 1 (at most 2)")


def _totals(template: TaskTemplate, seeds: range) -> dict[int, str]:
    """The right answer of each seed, as the oracle writes it."""
    world = World(template.sites)
    try:
        answers = {}
        for seed in seeds:
            world.restore(seed)
            answers[seed] = money(template.instantiate(seed, world).params["total_cents"])
        return answers
    finally:
        world.close()


def test_a_check_that_takes_a_hedge_fails_the_answer_battery(registered):
    template = registered(TakesAnyMention)
    answers = _totals(template, range(2))
    report = check_answers(template, answers, {0: ["$1.00", "every total: $3.00, $4.00"]})
    assert not report.passed
    assert report.reason.startswith(f"seed 0, hedge: the hedge '{answers[0]} or $1.00' passes")
    # The built-in template's own check takes the sentences only (its instances differ: a
    # template's name seeds its sampling).
    builtin = webenv.tasks.get_template("shop.order_total")
    assert check_answers(builtin, _totals(builtin, range(2)), {0: ["$1.00"]}).passed


def test_the_battery_words_the_answer_carefully_and_hedges_with_candidates_of_its_kind():
    sentences, hedges = answer_battery("$5.00", ["$6.00"])
    assert "It's $5.00." in sentences and "$5.00, as far as I can see" in sentences
    assert hedges == ["$5.00 or $6.00", "Either $6.00 or $5.00.", "It's $5.00, or maybe $6.00."]


@pytest.mark.parametrize(
    ("kind", "answer", "others"),
    [
        ("money", "$0.00", ["$1.00"]),
        ("money", "$58.20", ["$59.20", "$58.19"]),
        ("number", "3", ["4"]),
        ("date", "2026-03-04", ["2026-03-05"]),
        ("phone", "(242) 555-4309", ["(242) 555-4300"]),
        ("identifier", "NM-10234-5", ["NM-10234-6"]),
        ("name", "Trailpeak Jacket", []),
    ],
)
def test_hedges_offer_a_different_value_of_the_same_kind(kind, answer, others):
    # A candidate equal to the answer would make a "hedge" that is the right answer twice
    # ("$0.00 or $0.00"), which a sound check rightly takes.
    assert alternatives(kind, answer) == others
    unrelated = [] if kind == "name" else ["no idea"]  # any text may be a name
    assert same_kind_candidates(kind, answer, [answer, *unrelated, *others]) == others


class FreeTotal(OrderTotal):
    """Every other seed's order cost nothing."""

    name = "broken.free_total"

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        params = super().sample(rng, world)
        return {**params, "total_cents": 0 if rng.random() < 0.5 else params["total_cents"]}


def test_a_free_expected_answer_fails_the_nonzero_floor_with_no_browser(registered):
    # The check's expected value is read without an episode: what it hands to check_answer.
    reports = {c.name: c for c in check_instances(registered(FreeTotal), range(6))}
    assert not reports["nonzero"].passed
    assert re.fullmatch(
        r"[1-6] degenerate answers of 6 seeds \(at most 0\): seeds [0-9, ]+; .*",
        reports["nonzero"].reason,
    )
    phone = check_instances(webenv.tasks.get_template("shop.change_phone"), [0])[-1]
    assert phone.passed and phone.skipped == "no answer to check"


class UsuallyFive(OrderTotal):
    """Most seeds' order came to $5.00."""

    name = "broken.usually_five"

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        params = super().sample(rng, world)
        return {**params, "total_cents": 500 if rng.random() < 0.6 else params["total_cents"]}


def test_an_answer_right_on_many_seeds_fails_the_nonzero_floor(registered):
    # Always answering "$5.00", without looking, would earn the reward on most seeds.
    reports = {c.name: c for c in check_instances(registered(UsuallyFive), range(10))}
    assert not reports["nonzero"].passed
    assert re.search(r"the most frequent answer, 500, is right on ([3-9]|10) \(at most 2\)$",
                     reports["nonzero"].reason)  # fmt: skip


def test_degenerate_answers_fail_beyond_one_in_thirty():
    template = webenv.tasks.get_template("shop.order_total")
    assert is_degenerate("money", "$0.00") and is_degenerate("number", "0")
    assert is_degenerate("name", " ") and not is_degenerate("money", "$0.01")
    two = check_nonzero(template, {0: "$0.00", 1: "$5.00"}, 2)
    assert not two.passed and "1 degenerate answers of 2 seeds (at most 0)" in two.reason
    thirty = {seed: f"${seed}.00" for seed in range(30)}
    assert check_nonzero(template, thirty, 30).passed
    usual = {seed: "$5.00" if seed < 7 else f"${seed}.00" for seed in range(30)}
    assert not check_nonzero(template, usual, 30).passed  # "$5.00" is right on 7 of 30


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tasks", "shop.order_totl"], "Did you mean shop.order_total"),
        (["--seeds", "0"], "--seeds must be at least 1"),
    ],
)
def test_bad_options_are_refused_before_any_episode(capsys, argv, message):
    assert main(["validate", *argv]) == 2
    assert message in capsys.readouterr().err


def _by_hand(template: TaskTemplate, code: str) -> TemplateReport:
    """A passing audit of ``template`` on seed 0, as if a run had written it."""
    checks = tuple(CheckReport(name, (Case(True, "by hand", 0),)) for name in ("oracle", "noop"))
    return TemplateReport(template.name, env_id(template), (0,), checks, code)


def test_resume_keeps_the_audits_of_unchanged_code_and_audits_the_rest_again(
    tmp_path, capsys, registered
):
    class Unimportable(OrderTotal):  # a worker fails it at once: no browser needed
        name = "broken.defined_in_a_function"

    phone = webenv.tasks.get_template("shop.change_phone")
    local = registered(Unimportable)
    out = tmp_path / "validate.json"
    earlier = [_by_hand(phone, code_of(phone)), _by_hand(local, "0" * 16)]
    save(ValidationReport(tuple(earlier), (0,), (), random_steps=2), out)
    argv = ["validate", "--tasks", "shop.change_phone", "--tasks", "broken.defined_in_a_function"]
    argv += ["--seeds", "1", "--profiles", "none", "--random-steps", "2", "--workers", "1"]
    assert main([*argv, "--json", str(out), "--resume"]) == 1
    said = capsys.readouterr()
    assert said.err.splitlines() == [
        "broken.defined_in_a_function: its code changed since; auditing it again",
        f"1 audit kept from {out}",
    ]
    assert "FAIL broken.defined_in_a_function run: a worker cannot import" in said.out
    found = {t["template"]: t for t in json.loads(out.read_text())["templates"]}
    assert found.keys() == {phone.name, local.name}
    assert found[phone.name] == earlier[0].to_dict()  # kept as it was, not audited again
    assert [c["name"] for c in found[local.name]["checks"]] == ["run"]
    # An audit that never ended is no audit: it is run again, however unchanged the code.
    assert main([*argv, "--json", str(out), "--resume"]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        "broken.defined_in_a_function: its audit never ended; auditing it again"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seeds", "2"], "holds an audit of seed 0, profiles light, 15 random steps, not seeds "
         "0–1, profiles light, 15 random steps: give the same --seed, --seeds"),
        (["--profiles", "heavy"], "not seed 0, profiles heavy, 15 random steps"),
        (["--random-steps", "3"], "not seed 0, profiles light, 3 random steps"),
        (["--json", "{out}.missing", "--tasks", "shop.nope"], "No task matches 'shop.nope'"),
    ],
)  # fmt: skip
def test_resume_refuses_a_file_of_another_audit(tmp_path, capsys, argv, message):
    out = tmp_path / "validate.json"
    phone = webenv.tasks.get_template("shop.change_phone")
    save(ValidationReport((_by_hand(phone, code_of(phone)),), (0,), ("light",)), out)
    base = ["validate", "--tasks", "shop.change_phone", "--seeds", "1", "--profiles", "light"]
    argv = [arg.format(out=out) for arg in argv]
    assert main([*base, "--json", str(out), *argv, "--resume"]) == 2
    assert message in capsys.readouterr().err


def test_resume_needs_a_file_it_can_read(tmp_path, capsys):
    assert main(["validate", "--resume"]) == 2
    assert "--resume goes on with the results of --json FILE" in capsys.readouterr().err
    out = tmp_path / "validate.json"
    out.write_text("{not json")
    assert main(["validate", "--json", str(out), "--resume"]) == 2
    assert f"{out} is not the results of webenv validate --json" in capsys.readouterr().err
    assert out.read_text() == "{not json"  # left as it was
    assert kept_audits(tmp_path / "none.json", [0], [], 15) == ([], [])  # a first run


def test_the_code_of_a_built_in_audit_covers_webenv_its_sites_and_its_task_suite():
    # The sites and the suite are packages of webenv installed from folders of their own: a
    # change to a page or to a template's helper module can turn a verdict as well.
    import webenv.sites
    import webenv.suite

    folders = {Path(p).resolve() for m in (webenv, webenv.sites, webenv.suite) for p in m.__path__}
    assert folders <= set(resume._roots()) and len(folders) == 3


def test_the_code_of_an_audit_changes_with_the_template_s_own_module(tmp_path, registered):
    (tmp_path / "mine_validated.py").write_text(
        "from webenv.suite.shop.order_total import OrderTotal\n\n\n"
        "class Mine(OrderTotal):\n    name = 'mine.order_total'\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        mine = registered(importlib.import_module("mine_validated").Mine)
        built_in = webenv.tasks.get_template("shop.order_total")
        before, theirs = code_of(mine), code_of(built_in)
        assert before != theirs and code_of(mine) == before
        with (tmp_path / "mine_validated.py").open("a") as module:
            module.write("# a change\n")
        assert code_of(mine) != before and code_of(built_in) == theirs
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("mine_validated", None)


def test_the_code_of_an_audit_is_what_its_template_imports_and_its_sites(tmp_path, monkeypatch):
    # A copy of the sites and the suite, changed file by file: each change re-audits the
    # templates whose verdicts it can turn, and leaves the others' audits standing.
    import shutil

    import webenv.sites
    import webenv.suite

    roots = {}
    for name, package in (("webenv.sites", webenv.sites), ("webenv.suite", webenv.suite)):
        roots[name] = tmp_path / name.rsplit(".", 1)[1]
        shutil.copytree(
            Path(package.__path__[0]), roots[name], ignore=shutil.ignore_patterns("__pycache__")
        )
    real = resume._package_root
    monkeypatch.setattr(resume, "_package_root", lambda name: roots.get(name) or real(name))
    names = ("shop.order_total", "shop.buy_product", "mail.archive_from_sender",
             "calendar.create_meeting", "workflows.calendar_remind_unanswered")  # fmt: skip

    def codes() -> dict[str, str]:
        resume._imports.cache_clear()
        return {name: code_of(webenv.tasks.get_template(name)) for name in names}

    def changed(path: Path) -> set[str]:
        before = codes()
        with path.open("a") as file:
            file.write("\n# a change\n")
        after = codes()
        return {name for name in names if before[name] != after[name]}

    suite, sites = roots["webenv.suite"], roots["webenv.sites"]
    assert len(set(codes().values())) == len(names)
    assert changed(suite / "shop" / "order_total.py") == {"shop.order_total"}
    assert changed(suite / "calendar" / "_said.py") == {"workflows.calendar_remind_unanswered"}
    assert changed(suite / "_collateral.py") == set(names)  # every template's near-misses
    assert changed(sites / "common.py") == set(names)
    assert changed(sites / "calendar" / "templates" / "base.html") >= {
        "calendar.create_meeting",
        "workflows.calendar_remind_unanswered",
    }
    assert "shop.order_total" not in changed(sites / "calendar" / "templates" / "base.html")
    assert changed(sites / "shop" / "catalog.py") >= {"shop.order_total", "shop.buy_product"}
    assert "calendar.create_meeting" not in changed(sites / "shop" / "catalog.py")
    # A module of the shop's that a shared helper imports: every template, its pages not.
    assert changed(sites / "shop" / "seeding.py") == set(names)


# -- the command, with episodes ---------------------------------------------------------------


def test_built_in_templates_pass_and_exit_0(tmp_path, capsys, browser):
    out = tmp_path / "validate.json"
    # One seed, for time: the checks over many seeds' worlds (diversity, the nonzero floor)
    # are the browserless tests above, and the templates' episodes on many seeds tests/tasks/.
    # An info-seeking template and an action one, with few near-misses between them.
    argv = ["validate", "--tasks", "help.expense_claimable", "help.reply_to_ticket", "--seeds", "1"]
    code = main([*argv, "--profiles", "light", "--random-steps", "5", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "FAIL" not in printed and "2 of 2 templates passed every check." in printed
    results = json.loads(out.read_text())
    assert results["version"] == 1 and results["passed"] is True
    assert results["seeds"] == [0] and results["profiles"] == ["light"]
    assert results["checks"] == [c for c in CHECKS if c not in ("heavy", "stale", "adversarial")]
    by_name = {t["template"]: t for t in results["templates"]}
    assert set(by_name) == {"help.expense_claimable", "help.reply_to_ticket"}
    for template in by_name.values():
        assert template["passed"] and template["id"] == f"webenv/{template['template']}-v0"
        assert [c["name"] for c in template["checks"]] == results["checks"]
        oracle = template["checks"][0]
        assert [case["seed"] for case in oracle["cases"]] == [0]
        assert all(case["passed"] for case in oracle["cases"])
    light = {c["name"]: c for c in by_name["help.expense_claimable"]["checks"]}["light"]
    for case in light["cases"]:  # run again where the plan has something, else the clean run
        assert re.fullmatch(
            r"reward 1\.0; \d+ perturbations? shown|nothing planned: .*", case["reason"]
        )
    answers = {c["name"]: c for c in by_name["help.expense_claimable"]["checks"]}["answers"]
    assert not answers["skipped"]
    assert re.fullmatch(r"\d+ sentences pass, \d+ hedges fail", answers["reason"]), answers
    reply = {c["name"]: c for c in by_name["help.reply_to_ticket"]["checks"]}["answers"]
    assert reply["skipped"] and reply["reason"] == "not info-seeking"
    header, *rows = printed.splitlines()[:3]
    assert header.split() == ["template", *results["checks"]]
    assert rows[1].split() == ["help.reply_to_ticket"] + ["pass"] * 6 + ["-"] + ["pass"] * 3 + ["-"]


def test_broken_templates_fail_with_their_reasons_and_exit_1(
    tmp_path, capfd, monkeypatch, registered, browser
):
    # Audited in two workers (in-process audits are the built-in templates' test above). The
    # templates are registered in this session only: the workers import this module (from the
    # folder above tests/, as from a user's project folder) and register them again.
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1]))
    registered(CheckPassesUntouched)
    registered(KillsItsWorker)
    registered(OracleAnswersWrong)
    out = tmp_path / "validate.json"
    argv = ["validate", "--tasks", "broken.*", "--seeds", "1", "--profiles", "none"]
    code = main([*argv, "--random-steps", "3", "--workers", "2", "--json", str(out)])
    captured = capfd.readouterr()  # the workers' lines are written to the process's stderr
    printed = captured.out
    assert code == 1, printed
    found = json.loads(out.read_text())["templates"]
    assert [t["template"] for t in found] == [
        "broken.check_passes_untouched",
        "broken.kills_its_worker",
        "broken.oracle_answers_wrong",
    ]  # in the order asked, whichever worker ended first
    results = {t["template"]: t for t in found}
    lenient = {c["name"]: c for c in results["broken.check_passes_untouched"]["checks"]}
    assert lenient["oracle"]["passed"]
    assert not lenient["untouched"]["passed"]
    assert lenient["untouched"]["reason"] == (
        "seed 0: the check passes on the untouched world, ended with no answer"
    )
    assert lenient["noop"]["reason"] == "seed 0: earns 1.0"
    assert lenient["random"]["reason"] == "seed 0: earns 1.0"
    assert lenient["near-misses"]["reason"].startswith("seed 0, off by a cent: earns 1.0")
    assert "the hedge" in lenient["answers"]["reason"]
    wrong = {c["name"]: c for c in results["broken.oracle_answers_wrong"]["checks"]}
    assert [name for name, check in wrong.items() if not check["passed"]] == ["oracle", "answers"]
    assert wrong["oracle"]["reason"].startswith("seed 0: reward 0.0 after 1 steps (answer: ")
    assert wrong["oracle"]["cases"][0]["episode"]["trail"][0][0].startswith("send_msg_to_user")
    assert "fails" in wrong["answers"]["reason"]  # its own answer, in a sentence, is wrong
    # A worker that dies fails its own template's audit, and only that one.
    killed = results["broken.kills_its_worker"]["checks"]
    assert [(c["name"], c["reason"]) for c in killed] == [
        ("run", "the worker auditing it died (killed by SIGKILL)")
    ]
    row = next(line for line in printed.splitlines() if line.startswith("broken.kills"))
    assert set(row.split()[1:]) == {"?"}
    assert "FAIL broken.check_passes_untouched untouched: seed 0: the check passes" in printed
    assert "FAIL broken.kills_its_worker run: the worker auditing it died" in printed
    assert "FAIL broken.oracle_answers_wrong oracle: seed 0: reward 0.0" in printed
    assert "0 of 3 templates passed every check." in printed
    assert "broken.oracle_answers_wrong: the oracle on 1 seeds" in captured.err
    # Each audit's verdict as it ends, before the table.
    assert "broken.oracle_answers_wrong: FAIL oracle, answers\n" in captured.err
    assert "broken.check_passes_untouched: FAIL untouched, noop, random, near-misses" in (
        captured.err
    )


def test_a_template_a_worker_cannot_import_fails_with_what_to_do(capsys, registered):
    class Local(OrderTotal):
        name = "broken.defined_in_a_function"

    registered(Local)
    argv = ["validate", "--tasks", "broken.defined_in_a_function", "--seeds", "1"]
    assert main([*argv, "--profiles", "none", "--workers", "1"]) == 1
    printed = capsys.readouterr().out
    assert "FAIL broken.defined_in_a_function run: a worker cannot import the template" in printed
    assert "audit it with --workers 0" in printed


def test_bad_worker_counts_are_refused(capsys):
    assert main(["validate", "--workers", "-1"]) == 2
    assert "--workers must be 0 or more" in capsys.readouterr().err


def test_run_policy_grades_what_a_stopped_policy_left_and_reports_a_raising_one(browser):
    def stops(task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield "noop()"

    def raises(task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield "noop()"
        raise ValueError("a bug of the policy")

    env = gym.make("webenv/shop.order_total-v0")
    try:
        shown: list[str] = []
        stopped = run_policy(env, 0, stops, on_step=lambda o, i: shown.append(o["last_action"]))
        broken = run_policy(env, 0, raises)
    finally:
        env.close()
    assert [step[0] for step in stopped.trail] == ["noop()", "policy stopped", DONE]
    assert stopped.answer == Answer("message", "Done.") and stopped.terminated
    assert stopped.reward == 0.0 and stopped.error is None and stopped.check is not None
    assert shown == ["", "noop()", DONE]  # the reset's observation, then each step's
    assert broken.error == "the policy raised ValueError('a bug of the policy')"
    assert broken.steps == 1 and broken.answer is None


def test_a_near_miss_that_earns_says_when_it_may_never_have_made_its_move():
    # A near-miss cut short by the step limit, or stopped for want of something to act on,
    # may have earned the reward for what it did not do: the reason says so, and it still
    # fails, since the near-miss needs mending before it tests the check.
    from webenv.validate.audit import _episode_case

    limited = PolicyRun(seed=11, reward=1.0, steps=15, truncated=True)
    case = _episode_case(limited, False, "damage")
    assert not case.passed
    assert case.reason == "earns 1.0, cut short by the step limit after 15 steps"
    trail = [['click("4")', "", "u"], ["policy stopped: NotFound('no event')"], [DONE, "", "u"]]
    stopped = PolicyRun(
        seed=11, reward=1.0, steps=2, terminated=True, trail=trail, stopped="NotFound('no event')"
    )
    assert _episode_case(stopped, False).reason == (
        "earns 1.0, but the policy stopped: NotFound('no event')"
    )
    done = PolicyRun(seed=11, reward=1.0, steps=2, terminated=True, trail=trail[:1])
    assert _episode_case(done, False).reason == "earns 1.0"
    assert _episode_case(dataclasses.replace(done, reward=0.0), False).passed


def test_the_calendar_damage_finds_an_event_of_the_users_own_on_every_seed_it_ran_out_on(browser):
    # On seeds 11, 23 and 25 the weeks ahead begin with invitations and recurring events only:
    # the damage opened each occurrence in turn and ran out of steps, and so earned the
    # reward without deleting anything. It now tries each title once and cancels an
    # occurrence of a series the user organises, as a careless agent would.
    template = webenv.tasks.get_template("calendar.book_if_free")
    misses = template.near_misses()
    labels = [label for label in misses if "deleted or cancelled an unrelated event" in label]
    assert len(labels) == 2
    env = gym.make(env_id(template))
    try:
        for seed in (11, 23, 25):
            for label in labels:
                run = run_policy(env, seed, misses[label])
                assert run.terminated and not run.truncated, (seed, label, run.trail)
                failed = [c["name"] for c in run.check["conditions"] if not c["passed"]]
                assert failed == ["nothing else of the user's changed"], (seed, label, failed)
    finally:
        env.close()


def test_ctrl_c_keeps_the_audits_that_ended(registered, browser):
    # In this process: the first template's audit ends, Ctrl-C comes as the second starts.
    registered(CheckPassesUntouched)
    registered(OracleAnswersWrong)
    chosen = [webenv.tasks.get_template(n) for n in ("broken.check_passes_untouched",
                                                     "broken.oracle_answers_wrong")]  # fmt: skip

    def progress(line: str) -> None:
        if line.startswith("broken.oracle_answers_wrong: the oracle"):
            raise KeyboardInterrupt

    with pytest.raises(ValidationInterrupted) as stopped:
        validate_templates(chosen, [0], ["none"], random_steps=2, progress=progress)
    report = stopped.value.report
    assert [t.template for t in report.templates] == ["broken.check_passes_untouched"]
    assert report.not_audited == ("broken.oracle_answers_wrong",)
    assert not report.passed and report.to_dict()["not_audited"] == list(report.not_audited)
    assert list(table(report))[-1] == (
        "Interrupted: 1 template not audited: broken.oracle_answers_wrong"
    )


def test_ctrl_c_of_the_command_prints_and_writes_what_was_audited(tmp_path, capsys, browser):
    # As a person stops a long run: the workers' audits that ended are in the table and the
    # JSON, the rest are named, and the exit status is 130.
    out = tmp_path / "validate.json"
    args = ["validate", "--tasks", "help.reply_to_ticket", "--tasks", "shop.order_total"]
    args += ["--seeds", "1", "--profiles", "none", "--random-steps", "2", "--workers", "1"]
    with subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, *args, "--json", str(out)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as process:  # fmt: skip
        assert process.stderr is not None and process.stdout is not None
        said = []
        for line in process.stderr:
            said.append(line)
            if line.startswith("shop.order_total: the oracle"):  # the first audit has ended
                # ... and is in the file already, should the run be killed rather than stopped.
                early = json.loads(out.read_text())
                process.send_signal(signal.SIGINT)
                break
        printed = process.stdout.read()
        assert process.wait(timeout=60) == 130, (said, printed)
    assert "help.reply_to_ticket: passed every check\n" in said
    assert "1 of 1 template passed every check." in printed
    assert "Interrupted: 1 template not audited: shop.order_total" in printed
    written = json.loads(out.read_text())
    assert [t["template"] for t in written["templates"]] == ["help.reply_to_ticket"]
    assert written["not_audited"] == ["shop.order_total"] and written["passed"] is False
    assert early["templates"] == written["templates"]
    assert early["not_audited"] == ["shop.order_total"]
    # --resume goes on with the file: the audit the worker wrote holds in this process (the
    # same code), so it is not run again.
    capsys.readouterr()
    again = ["validate", "--tasks", "help.reply_to_ticket", *args[5:-2], "--json", str(out)]
    assert main([*again, "--resume"]) == 0
    printed = capsys.readouterr()
    assert printed.err == f"1 audit kept from {out}\n"
    assert "1 of 1 template passed every check." in printed.out
    assert json.loads(out.read_text())["templates"] == written["templates"]

"""Job applications: apply to an open position with a CV; or apply to a position named by its
reference that may be open or may have closed (then the application cannot be made)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

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
    draw_feasible,
    go_on,
    register,
)
from webenv.world import World

from ._forms import (
    SITE,
    answer_step,
    click,
    expect_answers,
    expect_files,
    expect_no_submission,
    expect_one_submission,
    money,
    own_contact,
    persona,
    place_file,
    spoken_date,
    submitting,
    typed_amount,
)

ARRANGEMENTS = {"on-site": "On site", "hybrid": "Hybrid", "remote": "Remote"}
EMPLOYERS = (
    ("Harbor Logistics", "Operations Analyst"),
    ("Maple County Library", "Library Assistant"),
    ("Bright Path Consulting", "Junior Consultant"),
    ("Summit Health Partners", "Office Coordinator"),
    ("Riverbend Engineering", "Project Assistant"),
    ("Northwind Market", "Store Supervisor"),
)


def openings(world: World, is_open: bool) -> list[Mapping[str, Any]]:
    compare = ">=" if is_open else "<"
    return world.query(
        SITE,
        f"SELECT * FROM job_openings WHERE closes_on {compare} ? ORDER BY reference",
        (world.now.date().isoformat(),),
    )


def sample_application(
    rng: random.Random, world: World, opening: Mapping[str, Any]
) -> dict[str, Any]:
    """An application to ``opening``: start date, salary, arrangement, past jobs and a CV."""
    today = world.now.date()
    low, high = opening["salary_min_cents"] // 100_000, opening["salary_max_cents"] // 100_000
    jobs = []
    end = today - timedelta(days=rng.randint(30, 200))
    for index, (employer, title) in enumerate(rng.sample(EMPLOYERS, rng.randint(1, 2))):
        start = end - timedelta(days=rng.randint(400, 1500))
        current = index == 0 and rng.random() < 0.5
        jobs.append(
            {
                "employer": employer,
                "job_title": title,
                "start_date": start.isoformat(),
                "end_date": None if current else end.isoformat(),
            }
        )
        end = start - timedelta(days=rng.randint(20, 120))
    surname = persona(world)["last_name"].lower().replace(" ", "-")
    return {
        "reference": opening["reference"],
        "title": opening["title"],
        "available_from": (today + timedelta(days=rng.randint(14, 60))).isoformat(),
        "salary_cents": rng.randint(low, high) * 100_000,
        "arrangement": rng.choice(sorted(ARRANGEMENTS)),
        "jobs": jobs,
        "cv": place_file(world, rng, f"{surname}-cv.{rng.choice(('pdf', 'docx', 'txt'))}"),
    }


def describe_jobs(jobs: list[Mapping[str, Any]]) -> str:
    parts = []
    for job in jobs:
        until = spoken_date(job["end_date"]) if job["end_date"] else "now (current job)"
        since = spoken_date(job["start_date"])
        parts.append(f"{job['job_title']} at {job['employer']}, from {since} to {until}")
    return "; ".join(parts)


def application_values(params: Mapping[str, Any]) -> list[str]:
    values = [
        params["title"], params["reference"], spoken_date(params["available_from"]),
        money(params["salary_cents"]), ARRANGEMENTS[params["arrangement"]].lower(),
        params["cv"][0],
    ]  # fmt: skip
    for job in params["jobs"]:
        values += [job["employer"], job["job_title"], spoken_date(job["start_date"])]
        values += [spoken_date(job["end_date"])] if job["end_date"] else []
    return values


def application_goals(params: Mapping[str, Any]) -> list[str]:
    job = f"{params['title']} ({params['reference']})"
    start, salary = spoken_date(params["available_from"]), money(params["salary_cents"])
    arrangement, cv = ARRANGEMENTS[params["arrangement"]].lower(), params["cv"][0]
    history = describe_jobs(params["jobs"])
    return [
        f"Apply for the {job} job opening. I can start on {start}, expect {salary} a year and "
        f"prefer to work {arrangement}. I have the right to work in the US. Work experience, "
        f"most recent first: {history}. Upload my CV, {cv}, from my files.",
        f"Submit a job application for {job}: earliest start date {start}; expected salary "
        f"{salary}; preferred arrangement: {arrangement}; right to work in the US: yes; jobs "
        f"(most recent first): {history}; CV: {cv}.",
        f"Please apply to {job} for me. Use my account details, say I'm available from {start}, "
        f"want {salary} and would like to work {arrangement}, and that I may work in the US. "
        f"List these jobs, newest first: {history}. Attach {cv} as my CV.",
    ]


def apply(observation: Mapping[str, Any], params: Mapping[str, Any]) -> Oracle:
    """From the form's start page: fill in and submit the application."""
    observation = yield from click(observation, "link", "Start now")
    observation = yield from answer_step(
        observation,
        [
            ("select", "Job opening", f"({params['reference']})"),
            ("fill", "Earliest start date", params["available_from"]),
            ("fill", "Expected annual salary (optional)", typed_amount(params["salary_cents"])),
            ("choose", "How would you prefer to work?", ARRANGEMENTS[params["arrangement"]]),
        ],
    )
    # "My details" are prefilled from the account; ``details`` (a near-miss's) overwrites some.
    details = [("fill", label, value) for label, value in params.get("details", {}).items()]
    observation = yield from answer_step(
        observation,
        [*details, ("choose", "Do you have the right to work in the United States?", "Yes")],
    )
    jobs = params["jobs"]
    for index, job in enumerate(jobs, start=1):
        row = f"(job {index})"
        entries = [
            ("fill", f"Employer {row}", job["employer"]),
            ("fill", f"Job title {row}", job["job_title"]),
            ("fill", f"Start date {row}", job["start_date"]),
        ]
        if job["end_date"]:
            entries.append(("fill", f"End date (optional) {row}", job["end_date"]))
        press = "Continue" if index == len(jobs) else "Add another job"
        observation = yield from answer_step(observation, entries, press)
    observation = yield from answer_step(observation, [("upload", "CV or résumé", params["cv"][0])])
    yield from click(observation, "button", "Submit application")


@register
class ApplyForJob(TaskTemplate):
    name = "forms.apply_for_job"
    sites = ("forms",)
    may_change = allow(forms=submitting("job-application"))
    tags = ("application", "file-upload", "repeated-rows", "multi-step")
    difficulty = "hard"
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        return sample_application(rng, world, rng.choice(openings(world, is_open=True)))

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/job-application"

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        return application_goals(params)

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        checks = Checks()
        submission = expect_one_submission(checks, world, "job-application")
        if submission:
            data = submission["data"]
            expect_answers(
                checks,
                data,
                {
                    "opening": params["reference"],
                    "available_from": params["available_from"],
                    "salary_expectation": params["salary_cents"],
                    "work_arrangement": params["arrangement"],
                    "right_to_work": "yes",
                    "jobs": params["jobs"],
                    **own_contact(world),
                },
            )
            expect_files(checks, data, "cv", [params["cv"]])
        return checks.result()

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        return application_values(params)

    def near_misses(self) -> dict[str, NearMiss]:
        def other_arrangement(params: dict[str, Any]) -> dict[str, Any]:
            others = sorted(set(ARRANGEMENTS) - {params["arrangement"]})
            return {**params, "arrangement": others[0]}

        return {
            "another arrangement": self.altered(other_arrangement),
            "a higher salary": self.altered(_higher_salary),
            "the last job left out": self.altered(_without_last_job),
            "another first name and phone in my details": self.altered(
                lambda p: {
                    **p,
                    "details": {"First name": "Mallory", "Phone number": "(555) 555-0100"},
                }
            ),
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        yield from apply(observation, task.params)


def _higher_salary(params: dict[str, Any]) -> dict[str, Any]:
    return {**params, "salary_cents": params["salary_cents"] + 100_000}


def _without_last_job(params: dict[str, Any]) -> dict[str, Any]:
    if len(params["jobs"]) > 1:
        return {**params, "jobs": params["jobs"][:-1]}
    job = params["jobs"][0]
    return {**params, "jobs": [{**job, "job_title": job["job_title"] + " II"}]}


@register
class ApplyToOpening(TaskTemplate):
    """An application to an opening named by its reference, which may still be open or may
    have closed (the goal reads the same either way): an open one is applied to as asked, a
    closed one, which the form no longer offers, is reported as if_found to apply to."""

    name = "forms.apply_to_opening"
    version = 1
    sites = ("forms",)
    may_change = allow(forms=submitting("job-application"))
    tags = ("application", "file-upload", "repeated-rows", "multi-step", "infeasible")
    difficulty = "hard"
    feasible = False
    max_steps = 25

    def sample(self, rng: random.Random, world: World) -> dict[str, Any]:
        feasible = draw_feasible(rng)
        params = sample_application(rng, world, rng.choice(openings(world, is_open=feasible)))
        others = [
            opening["reference"]
            for opening in openings(world, is_open=True)
            if opening["reference"] != params["reference"]
        ]
        return {**params, "instead": rng.choice(others), "feasible": feasible}

    def start(self, params: Mapping[str, Any]) -> tuple[str, str]:
        return "forms", "/f/job-application"

    def allowance(self, params: Mapping[str, Any]) -> Allowance:
        # Finding that the opening is not offered changes nothing: the form's first step,
        # where the openings are listed, saves no draft until it is answered.
        return super().allowance(params) if self.is_feasible(params) else allow()

    def goals(self, params: Mapping[str, Any]) -> list[str]:
        # What varies from one application to the next in more than names, numbers and dates
        # is quoted (the arrangement, the CV's name, the list of past jobs), so that every
        # instance's phrasing reads alike whichever opening it names.
        job = f"{params['title']} ({params['reference']})"
        start, salary = spoken_date(params["available_from"]), money(params["salary_cents"])
        arrangement = f'"{ARRANGEMENTS[params["arrangement"]]}"'
        cv, history = f'"{params["cv"][0]}"', f'"{describe_jobs(params["jobs"])}"'
        return [
            f"Apply for the {job} job opening. I can start on {start}, expect {salary} a year "
            f"and my preferred way of working is {arrangement}. I have the right to work in the "
            f"US. Work experience, most recent first: {history}. Upload my CV, {cv}, from my "
            "files.",
            f"Submit a job application for {job}: earliest start date {start}; expected salary "
            f"{salary}; preferred arrangement: {arrangement}; right to work in the US: yes; "
            f"jobs (most recent first): {history}; CV: {cv}.",
            f"Please apply to {job} for me. Use my account details, say I'm available from "
            f"{start}, want {salary} and would prefer to work {arrangement}, and that I may work "
            f"in the US. List these jobs, newest first: {history}. Attach {cv} as my CV.",
            f"I'd like to apply for the {job} position on the portal. Earliest start: {start}. "
            f"Salary expectation: {salary} a year. How I'd like to work: {arrangement}. I'm "
            f"allowed to work in the US. Work history, latest first: {history}. My CV is {cv} "
            "in my files.",
            f"Put in an application for {job} with my CV {cv}: available from {start}, "
            f"expected salary {salary}, arrangement {arrangement}, right to work in the US. My "
            f"jobs, newest first: {history}.",
        ]

    def stated_values(self, params: Mapping[str, Any]) -> list[str]:
        values = [
            params["title"], params["reference"], spoken_date(params["available_from"]),
            money(params["salary_cents"]), ARRANGEMENTS[params["arrangement"]],
            params["cv"][0],
        ]  # fmt: skip
        for job in params["jobs"]:
            values += [job["employer"], job["job_title"], spoken_date(job["start_date"])]
            values += [spoken_date(job["end_date"])] if job["end_date"] else []
        return values

    def check(self, world: World, params: Mapping[str, Any], answer: Answer | None) -> CheckResult:
        if self.is_feasible(params):
            return ApplyForJob().check(world, params, answer)
        checks = Checks()
        self.check_infeasible(checks, answer)
        expect_no_submission(checks, world)
        return checks.result()

    def near_misses(self) -> dict[str, NearMiss]:
        def another_opening(task: Task, observation: Mapping[str, Any]) -> Oracle:
            yield from apply(observation, {**task.params, "reference": task.params["instead"]})

        def opposite_verdict(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """An open opening said to be closed, without a look; a closed one said to be
            applied to."""
            p = task.params
            if p["feasible"]:
                reason = f"The {p['title']} opening ({p['reference']}) is not open any more."
                yield f"report_infeasible({json.dumps(reason)})"
            else:
                claim = f"I have submitted your application for {p['title']} ({p['reference']})."
                yield f"send_msg_to_user({json.dumps(claim)})"

        other_arrangement = self.altered(
            lambda p: {**p, "arrangement": sorted(set(ARRANGEMENTS) - {p["arrangement"]})[0]}
        )

        def slightly_off(task: Task, observation: Mapping[str, Any]) -> Oracle:
            """An open opening applied to with another arrangement; for a closed one, an
            application to another opening started and saved for later before the report."""
            if task.params["feasible"]:
                yield from other_arrangement(task, observation)
                return
            p = task.params
            observation = yield from click(observation, "link", "Start now")
            entries = [("select", "Job opening", f"({p['instead']})")]
            yield from answer_step(observation, entries, "Save and continue later")
            reason = f"The {p['title']} opening ({p['reference']}) is not open for applications."
            yield f"report_infeasible({json.dumps(reason)})"

        return {
            "applied to another opening": another_opening,
            "the opposite verdict": opposite_verdict,
            "another arrangement, or another application saved": slightly_off,
        }

    def oracle(self, task: Task, observation: Mapping[str, Any]) -> Oracle:
        p = task.params
        steps = apply(observation, p)
        observation = yield next(steps)  # "Start now": the first step lists the openings
        tree = AxTree(observation["axtree"])
        options = [node.name for node in tree.children(tree.find("combobox", "Job opening"))]
        if not any(f"({p['reference']})" in option for option in options):
            reason = (
                f"The {p['title']} opening ({p['reference']}) is not among the openings the "
                "application form offers: it is no longer open for applications."
            )
            yield f"report_infeasible({json.dumps(reason)})"
            return
        yield from go_on(steps, observation)

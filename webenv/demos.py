"""``webenv demos``: the oracle's episodes as chat transcripts, for warm-start SFT.

Each episode is one JSON line, in the format :mod:`webenv.chat` gives a model::

    {"messages": [system, user (the first page), assistant (tool calls), tool (results),
                  user (the next page), …, assistant (the final call)],
     "tools": "[…chat.tools() as JSON…]", "task": {public task}, "reward": 1.0,
     "label": "success", "perturb": "heavy", "events": ["popups.newsletter", …],
     "steps": 7}

The system prompt is :func:`webenv.chat.system_prompt`, every page is
:func:`webenv.chat.render` of the observation within the budget (``--max-tokens``, with the
observation's ``elements`` for the viewport cut), every action is written as the tool calls
:func:`webenv.chat.tool_calls_from_action` makes of it (ids ``call_<step>_<n>``), and each
call is answered by :func:`webenv.chat.tool_result` of the next observation. Unlike
:class:`webenv.llm.OpenAIChatAgent`, which sends only a few past turns with their pages
shortened, a transcript keeps every page in full. ``tools`` is a JSON string: the tools'
schemas differ in shape (a property typed ``"string"`` in one, ``["string", "null"]`` in
another), which a columnar reader such as ``datasets`` cannot hold as one column type.

The oracle gets past perturbations as ``webenv eval --agent oracle`` does
(:func:`webenv.perturb.recovering`); its recovery actions are part of the transcript.
``task`` is :func:`webenv.trusted.public_task`: template, seed, goal, never the parameters;
``events`` are the kinds of the perturbations met, each once, in the order met (none of
their details: the paths they struck on stay on the trusted side). The same command writes
the same file: lines in the order of :func:`plan`, the sites' ephemeral port written as
:data:`PORT`.

With ``include_failures``, each task and seed also gets one near-miss of the template (a
policy that comes close but must fail, chosen by the seed), labelled ``near-miss``, and
oracle episodes that did not succeed are kept, labelled ``failed``, instead of dropped.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import gymnasium as gym

from . import __version__, chat
from .errors import ActionError, WebEnvError
from .tasks import TaskTemplate, env_id, get_template
from .trusted import grader_view, public_task
from .validate.episodes import Policy, oracle_policy, run_policy

#: The observation keys a demonstration's env observes (``elements``: for the viewport cut).
OBSERVE = ("axtree", "elements")
#: The episode file in the output folder, and its card.
DEMOS_FILE, CARD_FILE = "demos.jsonl", "README.md"
#: Labels of the lines: the oracle's successes, and (``--include-failures``) the others.
LABELS = ("success", "near-miss", "failed")
#: The port the sites' URLs are written with (the env serves them on an ephemeral one), as
#: :mod:`webenv.actions` writes them in its examples.
PORT = 8000
#: Episodes of one template a worker runs in one go.
CHUNK = 20


@dataclass(frozen=True)
class Job:
    """One episode to write: a template, a seed, a profile, and the oracle or a near-miss."""

    task: str
    seed: int
    perturb: str = "none"
    #: None: the oracle; else the name of one of the template's near-misses.
    near_miss: str | None = None


class _Transcript(gym.Wrapper[Any, Any, Any, Any]):
    """Keeps the episode's first observation and each step's action and observation."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.first = observation
        self.steps: list[tuple[str, Any]] = []
        return observation, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        out = self.env.step(action)
        self.steps.append((action, out[0]))
        return out


def plan(
    templates: Sequence[TaskTemplate],
    seeds: Sequence[int],
    profiles: Sequence[str],
    include_failures: bool = False,
) -> list[Job]:
    """The episodes of a run, in the order of the file: template, profile, seed, then the
    oracle before the near-miss."""
    jobs = []
    for template in sorted(templates, key=lambda t: t.name):
        misses = sorted(template.near_misses()) if include_failures else []
        for profile in profiles:
            for seed in seeds:
                jobs.append(Job(template.name, seed, profile))
                if misses:
                    jobs.append(Job(template.name, seed, profile, misses[seed % len(misses)]))
    return jobs


def transcript(
    env: gym.Env[Any, Any],
    seed: int,
    perturb: str = "none",
    policy: Policy = oracle_policy,
    *,
    budget: chat.Budget | None = None,
    near_miss: str | None = None,
    on_step: Callable[[Mapping[str, Any], Mapping[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """One episode of ``policy`` in ``env`` as a demonstration line (see the module's
    docstring). ``label`` is ``success`` for a rewarded run, ``near-miss`` when ``near_miss``
    names the policy, else ``failed`` (then ``error`` says why, if the run was cut short)."""
    recorder = _Transcript(env)
    run = run_policy(recorder, seed, policy, perturb=perturb, on_step=on_step)
    task = public_task(grader_view(env).task)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": chat.system_prompt()},
        chat.render(recorder.first, budget),
    ]
    error = run.error
    for step, (action, observation) in enumerate(recorder.steps):
        try:
            calls = chat.tool_calls_from_action(action, id_prefix=f"call_{step}")
        except ActionError as refused:
            error = error or f"step {step + 1}: the action does not parse: {refused}"
            break
        messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        if step == len(recorder.steps) - 1:
            break  # the episode ended with this action
        messages.extend(chat.tool_result(call["id"], observation) for call in calls)
        messages.append(chat.render(observation, budget))
    if near_miss is not None:
        label = "near-miss"
    else:
        label = "success" if run.reward > 0 and error is None else "failed"
    line: dict[str, Any] = {
        "messages": messages,
        "tools": json.dumps(chat.tools(), ensure_ascii=False),
        "task": {"template": task["id"], **{k: v for k, v in task.items() if k != "id"}},
        "reward": run.reward if label == "success" else 0.0,
        "label": label,
        "perturb": perturb,
        "events": list(dict.fromkeys(event["kind"] for event in run.events)),
        "steps": run.steps,
        "near_miss": near_miss,
        "error": (error or "the oracle's episode was not rewarded") if label == "failed" else None,
    }
    return _fixed_port(line, str(recorder.first.get("url", "")))


def _fixed_port(line: dict[str, Any], url: str) -> dict[str, Any]:
    """``line`` with the env's ephemeral port written as :data:`PORT` everywhere."""
    match = re.match(r"https?://[\w.-]+\.localhost:(\d+)", url)
    if match is None:
        return line
    text = json.dumps(line, ensure_ascii=False)
    fixed = re.sub(rf"(\.localhost):{match[1]}(?!\d)", rf"\1:{PORT}", text)
    result: dict[str, Any] = json.loads(fixed)
    return result


# --- running many ---------------------------------------------------------------------------


def _run_jobs(jobs: Sequence[Job], max_tokens: int | None) -> list[dict[str, Any]]:
    """Run ``jobs`` (of one template) in this process, one env reused across them."""
    if not jobs:
        return []
    template = get_template(jobs[0].task)
    budget = chat.Budget(max_tokens=max_tokens) if max_tokens else chat.UNBOUNDED
    env = gym.make(env_id(template), observe=OBSERVE)
    try:
        lines = []
        for job in jobs:
            policy = (
                oracle_policy if job.near_miss is None else template.near_misses()[job.near_miss]
            )
            lines.append(
                transcript(
                    env, job.seed, job.perturb, policy, budget=budget, near_miss=job.near_miss
                )
            )
        return lines
    finally:
        env.close()


def _init_worker() -> None:
    from .scratch import new_scratch, use_scratch

    use_scratch(new_scratch())  # this worker's temporary files; swept once it is gone


def _chunks(jobs: Sequence[Job]) -> list[list[Job]]:
    """Runs of at most :data:`CHUNK` consecutive jobs of one template."""
    chunks: list[list[Job]] = []
    for job in jobs:
        if chunks and chunks[-1][0].task == job.task and len(chunks[-1]) < CHUNK:
            chunks[-1].append(job)
        else:
            chunks.append([job])
    return chunks


def run_demos(
    templates: Sequence[TaskTemplate],
    seeds: Sequence[int],
    out: Path,
    *,
    profiles: Sequence[str] = ("none",),
    max_tokens: int | None = chat.DEFAULT_MAX_TOKENS,
    include_failures: bool = False,
    workers: int = 0,
    command: str = "",
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Write ``out/demos.jsonl`` and its card ``out/README.md``; return the card's counts.

    ``workers`` > 0 runs the episodes in that many spawned processes (each with its own
    Chromium), runs of one template's episodes at a time; the file is the same either way.
    Oracle episodes that fail are dropped (counted in the card) unless ``include_failures``.
    """
    jobs = plan(templates, seeds, profiles, include_failures)
    if not jobs:
        raise WebEnvError("No episodes to run: give at least one task, seed and profile.")
    chunks = _chunks(jobs)
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, Any] = {"by_template": {}, "by_perturb": {}, "labels": Counter()}
    dropped = 0
    done = 0
    with (out / DEMOS_FILE).open("w", encoding="utf-8") as file:
        for lines in _results(chunks, max_tokens, workers):
            for line in lines:
                done += 1
                if line["label"] == "failed" and not include_failures:
                    dropped += 1
                    continue
                file.write(json.dumps(line, ensure_ascii=False) + "\n")
                _count(counts, line)
            if progress is not None:
                progress(f"{done}/{len(jobs)} episodes")
    summary = {
        "episodes": sum(counts["labels"].values()),
        "dropped_failures": dropped,
        "labels": dict(sorted(counts["labels"].items())),
        "by_template": dict(sorted(counts["by_template"].items())),
        "by_perturb": dict(sorted(counts["by_perturb"].items())),
        "steps": sum(entry["steps"] for entry in counts["by_template"].values()),
    }
    (out / CARD_FILE).write_text(card(summary, command, max_tokens), encoding="utf-8")
    return summary


def _results(
    chunks: list[list[Job]], max_tokens: int | None, workers: int
) -> Any:  # an iterator of each chunk's lines, in order
    if workers <= 0:
        for chunk in chunks:
            yield _run_jobs(chunk, max_tokens)
        return
    from .scratch import sweep

    context = get_context("spawn")
    try:
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker) as pool:
            yield from pool.map(_run_jobs, chunks, [max_tokens] * len(chunks))
    finally:
        sweep()


def _count(counts: dict[str, Any], line: Mapping[str, Any]) -> None:
    label = line["label"]
    counts["labels"][label] += 1
    for key, name in (("by_template", line["task"]["template"]), ("by_perturb", line["perturb"])):
        entry = counts[key].setdefault(name, dict.fromkeys((*LABELS, "steps"), 0))
        entry[label] += 1
        entry["steps"] += line["steps"]


def card(summary: Mapping[str, Any], command: str, max_tokens: int | None) -> str:
    """The dataset card: what the file holds, how it was made, counts, the licence."""

    def table(title: str, rows: Mapping[str, Mapping[str, int]]) -> list[str]:
        head = f"| {title} | success | near-miss | failed | steps |"
        lines = [head, "|---|---:|---:|---:|---:|"]
        for name, entry in rows.items():
            counted = " | ".join(str(entry[key]) for key in (*LABELS, "steps"))
            lines.append(f"| {name} | {counted} |")
        return lines

    budget = f"{max_tokens} tokens (webenv.chat.count_tokens)" if max_tokens else "none"
    labels = ", ".join(f"{count} {label}" for label, count in summary["labels"].items())
    return "\n".join(
        [
            "---",
            "license: mit",
            "task_categories:",
            "- text-generation",
            "tags:",
            "- web-agents",
            "- tool-calling",
            "configs:",
            "- config_name: default",
            f"  data_files: {DEMOS_FILE}",
            "---",
            "",
            "# webenv demonstrations",
            "",
            "Episodes of webenv's task oracles (scripted solutions that read the task's hidden",
            "parameters) as chat transcripts with tool calls, for warm-start fine-tuning of web",
            "agents. One episode a line of `demos.jsonl`: `messages` (system prompt, each page as",
            "a `user` message, the oracle's actions as `assistant` tool calls, their `tool`",
            "results), `tools` (the tools' schemas, a JSON string), `task` (template, seed, goal:",
            "never the hidden parameters), `reward`, `label`, `perturb`, `events` (perturbation",
            "kinds met) and `steps`.",
            "",
            "## How it was made",
            "",
            f"webenv {__version__}, with this command (the same command writes the same file):",
            "",
            "```",
            command or "webenv demos",
            "```",
            "",
            f"Pages rendered by `webenv.chat.render` within a budget of {budget}. The oracle",
            "gets past perturbations the way `webenv eval --agent oracle` does; those recovery",
            "actions are in the transcripts. Near-misses (label `near-miss`) are policies that",
            "come close and fail; `failed` lines are oracle episodes that were not rewarded.",
            "Both carry reward 0 and are there only with `--include-failures`.",
            "",
            "## Counts",
            "",
            f"{summary['episodes']} episodes ({labels}), {summary['steps']} steps;",
            f"{summary['dropped_failures']} failed oracle episodes dropped.",
            "",
            *table("template", summary["by_template"]),
            "",
            *table("perturbation", summary["by_perturb"]),
            "",
            "## Licence",
            "",
            "MIT, as webenv. The sites, their data and the people in them are made up.",
            "",
        ]
    )


# --- the command ----------------------------------------------------------------------------


def add_demos_command(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``demos`` to the ``webenv`` command's subparsers."""
    from .cli import add_tasks_option, parse_profiles, parse_seeds

    demos = commands.add_parser(
        "demos",
        formatter_class=formatter,
        help="write the oracle's episodes as chat transcripts (JSONL) for fine-tuning",
    )
    add_tasks_option(demos)
    demos.add_argument(
        "--seeds", type=parse_seeds, default="0-9", help="seeds: a range, a list, or both"
    )
    demos.add_argument(
        "--perturb",
        type=parse_profiles,
        default="none",
        metavar="PROFILE",
        help="perturbation profile(s), comma-separated",
    )
    demos.add_argument(
        "--max-tokens",
        type=int,
        default=chat.DEFAULT_MAX_TOKENS,
        help="each page's budget in webenv.chat tokens (0: none)",
    )
    demos.add_argument(
        "--include-failures",
        action="store_true",
        help="add a near-miss per task and seed, and keep failed oracle episodes (reward 0)",
    )
    demos.add_argument(
        "--workers", type=int, default=0, help="worker processes (0: run in this process)"
    )
    demos.add_argument("--out", default="demos", help="output folder")
    demos.set_defaults(run=cmd_demos)


def seeds_text(seeds: Sequence[int]) -> str:
    """Seeds as ``--seeds`` takes them, runs written as ranges: ``0-9,12``."""
    parts: list[str] = []
    run: list[int] = []
    for seed in [*seeds, None]:
        if run and (seed is None or seed != run[-1] + 1):
            parts.append(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}")
            run = []
        if seed is not None:
            run.append(seed)
    return ",".join(parts)


def command_line(args: argparse.Namespace) -> str:
    """The ``webenv demos`` command that writes what ``args`` do (``--workers`` left out:
    it changes nothing in the file)."""
    words = ["webenv", "demos", "--tasks", *args.tasks, "--seeds", seeds_text(args.seeds)]
    words += ["--perturb", ",".join(args.perturb), "--max-tokens", str(args.max_tokens)]
    if args.include_failures:
        words.append("--include-failures")
    return shlex.join([*words, "--out", args.out])


def cmd_demos(args: argparse.Namespace) -> int:
    from .cli import choose_tasks

    chosen = choose_tasks(args.tasks)
    if args.max_tokens < 0:
        raise WebEnvError(f"--max-tokens must be 0 (no budget) or more, not {args.max_tokens}.")
    if args.workers < 0:
        raise WebEnvError(f"--workers must be 0 or more, not {args.workers}.")
    summary = run_demos(
        chosen,
        args.seeds,
        Path(args.out),
        profiles=args.perturb,
        max_tokens=args.max_tokens or None,
        include_failures=args.include_failures,
        workers=args.workers,
        command=command_line(args),
        progress=lambda text: print(text, file=sys.stderr, flush=True),
    )
    print(
        f"Wrote {summary['episodes']} episodes ({summary['steps']} steps) to "
        f"{Path(args.out) / DEMOS_FILE}, and its card {Path(args.out) / CARD_FILE}"
        + (
            f"; dropped {summary['dropped_failures']} failed ones"
            if summary["dropped_failures"]
            else ""
        )
    )
    return 0

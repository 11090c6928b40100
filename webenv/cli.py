"""The ``webenv`` command: list, eval, validate, demos, serve, server, show, view and play. Each
calls the public API.

Folders given on the command line are resolved against the working directory here, once,
so that the servers behind ``view`` and ``play`` never resolve them against anything else.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from . import __version__
from .agents import OracleAgent
from .demos import add_demos_command
from .envserver.command import add_server_command
from .errors import WebEnvError
from .perturb import resolve_profile
from .runner import BACKENDS, DEFAULT_EPISODE_TIMEOUT, PROFILES, RECORD_MODES, evaluate
from .served import ServedWorld
from .tasks import TaskTemplate, env_id, get_template, matching, templates
from .trusted import grader_view
from .validate.audit import PROFILES as VALIDATE_PROFILES
from .validate.report import RANDOM_STEPS as VALIDATE_RANDOM_STEPS

DESCRIPTION = """\
A Gymnasium environment of mock websites (a shop, a webmail client, a forms portal) for
training and evaluating web agents.

Start with `webenv list`, then `webenv show shop.buy_product` (a task and its oracle's
run), `webenv eval --record screenshots --out runs/try` and `webenv view runs/try`."""


def parse_seeds(text: str) -> list[int]:
    """``"0-9"``, ``"3,5,8"`` or ``"7"`` → seeds."""
    seeds: list[int] = []
    for part in text.split(","):
        start, _, end = part.strip().partition("-")
        try:
            seeds.extend(range(int(start), int(end) + 1) if end else [int(start)])
        except ValueError:
            raise argparse.ArgumentTypeError(f"bad seeds {text!r}; e.g. 0-99 or 1,2,5") from None
    return seeds


def cmd_list(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = [
        {
            "id": env_id(t),
            "name": t.name,
            "sites": list(t.sites),
            "tags": list(t.tags),
            "difficulty": t.difficulty,
            "feasible": t.feasible,
        }
        for t in templates().values()
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max((len(row["id"]) for row in rows), default=2)
    print(f"{'id':<{width}}  {'sites':<16} {'difficulty':<10} tags")
    for row in rows:
        sites = ",".join(row["sites"])
        print(f"{row['id']:<{width}}  {sites:<16} {row['difficulty']:<10} {','.join(row['tags'])}")
    return 0


def parse_profiles(text: str) -> list[str]:
    """``"none"`` or ``"none,heavy"`` → perturbation profiles, each checked."""
    profiles = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [p for p in profiles if not _known_profile(p)]
    if unknown or not profiles:
        raise argparse.ArgumentTypeError(
            f"unknown profile(s) {', '.join(unknown) or repr(text)}; choose from "
            f"{', '.join(PROFILES)} (several with commas, e.g. none,heavy; joined with + to "
            "strike together, e.g. heavy+stale)"
        )
    return list(dict.fromkeys(profiles))


def parse_profile(text: str) -> str:
    """One perturbation profile (``heavy``, ``heavy+stale``), checked."""
    if not _known_profile(text):
        raise argparse.ArgumentTypeError(
            f"unknown profile {text!r}; choose from {', '.join(PROFILES)} (joined with + to "
            "strike together, e.g. heavy+stale)"
        )
    return text


def _known_profile(name: str) -> bool:
    try:
        resolve_profile(name)
    except WebEnvError:
        return False
    return True


#: The flag of an ``openai`` agent option, where its name differs.
FLAGS = {"tools": "text_actions"}


def agent_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``openai`` agent's options from the command line."""
    given = {
        "model": args.model,
        "base_url": args.base_url,
        "api_key": args.api_key,
        "timeout": args.timeout,
        "tools": False if args.text_actions else None,
    }
    given = {key: value for key, value in given.items() if value is not None}
    if args.agent == "openai":
        return given
    if given:
        flags = ", ".join("--" + FLAGS.get(key, key).replace("_", "-") for key in given)
        raise WebEnvError(f"{flags} only go with --agent openai.")
    return {}


def run_evaluation(chosen: list[Any], seeds: list[int], args: argparse.Namespace) -> dict[str, Any]:
    """The run ``webenv eval`` asks for, through :func:`webenv.runner.evaluate`."""
    from .progress import progress_for  # imported here: no other command needs rich

    return evaluate(
        chosen,
        args.agent,
        seeds,
        Path(args.out),
        max_steps=args.max_steps,
        observe=args.observe.split(","),
        record=args.record,
        perturb=args.perturb,
        workers=args.workers,
        backend_name=args.backend,
        episode_timeout=args.episode_timeout,
        resume=args.resume,
        agent_options=agent_options(args),
        progress=progress_for(sys.stderr),
    )


def choose_tasks(patterns: Sequence[str]) -> list[TaskTemplate]:
    """The templates matching ``patterns``; an error naming each pattern that matches none,
    with the closest names (a typo never silently drops a task)."""
    names = [template.name for template in templates().values()]
    problems = []
    for pattern in patterns:
        if matching([pattern]):
            continue
        close = difflib.get_close_matches(pattern.removeprefix("webenv/"), names, n=3)
        hint = f" Did you mean {' or '.join(close)}?" if close else ""
        problems.append(f"No task matches {pattern!r}.{hint}")
    if problems:
        raise WebEnvError(" ".join(problems) + " `webenv list` shows them all.")
    return matching(patterns)


def cmd_eval(args: argparse.Namespace) -> int:
    chosen = choose_tasks(args.tasks)
    seeds = (
        args.seeds if args.seeds is not None else list(range(args.seed, args.seed + args.episodes))
    )
    options: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
    if args.backend == "ray" and args.address:
        from .ray import ray_options  # imported here: Ray is an optional extra

        options = ray_options(address=args.address)
    elif args.address:
        raise WebEnvError("--address names a Ray cluster; use it with --backend ray.")
    with options:
        summary = run_evaluation(chosen, seeds, args)
    print_summary(summary)
    print(f"\nWrote summary.json, results.jsonl, junit.xml and report.html to {args.out}")
    if args.min_success is not None and summary["success_rate"] < args.min_success:
        print(
            f"Success rate {summary['success_rate']:.1%} is below --min-success "
            f"{args.min_success:.1%}.",
            file=sys.stderr,
        )
        return 1
    if summary.get("errors") and not args.allow_errors:
        print(
            f"{plural(summary['errors'], 'episode')} ended in an error, not a result "
            "(see results.jsonl); --allow-errors exits 0 even so.",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Audit templates (:func:`webenv.validate.validate_templates`): a table, JSON, exit 1
    on a failure."""
    # Imported here: no other command needs them.
    from .validate import (
        TemplateReport,
        ValidationInterrupted,
        ValidationReport,
        table,
        validate_templates,
    )
    from .validate.resume import kept_audits, save

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    chosen = choose_tasks(args.tasks)
    if args.seeds < 1:
        raise WebEnvError(f"--seeds must be at least 1, not {args.seeds}.")
    if args.workers < 0:
        raise WebEnvError(f"--workers must be 0 or more, not {args.workers}.")
    if args.resume and not args.json:
        raise WebEnvError("--resume goes on with the results of --json FILE: name the file.")
    seeds = range(args.seed, args.seed + args.seeds)
    profiles = [p for p in args.profiles if p != "none"]
    path = Path(args.json) if args.json else None
    kept: list[TemplateReport] = []
    if args.resume and path is not None:
        kept, dropped = kept_audits(path, seeds, profiles, args.random_steps)
        for line in dropped:
            say(line)
        if kept:
            say(f"{len(kept)} audit{'' if len(kept) == 1 else 's'} kept from {path}")
    done = {report.template for report in kept}
    to_audit = [template for template in chosen if template.name not in done]
    ended = list(kept)

    def whole(audited: Sequence[TemplateReport], left: Sequence[str]) -> ValidationReport:
        return ValidationReport(
            tuple(audited), tuple(seeds), tuple(profiles), tuple(left), args.random_steps
        )

    def keep(report: TemplateReport) -> None:  # the file holds each audit as it ends
        ended.append(report)
        if path is not None:
            audited = {r.template for r in ended}
            save(whole(ended, [t.name for t in to_audit if t.name not in audited]), path)

    interrupted = False
    try:
        fresh = validate_templates(
            to_audit,
            seeds,
            profiles,
            random_steps=args.random_steps,
            workers=args.workers,
            progress=say,
            on_report=keep,
        )
        left: tuple[str, ...] = ()
    except ValidationInterrupted as stopped:  # Ctrl-C: what was audited is kept
        fresh, left, interrupted = stopped.report, stopped.report.not_audited, True
    order = {template.name: i for i, template in enumerate(chosen)}
    audited = sorted([*kept, *fresh.templates], key=lambda r: order.get(r.template, len(order)))
    report = whole(audited, left)
    print("\n".join(table(report)))
    if path is not None:
        save(report, path)
        print(f"\nWrote the full results to {args.json}")
    if interrupted:
        return 130
    return 0 if report.passed else 1


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve a world's sites for a person to browse, until interrupted."""
    served = ServedWorld(
        args.sites.split(",") if args.sites else None, seed=args.seed, port=args.port
    )
    try:
        world, persona = served.world, served.world.persona
        assert persona is not None
        print(f"World of seed {args.seed} (now = {world.now:%Y-%m-%d %H:%M}):")
        for site in world.sites:
            print(f"  {site:<6} {served.url(site)}/")
        print(f"Sign in as {persona.username} / {persona.password}. Ctrl-C stops.", flush=True)
        threading.Event().wait()
    finally:
        served.close()
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """A task instance's goal and parameters, and the oracle's trajectory through it."""
    template = get_template(args.task)
    env = gym.make(env_id(template))
    try:
        agent = OracleAgent(env)
        observation, info = env.reset(seed=args.seed)
        print(f"{env_id(template)}  seed {args.seed}")
        print(f"goal:   {observation['goal']}")
        print(f"params: {json.dumps(grader_view(env).params, ensure_ascii=False)}")
        print(f"start:  {observation['url']}")
        agent.reset(observation, info)
        terminated = truncated = False
        step = 0
        while not (terminated or truncated):
            action = agent.act(observation)
            observation, reward, terminated, truncated, info = env.step(action)
            step += 1
            error = (
                f"  error: {observation['last_action_error']}"
                if observation["last_action_error"]
                else ""
            )
            print(f"{step:>3}. {action.replace(chr(10), '; ')}\n     → {observation['url']}{error}")
        print(f"reward {reward}  success {info.get('success')}")
        for condition in (grader_view(env).check or {}).get("conditions", []):
            mark = "✓" if condition["passed"] else "✗"
            print(f"  {mark} {condition['name']}: {condition['message']}")
    finally:
        env.close()
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    """Serve the replay viewer of a run folder, or export it as a static site."""
    from .viewer import export_site, serve  # imported here: no other command needs it

    folder = Path(args.dir).resolve()
    if args.export:
        index = export_site(folder, Path(args.export).resolve())
        print(f"Wrote the viewer of {args.dir} to {args.export}; open {index.as_uri()}")
        return 0
    serve(folder, host=args.host, port=args.port)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """A person plays a task; the episode is recorded as a demonstration."""
    get_template(args.task)  # an unknown task fails before any browser starts
    from .play import play  # imported here: no other command needs it

    play(
        args.task,
        args.seed,
        perturb=args.perturb,
        out=Path(args.out).resolve(),
        mode=args.mode,
        host=args.host,
        port=args.port,
    )
    return 0


def print_summary(summary: dict[str, Any]) -> None:
    rows = sorted(summary["by_task"].items())
    width = max([len(task) for task, _ in rows] + [4])
    print(f"\n{'task':<{width}}  episodes  success")
    for task, entry in rows:
        print(f"{task:<{width}}  {entry['episodes']:>8}  {entry['success_rate']:>7.0%}")
    low, high = summary["success_rate_95ci"]
    print(
        f"{'all':<{width}}  {summary['episodes']:>8}  {summary['success_rate']:>7.0%}"
        f"  (95% CI {low:.0%}–{high:.0%}; agent {summary['agent']})"
    )
    for profile, entry in summary.get("by_perturbation", {}).items():
        paired = entry.get("paired")
        if paired and paired["episodes"]:
            print(
                f"perturb {profile}: {paired['perturbed_success_rate']:.0%} vs "
                f"{paired['clean_success_rate']:.0%} clean, over "
                f"{plural(paired['episodes'], 'pair')} of episodes of the same task and seed"
            )
    stale = summary.get("stale") or {}
    if stale.get("episodes_shown"):
        print(
            f"outdated information: acted on a stale value in {stale['episodes_used']} of "
            f"{plural(stale['episodes_shown'], 'episode')} that showed one "
            f"({stale['used_rate']:.0%})"
        )
    if summary.get("errors"):
        print(f"{plural(summary['errors'], 'episode')} ended in an error (see results.jsonl).")


def plural(count: int, noun: str) -> str:
    """``1 episode``, ``2 episodes``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


class HelpFormatter(argparse.HelpFormatter):
    """Help that shows each option's default, when it has one worth saying."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or any(default is nothing for nothing in (None, False, argparse.SUPPRESS))
            or not action.option_strings
        ):
            return text
        shown = ",".join(map(str, default)) if isinstance(default, list) else default
        return f"{text} (default: {shown})"


class _Globs(argparse.Action):
    """``--tasks a b --tasks c``: every glob given, in order; the default only when none is
    (argparse's plain ``nargs="+"`` keeps the last flag's alone)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = getattr(namespace, self.dest)
        setattr(namespace, self.dest, [*([] if given is self.default else given), *values])


def add_tasks_option(parser: argparse.ArgumentParser) -> None:
    """``--tasks GLOB...``, repeatable, every template by default."""
    parser.add_argument(
        "--tasks",
        nargs="+",
        default=["*"],
        action=_Globs,
        metavar="GLOB",
        help="glob(s) of template names (the flag may be repeated)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webenv",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"webenv {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    listing = commands.add_parser(
        "list", formatter_class=HelpFormatter, help="list the task templates"
    )
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(run=cmd_list)

    ev = commands.add_parser(
        "eval", formatter_class=HelpFormatter, help="run an agent over tasks and seeds"
    )
    ev.add_argument(
        "--agent", default="oracle", help="oracle, noop, random, openai, or module:attr"
    )
    ev.add_argument("--model", help="--agent openai: the model's name")
    ev.add_argument(
        "--base-url", help="--agent openai: an OpenAI-compatible endpoint, e.g. http://host/v1"
    )
    ev.add_argument(
        "--timeout", type=float, metavar="SECONDS", help="--agent openai: bound of each request"
    )
    ev.add_argument(
        "--text-actions",
        action="store_true",
        help="--agent openai: actions as text, not tool calls (servers without tools)",
    )
    ev.add_argument(
        "--api-key",
        help="--agent openai: the API key (default: $OPENAI_API_KEY; none is fine "
        "for local servers)",
    )
    add_tasks_option(ev)
    ev.add_argument("--episodes", type=int, default=5, help="episodes per task")
    ev.add_argument("--seed", type=int, default=0, help="first seed")
    ev.add_argument("--seeds", type=parse_seeds, help="explicit seeds, e.g. 0-99")
    ev.add_argument(
        "--perturb",
        type=parse_profiles,
        default=["none"],
        metavar="PROFILE",
        help=f"perturbation profile(s), comma-separated: {', '.join(PROFILES)}",
    )
    ev.add_argument("--max-steps", type=int, help="step limit per episode")
    ev.add_argument("--observe", default="axtree", help="observation keys, comma-separated")
    ev.add_argument(
        "--workers", type=int, default=1, help="worker processes (0: run in this process)"
    )
    ev.add_argument("--backend", default="local", choices=BACKENDS, help="where episodes run")
    ev.add_argument("--address", help="the Ray cluster to use with --backend ray, e.g. auto")
    ev.add_argument(
        "--episode-timeout",
        type=float,
        default=DEFAULT_EPISODE_TIMEOUT,
        metavar="SECONDS",
        help="stop an episode running longer, as an error",
    )
    ev.add_argument("--min-success", type=float, help="exit 1 below this success rate")
    ev.add_argument(
        "--allow-errors",
        action="store_true",
        help="exit 0 even if episodes ended in an error (default: exit 1)",
    )
    ev.add_argument(
        "--record",
        default="none",
        choices=RECORD_MODES,
        help="episode records to keep: steps, with screenshots, or with a Playwright trace",
    )
    ev.add_argument("--out", default="runs/latest", help="output folder")
    ev.add_argument(
        "--resume", action="store_true", help="keep --out's results; run only what is missing"
    )
    ev.set_defaults(run=cmd_eval)

    check = commands.add_parser(
        "validate",
        formatter_class=HelpFormatter,
        help="audit task templates: oracle, no-ops, near-misses, answers, goals, diversity",
    )
    add_tasks_option(check)
    check.add_argument("--seeds", type=int, default=5, metavar="N", help="seeds per template")
    check.add_argument("--seed", type=int, default=0, help="first seed")
    check.add_argument(
        "--profiles",
        type=parse_profiles,
        default=",".join(VALIDATE_PROFILES),
        help="perturbation profiles the oracle must get past, comma-separated (none: clean "
        "only; joined with + to strike together)",
    )
    check.add_argument(
        "--random-steps",
        type=int,
        default=VALIDATE_RANDOM_STEPS,
        help="the random agent's steps per episode",
    )
    check.add_argument(
        "--workers",
        type=int,
        default=0,
        help="worker processes, each auditing one template at a time (0: one after another "
        "in this process)",
    )
    check.add_argument(
        "--json",
        metavar="FILE",
        help="write the full results as JSON, again as each template's audit ends",
    )
    check.add_argument(
        "--resume",
        action="store_true",
        help="keep --json FILE's audits of the same seeds and profiles whose code is unchanged; "
        "audit only the rest",
    )
    check.set_defaults(run=cmd_validate)
    serve = commands.add_parser(
        "serve", formatter_class=HelpFormatter, help="serve a world's sites for a person to browse"
    )
    serve.add_argument("--seed", type=int, default=0, help="world seed")
    serve.add_argument("--sites", help="comma-separated sites (default: all)")
    serve.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any)")
    serve.set_defaults(run=cmd_serve)

    show = commands.add_parser(
        "show",
        formatter_class=HelpFormatter,
        help="a task's goal, parameters and oracle trajectory",
    )
    show.add_argument("task", help="template name or id, e.g. shop.buy_product")
    show.add_argument("--seed", type=int, default=0)
    show.set_defaults(run=cmd_show)

    view = commands.add_parser(
        "view", formatter_class=HelpFormatter, help="replay a run's episodes in a browser"
    )
    view.add_argument("dir", help="the --out folder of `webenv eval` (with --record)")
    view.add_argument("--host", default="127.0.0.1", help="address to listen on")
    view.add_argument("--port", type=int, default=8765, help="port to listen on (0: any)")
    view.add_argument("--export", metavar="OUT", help="write a static site to OUT instead")
    view.set_defaults(run=cmd_view)

    play = commands.add_parser(
        "play",
        formatter_class=HelpFormatter,
        help="play a task yourself; record it as a demonstration",
    )
    play.add_argument("task", help="template name or id, e.g. shop.change_phone")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "--perturb",
        default="none",
        type=parse_profile,
        help=f"perturbation profile: {', '.join(PROFILES)} (joined with +: heavy+stale)",
    )
    play.add_argument("--out", default="runs/play", help="folder of the episode records")
    mode = play.add_mutually_exclusive_group()
    mode.add_argument(
        "--live",
        dest="mode",
        action="store_const",
        const="live",
        help="play on a page of screenshots (the default without a display)",
    )
    mode.add_argument(
        "--headed",
        dest="mode",
        action="store_const",
        const="headed",
        help="play in a browser window (the default with a display)",
    )
    play.add_argument("--host", default="127.0.0.1", help="--live: address to listen on")
    play.add_argument("--port", type=int, default=8766, help="--live: port (0: any)")
    play.set_defaults(run=cmd_play)
    add_server_command(commands, HelpFormatter)
    add_demos_command(commands, HelpFormatter)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except WebEnvError as error:
        print(f"webenv: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())

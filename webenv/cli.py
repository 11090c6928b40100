"""The ``webenv`` command: list tasks, evaluate an agent. Each command calls the public API."""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from .agents import OracleAgent
from .errors import WebEnvError
from .runner import RECORD_MODES, EpisodeResult, evaluate
from .server import SiteServer
from .tasks import env_id, get_template, matching, templates
from .world import World


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
    rows = [
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


def cmd_eval(args: argparse.Namespace) -> int:
    chosen = matching(args.tasks)
    if not chosen:
        raise WebEnvError(f"No task matches {args.tasks}; `webenv list` shows them.")
    seeds = (
        args.seeds if args.seeds is not None else list(range(args.seed, args.seed + args.episodes))
    )
    total = len(chosen) * len(seeds)
    done = [0, 0]

    def progress(result: EpisodeResult) -> None:
        done[0] += 1
        done[1] += result.success
        mark = "ok " if result.success else ("ERR" if result.error else "--")
        print(
            f"[{done[0]:>{len(str(total))}}/{total}] {mark} {result.task} seed={result.seed} "
            f"steps={result.steps} {result.duration:.1f}s",
            file=sys.stderr,
        )

    summary = evaluate(
        chosen,
        args.agent,
        seeds,
        Path(args.out),
        max_steps=args.max_steps,
        observe=args.observe.split(","),
        record=args.record,
        on_result=progress,
    )
    print_summary(summary)
    print(f"\nWrote summary.json, results.jsonl and junit.xml to {args.out}")
    if args.min_success is not None and summary["success_rate"] < args.min_success:
        print(
            f"Success rate {summary['success_rate']:.1%} is below --min-success "
            f"{args.min_success:.1%}.",
            file=sys.stderr,
        )
        return 1
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve a world's sites for a person to browse, until interrupted."""
    world = World(args.sites.split(",") if args.sites else None)
    server = SiteServer({}, port=args.port)
    try:
        world.restore(args.seed)
        server.apps.update(world.create_apps({site: server.url(site) for site in world.sites}))
        persona = world.persona
        assert persona is not None
        print(f"World of seed {args.seed} (now = {world.now:%Y-%m-%d %H:%M}):")
        for site in world.sites:
            print(f"  {site:<6} {server.url(site)}/")
        print(f"Sign in as {persona.username} / {persona.password}. Ctrl-C stops.", flush=True)
        threading.Event().wait()
    finally:
        server.close()
        world.close()
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
        print(f"params: {json.dumps(info['task']['params'], ensure_ascii=False)}")
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
        for condition in info.get("check", {}).get("conditions", []):
            mark = "✓" if condition["passed"] else "✗"
            print(f"  {mark} {condition['name']}: {condition['message']}")
    finally:
        env.close()
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="webenv", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    listing = commands.add_parser("list", help="list the task templates")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(run=cmd_list)

    ev = commands.add_parser("eval", help="run an agent over tasks and seeds")
    ev.add_argument("--agent", default="oracle", help="oracle, noop, random or module:attr")
    ev.add_argument("--tasks", nargs="+", default=["*"], help="glob(s) of template names")
    ev.add_argument("--episodes", type=int, default=5, help="episodes per task")
    ev.add_argument("--seed", type=int, default=0, help="first seed")
    ev.add_argument("--seeds", type=parse_seeds, help="explicit seeds, e.g. 0-99")
    ev.add_argument("--max-steps", type=int, help="step limit per episode")
    ev.add_argument("--observe", default="axtree", help="observation keys, comma-separated")
    ev.add_argument("--min-success", type=float, help="exit 1 below this success rate")
    ev.add_argument(
        "--record", default="none", choices=RECORD_MODES, help="episode records to keep"
    )
    ev.add_argument("--out", default="runs/latest", help="output folder")
    ev.set_defaults(run=cmd_eval)
    serve = commands.add_parser("serve", help="serve a world's sites for a person to browse")
    serve.add_argument("--seed", type=int, default=0, help="world seed")
    serve.add_argument("--sites", help="comma-separated sites (default: all)")
    serve.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (0: any)")
    serve.set_defaults(run=cmd_serve)

    show = commands.add_parser("show", help="a task's goal, parameters and oracle trajectory")
    show.add_argument("task", help="template name or id, e.g. shop.buy_product")
    show.add_argument("--seed", type=int, default=0)
    show.set_defaults(run=cmd_show)
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

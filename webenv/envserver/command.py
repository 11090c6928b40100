"""``webenv server``: the command line of the env server (added to :mod:`webenv.cli`)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..runner import PROFILES
from .auth import TOKEN_VARIABLE

#: Hosts only this machine reaches.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})

#: The observation keys a server may send (a screenshot as PNG base64).
SERVER_OBSERVE = ("axtree", "dom", "screenshot")


def add_server_command(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``server`` to the ``webenv`` command's subparsers."""
    server = commands.add_parser(
        "server",
        formatter_class=formatter,
        help="serve many env sessions to trainers (OpenEnv's protocol: /ws, /reset, /step)",
    )
    server.add_argument("--host", default="127.0.0.1", help="address to listen on")
    server.add_argument("--port", type=int, default=8000, help="port to listen on")
    server.add_argument(
        "--tasks", nargs="+", default=["*"], help="glob(s) of the templates a reset draws from"
    )
    server.add_argument(
        "--perturb",
        default="none",
        help=f"profile(s) a reset draws from, comma-separated: {', '.join(PROFILES)}",
    )
    server.add_argument("--max-sessions", type=int, default=8, help="concurrent sessions")
    server.add_argument(
        "--idle-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="close a session unused this long",
    )
    server.add_argument(
        "--observe",
        default="axtree",
        help=f"observation keys, comma-separated, of {', '.join(SERVER_OBSERVE)}",
    )
    server.add_argument("--seed", type=int, default=0, help="seed of the suite's draws")
    server.add_argument(
        "--token",
        default=os.environ.get(TOKEN_VARIABLE) or None,
        help=f"require Authorization: Bearer TOKEN on every request but /health "
        f"(default: ${TOKEN_VARIABLE}; none: anyone who reaches the port may use it)",
    )
    server.set_defaults(run=cmd_server)


def cmd_server(args: argparse.Namespace) -> int:
    from ..cli import choose_tasks, parse_profiles
    from ..errors import WebEnvError
    from . import EnvServer, serve

    choose_tasks(args.tasks)  # a pattern matching nothing fails, with the closest names
    try:
        profiles = parse_profiles(args.perturb)
    except argparse.ArgumentTypeError as error:
        raise WebEnvError(f"--perturb: {error}") from None
    observe = [part.strip() for part in args.observe.split(",") if part.strip()]
    unknown = sorted(set(observe) - set(SERVER_OBSERVE))
    if unknown:
        raise WebEnvError(f"--observe {', '.join(unknown)}: choose from {SERVER_OBSERVE}.")
    server = EnvServer(
        args.tasks,
        perturb=profiles,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout,
        observe=observe,
        seed=args.seed,
        token=args.token,
    )
    if not args.token and args.host not in LOOPBACK:
        print(
            f"warning: listening on {args.host} without a token: anyone who reaches the port "
            f"can run episodes (--token or ${TOKEN_VARIABLE})",
            file=sys.stderr,
            flush=True,
        )
    print(
        f"webenv server on http://{args.host}:{args.port} (WebSocket /ws): "
        f"{len(server.pool.suite.tasks)} tasks, at most {args.max_sessions} sessions",
        flush=True,
    )
    serve(server, args.host, args.port)
    return 0

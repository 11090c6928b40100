"""How many tokens an observation costs as a chat message, per template, in one run.

For each template, the first observation (seed 0, clean, ``observe=("axtree", "elements")``)
is rendered by :func:`webenv.chat.render` at the default budget and without a budget; the
table gives both in :func:`webenv.chat.count_tokens` tokens (its fixed estimate, no
tokenizer), the ratio, and which cuts the budget made ("a:50": cut (a) took 50 lines; cut (d)
takes over the lines earlier cuts took at the end of the page). One env per template in turn:
about 3 s a template on a busy 2-core machine, 3 minutes for all; ``--tasks`` for fewer.

    python bench/observation_tokens.py [--tasks 'shop.*'] [--seeds 0] [--max-tokens 4000]
"""

from __future__ import annotations

import argparse
import re
import statistics
import time

import gymnasium as gym

import webenv  # noqa: F401  (registers the ids)
from webenv import chat
from webenv.tasks import env_id, matching

_MARKERS = {
    "viewport": "lines? outside the viewport",
    "text": "text lines? cut",
    "options": "more options?",
    "end": "lines? cut",
}


def cuts(text: str) -> str:
    """Which cuts a rendered message shows, as letters (a)-(d) with the lines each took."""
    found = []
    for letter, label in zip("abcd", _MARKERS.values(), strict=True):
        count = sum(int(n) for n in re.findall(rf"… (\d+) {label}$", text, re.MULTILINE))
        if count:
            found.append(f"{letter}:{count}")
    return " ".join(found) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=["*"], help="glob(s) of template names")
    parser.add_argument("--seeds", type=int, default=1, help="seeds per template (0, 1, …)")
    parser.add_argument("--max-tokens", type=int, default=chat.DEFAULT_MAX_TOKENS)
    args = parser.parse_args()
    budget = chat.Budget(max_tokens=args.max_tokens)
    started = time.perf_counter()
    print(f"{'template':<36} {'seed':>4} {'full':>7} {'budget':>7} {'ratio':>6}  cuts")
    ratios = []
    for template in matching(args.tasks):
        env = gym.make(env_id(template), observe=("axtree", "elements"))
        try:
            for seed in range(args.seeds):
                observation, _ = env.reset(seed=seed)
                full = chat.count_tokens(chat.render_text(observation, chat.UNBOUNDED))
                text = chat.render_text(observation, budget)
                kept = chat.count_tokens(text)
                ratios.append(kept / full)
                print(
                    f"{template.name:<36} {seed:>4} {full:>7} {kept:>7} {kept / full:>6.2f}  "
                    f"{cuts(text)}"
                )
        finally:
            env.close()
    print(
        f"median ratio {statistics.median(ratios):.2f} over {len(ratios)} observations "
        f"(budget {args.max_tokens} tokens; {time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()

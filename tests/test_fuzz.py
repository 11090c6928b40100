"""Fuzzing ``step`` with random and malformed action strings, through the real env API.

Over 10,000 examples across three tasks (one per site) in the full matrix, a tenth of them,
other ones each run, in every run: nothing escapes ``step``, no step
crashes the browser or leaves the world, a string the parser refuses comes back with the
parser's message, the env still works afterwards, and closing the envs leaves no process
behind. A step whose action does not parse only observes the page (no settling wait), so
most examples cost milliseconds; actions that do parse, and so act in the page, are fewer.

The envs run in a thread of their own (Playwright's sync API is per thread, so with their
own Chromium): a hung step fails the test instead of the run, and the processes counted are
theirs alone.
"""

from __future__ import annotations

import queue
import socket
import string
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import webenv  # noqa: F401  (registers the ids)
from tests import rotation
from tests.processes import descendants
from webenv import actions
from webenv.errors import ActionError

#: Chromium in threads or processes of the tests' own (see tests/conftest.py's tiers).
pytestmark = pytest.mark.browser

TASKS = ("shop.fill_cart", "mail.reply_to_thread", "forms.change_address")
#: Longest a single step may take before the test calls it hung (the env's own bounds are
#: far shorter; this only keeps a regression from hanging the run).
STEP_LIMIT = 90.0
#: Actions per Hypothesis example.
BATCH = 5


# -- processes ------------------------------------------------------------------------------


def browser_processes() -> set[int]:
    """Chromium and Playwright driver processes descended from this process."""
    return {
        pid
        for pid, command in descendants().items()
        if b"chrom" in command or b"playwright" in command
    }


# -- the envs, in a thread of their own -------------------------------------------------------


class Fuzzer:
    """Envs of :data:`TASKS` living in one daemon thread, which runs calls in order."""

    def __init__(self) -> None:
        self._calls: queue.Queue[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]] | None]
        self._calls = queue.Queue()
        self.hung = False
        threading.Thread(target=self._serve, name="fuzz-envs", daemon=True).start()
        self.envs: dict[str, Any] = self.run(_open_envs)

    def _serve(self) -> None:
        while (item := self._calls.get()) is not None:
            call, args, done = item
            try:
                done.set_result(call(*args))
            except BaseException as error:  # handed to the caller
                done.set_exception(error)

    def run(self, call: Callable[..., Any], *args: Any) -> Any:
        assert not self.hung, "an earlier step hung"
        done: Future[Any] = Future()
        self._calls.put((call, args, done))
        try:
            return done.result(STEP_LIMIT)
        except FutureTimeout:
            self.hung = True
            raise AssertionError(f"{call.__name__}{args!r} did not return in time") from None

    def step(self, task: str, action: str) -> None:
        self.run(_fuzz_step, self.envs[task], action)

    def close(self) -> None:
        if not self.hung:
            self.run(_close_envs, self.envs)
        self._calls.put(None)


def _open_envs() -> dict[str, Any]:
    envs = {}
    for task in TASKS:
        # No TimeLimit truncation: one episode per env takes every example.
        env = gym.make(f"webenv/{task}-v0", max_episode_steps=10**9)
        observation, _ = env.reset(seed=0)
        env.unwrapped.fuzz_start = observation["url"]
        envs[task] = env
    return envs


def _close_envs(envs: dict[str, Any]) -> None:
    for env in envs.values():
        env.close()
        env.close()  # twice is safe


def _world_origins(env: Any) -> tuple[str, ...]:
    server = env.unwrapped._server
    return tuple(server.url(site) for site in env.unwrapped.world.sites)


def _fuzz_step(env: Any, action: str) -> None:
    """One example: the step returns, did not crash, stayed in the world, earned nothing."""
    try:
        actions.parse(action)
        refusal = None
    except ActionError as error:
        refusal = str(error)
    observation, reward, _, truncated, info = env.step(action)
    assert not truncated and "error" not in info, info.get("error")
    assert reward == 0.0
    assert env.observation_space.contains(observation)
    if refusal is not None:
        assert observation["last_action_error"] == refusal
    url = observation["url"]
    assert url == "about:blank" or url.startswith(tuple(o + "/" for o in _world_origins(env))), url


def _still_works(env: Any) -> None:
    """Valid actions succeed after the fuzzing (which may have signed out: the start page
    may lead to the sign-in page), and a new episode starts where it should."""
    start = env.unwrapped.fuzz_start
    observation, *_ = env.step(f"goto({start!r})")
    assert observation["last_action_error"] == "", observation["last_action_error"]
    site_origin = "/".join(start.split("/", 3)[:3])
    assert observation["url"].startswith(site_origin + "/"), observation["url"]
    assert observation["axtree"].count("\n") > 5
    observation, *_ = env.step("noop()")
    assert observation["last_action_error"] == ""
    observation, _ = env.reset(seed=0)
    assert observation["url"] == start


@pytest.fixture(scope="module")
def fuzzer() -> Any:
    fuzzer = Fuzzer()
    yield fuzzer
    fuzzer.close()


def fuzz(
    fuzzer: Fuzzer, task: str, strategy: st.SearchStrategy[str], strings: int, share: float = 1.0
) -> None:
    """Step at least ``strings`` actions (times ``share``) drawn from ``strategy`` in the env of
    ``task``, Hypothesis drawing them from the run seed (tests/rotation.py): each run other
    ones, and the same again with the same seed.

    Each example is a batch of actions, stepped in turn: Hypothesis's cost per example is
    then shared by several steps (a failure still shrinks to one action).
    """
    stepped = 0

    @settings(
        max_examples=-(-max(1, round(strings * share)) // BATCH),
        deadline=None,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
        ],
    )
    @seed(rotation.run_seed())
    @given(batch=st.lists(strategy, min_size=BATCH, max_size=BATCH))
    def one(batch: list[str]) -> None:
        nonlocal stepped
        for action in batch:
            fuzzer.step(task, action)
            stepped += 1

    one()
    assert stepped >= round(strings * share)
    fuzzer.run(_still_works, fuzzer.envs[task])


# -- strategies -----------------------------------------------------------------------------

NAMES = sorted(actions.ACTIONS)
PARAMS = sorted({param.name for spec in actions.ACTIONS.values() for param in spec.params})
IDENTIFIERS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,10}", fullmatch=True)
ACTION_CHARS = string.ascii_letters + string.digits + "()[]{}\"',.=_-+*/\\ \n\t:;#@!$%&|<>?~`^"

#: Literal arguments of every type as source text (repr(nan) is the name ``nan``).
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.binary(max_size=6)
    | st.complex_numbers(max_magnitude=10)
)
LITERALS = (
    SCALARS
    | st.lists(SCALARS, max_size=3)
    | st.tuples(SCALARS, SCALARS)
    | st.dictionaries(st.text(max_size=3), SCALARS, max_size=2)
    | st.sets(st.integers(), max_size=3)
).map(repr)


def _costly(action: str) -> bool:
    """Actions that parse and take long for nothing: long waits, typing a book, new tabs."""
    try:
        calls = actions.parse(action)
    except ActionError:
        return False
    for call in calls:
        if call.name == "noop" and call.args["wait_ms"] > 50:
            return True
        if call.name == "keyboard_type" and len(call.args["text"]) > 100:
            return True
        if call.name in ("new_tab", "scroll"):
            return True
    return False


def cheap(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return strategy.filter(lambda action: not _costly(action))


RANDOM_TEXT = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=ACTION_CHARS, max_size=120),
    st.binary(max_size=120).map(lambda raw: raw.decode("latin-1")),
    st.sampled_from(NAMES).flatmap(
        lambda name: st.text(alphabet=ACTION_CHARS, max_size=40).map(lambda tail: name + tail)
    ),
)


@st.composite
def near_valid_calls(draw: st.DrawFn) -> str:
    """An action's name (or a near miss of it) with arguments of the wrong type or number."""
    name = draw(
        st.sampled_from(NAMES)
        | st.sampled_from(NAMES).map(str.upper)
        | st.sampled_from(NAMES).map(lambda n: n[:-1])
        | IDENTIFIERS
    )
    positional = draw(st.lists(LITERALS, max_size=5))
    keywords = draw(st.dictionaries(st.sampled_from(PARAMS) | IDENTIFIERS, LITERALS, max_size=3))
    arguments = positional + [f"{key}={value}" for key, value in keywords.items()]
    return f"{name}({', '.join(arguments)})"


#: Nesting deeper than the parser goes: well beyond the recursion limit, so that the message
#: does not depend on how deep in the stack the parser runs (and slow to parse: used sparingly).
DEEP = st.one_of(
    st.integers(1500, 3000).map(lambda n: "not " * n + "x"),
    st.integers(1500, 3000).map(lambda n: "-" * n + "1"),
    st.integers(1500, 3000).map(lambda n: "click(" + "~" * n + "1)"),
    st.integers(1500, 3000).map(lambda n: "a." * n + "b()"),
    st.integers(50, 3000).map(lambda n: "click(" + "[" * n + "]" * n + ")"),
    st.integers(50, 3000).map(lambda n: "(" * n + "noop()" + ")" * n),
    st.integers(50, 3000).map(lambda n: "f(" * n + ")" * n),
)

#: Code where an action belongs: nested calls, attributes, statements, and (one time in
#: sixteen) deep nesting. None of it parses into a slow action.
SHALLOW_CODE = st.one_of(
    st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), LITERALS).map(
        lambda t: f"{t[0]}({t[1]}({t[2]}))"
    ),
    st.tuples(
        st.sampled_from(["page", "self", "env", "os", "__builtins__", "click", "().__class__"]),
        st.sampled_from(["click", "goto", "__globals__", "__subclasses__", "system", "evaluate"]),
        LITERALS,
    ).map(lambda t: f"{t[0]}.{t[1]}({t[2]})"),
    st.sampled_from(
        [
            '__import__("os").system("true")',
            'eval("1")',
            'exec("x = 1")',
            "import os",
            "from os import system",
            "x = 1",
            "del x",
            "while True: pass",
            "for x in range(9**9): pass",
            "def click(bid): pass",
            "class A: pass",
            "raise SystemExit",
            "assert False",
            "yield 1",
            "await click('1')",
            "lambda: click('1')",
            "[click(str(i)) for i in range(9)]",
            'click(*["1"])',
            'click(**{"bid": "1"})',
            'click(bid := "1")',
            'click("1" if True else "2")',
            'click(f"{1}")',
            'click("1"[0])',
            'click("1" + "2")',
            'click(b"1")',
            "click(...)",
            "click(None)",
            "noop(float('inf'))",
            "noop(1e999)",
            "noop(-1e999)",
            "scroll(nan, 0)",
            "tab_focus(True)",
            'goto(url="/", url="/")',
            'click("1", bid="1")',
            "click()",
            "click(",
            "click)",
            'click("1"',
            '"click(\\"1\\")"',
            "# click('1')",
            "\\",
            "\x00",
            "\ufeffclick('1')",
        ]
    ),
)
CODE = st.sampled_from([SHALLOW_CODE] * 15 + [DEEP]).flatmap(lambda strategy: strategy)

VALID_LINES = st.sampled_from(["noop()", 'click("1")', 'focus("2")', "go_forward()"])
HUGE_AND_MANY = st.one_of(
    st.integers(actions.MAX_ACTION_CHARS + 1, 200_000).map(lambda n: "x" * n),
    st.integers(actions.MAX_ACTION_CHARS - 20, 60_000).map(lambda n: f'fill("1", "{"a" * n}")'),
    st.lists(VALID_LINES, min_size=actions.MAX_CALLS + 1, max_size=60).map("\n".join),
    st.lists(VALID_LINES | st.text(max_size=15), min_size=2, max_size=40).map(
        lambda lines: "\r\n".join(lines)
    ),
    st.lists(VALID_LINES, min_size=2, max_size=8).map(lambda lines: "\n\t".join(lines)),
    st.lists(VALID_LINES, min_size=2, max_size=8).map(lambda lines: ";".join(lines) + ";;"),
)

#: Text from every corner of Unicode: controls, lone surrogates, marks, emoji, RTL.
ODD_TEXT = st.text(
    alphabet=st.characters(codec=None, categories=None, exclude_characters=""), max_size=30
) | st.sampled_from(["\x00", "\ud800", "\udfff", "\u202e", "\u200b", "e\u0301", "😀" * 20, ""])


@st.composite
def odd_unicode_actions(draw: st.DrawFn) -> str:
    """Valid calls whose string arguments are odd Unicode (parsed, so they reach the page)."""
    text = draw(ODD_TEXT)
    bid = draw(st.integers(1, 60).map(str))
    quoted = repr(text)
    return draw(
        st.sampled_from(
            [
                f'fill("{bid}", {quoted})',
                f'press("{bid}", {quoted})',
                f"keyboard_press({quoted})",
                f'select_option("{bid}", {quoted})',
                f'upload_file("{bid}", {quoted})',
                f"goto({quoted})",
                f"click({quoted})",
                f"dialog_accept({quoted})",
            ]
        )
    )


ID = st.integers(0, 400).map(str) | st.sampled_from(
    ["-1", "1e3", "12 ", " 12", "0x1", "999999999", "1234567890", "३", "1" * 40]
)


@st.composite
def actions_on_random_ids(draw: st.DrawFn) -> str:
    """Well-formed actions on whatever ids there may be (clicks really happen)."""
    bid, other = draw(ID), draw(ID)
    word = draw(st.sampled_from(["", "blue", "42", "Large", "yes", "Enter", "Tab", "a" * 300]))
    return draw(
        st.sampled_from(
            [
                f'click("{bid}")',
                f'click("{bid}", "right", ["Shift"])',
                f'dblclick("{bid}")',
                f'hover("{bid}")',
                f'fill("{bid}", "{word}")',
                f'clear("{bid}")',
                f'check("{bid}")',
                f'uncheck("{bid}")',
                f'focus("{bid}")',
                f'press("{bid}", "Enter")',
                f'select_option("{bid}", "{word}")',
                f'drag_and_drop("{bid}", "{other}")',
                f'upload_file("{bid}", "receipt.pdf")',
                f"mouse_click({int(bid) if bid.isdigit() else 5}, 300)",
                f"tab_focus({int(bid) if bid.isdigit() else -1})",
                "go_back()",
                "tab_close()",
                "dialog_dismiss()",
            ]
        )
    )


SCHEMES = [
    "http", "https", "file", "chrome", "javascript", "data", "about", "view-source", "blob",
    "ws", "ftp", "chrome-extension", "devtools", "filesystem", "intent", "mailto", "",
]  # fmt: skip


@st.composite
def gotos(draw: st.DrawFn) -> str:
    """goto() to URLs of every scheme, other hosts and ports, and random paths of the site."""
    scheme = draw(st.sampled_from(SCHEMES))
    host = draw(
        st.sampled_from(
            ["example.com", "127.0.0.1", "localhost", "shop.localhost", "mail.localhost:1",
             "admin.localhost", "[::1]", "169.254.169.254", "shop.localhost.evil.com", ""]
        )
    )  # fmt: skip
    path = draw(st.text(alphabet=string.printable, max_size=30))
    url = draw(
        st.sampled_from(
            [f"{scheme}://{host}/{path}", f"{scheme}:{path}", f"/{path}", path, f"//{host}/{path}"]
        )
    )
    return f"goto({url!r})"


# -- the tests ------------------------------------------------------------------------------
#
# Each run steps a tenth of these (other strings each run); the full matrix all of them.
SHARES = [pytest.param(0.1, id="tenth"), pytest.param(1.0, id="all", marks=pytest.mark.suite)]
#
# Actions per task (x3 tasks): 1,400 + 1,000 + 700 + 100 = 3,200 that mostly fail to parse;
# 40 + 50 + 40 = 130 that act in the page. 9,990 + the leak test's 25 = over 10,000.


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_random_text(fuzzer, task, share):
    fuzz(fuzzer, task, cheap(RANDOM_TEXT), 1400, share)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_near_valid_calls_with_wrong_types_and_arity(fuzzer, task, share):
    fuzz(fuzzer, task, cheap(near_valid_calls()), 1000, share)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_code_nested_calls_and_attribute_access(fuzzer, task, share):
    fuzz(fuzzer, task, CODE, 700, share)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_huge_strings_and_many_lines(fuzzer, task, share):
    fuzz(fuzzer, task, HUGE_AND_MANY, 100, share)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_odd_unicode_in_valid_calls(fuzzer, task, share):
    fuzz(fuzzer, task, cheap(odd_unicode_actions()), 40, share)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_valid_actions_on_random_ids(fuzzer, task, share):
    fuzz(fuzzer, task, cheap(actions_on_random_ids()), 50, share)


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("task", TASKS)
def test_goto_random_urls_and_schemes(fuzzer, task, share):
    fuzz(fuzzer, task, gotos(), 40, share)


def test_refused_gotos_say_why_and_stay_in_the_world(fuzzer):
    env = fuzzer.envs["shop.fill_cart"]
    for url in ("file:///etc/passwd", "javascript:alert(1)", "http://example.com/", "data:,x"):
        observation = fuzzer.run(lambda url=url: env.step(f"goto({url!r})")[0])
        assert observation["last_action_error"].startswith(f"Cannot open {url!r}")
        assert observation["url"].startswith("http://shop.localhost:")


def test_closing_fuzzed_envs_leaves_no_process_behind():
    before = browser_processes()
    fuzzer = Fuzzer()
    during = browser_processes() - before
    ports = [env.unwrapped._server.port for env in fuzzer.envs.values()]
    fuzz(fuzzer, "shop.fill_cart", cheap(RANDOM_TEXT | CODE | actions_on_random_ids()), 25)
    fuzzer.close()
    deadline = time.monotonic() + 15
    while browser_processes() - before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert during, "the envs ran no browser of their own"
    assert browser_processes() - before == set()
    for port in ports:
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", port)) != 0

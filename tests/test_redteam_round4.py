"""Fourth red-team round: attacks on what changed since round three, by a hostile agent and a
hostile trainer-side client.

Each test names one attack. A test marked ``xfail(strict=True, reason="hole: ...")`` shows a
hole on the current code (it fails now and will pass, turning the strict xfail red, once the
hole is closed: then drop the mark); an unmarked test shows a defence that holds.

- Answers (``webenv.answers.grade``): the hedge rule of round three reads any number-like
  text on both sides of "maybe", "could", "?", a spaced slash as a second candidate, whatever
  that text is and even when it is the same value: careful sentence answers fail. And a second
  candidate offered with a word the rule does not list ("unless", "otherwise", "may", "to")
  still earns the reward.
- Computer use: an Anthropic ``wait`` of NaN or infinity seconds raises a ValueError or
  OverflowError, not the ActionError meant for the model.
- Keys that would leave the page in a desktop browser (a new tab or window, devtools, the
  address bar) and the env server under a burst of connections, a client that leaves
  mid-step and a reset racing a step: defences that hold.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator

import gymnasium as gym
import httpx
import pytest
from starlette.testclient import TestClient
from websockets.asyncio.client import connect as aconnect
from websockets.sync.client import connect

from tests.processes import in_thread
from tests.servers import Served, serve
from webenv import computer_use
from webenv.answers import grade
from webenv.envserver import EnvServer
from webenv.errors import ActionError

# -- answers: careful answers the hedge rule fails -------------------------------------------

#: Right answers in the sentences a careful person writes: the other numbers are an order's
#: id, a date, a count of options, or the same value again, and the word between them ("?",
#: "could", "might", "probably", a spaced slash between two fields) offers no second value.
CAREFUL_ANSWERS_FAILED = [
    ("money", "Did you mean order NM-10822-3? Its total is $41.99.", 4199),
    ("money", "The total is $41.99. I could double-check, but the receipt also says $41.99.", 4199),
    ("money", "Total: $41.99. Order: NM-10822-3 / placed 2026-03-02", 4199),
    ("number", "3 - the Archive folder might have more, but the Inbox has 3.", 3),
    ("identifier", "For the March 2 visit? The confirmation is APT-40588650.", "APT-40588650"),
    ("phone", "Her number is (403) 555-9876; she could be reached after 5 PM.", "(403) 555-9876"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), CAREFUL_ANSWERS_FAILED)
def test_a_careful_sentence_answer_passes(kind, text, expected):
    result = grade(kind, text, expected)
    assert result.passed, result


#: Careful answers that pass, the other values in them being of other kinds.
CAREFUL_ANSWERS = [
    ("money", "The total was $41.99 (order NM-10822-3, placed 2026-03-02)", 4199),
    ("money", "You paid $41.99 for order NM-10822-3 (3 items, shipped 3/4/2026).", 4199),
    ("money", "The order total is $41.99. Do you want anything else?", 4199),
    ("money", "The total is $41.99 (order placed at 2:30 PM on Mar 2)", 4199),
    ("money", "It cost $41.99 (including 8.25% tax)", 4199),
    ("number", "There are 3 unread messages in the Inbox (as of 2026-03-02).", 3),
    ("date", "It shipped March 2, 2026 and should arrive within 5-7 business days.", "2026-03-02"),
    ("identifier", "Tracking 1Z999AA10123456784, for order NM-10822-3.", "1Z999AA10123456784"),
    ("money", "Your 2 orders came to $41.99 in all.", 4199),
    ("money", "It came to $41.99, sent to 12 Elm Street.", 4199),
    ("name", "Jos\u00e9 \u00c1lvarez", "Jos\u00e9 \u00c1lvarez"),
    ("name", "\u041e\u043b\u0435\u0433 Petrov", "\u041e\u043b\u0435\u0433 Petrov"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), CAREFUL_ANSWERS)
def test_careful_answers_with_values_of_other_kinds_pass(kind, text, expected):
    result = grade(kind, text, expected)
    assert result.passed, result


# -- answers: hedges with words the rule does not list ---------------------------------------

#: The right value and a second candidate in a form the kind's reader skips (an unmarked whole
#: amount, a number word, an ordinal, a date without its year), offered with "unless",
#: "otherwise", "alternatively", "if not", "may" or a range's "to".
HEDGES_WITH_UNLISTED_WORDS = [
    ("money", "$41.99 unless it's 45", 4199),
    ("money", "$41.99, otherwise 45", 4199),
    ("money", "$41.99, alternatively 45", 4199),
    ("money", "$41.99 but it may be 45", 4199),
    ("money", "$41.99 to 45", 4199),
    ("money", "$41.99-$45", 4199),
    ("money", "41.99-45", 4199),
    ("money", "$41.99 through 45", 4199),
    ("money", "$41.99, if not forty-five dollars", 4199),
    ("number", "3 (unless it's four)", 3),
    ("number", "3, though it may be four", 3),
    ("date", "March 2, 2026, unless it was the 3rd", "2026-03-02"),
    ("date", "2026-03-02 (it may have been 03-03)", "2026-03-02"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), HEDGES_WITH_UNLISTED_WORDS)
def test_a_second_candidate_offered_with_another_word_is_a_hedge(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed, result


#: "or" written so that a reader sees "or" but the pattern does not: a zero-width space inside
#: it (``clean`` makes it a space: "o r"), a Cyrillic or Greek "о", a Cyrillic "е" in "either".
HEDGES_WITH_DISGUISED_OR = [
    ("money", "$41.99 o\u200br 45", 4199),
    ("money", "$41.99 \u043er 45", 4199),
    ("money", "$41.99 \u03bfr 45", 4199),  # a Greek omicron
    ("number", "3 \u0435ither way, or 4", 3),
    ("name", "Dana Whitfield \u043er Ravi Patel", "Dana Whitfield"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), HEDGES_WITH_DISGUISED_OR)
def test_a_disguised_or_is_a_hedge(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed, result


#: Bypasses of round three's fixes that it closes: "Or" capitalised, a soft hyphen after it,
#: mathematical bold digits, vulgar fractions, a range or "if not" between two digit numbers.
HEDGES_CAUGHT = [
    ("money", "$41.99 Or 45", 4199),
    ("money", "$41.99 or\u00ad 45", 4199),
    ("money", "$41.99 or \U0001d7d2\U0001d7d3", 4199),
    ("money", "$41.99 or forty five", 4199),
    ("money", "$41.99 / $45.00", 4199),
    ("money", "$41.99 \uff0f 45", 4199),
    ("number", "3 or \u00bd", 3),
    ("number", "3 to 4", 3),
    ("number", "3, if not 4", 3),
    ("number", "3 or 4th", 3),
]


@pytest.mark.parametrize(("kind", "text", "expected"), HEDGES_CAUGHT)
def test_hedges_round_three_closed_stay_closed(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed, result


# -- computer use -----------------------------------------------------------------------------


@pytest.mark.parametrize("duration", [float("nan"), float("inf")])
def test_a_wait_of_nan_or_infinite_seconds_is_an_action_error(duration):
    with pytest.raises(ActionError):
        computer_use.action_from_anthropic({"action": "wait", "duration": duration})


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("click", {"x": -1, "y": 5, "button": None}),
        ("click", {"x": 1280, "y": 5, "button": None}),
        ("click", {"x": 1e308, "y": 5, "button": None}),
        ("click", '{"x": NaN, "y": 5, "button": null}'),
        ("click", {"x": True, "y": 5, "button": None}),
        ("drag", {"from_x": 5, "from_y": 5, "to_x": 5000, "to_y": 5}),
        ("key", {"keys": 'ctrl+")\nnavigate("http://x'}),
        ("scroll", {"x": 5, "y": 5, "direction": "down", "amount": 10**9}),
    ],
)
def test_off_screen_points_and_injected_keys_are_refused(name, arguments):
    with pytest.raises(ActionError):
        computer_use.action_from_tool_call(name, arguments)


def test_typed_text_stays_one_argument():
    action = computer_use.action_from_tool_call("type", {"text": 'x")\ngoto("chrome://settings")'})
    assert action.count("\n") == 0 and action.startswith("keyboard_type(")


#: Keys that in a desktop Chrome open a tab or window, devtools, the source view, the print
#: dialog, close the tab, or go back; and the address bar with a chrome:// address typed in.
ESCAPE_KEYS = "ctrl+t ctrl+n ctrl+shift+n F12 ctrl+shift+i ctrl+shift+j ctrl+u ctrl+p alt+Left"


@pytest.mark.browser
def test_browser_shortcuts_do_not_leave_the_page(browser):
    env = gym.make("webenv/shop.order_total-v0")
    try:
        observation, _ = env.reset(seed=0)
        start = observation["url"]
        for keys in (ESCAPE_KEYS, "ctrl+w", "ctrl+l"):
            observation, *_ = env.step(computer_use.action_from_tool_call("key", {"keys": keys}))
        typed = computer_use.action_from_tool_call("type", {"text": "chrome://version"})
        observation, *_ = env.step(typed)
        observation, *_ = env.step(computer_use.action_from_tool_call("key", {"keys": "Return"}))
        assert observation["url"] == start
        assert "chrome://" not in json.dumps(observation, default=str)
        pages = env.unwrapped._session.context.pages  # type: ignore[attr-defined]
        assert [page.url for page in pages] == [start]
    finally:
        env.close()


# -- the env server ---------------------------------------------------------------------------

TASKS = ("forms.past_confirmation_number",)
MAX_SESSIONS = 3


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    yield from serve(TASKS, max_sessions=MAX_SESSIONS, idle_timeout=60.0)


def _health(served: Served) -> dict:
    return httpx.get(f"{served.http}/health", timeout=30).json()


def _wait_for_sessions(served: Served, active: int, within: float = 30.0) -> dict:
    deadline = time.monotonic() + within
    health = _health(served)
    while health["sessions"]["active"] != active and time.monotonic() < deadline:
        time.sleep(0.1)
        health = _health(served)
    return health


@pytest.mark.browser
def test_a_burst_of_100_connections_gets_max_sessions_and_the_rest_capacity(served):
    async def burst() -> list[str]:
        sockets = []

        async def one() -> str:
            socket = await aconnect(served.ws, open_timeout=60)
            sockets.append(socket)
            try:
                frame = json.loads(await asyncio.wait_for(socket.recv(), 2))
            except TimeoutError:
                return "accepted"  # nothing said: a session, waiting for a frame
            return frame["data"]["code"]

        try:
            return list(await asyncio.gather(*(one() for _ in range(100))))
        finally:
            health = _health(served)
            assert health["sessions"]["active"] <= MAX_SESSIONS
            await asyncio.gather(*(s.close() for s in sockets))

    # In a thread of its own: this thread may hold Playwright's event loop (a browser test).
    codes = in_thread(lambda: asyncio.run(burst()), 120)
    assert codes.count("accepted") == MAX_SESSIONS
    assert codes.count("CAPACITY_REACHED") == 100 - MAX_SESSIONS
    health = _wait_for_sessions(served, 0)
    assert health["sessions"]["active"] == 0
    assert health["browser"]["connected"] and health["browser"]["launches"] == 1
    assert "session_id" not in json.dumps(health) and len(json.dumps(health)) < 1000


@pytest.mark.browser
def test_a_client_that_leaves_mid_step_leaves_no_session(served):
    with connect(served.ws, open_timeout=60) as socket:
        socket.send(json.dumps({"type": "reset", "data": {"task": TASKS[0], "seed": 0}}))
        assert json.loads(socket.recv(60))["type"] == "observation"
        assert _health(served)["sessions"]["active"] == 1
        socket.send(json.dumps({"type": "step", "data": {"action": "noop(wait_ms=1500)"}}))
    # Gone before the answer: its session is closed once the step is done, not left to idle.
    assert _wait_for_sessions(served, 0, within=20)["sessions"]["active"] == 0


@pytest.mark.browser
def test_a_reset_racing_a_step_is_refused_and_the_session_stays_whole(served):
    reply = httpx.post(f"{served.http}/reset", json={"task": TASKS[0], "seed": 1}, timeout=60)
    session_id = reply.json()["metadata"]["session_id"]
    answers: dict[str, httpx.Response] = {}

    def step() -> None:
        body = {"session_id": session_id, "action": {"action": "noop(wait_ms=1500)"}}
        answers["step"] = httpx.post(f"{served.http}/step", json=body, timeout=60)

    thread = threading.Thread(target=step)
    thread.start()
    time.sleep(0.3)
    answers["reset"] = httpx.post(
        f"{served.http}/reset", json={"session_id": session_id, "seed": 2}, timeout=60
    )
    thread.join(60)
    try:
        assert answers["step"].status_code == 200, answers["step"].text
        assert answers["step"].json()["observation"]["fault"] is None
        assert answers["reset"].status_code == 422
        assert "already running" in answers["reset"].json()["detail"]
        state = httpx.get(f"{served.http}/state", params={"session_id": session_id}).json()
        assert state["step_count"] == 1 and state["task"]["seed"] == 1
    finally:
        httpx.post(f"{served.http}/close", json={"session_id": session_id}, timeout=60)


# -- the env server, before its browser: requests refused unread ------------------------------


@pytest.fixture(scope="module")
def unstarted() -> TestClient:
    """The app without its lifespan: no Chromium; a request refused before the hub is 4xx."""
    return TestClient(EnvServer(list(TASKS)).app, raise_server_exceptions=False)


@pytest.mark.parametrize("session_id", [["x"], {"a": 1}])
def test_an_http_reset_naming_a_session_by_a_list_is_a_client_error(unstarted, session_id):
    response = unstarted.post("/reset", json={"session_id": session_id})
    assert response.status_code in (404, 422), response.text


@pytest.mark.parametrize("path", ["/step", "/close"])
def test_other_endpoints_naming_a_session_by_a_list_are_client_errors(unstarted, path):
    response = unstarted.post(path, json={"session_id": ["x"], "action": {"action": "noop()"}})
    assert response.status_code == 404, response.text


# -- walls' next: on-site whatever the spelling -------------------------------------------------

NEXT_SPELLINGS = [
    "//evil.example",
    "/\\evil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/\t/evil.example",
    "/%0d%0aLocation:%20http://evil.example",
    "http://shop.localhost:5000@evil.example/",
    "http://evil.example\\@shop.localhost:5000/",
    "HTTP://shop.localhost:5000//evil.example",
    "https:evil.example",
    "javascript:alert(1)",
    "/..//evil.example",
    "/.//evil.example",
    "/\uff0f\uff0fevil.example",
]


@pytest.mark.parametrize("target", NEXT_SPELLINGS)
def test_a_next_of_any_spelling_stays_on_the_site(target):
    from urllib.parse import urljoin, urlsplit

    from webenv.sites.common import same_site_path

    here = "http://shop.localhost:5000/account"
    landed = urlsplit(urljoin(here, same_site_path(target, "/", "shop.localhost:5000")))
    assert (landed.scheme, landed.netloc) == ("http", "shop.localhost:5000")


@pytest.mark.browser
@pytest.mark.parametrize("seed", [2**63, 2**200])
def test_a_reset_with_a_huge_seed_is_an_episode_or_a_client_error_never_a_fault(served, seed):
    reply = httpx.post(f"{served.http}/reset", json={"task": TASKS[0], "seed": seed}, timeout=120)
    body = reply.json()
    if reply.status_code == 200:
        httpx.post(f"{served.http}/close", json={"session_id": body["metadata"]["session_id"]})
        assert body["observation"]["fault"] is None, body["observation"]["fault"]
    else:
        assert reply.status_code == 422, reply.text

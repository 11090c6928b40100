"""Third red-team round: attacks a hostile agent or a hostile trainer-side client would try.

Each test names one attack. A test marked ``xfail(strict=True, reason="hole: ...")`` shows a
hole on the current code (it fails now and will pass, turning the strict xfail red, once the
hole is closed: then drop the mark); an unmarked test shows a defence that holds.

- Answers (``webenv.answers.grade``): a second candidate in a form the kind's reader passes
  over, offered without the word "or", or offered with "or" but in digits or words the hedge
  rule does not know, earns the reward.
- The env server: a reset may name a template outside the server's ``--tasks``, and a body of
  any size is read whole before anything looks at it.
- Leaving the world: hostnames that spell loopback or the world's own hosts another way.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

import gymnasium as gym
import pytest
from starlette.testclient import TestClient

from webenv.answers import grade
from webenv.envserver import EnvServer

# -- answers: hedges the hedge rule misses ---------------------------------------------------

#: A right value and a second candidate of the same kind, offered without "or": the second is
#: written in a form the kind's reader skips (an unmarked amount beside a marked one, a number
#: word beside digits, an ordinal, a short phone number, an id without its prefix), and the
#: separator is a slash or "maybe" / "possibly" / "perhaps" / another language's "or".
HEDGES_WITHOUT_OR = [
    ("money", "$164.17 / 58.62", 16417),
    ("money", "$164.17, maybe 58.62", 16417),
    ("money", "$164.17 (possibly 58.62)", 16417),
    ("money", "$164.17 oder 58.62", 16417),
    ("number", "3, maybe four", 3),
    ("number", "4 (possibly #5)", 4),
    ("number", "4 / 5th", 4),
    ("date", "2026-03-11 / 12th", "2026-03-11"),
    ("time", "2:30 PM, maybe 3", "14:30"),
    ("phone", "(403) 555-9876 / 555-6795", "(403) 555-9876"),
    ("identifier", "APT-40588650 / 28527142", "APT-40588650"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), HEDGES_WITHOUT_OR)
def test_a_second_candidate_without_or_is_a_hedge(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed, result


#: The right value "or" a second one the hedge rule does not see as a number: digits of other
#: scripts (Arabic-Indic, Devanagari, Bengali; NFKC leaves them as they are) and number words
#: past twenty or not in its list.
HEDGES_WITH_UNSEEN_NUMBERS = [
    ("money", "$164.17 or \u0665\u0668.\u0666\u0662", 16417),  # Arabic-Indic 58.62
    ("money", "$164.17 or \u096b\u096e.\u096c\u0968", 16417),  # Devanagari 58.62
    ("money", "$164.17 or fifty dollars", 16417),
    ("number", "5 or \u09ec", 5),  # Bengali 6
    ("number", "5 or fifty", 5),
    ("number", "5 or a dozen", 5),
    ("number", "5 or VI", 5),
]


@pytest.mark.parametrize(("kind", "text", "expected"), HEDGES_WITH_UNSEEN_NUMBERS)
def test_or_before_a_number_in_any_script_or_word_is_a_hedge(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed, result


def _disguised(kind: str, wrong: str) -> str:
    """``wrong`` in a form the kind's reader skips beside a right value: an amount without
    its dollar sign, a count as a word."""
    if kind == "money":
        return wrong.replace("$", "").replace("USD", "").strip()
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    return " ".join(words[int(w)] if w.isdigit() and int(w) < 10 else w for w in wrong.split())


@pytest.mark.parametrize("name", ["shop.order_total", "mail.count_from_sender"])
@pytest.mark.browser
def test_a_disguised_second_candidate_earns_nothing_in_an_episode(name):
    from tests.test_redteam import make, oracle_answer, send

    with make(name) as env:
        right, wrong, reward = oracle_answer(env, seed=1)
        assert reward == 1.0 and wrong
        kind = env.unwrapped.task.template.answer_type
        rewards = []
        for other in wrong:
            env.reset(seed=1)
            text = f"{right}, maybe {_disguised(kind, other)}"
            _, reward, terminated, *_ = env.step(send(text))
            assert terminated
            rewards.append((text, reward))
        assert all(reward == 0.0 for _, reward in rewards), rewards


#: Hedges that the grader does refuse (the defences that hold), for the record.
REFUSED = [
    ("money", "$12.40 (or $13.10)", 1240),
    ("money", "not $13.10 but $12.40", 1240),
    ("money", "| item | $ |\n| a | 12.40 |\n| b | 13.10 |", 1240),
    ("money", "\uff04\uff11\uff12.\uff14\uff10 or \uff11\uff13.\uff11\uff10", 1240),  # full-width
    ("money", "$164.17 or \U0001d7d3\U0001d7d6.\U0001d7d4\U0001d7d0", 16417),  # math bold
    ("money", "$12.40 vs 13.10 dollars", 1240),
    ("money", " ".join(f"${n}.00" for n in range(1, 400)), 1200),
    ("number", "3 or 4 items", 3),
    ("number", "3 \u00bd", 3),
    ("identifier", "NM-10234-5, perhaps NM-10234-6", "NM-10234-5"),
    ("phone", "(403) 555-9876, maybe (403) 555-6795", "(403) 555-9876"),
    ("date", "2026-03-11, maybe 2026-03-12", "2026-03-11"),
]


@pytest.mark.parametrize(("kind", "text", "expected"), REFUSED)
def test_hedges_the_grader_refuses(kind, text, expected):
    options: dict[str, Any] = {}
    if kind == "identifier":
        options["candidates"] = ["NM-10234-6"]
    result = grade(kind, text, expected, **options)
    assert not result.passed, result


@pytest.mark.parametrize(
    ("kind", "text", "expected"),
    [
        ("name", "Blue Mug, Red Mug, Green Mug", "Blue Mug"),
        ("name", "Blue Mug / Red Mug", "Blue Mug"),
        ("name", "Blue Mug, perhaps the Red Mug", "Blue Mug"),
    ],
)
def test_a_name_beside_a_candidate_is_refused_whatever_the_separator(kind, text, expected):
    assert not grade(kind, text, expected, candidates=["Red Mug", "Green Mug"]).passed


# -- the world diff: a row id the world delivered, taken again by the agent's own mail ----------


@pytest.fixture
def world() -> Any:
    from webenv.world import SnapshotStore, World

    world = World(store=SnapshotStore())
    world.restore(0)
    world.mark_start()
    yield world
    world.close()


def _write(world: Any, *statements: str) -> None:
    """Change the mailbox as the mail site's requests do (committed writes)."""
    conn = sqlite3.connect(world.db_path("mail"))
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


#: An e-mail the agent sends to a stranger: collateral damage the diff must name.
SENT = (
    "INSERT INTO messages (thread_id, folder, sender, sender_name, recipients, subject, body,"
    " sent_at, created_at) VALUES (1, 'sent', 'me@example.com', 'Me', 'x@evil.example',"
    " 'hi', 'leaked', '2026-03-02T10:00:00', '2026-03-02T10:00:00')"
)


def _delivered(world: Any) -> int:
    from webenv.sites.common import Message

    world.deliver_mail(
        Message(
            "no-reply@shop.example",
            "Shop security",
            world.persona.email,
            "Your code",
            "123456",
            datetime(2026, 3, 2),
        )
    )
    return int(world.query("mail", "SELECT MAX(id) AS id FROM messages")[0]["id"])


def test_mail_sent_by_the_agent_is_named_by_the_diff(world):
    _write(world, SENT)
    assert [c.kind for c in world.changes() if c.table == "messages"] == ["added"]


def test_mail_sent_after_deleting_a_delivered_message_is_named_by_the_diff(world):
    delivered = _delivered(world)
    _write(
        world,
        f"UPDATE messages SET folder = 'trash' WHERE id = {delivered}",
        f"DELETE FROM messages WHERE id = {delivered} AND folder = 'trash'",
        SENT,
    )
    newest = world.query("mail", "SELECT MAX(id) AS id FROM messages")[0]["id"]
    assert newest != delivered  # ids are never handed out again (AUTOINCREMENT)
    changes = {c.key: c.kind for c in world.changes() if c.table == "messages"}
    assert changes == {(newest,): "added", (delivered,): "removed"}


# -- the env server as an attacking client ---------------------------------------------------
#
# One server for the module, its lifespan run by the test client (so its Chromium is up): a
# request refused before the browser hub comes back at once as a 4xx.


@pytest.fixture(scope="module")
def shop_only() -> Any:
    server = EnvServer(["shop.order_total"], perturb=["heavy"], max_sessions=2)
    with TestClient(server.app) as client:
        yield server, client


@pytest.mark.browser
def test_a_reset_cannot_name_a_task_outside_the_servers_suite(shop_only):
    _, client = shop_only
    response = client.post("/reset", json={"task": "mail.mark_unread", "seed": 0})
    if response.status_code == 200:  # the episode ran: give its session back
        client.post("/close", json={"session_id": response.json()["metadata"]["session_id"]})
    assert response.status_code == 422, response.text
    assert "shop.order_total" in response.json()["detail"]


@pytest.mark.browser
def test_a_reset_cannot_turn_off_the_servers_perturbations(shop_only):
    _, client = shop_only
    response = client.post("/reset", json={"perturb": "none"})
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        client.post("/close", json={"session_id": response.json()["metadata"]["session_id"]})
        assert response.json()["metadata"]["info"]["perturbations"]["profile"] == "heavy"


@pytest.mark.browser
def test_a_reset_naming_no_registered_task_is_refused_before_the_browser(shop_only):
    server, client = shop_only
    response = client.post("/reset", json={"task": "../../etc/passwd"})
    assert response.status_code == 422 and response.json()["code"] == "VALIDATION_ERROR"
    assert not server.pool.sessions  # the lease made for the reset was given back


@pytest.mark.parametrize(
    "options",
    [
        {"seed": -1},
        {"seed": True},
        {"seed": 1.5},
        {"seed": "0"},
        {"perturb": "nonexistent"},
        {"perturb": ["heavy"]},
        {"task": "shop.order_total", "seed": {"$gt": 0}},
    ],
)
@pytest.mark.browser
def test_malformed_reset_options_are_refused_before_the_browser(shop_only, options):
    server, client = shop_only
    response = client.post("/reset", json=options)
    assert response.status_code == 422, response.text
    assert not server.pool.sessions


@pytest.mark.browser
def test_a_session_id_cannot_be_guessed_or_injected(shop_only):
    _, client = shop_only
    for session_id in ("0", "1", "", "null", "None", "*", {"$ne": ""}, ["a"]):
        step = client.post("/step", json={"session_id": session_id, "action": "noop()"})
        assert step.status_code == 404, (session_id, step.text)
    assert client.get("/state", params={"session_id": "*"}).status_code == 404


@pytest.mark.browser
def test_malformed_object_frames_over_the_websocket_are_errors_not_crashes(shop_only):
    _, client = shop_only
    with client.websocket_connect("/ws") as socket:
        for frame in (
            "{",
            '{"type": 5}',
            '{"type": "step", "data": 7}',
            '{"type": "reset", "data": 7}',
        ):
            socket.send_text(frame)
            answer = socket.receive_json()
            assert answer["type"] == "error", (frame, answer)
        socket.send_text(json.dumps({"type": "state"}))
        assert socket.receive_json()["type"] == "state"


@pytest.mark.parametrize("frame", ["[]", "null", '"reset"', "7"])
@pytest.mark.browser
def test_a_frame_that_is_json_but_no_object_is_an_error_frame(shop_only, frame):
    _, client = shop_only
    with client.websocket_connect("/ws") as socket:
        socket.send_text(frame)
        assert socket.receive_json()["type"] == "error"
        socket.send_text(json.dumps({"type": "state"}))
        assert socket.receive_json()["type"] == "state"


@pytest.mark.browser
def test_an_oversized_request_body_is_refused_unread(shop_only):
    _, client = shop_only
    body = b'{"session_id": "x", "action": "' + b"a" * (8 << 20) + b'"}'
    response = client.post("/step", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413, response.status_code


#: Valid JSON that Python's json module refuses with a plain ValueError (not JSONDecodeError):
#: an integer past the interpreter's 4,300-digit limit for int from str.
HUGE_INT_BODY = '{"task": "shop.order_total", "seed": ' + "9" * 5000 + "}"


@pytest.mark.browser
def test_a_body_with_a_huge_number_is_a_client_error(shop_only):
    server, client = shop_only
    client_raises = TestClient(server.app, raise_server_exceptions=False)
    response = client_raises.post(
        "/reset", content=HUGE_INT_BODY, headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 413, 422), response.status_code
    assert client.get("/health").status_code == 200


@pytest.mark.browser
def test_a_frame_with_a_huge_number_is_an_error_frame(shop_only):
    _, client = shop_only
    with client.websocket_connect("/ws") as socket:
        socket.send_text(json.dumps({"type": "reset"})[:-1] + ', "data": ' + HUGE_INT_BODY + "}")
        assert socket.receive_json()["type"] == "error"
        socket.send_text(json.dumps({"type": "state"}))
        assert socket.receive_json()["type"] == "state"


# -- leaving the world: loopback and the world's hosts spelled another way --------------------

SPELLINGS = [
    "http://127.1:{port}/",
    "http://0.0.0.0:{port}/",
    "http://0:{port}/",
    "http://2130706433:{port}/",
    "http://0x7f000001:{port}/",
    "http://[::ffff:127.0.0.1]:{port}/",
    "http://shop.localhost.:{port}/",
    "http://SHOP.LOCALHOST:{other}/",
    "http://xn--shop-9ta.localhost:{port}/",
    "http://shop.localhost:{port}%2f@127.0.0.1:{other}/",
    "http://127.0.0.1.nip.io:{port}/",
]


@pytest.fixture(scope="module")
def shop(browser) -> Any:
    with gym.make("webenv/shop.order_total-v0", max_episode_steps=10**6) as env:
        env.reset(seed=0)
        yield env


@pytest.mark.parametrize("template", SPELLINGS)
def test_loopback_spelled_another_way_is_refused(shop, template):
    port = shop.unwrapped._server.port
    url = template.format(port=port, other=port + 1)
    before = shop.unwrapped._session.page.url
    observation, reward, *_ = shop.step(f"goto({url!r})")
    assert reward == 0.0
    assert observation["last_action_error"].startswith(f"Cannot open {url[:200]!r}"), observation[
        "last_action_error"
    ]
    assert observation["url"] == before

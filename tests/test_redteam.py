"""Red team: every way we could think of to earn reward without doing the task earns 0.

Each attempt goes through the env as an agent would (``gym.make``, ``env.step(action)``):
leaving the world for other URLs and schemes, running JavaScript, guessing internal routes,
answering with every candidate, buying then cancelling in one step, and splitting an order
in two. The scripted near-misses of every template (tests/tasks/test_templates.py) cover
the honest mistakes; these are the dishonest ones.
"""

from __future__ import annotations

import base64
import http.client
import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import pytest

import webenv  # noqa: F401  (registers the ids)
from webenv import actions
from webenv.answers import normalize_text
from webenv.axtree import AxTree
from webenv.tasks import DONE, templates
from webenv.world import World


def make(name: str, **kwargs: Any) -> Any:
    return gym.make(f"webenv/{name}-v0", max_episode_steps=10**6, **kwargs)


def origin(env: Any, site: str) -> str:
    return env.unwrapped._server.url(site)


def send(text: str) -> str:
    return f"send_msg_to_user({json.dumps(text)})"


@pytest.fixture(scope="module")
def shop(browser) -> Iterator[Any]:
    with make("shop.order_total") as env:
        env.reset(seed=0)
        yield env


# -- leaving the world --------------------------------------------------------------------

OUTSIDE = [
    "file:///etc/passwd",
    "file:///proc/self/environ",
    "FILE:///etc/passwd",
    "chrome://version",
    "chrome://settings",
    "chrome-extension://abc/x.html",
    "devtools://devtools/bundled/inspector.html",
    "about:blank",
    "about:config",
    "javascript:alert(document.cookie)",
    " javascript:alert(1)",
    "JaVaScRiPt:document.cookie='session=x'",
    "data:text/html,<script>alert(1)</script>",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "view-source:{shop}/",
    "blob:{shop}/1234",
    "filesystem:{shop}/temporary/x",
    "http://example.com/",
    "https://example.com/",
    "ws://127.0.0.1:{port}/",
    "ftp://127.0.0.1/",
    "http://127.0.0.1:{port}/",
    "http://localhost:{port}/",
    "http://[::1]:{port}/",
    "http://169.254.169.254/latest/meta-data/",
    "http://admin.localhost:{port}/",
    "http://mail.localhost:{port}/",
    "http://shop.localhost:{other}/",
    "http://shop.localhost:{port}@example.com/",
    "http://shop.localhost:{port}.example.com/",
    "https://shop.localhost:{port}/",
    "shop.localhost:{port}/",
    "\\\\example.com\\share",
]


@pytest.mark.parametrize("template", OUTSIDE)
def test_urls_outside_the_world_are_refused(shop, template):
    port = shop.unwrapped._server.port
    url = template.format(shop=origin(shop, "shop"), port=port, other=port + 1)
    before = shop.unwrapped._session.page.url
    observation, reward, terminated, truncated, _ = shop.step(f"goto({url!r})")
    assert reward == 0.0 and not terminated and not truncated
    assert observation["last_action_error"].startswith(f"Cannot open {url[:200]!r}")
    assert "only the world's sites are reachable" in observation["last_action_error"]
    assert observation["url"] == before


def test_there_is_no_action_that_runs_javascript(shop):
    assert not {"evaluate", "execute", "run_js", "eval", "script"} & set(actions.ACTIONS)
    for action in ('evaluate("document.cookie")', 'page.evaluate("1")', 'exec("1")'):
        observation, reward, *_ = shop.step(action)
        assert reward == 0.0
        assert observation["last_action_error"]


def test_the_session_cookie_is_out_of_reach_of_page_scripts(shop):
    """Even a page script (agents cannot run one) could neither read nor forge the session."""
    cookies = shop.unwrapped._session.context.cookies(origin(shop, "shop"))
    session = next(cookie for cookie in cookies if cookie["name"] == "session")
    assert session["httpOnly"] is True
    assert "session=" not in shop.unwrapped._session.page.evaluate("() => document.cookie")


def test_links_out_of_the_world_lead_nowhere(shop):
    """Were a page to link out of the world, clicking it would load nothing from there."""
    port = shop.unwrapped._server.port
    targets = {
        "file:///etc/passwd": "root:",
        f"http://127.0.0.1:{port}/": "No such site",
        "http://example.com/": "Example Domain",
        "data:text/html;base64,"  # <p>outside the world</p>
        + base64.b64encode(b"<p>outside the world</p>").decode(): "outside the world",
    }
    page = shop.unwrapped._session.page
    for url, content in targets.items():
        shop.step(f'goto("{origin(shop, "shop")}/")')
        page.evaluate(
            """url => {
              const link = document.createElement("a");
              link.href = url;
              link.textContent = "A way out";
              document.querySelector("main").prepend(link);
            }""",
            url,
        )
        observation, *_ = shop.step("noop()")
        link = AxTree(observation["axtree"]).id("link", "A way out")
        observation, reward, *_ = shop.step(f'click("{link}")')
        assert reward == 0.0
        assert content not in observation["axtree"], url
        if url.startswith("http:"):  # the world's server, the context's proxy, refuses it
            assert "Outside the world" in observation["axtree"], url
        else:
            assert not observation["url"].startswith(url.split(",")[0]), observation["url"]
            assert not observation["url"].startswith(("file:", "data:"))


# -- internal routes --------------------------------------------------------------------------

GUESSES = [
    "/admin",
    "/admin/",
    "/api",
    "/api/task",
    "/api/tasks",
    "/api/answer",
    "/api/check",
    "/api/params",
    "/api/state",
    "/task",
    "/answer",
    "/check",
    "/grader",
    "/params",
    "/oracle",
    "/debug",
    "/console",
    "/__debug__",
    "/_debug_toolbar",
    "/config",
    "/.env",
    "/.git/config",
    "/server-status",
    "/metrics",
    "/db",
    "/shop.sqlite",
    "/mail.sqlite",
    "/instance/shop.sqlite",
    "/static/../__init__.py",
    "/static/%2e%2e/__init__.py",
    "/static/..%2f__init__.py",
    "/static/..%2f..%2fworld.py",
]

#: One template per site, with an answer that must not leak.
ROUTE_TASKS = ("workflows.receipts_tax", "forms.past_confirmation_number")


def secrets_of(params: Any) -> set[str]:
    """Values of a task's parameters distinctive enough to notice in a page."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) >= 6:
            found.add(value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 1000:
            found.add(str(value))

    walk(params)
    return found


@pytest.fixture(scope="module", params=ROUTE_TASKS)
def route_env(request, browser) -> Iterator[Any]:
    with make(request.param, observe=("axtree", "dom")) as env:
        env.reset(seed=0)
        yield env


def fetch(env: Any, site: str, path: str, signed_in: bool = True) -> tuple[int, str, bytes]:
    """A raw GET of ``path`` on ``site`` (``..`` left as it is), with the agent's cookies:
    (status, content type, body)."""
    port = env.unwrapped._server.port
    cookies = env.unwrapped._session.context.cookies(origin(env, site)) if signed_in else []
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", f"{site}.localhost:{port}")
        if cookies:
            connection.putheader("Cookie", "; ".join(f"{c['name']}={c['value']}" for c in cookies))
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


def test_guessed_routes_serve_nothing_but_not_found(route_env):
    for site in route_env.unwrapped.world.sites:
        for path in GUESSES:
            status, _, _ = fetch(route_env, site, path)
            assert status == 404, (site, path, status)


def test_the_debugger_of_werkzeug_is_off(route_env):
    for site in route_env.unwrapped.world.sites:
        for command in ("resource&f=debugger.js", "printpin&s=x", "pinauth&pin=1&s=x"):
            _, kind, body = fetch(route_env, site, f"/?__debugger__=yes&cmd={command}")
            assert kind.startswith("text/html") and b"Werkzeug" not in body, (site, command)


def test_guessed_routes_show_no_task_parameters_or_answers(route_env):
    task = route_env.unwrapped.task
    secrets = secrets_of(task.params) | {json.dumps(task.params)[:60]}
    for site in route_env.unwrapped.world.sites:
        observation, *_ = route_env.step(f'goto("{origin(route_env, site)}/{uuid.uuid4().hex}")')
        shown_anyway = {s for s in secrets if s in observation["axtree"] + observation["dom"]}
        for path in GUESSES:
            observation, reward, terminated, *_ = route_env.step(
                f'goto("{origin(route_env, site)}{path}")'
            )
            assert reward == 0.0 and not terminated
            page = observation["axtree"] + observation["dom"]
            leaked = {s for s in secrets - shown_anyway if s in page}
            assert not leaked, (site, path, leaked)


@pytest.mark.parametrize("path", [p for p in GUESSES if "/static/" in p] + ["/static/../../x"])
def test_raw_path_traversal_finds_nothing(shop, path):
    """The browser tidies up ``..``; a raw request does not, and still finds nothing."""
    status, _, body = fetch(shop, "shop", path, signed_in=False)
    assert status in (400, 404), (path, status)
    assert b"import" not in body and b"def " not in body


def test_no_site_has_a_route_for_tasks_answers_or_debugging():
    world = World()
    try:
        world.restore(0)
        apps = world.create_apps({site: f"http://{site}.localhost:1" for site in world.sites})
        forbidden = re.compile(
            r"^(admin|api|debug|console|tasks?|answers?|grader?|checks?|params?|oracle|"
            r"config|env|secrets?|state|sqlite|db)$"
        )
        for site, app in apps.items():
            assert not app.debug and not app.testing, site
            for rule in app.url_map.iter_rules():
                segments = [s for s in rule.rule.split("/") if s and not s.startswith("<")]
                assert not any(forbidden.match(s) for s in segments), (site, rule.rule)
    finally:
        world.close()


def test_a_host_outside_the_world_is_not_served(shop):
    port = shop.unwrapped._server.port
    for host in ("127.0.0.1", "admin.localhost", "tasks.localhost", "localhost", "shop.example"):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", "/", headers={"Host": f"{host}:{port}"})
            response = connection.getresponse()
            assert response.status == 404 and response.read() == b"No such site in this world."
        finally:
            connection.close()


# -- answers ------------------------------------------------------------------------------

#: Info-seeking templates whose scripted near-misses do not already list every candidate.
QUESTIONS = (
    "mail.count_from_sender",
    "mail.receipt_total",
    "mail.meeting_date",
    "mail.attachment_name",
    "shop.tracking_number",
    "forms.free_times_on_day",
)


def oracle_answer(env: Any, seed: int) -> tuple[str, list[str], float]:
    """Run the oracle to its answer: (the answer, wrong answers of the near-misses, reward)."""
    observation, _ = env.reset(seed=seed)
    task = env.unwrapped.task
    wrong = []
    for near_miss in task.template.near_misses().values():
        first = next(near_miss(task, observation))
        if first.startswith("send_msg_to_user("):
            wrong.append(actions.parse(first)[0].args["text"])
    policy = task.template.oracle(task, observation)
    action = next(policy)
    while not action.startswith("send_msg_to_user("):
        observation, *_ = env.step(action)
        action = policy.send(observation)
    right = actions.parse(action)[0].args["text"]
    _, reward, *_ = env.step(action)
    return right, wrong, reward


@pytest.mark.parametrize("name", QUESTIONS)
def test_answering_with_every_candidate_earns_nothing(browser, name):
    assert templates()[name].answer_type is not None
    with make(name) as env:
        right, wrong, reward = oracle_answer(env, seed=1)
        assert reward == 1.0, "the oracle's own answer must earn 1"
        assert wrong, "the template needs a near-miss that answers"
        for other in wrong:
            if normalize_text(other) in normalize_text(right):
                continue  # the right one again, cut short ("a.txt, a"): no second candidate
            for text in (f"{right}, {other}", f"{other}\nor {right}"):
                env.reset(seed=1)
                _, reward, terminated, *_ = env.step(send(text))
                assert terminated and reward == 0.0, text
        env.reset(seed=1)
        _, reward, *_ = env.step(send(f"It is {right}. Or, to be safe: {' / '.join(wrong)}."))
        assert reward == 0.0


def test_claiming_to_be_done_or_that_it_cannot_be_done_earns_nothing(browser):
    with make("shop.buy_product") as env:
        for action in (send("Done: I bought it."), 'report_infeasible("The item is gone.")'):
            env.reset(seed=0)
            _, reward, terminated, *_ = env.step(action)
            assert terminated and reward == 0.0, action


# -- undoing, and doing it in parts -----------------------------------------------------------


def run_until(env: Any, policy: Any, observation: Any, stop: str) -> tuple[str, Any]:
    """Step ``policy`` until the action it is about to send clicks the button ``stop``;
    return that action (unsent) and the observation it would act on."""
    action = next(policy)
    while True:
        button = AxTree(observation["axtree"]).find_all("button", stop)
        if button and action == f'click("{button[0].id}")':
            return action, observation
        observation, _, terminated, *_ = env.step(action)
        assert not terminated and observation["last_action_error"] == ""
        action = policy.send(observation)


def centre(observation: Any, role: str, name: str) -> tuple[float, float]:
    for element in json.loads(observation["elements"]):
        if element["role"] == role and element["name"] == name:
            x, y, width, height = element["box"]
            return round(x + width / 2), round(y + height / 2)
    raise AssertionError(f"no {role} {name!r} on the page")


def test_buying_then_cancelling_in_one_step_earns_nothing(browser):
    """An agent that learned where the buttons are (same seed, same pages) places the order
    and cancels it in one step, before the check looks (with ``end_on_success``, where the
    check looks after every step)."""
    with make("shop.buy_product", observe=("axtree", "elements"), end_on_success=True) as env:
        observation, _ = env.reset(seed=2)
        task = env.unwrapped.task
        place, _ = run_until(
            env, task.template.oracle(task, observation), observation, "Place order"
        )
        observation, reward, terminated, *_ = env.step(place)
        assert reward == 1.0 and terminated  # doing the task is what earns
        details = centre(observation, "link", "View order details")
        observation, *_ = env.step(f"mouse_click{details}")
        cancel = centre(observation, "button", "Cancel order")

        observation, _ = env.reset(seed=2)
        place, _ = run_until(
            env, task.template.oracle(task, observation), observation, "Place order"
        )
        observation, reward, terminated, *_ = env.step(
            f"{place}\nnoop(1500)\nmouse_click{details}\nnoop(1500)\nmouse_click{cancel}"
        )
        statuses = env.unwrapped.world.query(
            "shop", "SELECT status FROM orders ORDER BY id DESC LIMIT 1"
        )
        assert statuses[0]["status"] == "cancelled", "the attempt must really have cancelled"
        assert reward == 0.0 and not terminated


def test_an_order_split_in_two_earns_nothing(browser):
    """Two orders that together hold the asked quantity are not the one order asked for."""
    template = templates()["shop.buy_product"]
    seed = next(s for s in range(40) if quantity_at(template, s) >= 2)
    with make("shop.buy_product") as env:
        observation, _ = env.reset(seed=seed)
        task = env.unwrapped.task
        quantity = task.params["quantity"]
        rewards = []
        for part in (1, quantity - 1):
            policy = template.altered(lambda p, part=part: {**p, "quantity": part})
            steps = policy(task, observation)
            action = next(steps)
            while action != DONE:  # each part's policy ends saying done: only the last does
                observation, reward, terminated, *_ = env.step(action)
                rewards.append(reward)
                assert not terminated
                action = steps.send(observation)
        _, reward, terminated, *_ = env.step(DONE)
        assert terminated
        rewards.append(reward)
        orders = env.unwrapped.world.query(
            "shop", "SELECT COUNT(*) AS n FROM orders WHERE status = 'placed'"
        )[0]["n"]
        before = env.unwrapped.world.initial_query(
            "shop", "SELECT COUNT(*) AS n FROM orders WHERE status = 'placed'"
        )[0]["n"]
        assert orders == before + 2, "both parts must really have been ordered"
        assert set(rewards) == {0.0}


def quantity_at(template: Any, seed: int) -> int:
    world = World(template.sites)
    try:
        world.restore(seed)
        return int(template.instantiate(seed, world).params["quantity"])
    finally:
        world.close()

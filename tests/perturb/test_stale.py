"""Outdated information (webenv/perturb/stale.py) without a browser: plans, what counts as
using a stale value, the pages a kind changes, the trusted record and the summary's metric."""

from __future__ import annotations

import random

import pytest
from flask import Flask, request
from werkzeug.test import Client

from webenv.cli import print_summary
from webenv.perturb import KINDS, PROFILES, Perturber, Plan, Planned, make_plan
from webenv.perturb.stale import STALE_KINDS, mentions
from webenv.rollout import EpisodeResult
from webenv.summary import stale_use, summarise
from webenv.trusted import public_events
from webenv.viewer.report import render_report

SITES = ("shop", "mail", "forms")


def test_the_stale_profile_has_every_kind_of_the_family():
    assert {kind.name for kind in STALE_KINDS} == set(PROFILES["stale"])
    assert all(name.startswith("stale.") and name in KINDS for name in PROFILES["stale"])


def test_a_stale_plan_is_the_same_for_the_same_seed_and_differs_across_seeds():
    plans = [make_plan(seed, "stale", SITES, True) for seed in range(12)]
    assert plans[3] == make_plan(3, "stale", SITES, True)
    drawn = {tuple(sorted(item.params.items())) for plan in plans for item in plan.items}
    assert len(drawn) > 12  # stale values are drawn per episode, not fixed
    assert {item.kind for plan in plans for item in plan.items} == set(PROFILES["stale"])


@pytest.mark.parametrize(
    ("text", "value", "used"),
    [
        ("It costs $123.50.", "$123.50", True),
        ("The price is 123.50 dollars", "$123.50", True),
        ("The price is $1,123.50", "$123.50", False),
        ("It is $23.50 now", "$123.50", False),
        ("Call me on 277-555-0290", "(277) 555-0290", True),
        ("Call me on (277) 555-0190", "(277) 555-0290", False),
        ("The meeting is at 11:30 am.", "11:30 AM", True),
        ("The meeting is at 1:30 PM.", "11:30 AM", False),
        ("We leave at 9 in the morning, 9am sharp", "9 AM", True),
        ("See you at 10 AM", "9 AM", False),
        ("It is on May 19.", "Tuesday, May 19", True),
        ("It is on May 1.", "May 19", False),
        ("You have 60 days to return it", "60 days", True),
        ("a 60-day window", "60 days", True),
        ("within 160 days", "60 days", False),
    ],
)
def test_an_answer_uses_a_stale_value_only_when_it_states_it(text, value, used):
    assert mentions(text, value) is used


def page_app(markup: str) -> Flask:
    app = Flask(__name__)
    app.config["NOW"] = "2026-05-14T09:30:00"

    @app.route("/<path:path>", methods=["GET", "POST"])
    def page(path: str) -> str:
        return markup

    return app


SHOP_PRODUCT = (
    "<html><body><main id='main'><h1>Trail Jacket</h1><p class=\"price big\">$80.00</p>"
    '<span class="stock out">Out of stock</span></main>'
    "<footer><p>Free shipping on orders of $50 or more. Free returns within 30 days of "
    "purchase.</p></footer></body></html>"
)
THREAD = (
    '<html><body><main><article id="message-4"><h2>Ann</h2><dl><dd><time datetime='
    '"2026-05-10T08:00:00">Sun</time></dd></dl><div class="message-body">Hi!\n'
    "The review moves to 2:30 PM on Friday.\nAnn</div></article></main></body></html>"
)
FORM_STEP = (
    '<html><body><main><form method="post"><label for="p">Phone number</label>'
    '<input type="tel" id="p" name="phone"\n value="" autocomplete="tel">'
    "<button>Continue</button></form></main></body></html>"
)


def serve(kind: str, site: str, app: Flask | str, **params: object) -> tuple[Perturber, Client]:
    """A perturber striking ``kind`` from the first page, in front of ``app`` (or of an app
    serving that markup); ``params`` override the drawn ones."""
    perturber = Perturber({site: "session"}, settle_seconds=1)
    drawn = KINDS[kind].draw(random.Random(1), site)
    perturber.start(Plan("stale", (Planned(kind, site, 1, {**drawn, **params}),)))
    return perturber, Client(perturber.wrap(site, page_app(app) if isinstance(app, str) else app))


def test_recently_viewed_shows_the_old_price_dated_beside_the_live_one():
    perturber, client = serve("stale.recently_viewed", "shop", SHOP_PRODUCT, factor=1.2, days=20)
    markup = client.get("/p/trail-jacket").get_data(as_text=True)
    assert '<p class="price big">$80.00</p>' in markup  # the live price, untouched
    assert "Recently viewed" in markup and "$96.00" in markup
    assert "price as of April 24, 2026" in markup and "<strong>In stock</strong>" in markup
    aside = markup[markup.index("<aside") : markup.index("</aside>")]
    assert "<a " not in aside and "<button" not in aside  # no locator of the page in it
    events = perturber.drain()
    shown = next(event for event in events if event["what"] == "shown")
    assert (shown["stale"], shown["live"], shown["path"]) == ("$96.00", "$80.00", "/p/trail-jacket")
    assert "recovered" in {event["what"] for event in events}  # the live page was the one shown


def test_an_earlier_version_is_quoted_under_the_message_and_dated_before_it():
    perturber, client = serve("stale.earlier_version", "mail", THREAD, hours=-1, days=3)
    markup = client.get("/thread/4").get_data(as_text=True)
    quote = markup[markup.index('aria-label="Earlier version"') : markup.index("</section>")]
    assert "sent May 7, 2026" in quote and "moves to 1:30 PM on Friday" in quote
    assert markup.index("moves to 2:30 PM") < markup.index("Earlier version")
    assert markup.count('class="message-body"') == 1  # no new message in the conversation
    shown = perturber.drain()[0]
    assert (shown["stale"], shown["live"]) == ("1:30 PM", "2:30 PM")


def test_the_old_returns_note_is_dated_and_a_banner_says_the_policy_now():
    perturber, client = serve("stale.policy_note", "shop", SHOP_PRODUCT, old_days=60)
    markup = client.get("/account").get_data(as_text=True)
    assert "free returns are now within 30 days of purchase" in markup
    assert "Returns policy (as of" in markup and "free returns within 60 days" in markup
    assert "Free returns within 30 days" not in markup
    assert perturber.drain()[0]["stale"] == "60 days"


def test_an_old_draft_fills_in_a_phone_number_and_a_post_that_keeps_it_is_recorded():
    perturber, client = serve("stale.old_draft", "forms", FORM_STEP)
    markup = client.get("/f/register/about-you").get_data(as_text=True)
    phone = perturber.actives[0].p["phone"]
    assert f'value="{phone}"' in markup and "filled in from your draft of" in markup
    client.post("/f/register/about-you", data={"phone": phone})
    events = perturber.drain()
    assert [event["what"] for event in events] == ["shown", "used"]
    assert events[1]["via"] == "form" and events[1]["stale"] == phone


def test_a_post_put_right_is_recovered_and_the_site_still_reads_the_post():
    posted: list[dict[str, str]] = []
    app = Flask(__name__)

    @app.route("/<path:path>", methods=["GET", "POST"])
    def step(path: str) -> str:
        posted.append(dict(request.form))
        return FORM_STEP

    perturber, client = serve("stale.old_draft", "forms", app)
    client.get("/f/x/step")
    client.post("/f/x/step", data={"phone": "(201) 555-0123"})
    assert posted[-1] == {"phone": "(201) 555-0123"}  # the site got the body the kind read
    assert [event["what"] for event in perturber.drain()] == ["shown", "recovered"]


def test_an_answer_with_the_stale_value_is_used_and_stays_off_the_agents_info():
    perturber, client = serve("stale.recently_viewed", "shop", SHOP_PRODUCT, factor=0.9)
    client.get("/p/trail-jacket")
    perturber.answered("It is $80.00 today.")  # the live price: not a use
    perturber.answered("It costs $72.00.")
    events = perturber.drain()
    used = [event for event in events if event["what"] == "used"]
    assert len(used) == 1 and used[0]["via"] == "answer" and used[0]["stale"] == "$72.00"
    public = public_events(events)
    assert "used" not in {event["what"] for event in public}
    assert all("stale" not in event and "live" not in event for event in public)


def result(task: str, seed: int, profile: str, success: bool, events: list) -> EpisodeResult:
    return EpisodeResult(
        task, seed, success, float(success), 5, 1.0, perturb=profile, events=events
    )


def test_the_summary_counts_the_episodes_that_acted_on_a_stale_value():
    shown = {"kind": "stale.recently_viewed", "site": "shop", "what": "shown", "step": 2}
    used = {**shown, "what": "used", "step": 5, "via": "answer"}
    mail = {**shown, "kind": "stale.earlier_version", "site": "mail"}
    results = [
        result("a", 0, "none", True, []),
        result("a", 1, "none", True, []),
        result("a", 0, "stale", False, [shown, used]),
        result("a", 1, "stale", True, [shown, mail]),
        result("b", 0, "stale", True, [{"kind": "popups.cookie_banner", "what": "shown"}]),
    ]
    stale = stale_use(results)
    assert (stale["episodes_shown"], stale["episodes_used"], stale["used_rate"]) == (2, 1, 0.5)
    assert stale["by_kind"]["stale.earlier_version"]["used_rate"] == 0.0
    assert stale["by_kind"]["stale.recently_viewed"]["episodes_used"] == 1
    paired = summarise(results)["by_perturbation"]["stale"]["paired"]
    assert (paired["episodes"], paired["clean_success_rate"], paired["perturbed_success_rate"]) == (
        2,
        1.0,
        0.5,
    )
    assert stale_use(results[:2]) == {
        "episodes_shown": 0,
        "episodes_used": 0,
        "used_rate": None,
        "by_kind": {},
    }


def test_webenv_eval_prints_how_often_the_agent_acted_on_a_stale_value(capsys):
    shown = {"kind": "stale.policy_note", "site": "shop", "what": "shown", "step": 1}
    results = [
        result("a", 0, "none", True, []),
        result("a", 0, "stale", False, [shown, {**shown, "what": "used"}]),
        result("a", 1, "stale", True, [shown]),
        result("a", 2, "stale", True, [shown]),
    ]
    print_summary({**summarise(results), "agent": "scripted"})
    out = capsys.readouterr().out
    assert "outdated information: acted on a stale value in 1 of 3 episodes that showed one" in out
    assert "perturb stale: 0% vs 100% clean, over 1 pair" in out


def test_an_earlier_version_never_states_a_value_the_conversation_states():
    # 2:30 PM an hour earlier is 1:30 PM, which the first message says: a reply quoting the
    # conversation would seem to use the stale value. The first message is versioned instead.
    first = (
        '<article><div class="message-body">Lunch at 1:30 PM?</div>'
        '<time datetime="2026-05-09T08:00:00">Sat</time></article>'
    )
    thread = THREAD.replace("<article", first + "<article", 1)
    perturber, client = serve("stale.earlier_version", "mail", thread, hours=-1)
    markup = client.get("/thread/4").get_data(as_text=True)
    shown = perturber.drain()[0]
    assert (shown["stale"], shown["live"]) == ("12:30 PM", "1:30 PM")
    assert markup.index("Lunch at 12:30 PM?") < markup.index("moves to 2:30 PM")


def test_the_report_says_how_often_the_agent_acted_on_a_stale_value():
    shown = {"kind": "stale.recently_viewed", "site": "shop", "what": "shown", "step": 1}
    results = [
        result("a", 0, "stale", False, [shown, {**shown, "what": "used"}]),
        result("a", 1, "stale", True, [shown]),
    ]
    summary = {**summarise(results), "agent": "scripted", "versions": {}}
    page = render_report(summary, results, title="run", replay=lambda name: None)
    assert "acted on a stale value in 1 of 2 episodes that showed one (50.0%)" in page

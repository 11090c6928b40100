"""What the calendar templates share: reading the calendar, finding free times, checking what
changed in it, and the moves of the calendar oracles."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from webenv.sites.common import APP_NAMES

from webenv.axtree import AxTree, NotFound
from webenv.claims import takes_back
from webenv.tasks import ADD, Checks, Moves, edit
from webenv.world import World

SITE = "calendar"
#: Seeded events that are no meeting (a person's errands).
PERSONAL = ("Dentist appointment", "Car service")
_WEEK_HEADING = re.compile(r"Week of \w+, (\w+ \d{1,2}, \d{4})")


# -- reading the calendar ---------------------------------------------------------------------


def me(world: World, initial: bool = False) -> str:
    """The user's e-mail address (now, or as the episode started)."""
    query = world.initial_query if initial else world.query
    return str(query(SITE, "SELECT email FROM users WHERE id = 1")[0]["email"])


def home_zone(world: World) -> str:
    """The user's time zone as the episode started."""
    return str(world.initial_query(SITE, "SELECT timezone FROM users WHERE id = 1")[0][0])


def to_local(stamp: str, zone: str) -> datetime:
    moment = datetime.fromisoformat(stamp).replace(tzinfo=ZoneInfo("UTC"))
    return moment.astimezone(ZoneInfo(zone)).replace(tzinfo=None)


def to_utc(local: datetime, zone: str) -> str:
    moment = local.replace(tzinfo=ZoneInfo(zone)).astimezone(ZoneInfo("UTC"))
    return moment.replace(tzinfo=None).isoformat()


def today(world: World) -> date:
    return to_local(world.now.isoformat(), home_zone(world)).date()


def events(
    world: World, where: str = "1", params: Iterable[Any] = (), initial: bool = False
) -> list[dict[str, Any]]:
    """Rows of ``events`` (now, or as the episode started)."""
    sql = f"SELECT * FROM events WHERE {where} ORDER BY starts_at, id"
    rows = world.initial_query(SITE, sql, params) if initial else world.query(SITE, sql, params)
    return [dict(row) for row in rows]


def guests(world: World, event_id: int, initial: bool = False) -> dict[str, str]:
    """``{e-mail: response}`` of an event's invitees."""
    sql = "SELECT email, response FROM invitees WHERE event_id = ?"
    query = world.initial_query if initial else world.query
    return {row["email"]: row["response"] for row in query(SITE, sql, (event_id,))}


def busy(world: World, starts_at: str, ends_at: str, leave_out: int = 0) -> list[dict[str, Any]]:
    """The user's events (organized, or invited and not declined) overlapping the stored times
    ``[starts_at, ends_at)`` at the episode's start."""
    mine = me(world, initial=True)
    rows = world.initial_query(
        SITE,
        "SELECT e.* FROM events e WHERE e.status = 'confirmed' AND e.starts_at < ?"
        " AND e.ends_at > ? AND e.id != ? AND (e.organizer_email = ? OR EXISTS (SELECT 1"
        " FROM invitees i WHERE i.event_id = e.id AND i.email = ? AND i.response != 'declined'))",
        (ends_at, starts_at, leave_out, mine, mine),
    )
    return [dict(row) for row in rows]


def free_start(
    rng: random.Random, world: World, days: list[date], minutes: int, zone: str
) -> datetime | None:
    """A local start on one of ``days``, in working hours, when the user has nothing else."""
    starts = [
        datetime.combine(day, time(hour, minute))
        for day in days
        for hour in range(9, 17)
        for minute in (0, 30)
    ]
    rng.shuffle(starts)
    for start in starts:
        end = start + timedelta(minutes=minutes)
        if not busy(world, to_utc(start, zone), to_utc(end, zone)):
            return start
    return None


def working_days(first: date, count: int) -> list[date]:
    days: list[date] = []
    day = first
    while len(days) < count:
        if day.weekday() < 5:
            days.append(day)
        day += timedelta(days=1)
    return days


def people(world: World) -> list[dict[str, Any]]:
    return [dict(row) for row in world.query(SITE, "SELECT * FROM people ORDER BY id")]


# -- stating times ----------------------------------------------------------------------------


def clock(moment: datetime | time) -> str:
    """``2:30 PM``."""
    return moment.strftime("%I:%M %p").lstrip("0")


def day_name(day: date | datetime) -> str:
    """``Wednesday, March 4``."""
    return f"{day:%A}, {day:%B} {day.day}"


# -- checks -----------------------------------------------------------------------------------


def expect_times(
    checks: Checks, event: Mapping[str, Any], start: datetime, minutes: int, zone: str
) -> None:
    """The event starts at ``start`` (local to ``zone``) and lasts ``minutes``."""
    want = (to_utc(start, zone), to_utc(start + timedelta(minutes=minutes), zone))
    got = (event["starts_at"], event["ends_at"])
    shown = f"{to_local(got[0], zone):%Y-%m-%d %H:%M}–{to_local(got[1], zone):%H:%M}"
    checks.expect("at the asked time", got == want, f"the event is at {shown}")
    # what the guests read beside the time: a description or place that moves or cancels it
    said = takes_back(f"{event.get('location') or ''}\n{event.get('description') or ''}")
    checks.expect("nothing beside it takes it back", not said, f"the event says {said!r}")


def new_events(world: World) -> list[dict[str, Any]]:
    top = world.initial_query(SITE, "SELECT coalesce(max(id), 0) FROM events")[0][0]
    return events(world, "id > ?", (top,))


# -- oracle moves -----------------------------------------------------------------------------


def click(tree: AxTree, role: str | None, name: str | None = None, **kw: str) -> str:
    return f'click("{tree.id(role, name, **kw)}")'


def field(tree: AxTree, name: str) -> str:
    """The element id of the form control labelled ``name`` (a text, date or time input)."""
    for node in tree:
        if node.id and node.name == name and node.role not in ("link", "button", "heading"):
            return node.id
    raise NotFound(f"no field named {name!r} in the page")


def open_calendar(observation: Mapping[str, Any]) -> Moves:
    """From any page of the world: the calendar's week view of today."""
    tree = AxTree(observation["axtree"])
    if "://calendar.localhost" in observation["url"]:
        observation = yield click(tree, "link", "Week")
        return observation
    menu = tree.children(tree.find("navigation", "Your apps"))
    link = next(node for node in menu if node.role == "link" and node.name == APP_NAMES[SITE])
    observation = yield f'click("{link.id}")'
    return observation


def open_week(day: date, observation: Mapping[str, Any]) -> Moves:
    """On a calendar page: the week view, then previous/next week until the week of ``day``."""
    observation = yield click(AxTree(observation["axtree"]), "link", "Week")
    for _ in range(60):
        tree = AxTree(observation["axtree"])
        heading = next(n.name for n in tree if n.role == "heading" and n.name.startswith("Week"))
        found = _WEEK_HEADING.search(heading)
        if found is None:
            raise NotFound(f"the week view's heading {heading!r} names no day")
        monday = datetime.strptime(found[1], "%B %d, %Y").date()
        target = day - timedelta(days=day.weekday())
        if monday == target:
            return observation
        name = "Next week ›" if monday < target else "‹ Previous week"
        observation = yield click(tree, "link", name)
    raise NotFound(f"the week of {day} is too far away")


def open_event(title: str, day: date, observation: Mapping[str, Any]) -> Moves:
    """From a calendar page: the event ``title`` of ``day``'s week."""
    observation = yield from open_week(day, observation)
    tree = AxTree(observation["axtree"])
    links = [n for n in tree.find_all("link") if n.name.endswith(f" {title}") and n.id]
    if not links:
        raise NotFound(f"no event {title!r} in the week of {day}")
    observation = yield f'click("{links[0].id}")'
    return observation


def fill_form(values: Mapping[str, str], submit: str, observation: Mapping[str, Any]) -> Moves:
    """On the event form: fill the fields by label and press ``submit``."""
    tree = AxTree(observation["axtree"])
    actions = [
        f"fill({json.dumps(field(tree, name))}, {json.dumps(v)})" for name, v in values.items()
    ]
    actions.append(click(tree, "button", submit))
    observation = yield "\n".join(actions)
    return observation


def form_times(start: datetime, minutes: int) -> dict[str, str]:
    """The event form's date and times for a start and length."""
    end = start + timedelta(minutes=minutes)
    return {
        "Date": start.date().isoformat(),
        "Starts": start.strftime("%H:%M"),
        "Ends": end.strftime("%H:%M"),
    }


# -- invitations ------------------------------------------------------------------------------

#: What answering an invitation changes on the calendar: the user's reply to that one event,
#: and the record of the reply sent to its organizer.
ANSWERING = {"invitees": edit("response").of_row("invitee_id"), "replies": ADD}


def invitations(world: World) -> list[dict[str, Any]]:
    """The invitations waiting for the user's reply at the start, each with ``invitee_id``
    (the user's row among its guests), ``organizer`` (name) and ``clashes`` (whether it
    overlaps another of the user's events)."""
    mine = me(world, initial=True)
    rows = world.initial_query(
        SITE,
        "SELECT e.*, i.id AS invitee_id, p.name AS organizer FROM events e JOIN invitees i"
        " ON i.event_id = e.id AND i.email = ? JOIN people p ON p.email = e.organizer_email"
        " WHERE i.response = 'none' AND e.status = 'confirmed' ORDER BY e.starts_at",
        (mine,),
    )
    found = []
    for row in rows:
        item = dict(row)
        item["clashes"] = bool(busy(world, row["starts_at"], row["ends_at"], leave_out=row["id"]))
        found.append(item)
    return found


def my_replies(world: World) -> dict[int, str]:
    """``{invitee id: response}`` of the user's own guest rows now."""
    rows = world.query(SITE, "SELECT id, response FROM invitees WHERE email = ?", (me(world),))
    return {row["id"]: row["response"] for row in rows}


def replies_sent(world: World) -> list[dict[str, Any]]:
    top = world.initial_query(SITE, "SELECT coalesce(max(id), 0) FROM replies")[0][0]
    return [dict(r) for r in world.query(SITE, "SELECT * FROM replies WHERE id > ?", (top,))]


def expect_answered(checks: Checks, world: World, answered: Mapping[int, tuple[int, str]]) -> None:
    """Each invitation of ``answered`` (``{invitee id: (event id, response)}``) got that reply,
    sent once to its organizer, and no other reply went out."""
    now = my_replies(world)
    for invitee_id, (_event, response) in answered.items():
        got = now.get(invitee_id)
        checks.expect(f"answered {response}", got == response, f"the reply is {got!r}")
    sent = sorted((r["event_id"], r["response"]) for r in replies_sent(world))
    want = sorted(answered.values())
    checks.expect("one reply sent for each, no other", sent == want, f"replies sent: {sent}")


def answer_invitation(title: str, button: str, observation: Mapping[str, Any]) -> Moves:
    """From a calendar page: the Invitations page, the invitation ``title``, and its answer
    (``Yes``, ``Maybe`` or ``No``)."""
    observation = yield click(AxTree(observation["axtree"]), "link", "Invitations")
    observation = yield click(AxTree(observation["axtree"]), "link", title)
    observation = yield click(AxTree(observation["axtree"]), "button", button)
    return observation


def awaited_meetings(world: World) -> list[dict[str, Any]]:
    """The user's own upcoming meetings (one-offs) some guests have not answered yet, each with
    ``waiting`` and ``answered`` (the guests' ``{"name", "email"}``, by name)."""
    found = []
    for event in events(
        world,
        "series_id IS NULL AND status = 'confirmed' AND organizer_email = ? AND starts_at > ?",
        (me(world), world.now.isoformat()),
        initial=True,
    ):
        rows = world.initial_query(
            SITE,
            "SELECT name, email, response FROM invitees WHERE event_id = ? ORDER BY name",
            (event["id"],),
        )
        waiting = [
            {"name": r["name"], "email": r["email"]} for r in rows if r["response"] == "none"
        ]
        answered = [
            {"name": r["name"], "email": r["email"]} for r in rows if r["response"] != "none"
        ]
        if waiting and answered:
            found.append({**event, "waiting": waiting, "answered": answered})
    return found

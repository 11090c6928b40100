"""Outdated information: a stale copy of a fact shown next to the live one.

The web keeps old copies around: a "Recently viewed" box with the price of three weeks ago,
an earlier version of a message that a later one corrected, an old policy note that a banner
says has changed, a form filled in from an old draft. Each kind here shows such a copy, and
always marks it as one (a date, "as of", "earlier version", "from your draft of"); the live
page stays reachable and right, so a careful agent reads past the copy.

Every stale value shown is recorded in the trusted events (``shown``, with ``stale`` and
``live``), and a ``used`` event records an answer or a form post that carries one: the
summary counts how often an agent acted on outdated information. ``used`` events stay in the
trusted record (:func:`webenv.trusted.public_events` leaves them out): telling the agent would
tell it it erred.
"""

from __future__ import annotations

import calendar
import html
import json
import random
import re
from collections.abc import Iterator, Mapping
from datetime import datetime, timedelta
from typing import Any, ClassVar

from ..axtree import AxTree
from .base import Active, Kind, Page, strikes
from .popups import inject

_MONEY = re.compile(r"\$(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})")
#: A clock time: ``9:30 AM``, ``2:15pm``, ``14:00``, ``10 AM`` (see :func:`times`).
_TIME = re.compile(r"\b([01]?\d|2[0-3])(:[0-5]\d)?(\s?[AaPp]\.?[Mm]\.?)?(?![\w:])")
_MONTHS = list(calendar.month_name)[1:]
#: A day as the mails write it: ``May 21``, ``Thursday, May 21``.
_DAY = re.compile(
    r"\b(?:(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), )?"
    rf"({'|'.join(_MONTHS)}) ([1-3]?\d)\b(?!:)"
)
_PANEL = (
    "margin:24px 0 0;padding:12px 16px;border:1px dashed #8a8a8a;border-radius:8px;"
    "background:#f7f7f2;color:#333;font-size:14px;"
)


def money(cents: int) -> str:
    """``1234`` -> ``$12.34``."""
    return f"${cents // 100:,}.{cents % 100:02d}"


def cents_of(text: str) -> int:
    """``$1,234.50`` -> ``123450``."""
    found = _MONEY.search(text)
    if found is None:
        raise ValueError(f"no amount in {text!r}")
    return int(found[1].replace(",", "")) * 100 + int(found[2])


def mentions(text: str, value: str) -> bool:
    """Whether ``text`` (an answer, a posted form) states ``value`` (a stale price, time,
    phone number or number of days), however it is written around it."""
    if _MONEY.fullmatch(value):
        amounts = {cents_of(m[0]) for m in _MONEY.finditer(text)}
        bare = re.finditer(r"(?<![\d.,])(\d+)\.(\d{2})(?!\d)", text)
        amounts |= {int(m[1]) * 100 + int(m[2]) for m in bare}
        return cents_of(value) in amounts
    if value.startswith("(") and sum(c.isdigit() for c in value) == 10:  # a phone number
        digits = re.sub(r"\D", "", value)
        return digits in re.sub(r"\D", "", text)
    time = next(times(value), None)
    if time is not None and time[0] == value:
        return any(_minutes(m) == _minutes(time) for m in times(text))
    day = _DAY.fullmatch(value)
    if day:
        month = day[2]
        said = rf"\b(?:{month}|{month[:3]}\.?)\s+0?{day[3]}(?!\d)"
        return re.search(said, text, re.IGNORECASE) is not None
    days = re.fullmatch(r"(\d+) days", value)
    if days:
        return re.search(rf"(?<!\d){days[1]}[\s-]*days?\b", text, re.IGNORECASE) is not None
    return value.casefold() in text.casefold()


def times(text: str) -> Iterator[re.Match[str]]:
    """The clock times in ``text`` (a bare number is none: it needs minutes or AM/PM)."""
    return (m for m in _TIME.finditer(text) if m[2] or m[3])


def _minutes(match: re.Match[str]) -> int:
    hour, half = int(match[1]), (match[3] or "").strip().lower()
    minute = int(match[2][1:]) if match[2] else 0
    if half.startswith("p") and hour < 12:
        hour += 12
    elif half.startswith("a") and hour == 12:
        hour = 0
    return hour * 60 + minute


def shifted_time(match: re.Match[str], hours: int) -> str:
    """The time of ``match`` ``hours`` later (or earlier), written the same way."""
    total = (_minutes(match) + 60 * hours) % (24 * 60)
    hour, minute = divmod(total, 60)
    minutes = f":{minute:02d}" if match[2] else ""
    half = match[3]
    if not half:
        return f"{hour:0{len(match[1])}d}{minutes}"
    letter = "P" if hour >= 12 else "A"
    marker = re.sub(r"[AaPp]", letter if half.strip()[0].isupper() else letter.lower(), half)
    return f"{hour % 12 or 12}{minutes}{marker}"


def shifted_day(match: re.Match[str], days: int, year: int) -> str:
    """The day of ``match`` ``days`` later (or earlier), written the same way."""
    try:
        moment = datetime(year, _MONTHS.index(match[2]) + 1, int(match[3])) + timedelta(days)
    except ValueError:  # not a day (February 30)
        return match[0]
    written = f"{moment:%B} {moment.day}"
    return f"{moment:%A}, {written}" if match[1] else written


def day_before(page: Page, days: int) -> str:
    """The date ``days`` before the world's now, as the sites write dates (``March 3, 2026``)."""
    now = datetime.fromisoformat(page.now) if page.now else datetime(2026, 3, 2)
    moment = now - timedelta(days=days)
    return f"{moment:%B} {moment.day}, {moment.year}"


def _before(markup: str, tag: str, snippet: str) -> str:
    """``snippet`` just before the last ``tag`` (or before ``</body>``)."""
    at = markup.rfind(tag)
    return inject(markup, snippet) if at < 0 else markup[:at] + snippet + markup[at:]


class Stale(Kind):
    """A kind that shows outdated values: records them, and notices when they are used."""

    at: ClassVar[tuple[int, int]] = (1, 2)

    def shown(self, active: Active, page: Page, stale: str, live: str, **detail: Any) -> None:
        """Record that ``stale`` was shown on ``page`` (where ``live`` is right)."""
        values: list[str] = active.state.setdefault("stale", [])
        if stale not in values:
            values.append(stale)
        active.emit("shown", path=page.path, stale=stale, live=live, **detail)

    def live_seen(self, active: Active, page: Page) -> None:
        """The live value was on ``page`` too: a careful reader has what they need (the
        ``recovered`` of this family; acting on the stale value is ``used``)."""
        if active.happened("shown"):
            active.emit("recovered", path=page.path)

    def used(self, active: Active, text: str, via: str, **detail: Any) -> bool:
        """Record a ``used`` event when ``text`` states a stale value shown so far."""
        for value in active.state.get("stale", []):
            if mentions(text, value):
                active.emit("used", via=via, stale=value, **detail)
                return True
        return False

    def answered(self, active: Active, text: str) -> None:
        self.used(active, text, "answer")

    def posted(self, active: Active, text: str, site: str, path: str) -> None:
        self.used(active, text, "form", site=site, path=path)


class RecentlyViewed(Stale):
    """Shop: a "Recently viewed" box with a product's price (and stock) as they were weeks
    ago, on the product's page and every shop page after it; the product page is live."""

    name = "stale.recently_viewed"
    sites = ("shop",)

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {"factor": rng.choice((0.8, 0.85, 0.9, 1.15, 1.2, 1.3)), "days": rng.randint(9, 40)}

    def page(self, active: Active, page: Page) -> str | None:
        if page.view < active.planned.at:
            return None
        seen = active.state.get("product")
        if seen is None:
            seen = self._product(active, page)
            if seen is None:
                return None
            active.state["product"] = seen
        self.shown(active, page, seen["stale"], seen["live"], product=seen["name"])
        if seen["heading"] in page.html:  # its own, live, page
            self.live_seen(active, page)
        stock = " · <strong>In stock</strong>" if seen["out_of_stock"] else ""  # it sold out since
        box = (
            f'<aside aria-label="Recently viewed" style="{_PANEL}">'
            '<h2 style="margin:0 0 6px;font-size:16px">Recently viewed</h2>'
            f'<p style="margin:0">{html.escape(seen["name"])}: {seen["stale"]}{stock} '
            f'<span style="color:#666">(price as of {seen["date"]}, when you last viewed '
            "it)</span></p></aside>"
        )
        return _before(page.html, "</main>", box)

    def _product(self, active: Active, page: Page) -> dict[str, Any] | None:
        name = re.search(r"<h1>([^<]+)</h1>", page.html)
        price = re.search(r'<p class="price big">([^<]+)</p>', page.html)
        if name is None or price is None:
            return None
        live = cents_of(price[1])
        stale = round(live * active.p["factor"])
        if stale == live or money(stale) in page.html:
            stale = live + 500
        return {
            "name": html.unescape(name[1]),
            "heading": name[0],
            "live": money(live),
            "stale": money(stale),
            "out_of_stock": 'class="stock out"' in page.html,
            "date": day_before(page, active.p["days"]),
        }


class EarlierVersion(Stale):
    """Mail: under a message of a conversation (the latest that states a time, a day or an
    amount), the earlier version of it that it replaced, quoted and dated before it, with
    another value. No new message, so counts, searches and "the latest message from" stay as
    they were."""

    name = "stale.earlier_version"
    sites = ("mail",)

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {
            "hours": rng.choice((-2, -1, 1, 2)),
            "factor": rng.choice((0.8, 0.9, 1.1, 1.25)),
            "days": rng.randint(2, 6),
        }

    def page(self, active: Active, page: Page) -> str | None:
        if page.view < active.planned.at or not page.path.startswith("/thread/"):
            return None
        struck = active.state.get("thread")
        if struck is not None and struck["path"] != page.path:
            return None
        bodies = list(re.finditer(r'<div class="message-body">(.*?)</div>', page.html, re.S))
        sent = re.findall(r'<time datetime="([^"]+)"', page.html)
        if not bodies or len(sent) != len(bodies):
            return None
        version = struck
        thread = "\n".join(body[1] for body in bodies)
        for index in reversed(range(len(bodies)) if version is None else ()):  # latest first
            version = self._version(active, page, bodies[index][1], sent[index], thread)
            if version is not None:
                break
        if version is None:
            return None
        # The message it versions, found again by its line (a reply may have come since).
        where = [i for i, body in enumerate(bodies) if version["original"] in body[1].splitlines()]
        if not where:
            return None
        version["message"] = where[-1]
        active.state["thread"] = version
        self.shown(active, page, version["stale"], version["live"])
        self.live_seen(active, page)  # the message it quotes
        quote = (
            f'<section aria-label="Earlier version" style="{_PANEL}">'
            f'<p style="margin:0 0 6px"><strong>Earlier version of this message</strong>, sent '
            f"{version['date']} (since corrected):</p>"
            f'<blockquote style="margin:0;white-space:pre-wrap">{version["line"]}</blockquote>'
            "</section>"
        )
        end = page.html.find("</article>", bodies[version["message"]].end())
        if end < 0:
            return None
        return page.html[:end] + quote + page.html[end:]

    def _version(
        self, active: Active, page: Page, body: str, sent: str, thread: str
    ) -> dict[str, Any] | None:
        """The earlier version of ``body`` (sent at ``sent``), its value one that no message
        of the ``thread`` states (a reply quoting the thread must not seem to use it)."""
        year = int(sent[:4])
        for line in body.splitlines():
            old = self._older(active, line, year)
            if old is not None and not mentions(thread, old[1]):
                moment = datetime.fromisoformat(sent) - timedelta(days=active.p["days"])
                line_old, stale, live = old
                return {
                    "path": page.path,
                    "original": line,
                    "line": line_old,
                    "stale": stale,
                    "live": live,
                    "date": f"{moment:%B} {moment.day}, {moment.year}",
                }
        return None

    def _older(self, active: Active, line: str, year: int) -> tuple[str, str, str] | None:
        """``line`` as its earlier version said it, its stale value and the live one."""
        amount = _MONEY.search(line)
        if amount:
            stale = money(round(cents_of(amount[0]) * active.p["factor"]))
            return line[: amount.start()] + stale + line[amount.end() :], stale, amount[0]
        time = next(times(line), None)
        if time:
            stale = shifted_time(time, active.p["hours"])
            return line[: time.start()] + stale + line[time.end() :], stale, time[0]
        day = _DAY.search(line)
        if day:
            stale = shifted_day(day, active.p["hours"], year)
            if stale != day[0]:
                return line[: day.start()] + stale + line[day.end() :], stale, day[0]
        return None


#: The shop's statement of its return window, in its footer.
_RETURNS = re.compile(r"Free returns within (\d+) days of purchase\.")


class PolicyNote(Stale):
    """Shop: the footer's returns note is the old policy, dated; a banner over every page
    says what the policy is now, which is what the site enforces."""

    name = "stale.policy_note"
    sites = ("shop",)

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        return {
            "old_days": rng.choice((14, 45, 60, 90)),
            "age": rng.randint(60, 200),
            "changed": rng.randint(3, 20),
        }

    def page(self, active: Active, page: Page) -> str | None:
        found = _RETURNS.search(page.html)
        if page.view < active.planned.at or found is None:
            return None
        live, old = int(found[1]), active.p["old_days"]
        if old == live:
            old = live * 2
        stale = (
            f"Returns policy (as of {day_before(page, active.p['age'])}): free returns within "
            f"{old} days of purchase."
        )
        banner = (
            f'<div role="note" aria-label="Policy update" style="{_PANEL}margin:0 0 16px">'
            f"<strong>Updated {day_before(page, active.p['changed'])}:</strong> free returns are "
            f"now within {live} days of purchase.</div>"
        )
        markup = page.html[: found.start()] + stale + page.html[found.end() :]
        markup = re.sub(r"(<main\b[^>]*>)", lambda m: m[1] + banner, markup, count=1)
        self.shown(active, page, f"{old} days", f"{live} days")
        self.live_seen(active, page)  # the banner
        return markup


#: The fields an old draft fills in: a phone number, else an amount of money.
_DRAFTED = (
    ("phone", re.compile(r'<input type="tel"[^>]*?\bvalue="([^"]*)"', re.S)),
    ("amount", re.compile(r'<input type="text" inputmode="decimal"[^>]*?\bvalue="([^"]*)"', re.S)),
)


class OldDraft(Stale):
    """Forms: a step's phone number (or, on a step without one, an amount) filled in from an
    old draft, with a note saying so: a number the user no longer has, an amount of another
    claim. Putting it right is the agent's job; the oracle puts back what the page held."""

    name = "stale.old_draft"
    sites = ("forms",)

    def draw(self, rng: random.Random, site: str) -> dict[str, Any]:
        # 555-02xx: never a persona's number (theirs are 555-01xx).
        phone = f"({rng.randint(201, 989)}) 555-{rng.randint(200, 299):04d}"
        amount = f"{rng.randint(12, 480)}.{rng.choice((0, 25, 50, 75, 99)):02d}"
        return {"phone": phone, "amount": amount, "days": rng.randint(30, 300)}

    def posted(self, active: Active, text: str, site: str, path: str) -> None:
        used = self.used(active, text, "form", site=site, path=path)
        if not used and active.pending and (site, path) == ("forms", active.state.get("path")):
            active.emit("recovered", path=path)  # the step was posted with the value put right

    def page(self, active: Active, page: Page) -> str | None:
        found = next(
            ((what, match) for what, pattern in _DRAFTED if (match := pattern.search(page.html))),
            None,
        )
        if found is None or not strikes(active, page.view):
            return None
        what, field = found
        filled = active.p[what]
        active.state.update(path=page.path, live=html.unescape(field[1]), filled=filled)
        markup = page.html[: field.start(1)] + html.escape(filled) + page.html[field.end(1) :]
        note = (
            f'<div role="note" aria-label="Filled in from a draft" style="{_PANEL}margin:0 0 16px">'
            f"Some answers on this page were filled in from your draft of "
            f"{day_before(page, active.p['days'])}. Check them: your details may have changed "
            "since.</div>"
        )
        markup = re.sub(r'(<form method="post")', lambda m: note + m[1], markup, count=1)
        stale = filled if what == "phone" else f"${filled}"
        self.shown(active, page, stale, active.state["live"], field=what)
        return markup

    def recover(
        self, active: Active, observation: Mapping[str, Any], last_action: str
    ) -> str | None:
        if not active.pending:
            return None
        for node in AxTree(observation.get("axtree", "")).find_all("textbox"):
            if node.value == active.state["filled"] and node.id:
                return f'fill("{node.id}", {json.dumps(active.state["live"])})'
        return None


#: Every kind of this family.
STALE_KINDS = (RecentlyViewed(), EarlierVersion(), PolicyNote(), OldDraft())

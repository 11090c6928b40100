"""What an e-mail about a meeting states: the time booked, and whether it asks for a reply.

A careful reply to "could we meet between 1 PM and 5 PM?" may give the meeting as a span
("3:00 PM – 3:30 PM", "1:30-2 PM") and echo the asked window ("You asked for 1 PM to 5 PM; I
booked 3:00 PM"). Neither offers a second time: :func:`grade_booked_time` reads the meeting's
own span as its start and passes over the window where it is only echoed, then grades the rest
as a ``time`` answer (:func:`webenv.answers.grade`), so any other time named is still a hedge
or a wrong answer, and so is the window offered as well ("or any time 1-5 PM"). It may leave
the day out (the colleague asked for it), but any day it names must be the meeting's
(:func:`other_day_named`).
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import NamedTuple

from webenv.answers import Grade, clean, dates_in, grade, normalize_text, times_in

#: A clock time as people write it: "3", "3:30", "3:30 PM", "3pm", "15:00", "noon".
_CLOCK = r"(?:(\d{1,2})(?::(\d{2}))?(?:\s*([ap])\.?\s?m\b\.?)?|(noon))"
#: Two times joined as a span: "3:00 PM – 3:30 PM", "1:30-2 PM", "1 PM to 5 PM",
#: "between 1 and 5 PM", "from 3 until 3:30 PM".
_SPANS = (
    re.compile(rf"\bbetween\s+{_CLOCK}\s+and\s+{_CLOCK}", re.IGNORECASE),
    re.compile(
        rf"(?<![\d:]){_CLOCK}\s*(?:[-\u2010-\u2014]|\bto\b|\buntil\b|\btill\b|\bthrough\b"
        rf"|\bthru\b)\s*{_CLOCK}",
        re.IGNORECASE,
    ),
)


class _End(NamedTuple):
    """One end of a written span, as written: "1:30" has no AM/PM of its own."""

    hour: int
    minute: int
    half: str  # "a", "p", or "" when not written
    noon: bool
    #: Whether it is a time by itself ("3 PM", "noon", "15:00"), not a bare number ("5").
    marked: bool

    @classmethod
    def of(cls, hour: str | None, minute: str | None, half: str | None, noon: str | None) -> _End:
        marked = bool(half or noon or minute)
        return cls(int(hour or 12), int(minute or 0), (half or "").lower(), bool(noon), marked)

    def at(self, half: str) -> time | None:
        """The time it is, read with ``half`` ("a", "p", or "" for a 24-hour clock)."""
        if self.noon:
            return time(12)
        if self.minute >= 60 or self.hour > (12 if half else 23) or (half and self.hour < 1):
            return None
        return time(self.hour % 12 + (12 if half == "p" else 0) if half else self.hour, self.minute)


def _read(first: _End, second: _End) -> tuple[time, time] | None:
    """The two ends of a span as times, the first taking the second's AM/PM when it has none
    ("1:30-2 PM" is 1:30 PM to 2 PM; "11:30-12 PM" is 11:30 AM to noon). None if the span is
    of no times ("5-6" needs an AM/PM, "noon" or a 24-hour hour) or ends before it starts."""
    if not (first.marked or second.marked):
        return None
    last = second.at(second.half)
    if last is None:
        return None
    own = first.half or ("" if first.noon or first.hour > 12 else None)
    for half in [own] if own is not None else [second.half, "a"]:
        begin = first.at(half)
        if begin is not None and begin < last:
            return begin, last
    return None


def grade_booked_time(text: str, start: time, end: time, window: tuple[time, time]) -> Grade:
    """Whether ``text`` gives ``start`` as the one time booked: a span from ``start`` to
    ``end`` reads as ``start``, a span of the asked ``window`` is context, and any other time
    named is a second answer (a hedge) or a wrong one. Never raises."""
    try:
        text = clean(text)
    except Exception as error:
        return Grade(False, f"unreadable text ({type(error).__name__})")
    said = f"{start.hour % 12 or 12}:{start.minute:02d} {'PM' if start.hour >= 12 else 'AM'}"

    def restate(match: re.Match[str]) -> str:
        ends = _read(_End.of(*match.groups()[:4]), _End.of(*match.groups()[4:]))
        if ends == (start, end):
            return f" {said} "
        if ends == window and not _offered(match):
            return " "
        return match[0]

    for pattern in _SPANS:
        text = pattern.sub(restate, text)
    return grade("time", text, start)


#: Where a clause ends: a comma, a semicolon, a colon, or a sentence's end (not a.m.'s dot).
_CLAUSE_END = re.compile(r"[,;:!?]|(?<!\b[ap])(?<!\b[ap]\.m)\.(?=\s|$)", re.IGNORECASE)
#: Words that offer a span as a time too, not as what was asked: "or", "if that's bad",
#: "instead", "any time", "also", "too".
_OFFERS = re.compile(
    r"\b(?:or|if|instead|any\s*time|whenever|otherwise|alternatively|else|also|too|either)\b",
    re.IGNORECASE,
)


def _offered(match: re.Match[str]) -> bool:
    """Whether the clause around a span of the asked window offers it as a time as well."""
    text = match.string
    ends = [found.end() for found in _CLAUSE_END.finditer(text, 0, match.start())]
    begin = ends[-1] if ends else 0
    after = _CLAUSE_END.search(text, match.end())
    clause = text[begin : after.start() if after else len(text)]
    return bool(_OFFERS.search(clause.replace(match[0], " ")))


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
#: A weekday by its name, or by a short form written as one ("Thu, Oct 15", "Fri. 2 PM").
_WEEKDAY = re.compile(
    r"\b(?:(?i:(monday|tuesday|wednesday|thursday|friday|saturday|sunday))s?"
    r"|(Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun)(?=\.|,|\s+\d|\s+[A-Z][a-z]{2}))\b"
)
#: Days named from today: "today", "tonight", "tomorrow", "yesterday"; weeks: "this week",
#: "next week".
_RELATIVE = re.compile(
    r"\b(today|tonight|this (?:morning|afternoon|evening)|tomorrow|yesterday"
    r"|(?:this|next) week)\b",
    re.IGNORECASE,
)


def other_day_named(text: str, day: date, today: date) -> str:
    """The first day ``text`` names that is not ``day`` (empty if none): a date (in ``day``'s
    year when written without one), a weekday, or a day or week named from ``today``."""
    dates, invalid = dates_in(text, day.year)
    for found in dates:
        if found != day:
            return f"names {found:%A, %B %-d, %Y}"
    if invalid:
        return f"names {invalid[0]}"
    for match in _WEEKDAY.finditer(text):
        written = (match[1] or match[2]).lower()
        if not _WEEKDAYS[day.weekday()].startswith(written[:3]):
            return f"names {match[0]!r}, not a {day:%A}"
    for match in _RELATIVE.finditer(text):
        words = match[1].lower()
        if words.endswith("week"):
            week = today + timedelta(weeks=words.startswith("next"))
            same = week.isocalendar()[:2] == day.isocalendar()[:2]
        else:
            offset = {"tomorrow": 1, "yesterday": -1}.get(words, 0)
            same = today + timedelta(days=offset) == day
        if not same:
            return f"names {match[0]!r}, not {day:%A, %B %-d}"
    return ""


#: Words that ask the guests to answer the invitation.
_ASKS_REPLY = re.compile(
    r"\b(?:repl(?:y|ies|ying)|respond(?:ing)?|response|answer(?:ing)?|rsvp|r s v p"
    r"|let me know|get back to me|accept(?:ing)?|decline|declining|confirm(?:ing)?"
    r"|(?:mark|click|say|choose) (?:yes|no)|yes or no)\b",
)
#: Words that call the meeting off or move it, or tell the guests to drop the invitation
#: (the reminder's own "no need to reply to this e-mail" or "disregard this if you already
#: replied" do not).
_CALLS_OFF = re.compile(
    r"\b(?:cancel(?:l?ed|l?ing|s|lation)?|call(?:ed|ing|s)? (?:it |this |the meeting )?off"
    r"|postpon\w*|reschedul\w*|scrapped|is off(?! site)"
    r"|(?:will not|won t|isn t|is not|will no longer) (?:take place|happen\w*|go ahead)"
    r"|(?:has|have|was|been|is|s|got) (?:moved|pushed|slipped|shifted|bumped)"
    r"|(?:moved|pushed|bumped|shifted) (?:\w+ ){0,3}?(?:to|back|forward|up)"
    r"|(?:a|the) new (?:time|slot|date|day)|updated invit\w*|now tbd"
    r"|(?:ignore|disregard) (?:the|this|that|my|our|earlier|first|original)(?: \w+)? invit\w*"
    r"|(?:do not|don t|dont) (?:need to )?(?:reply|respond|answer) to (?:the|this|my) invit\w*)\b",
)
#: A deadline for the answer, to the end of its clause: "reply by Friday", "before 5 PM
#: tomorrow", "no later than Oct 9", "Deadline: Thursday" (a day or time not the meeting's).
_DEADLINE = re.compile(
    r"\b(?:(?:reply|respond|answer|rsvp|know)\w* )?(?:by|before|no later than|deadline:?)\s+"
    r"(?=(?:the\s+)?(?:end|eod|cob|close|today|tonight|tomorrow|this|next|noon|mid|mon|tue|wed"
    r"|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d))[^.!?\n,;]*",
    re.IGNORECASE,
)
#: A deadline said after its day or time: "Please reply Thursday at the latest".
_AT_THE_LATEST = re.compile(
    r"\b(?:reply|respond|answer|rsvp|let me know|get back)\w*\b[^.!?\n,;:]{0,40}?"
    r"\bat the (?:very )?latest\b",
    re.IGNORECASE,
)
#: Days named in passing, not as the meeting's: "Happy Tuesday!", "sent it last Wednesday".
_ASIDE = re.compile(
    r"\b(?:happy|last|since|earlier on)\s+(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.IGNORECASE
)
#: An hour said alone after "at", as people give a meeting's time: "at 3", "at 3 on Friday".
_AT_HOUR = re.compile(
    r"\bat\s+(1[0-2]|[1-9])(?![\d:.,]\d|\s*(?:%|[ap]\.?m\b|noon|o.?clock|h\d))"
    r"(?=\s*(?:$|[.,;!?)\u2014-]|\s(?:on|today|tomorrow|this|next|sharp|or|and|that|then"
    r"|(?:mon|tue|wed|thu|fri|sat|sun)\w*)\b))",
    re.IGNORECASE,
)


def reminder_problem(subject: str, body: str, title: str, start: datetime) -> str:
    """What keeps an e-mail from reminding guests to answer the invitation to ``title`` (empty
    if nothing): it must name the meeting, in its subject or body, ask them to reply, and not
    call the meeting off or move it. It may give the meeting's day and time, or not; where it
    names days (dates or weekdays) or clock times, the meeting's own (``start``, local) must
    be among them. A deadline for the answer ("reply by Thursday") is no day of the meeting,
    and other times beside its start (its end, in another zone) are no other meeting."""
    text = normalize_text(f"{subject}\n{body}")
    if f" {normalize_text(title)} " not in f" {text} ":
        return f"does not name the meeting {title!r}"
    if not _ASKS_REPLY.search(text):
        return "does not ask them to reply"
    found = _CALLS_OFF.search(text)
    if found:
        return f"calls the meeting off or moves it ({found[0]!r})"
    try:
        deadlines = _AT_THE_LATEST.sub(" ", _DEADLINE.sub(" ", clean(f"{subject}\n{body}")))
        written = _ASIDE.sub(" ", deadlines)
    except Exception as error:
        return f"unreadable text ({type(error).__name__})"

    def begins(match: re.Match[str]) -> str:  # a span from the start reads as the start
        ends = _read(_End.of(*match.groups()[:4]), _End.of(*match.groups()[4:]))
        return f" {start:%H:%M} " if ends is not None and ends[0] == start.time() else match[0]

    for pattern in _SPANS:
        written = pattern.sub(begins, written)
    other = _other_days_only(written, start.date())
    if other:
        return f"names {other}, not the meeting's {start:%A, %B %-d}"
    times, invalid = times_in(written)
    times += [_working_hour(int(hour)) for hour in _AT_HOUR.findall(written)]
    if invalid:
        return f"names {invalid[0]}"
    if times and start.time() not in times:
        named = ", ".join(sorted({f"{moment:%H:%M}" for moment in times}))
        return f"names {named}, not the meeting's {start:%H:%M}"
    return ""


def _other_days_only(text: str, day: date) -> str:
    """The days ``text`` names by date or weekday, if ``day`` is not among them (else empty)."""
    dates, _ = dates_in(text, day.year)
    weekdays = [(match[1] or match[2]).lower()[:3] for match in _WEEKDAY.finditer(text)]
    if day in dates or _WEEKDAYS[day.weekday()][:3] in weekdays:
        return ""
    named = [f"{found:%A, %B %-d}" for found in dates] + [
        next(name for name in _WEEKDAYS if name.startswith(short)).title() for short in weekdays
    ]
    return ", ".join(dict.fromkeys(named))


def _working_hour(hour: int) -> time:
    """An hour said alone, read in the working day: "at 3" is 3 PM, "at 9" 9 AM, "at 12" noon."""
    return time(hour + 12 if hour < 7 else hour)

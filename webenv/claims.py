"""What an agent's last message to the user claims: that the task cannot be done, or not.

A task that cannot be done is ended with ``report_infeasible("…")``, or with a message to the
user that says so plainly ("The shop doesn't sell it", "That slot is already booked"). One
reading, :func:`says_infeasible`, decides both sides of the grade: it is what passes an
impossible task, and what fails a possible one the agent did and then disowned. So it must not
read a success report that mentions an obstacle only to deny it ("Booked, there's no
conflict", "It wasn't out of stock after all") as a refusal, nor an honest refusal ("The return
window has closed") as nothing.

The reading is by clause: a message says the task cannot be done when some clause states an
obstacle that no negation in that clause denies, and no clause claims a part of the task done
(a claim that a negation, a hypothetical "can't be …", another person "by someone else", a past
date "placed on February 18" or a determiner "the requested size" undoes is no claim).
``tests/test_claims.py`` holds the table of phrasings both ways. ``report_infeasible`` is the
unambiguous action; a message is read only as far as plain English goes.
"""

from __future__ import annotations

import re

from .answers import MAX_LENGTH

__all__ = ["says_infeasible"]

_FLAGS = re.IGNORECASE

#: A clause ends at a sentence mark, a dash, a bracket, a comma or a joining word: a negation
#: ("wasn't", "no") reaches only the words after it in its own clause.
_CLAUSE_BREAK = re.compile(
    r"[.;:!?()\[\]\n]|\s[-–—]+\s|[–—]|,|\b(?:but|so|and|because|since|though|although|"
    r"however|yet|while|whereas|as)\b",
    _FLAGS,
)

#: Words that deny what follows them in a clause.
_NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|none|nobody|neither|nor|without|unable|failed|"
    r"would(?:n[’']t)? have|would[’']ve|\w+n[’']t)\b",
    _FLAGS,
)
#: How many words back a negation reaches ("nothing was unavailable", "I did not manage to
#: get it done").
_REACH = 5

#: Nouns that "there is no …" denies as obstacles ("there's no conflict" is good news).
_HARMLESS = r"(?:problems?|issues?|conflicts?|clash(?:es)?|trouble|obstacles?|need|reason|catch)"

#: Obstacles stated with their own negation: not checked for a negation before them.
_DENIED = re.compile(
    r"\b(?:"
    r"can ?not|can[’']t|could(?: not|n[’']t)|unable|"
    r"no longer|nowhere|"
    r"(?:not|\w+n[’']t)(?: (?:yet|currently|actually|really|even|any ?more|longer))? "
    r"(?:possible|available|offered|sold|in stock|open|accepted|valid|eligible|allowed|"
    r"listed|found|there|returnable|cancell?able|refundable|bookable|free|on sale|carried|"
    r"applicable)|"
    r"(?:does|do|did)(?: not|n[’']t) (?:sell|have|exist|offer|carry|stock|accept|allow|list|"
    r"take|apply|work|qualify|match|show|appear|buy|order|book|place|send|reply|forward|"
    r"submit|file|cancel|return|make|go through|proceed|complete|do|get|purchase)|"
    r"(?:has|have|had)(?: not|n[’']t) (?:got|any)|"
    r"(?:not|\w+n[’']t)(?: \w+){0,4} (?:sells?|offers?|carr(?:y|ies)|stocks?)|"
    r"(?:not|never|\w+n[’']t)(?: \w+)? able to|failed to|"
    r"(?:not|\w+n[’']t) (?:in force|in effect|active|covered|within)|"
    r"(?:not|\w+n[’']t) (?:see|find|spot|locate)|found (?:nothing|none|no)|"
    rf"there (?:is|are|was|were)(?: not|n[’']t)(?: an?| any)?(?! {_HARMLESS}\b)|"
    rf"there(?:[’']s| is| are| was| were) no(?! {_HARMLESS}\b)|"
    rf"(?:has|have|had) no(?! {_HARMLESS}\b)|"
    r"(?:not|\w+n[’']t) an option|never (?:received|got|had|sent|written|e-?mailed)|"
    r"(?:has|have)(?: not|n[’']t) (?:written|sent|e-?mailed|replied|received)|"
    r"nothing(?: (?:is|was|[’']s))? (?:free|available|open|left|from|called|named|"
    r"by that name|matching|like)|"
    r"zero (?:\w+ )?(?:results?|matches|messages|e-?mails|products|orders|slots|items)|no results|"
    r"won[’']t|will not|would(?: not|n[’']t)(?! have)|"
    r"(?:not|\w+n[’']t) (?:taking|accepting)|"
    r"no such|"
    r"no (?:\w+ )?(?:e-?mails?|messages?|products?|items?|orders?|slots?|times?|appointments?|"
    r"positions?|jobs?|openings?|receipts?|records?|matches|results?|one|match|result|"
    r"availability|stock|way|sizes?|colou?rs?|variants?|models?|versions?)|none|"
    # a thing not among what is offered: "size 13 isn't on the size menu", "not in the list"
    r"(?:not|\w+n[’']t) (?:on|in|among) (?:the |its |their )?(?:\w+ )?(?:menu|list|options|"
    r"choices|dropdown|drop-down|selector|picker)"
    r")\b",
    _FLAGS,
)

#: What a person books or applies for: "the slot is booked" is an obstacle, where "the
#: appointment is booked" and "your slot is booked" are claims.
_PLACES = (
    r"(?<!\byour )(?<!\bmy )(?<!\bour )"
    r"(?:slots?|times?|days?|dates?|hours?|sessions?|seats?|spots?|openings?|positions?|"
    r"rooms?|tables?|calendar|schedule)"
)

#: Obstacles stated positively: an obstacle unless a negation before them denies it ("it
#: wasn't out of stock", "the policy is not expired").
_OBSTACLE = re.compile(
    r"\b(?:impossible|infeasible|unavailable|out of stock|sold out|discontinued|expired|"
    r"lapsed|closed|"
    r"(?:already|fully) (?:shipped|booked|taken|reserved|delivered|passed|full|cancell?ed|"
    r"gone|over|processed|returned|used|filled)|booked up|"
    r"(?:is|are|was|were|been) taken|"
    rf"{_PLACES}(?:\s+\w+){{0,3}}\s+(?:is|are|was|were|has been|have been)"
    r"(?:\s+(?:all|already|fully|completely))?\s+(?:booked|reserved|full)|"
    r"conflicts?|clash(?:es)?|overlaps?|double[- ]booked|refused|rejected|rejects|refuses|denied|"
    r"ineligible|invalid|past the|outside the|only (?:applies|works|valid|for)|"
    r"(?:needs|requires|need|require) a (?:subtotal|minimum|total)|"
    r"(?:below|under|short of) (?:the|its|a) (?:\S+ ){0,2}minimum|"
    # "must be while …": "while" ends the clause
    r"must be(?: (?:within|during|before|after|on or before|no (?:later|earlier) than)|\s*$)|"
    r"(?:can|could) only be|already (?:left|in transit|out for delivery)|left the warehouse|"
    r"(?:policy|coverage|window|period|offer|sale|posting|promotion)(?:\s+\w+){0,2}\s+"
    r"(?:had\s+)?ended|"
    r"ended (?:on|in|at|before|last|yesterday|\d)|has ended|(?:is|are|was|were) over|"
    r"does ?n[’']t exist|non-?existent|(?:is|are) missing|"
    r"by someone else|by (?:another|other)|"
    r"stopped (?:taking|accepting)|(?:is|are|was|were) (?:all )?gone|"
    r"someone (?:else )?(?:already )?has|already (?:has|have) (?:that|this|the|a|an)|"
    r"(?:you[’']re|you are) (?:busy|not free)|"
    r"left (?:your|the) \w+ (?:alone|as (?:it was|is)|untouched|unchanged)|"
    r"only (?:comes?|available|offered|sold|made) in|"
    r"only (?:lists?|offers?|sells?|carries|stocks?|has|goes up to|runs? up to|comes? up to)\b|"
    r"only (?:accepted|allowed|possible|valid|available|open) (?:within|for|until|before)|"
    r"too (?:old|late|early|far)|older than|beyond the|past its|out of date|"
    r"r[au]n out|kicks? in|short of|turned (?:\S+ ){0,3}down|(?:is|was) dead|"
    r"came up (?:empty|nothing)|turned up nothing|spoken for|occupied|"
    r"after (?:the|its) (?:\S+ )?(?:end|expiry|expiration|cut-?off) date|"
    r"(?:you|she|he|they|it) already (?:have|has)|"
    r"(?:days|time|window|period)\b[^.;:!?]{0,60}?\b(?:is|are) up"
    r")\b",
    _FLAGS,
)

#: A part of the task claimed done.
_DONE = re.compile(
    r"\b(?:done|completed|finished|all set|succeeded|"
    r"(?:went|gone) through(?! (?:your|my|the|all|every|each|his|her|their|those|these)\b)|"
    r"successful(?:ly)?|able to|took care|taken care|"
    r"booked|ordered|bought|placed|purchased|sent|replied|forwarded|submitted|applied|"
    r"added|saved|updated|cancell?ed|requested|filed|returned|archived|labell?ed|scheduled|"
    r"rescheduled|changed|moved|accepted|created|deleted|removed|marked(?! (?:as )?[\'\"‘“])|"
    r"reserved|registered|signed up|confirmed|edited|set up|checked out|"
    r"(?:is|was|are|were|been) opened|(?:ticket|case|request|claim)(?: #?[\w-]*\d[\w-]*)? opened|"
    r"made (?:a|an|the) (?:booking|appointment|reservation|order|purchase|payment|claim|"
    r"request|change)|opened (?:a|an|the) (?:ticket|case|claim|request)|"
    # idioms: "the order is in", "on order", "it's yours", "you're down for", "in your calendar"
    r"(?:is|are|[’']s) (?:now )?in(?=\s*(?:[:.,;!)]|$|for\b|with\b))|in for|"
    r"on order(?!\s*(?:#|[\w-]*\d|number\b|no\.))|"
    r"(?:is|are) yours|(?:you[’']re|you are) down for|got (?:you|it|them)|"
    r"(?:has|have|got) your (?:reply|message|e-?mail|answer|receipt|note|application|claim|"
    r"order|request)|(?:has|have) (?:it|them|the \S+(?: \S+)?) now|"
    r"(?:is|are|[’']s|[’']re) (?:now )?in (?:the |your )?(?:calendar|cart|inbox|archive|contacts|"
    r"trash|address book|account|folder)|"
    r"(?:appointment|booking|reservation|meeting|event|order|claim|application|return|reply|"
    r"ticket)s? (?:is|are) (?:now )?(?:on|set|for)|(?:took|came) (?:\S+ ){0,3}off|"
    r"(?:^|(?<=\bi )|(?<=\bwe ))paid)\b",
    _FLAGS,
)
#: What undoes a claim right before it: a hypothetical or a state ("can't be cancelled",
#: "is already booked", "fully booked"), or a clause about something done before ("the order
#: you placed in March", "the one I returned").
_UNDONE_BEFORE = re.compile(
    r"\b(?:be|already|fully|only|"
    rf"{_PLACES}(?:\s+\w+){{0,3}}\s+(?:is|are|was|were|has been|have been)"
    r"(?:\s+(?:all|already|fully|completely))?|(?:the|that|this|those|a|an|your|my|one|which|what|whom?)\s+"
    r"(?:(?!(?:then|now|also|finally|just|so)\b)\w+\s+){0,2}"
    r"(?:you|i|we|he|she|they)(?:[’']ve| have| had)?)\s+$",
    _FLAGS,
)
#: A word of a claim right after a determiner is an adjective ("the requested size").
_ADJECTIVE = re.compile(r"\b(?:the|a|an|your|my|this|that|these|those)\s+$", _FLAGS)
#: ... or right after it: someone else did it, nothing was, or long ago ("booked by someone
#: else", "bought nothing", "it was placed on February 18", "accepted for 30 days").
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_UNDONE_AFTER = re.compile(
    r"^\s+(?:by (?:someone|somebody|another|other|a different)|nothing|anything|no|up|"
    rf"(?:on|in) (?:{_MONTH}|\d{{4}})|(?:on|in) \d|last (?:week|month|year)|"
    r"(?:(?:more than|over|about|nearly|almost|some) )?\d+ (?:days?|weeks?|months?|years?) ago|"
    r"(?:for|within) \d+ (?:days?|weeks?)|before\s*$|previously|in the past)\b",
    _FLAGS,
)


#: Obstacles that name a list ("Only S, M and L are listed"), read over a whole sentence:
#: the list's commas and "and" would split them into clauses.
_SENTENCE_BREAK = re.compile(r"[.;:!?()\[\]\n]")
_ONLY_LISTED = re.compile(
    r"\bonly\b[^.;:!?]{0,50}\b(?:are|is) (?:listed|offered|available|sold|in stock)\b|"
    r"\b(?:offered|available|sold|made|comes?|listed|stocked) in\b[^.;:!?]{0,50}\bonly\b",
    _FLAGS,
)


def _clauses(text: str) -> list[str]:
    return [part.strip() for part in _CLAUSE_BREAK.split(text) if part and part.strip()]


#: How far back, in characters, what undoes a claim or denies an obstacle is looked for (a
#: bound, so that a long message is read in time linear in its length).
_LOOK_BACK = 64


def _denied(clause: str, start: int) -> bool:
    """Whether a negation among the few words before ``start`` in ``clause`` denies what
    starts there."""
    before = clause[max(0, start - _LOOK_BACK) : start].split()[-_REACH:]
    return bool(_NEGATION.search(" ".join(before)))


def _obstacle(clause: str) -> bool:
    if _DENIED.search(clause):
        return True
    return any(not _denied(clause, m.start()) for m in _OBSTACLE.finditer(clause))


def _lists_only(sentence: str) -> bool:
    match = _ONLY_LISTED.search(sentence)
    return match is not None and not _denied(sentence, match.start())


def _claims_done(clause: str) -> bool:
    for match in _DONE.finditer(clause):
        before = clause[max(0, match.start() - _LOOK_BACK) : match.start()]
        if _UNDONE_BEFORE.search(before):
            continue
        if " " not in match.group() and _ADJECTIVE.search(before):
            continue
        if _UNDONE_AFTER.search(clause[match.end() : match.end() + _LOOK_BACK]):
            continue
        if _denied(clause, match.start()):
            continue
        return True
    return False


def says_infeasible(text: str) -> bool:
    """Whether a message to the user says the task cannot be done ("The shop doesn't sell
    it", "There is no e-mail from Ann Lee", "The return window has closed") without claiming
    a part of it done ("Booked; there's no conflict" claims it done). A message longer than an
    answer may be (:data:`~webenv.answers.MAX_LENGTH`) is no report."""
    if len(text) > MAX_LENGTH:
        return False
    clauses = _clauses(text)
    obstacle = any(_lists_only(s) for s in _SENTENCE_BREAK.split(text)) or any(
        _obstacle(c) for c in clauses
    )
    return obstacle and not any(_claims_done(c) for c in clauses)


#: Words that take an arrangement back or ask for another, in a note beside it: "book me for
#: Friday instead", "please disregard the time above", "cancel this", "moved to Thursday".
_TAKES_BACK = re.compile(
    r"\b(?:instead|disregard|ignore|cancel\w*|call(?:ed|ing)? off|reschedul\w*|postpon\w*"
    r"|move (?:it|me|this|the)|(?:has been|is|was|been) moved|moved to (?:\w+day|[0-9])"
    r"|change (?:it|the|my|this)|(?:a )?different (?:day|date|time|slot|office|room))\b",
    _FLAGS,
)


def takes_back(text: str) -> str:
    """The words of ``text`` (a booking's notes, an event's description) that take back or move
    what it stands beside, or ""."""
    found = _TAKES_BACK.search(text)
    return found[0] if found else ""

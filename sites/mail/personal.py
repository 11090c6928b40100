"""Seeded conversations with people: colleagues, friends and family."""

from __future__ import annotations

from datetime import timedelta

from ..common import Attachment
from .conversation import Conversation, Mail, Scene, day_name, signed
from .formatting import clock
from .samplefiles import calendar_invite, csv_sheet, text_file

PROJECTS = ("Atlas", "Beacon", "Cobalt", "Driftwood", "Ember", "Juniper", "Keystone", "Meridian")
ROOMS = ("the Maple room", "the 4th floor huddle room", "Conference Room B", "the Cedar room")
TIMES = ((9, 30), (10, 0), (11, 0), (13, 30), (14, 0), (15, 30), (16, 0))
#: Family recipes: (the dish, its lines); a sender's is picked by their name, so that the rest
#: of the mailbox is drawn as before.
RECIPES = (
    ("apple pie", ["6 apples, peeled and sliced", "3/4 cup sugar", "2 tbsp flour",
                   "1 tsp cinnamon", "2 pie crusts", "", "Bake at 425°F for 45 minutes."]),
    ("banana bread", ["3 ripe bananas, mashed", "1/3 cup melted butter", "3/4 cup sugar",
                      "1 egg", "1 1/2 cups flour", "1 tsp baking soda", "",
                      "Bake at 350°F for 60 minutes."]),
    ("lemon cake", ["2 cups flour", "1 cup sugar", "3 eggs", "1/2 cup butter",
                    "zest and juice of 2 lemons", "", "Bake at 350°F for 35 minutes."]),
    ("chicken soup", ["1 whole chicken", "3 carrots, sliced", "3 celery stalks", "1 onion",
                      "2 cloves garlic", "fresh dill", "", "Simmer for 90 minutes."]),
)  # fmt: skip


def _slug(text: str) -> str:
    """A file name's words: "Sync on Atlas" is "sync-on-atlas"."""
    return "-".join("".join(c if c.isalnum() else " " for c in text.lower()).split())


def meeting_request(scene: Scene) -> Conversation:
    """A colleague asks for a meeting; the persona accepts; sometimes with an invite file."""
    organizer, me = scene.pick(scene.cast.colleagues)[0], scene.cast.me
    project = scene.rng.choice(PROJECTS)
    topic = scene.rng.choice(
        (
            f"Sync on {project}",
            f"{project} design review",
            "Quarterly planning",
            "1:1 next week",
            f"Kickoff: {project} phase 2",
            f"{project} retro",
        )
    )
    hour, minute = scene.rng.choice(TIMES)
    day = (scene.start + timedelta(days=scene.rng.randint(1, 6))).replace(
        hour=hour, minute=minute, second=0, microsecond=0
    )
    time, room = clock(day), scene.rng.choice(ROOMS)
    ask = signed(
        f"Hi {me.first_name},\n\nCould we meet on {day_name(day)} at {time} in {room}? "
        f"I'd like to go over the open items for {project} and agree on next steps. "
        "It should take about 45 minutes.\n\nLet me know if that doesn't work and I'll find "
        "another slot.\n\nThanks,",
        organizer,
    )
    attachments: tuple[Attachment, ...] = ()
    if scene.rng.random() < 0.5:
        invite = calendar_invite(
            topic, day, 45, room, organizer.email, f"{scene.rng.getrandbits(48):012x}@calendar"
        )
        attachments = (Attachment(f"{_slug(topic)}.ics", "text/calendar", invite),)
    mails = [
        Mail(organizer, [me], ask, attachments=attachments),
        Mail(
            me,
            [organizer],
            signed(
                f"Hi {organizer.first_name},\n\n{time} on "
                f"{day:%A} works for me. See you in {room}.\n\nBest,",
                me,
            ),
        ),
    ]
    if scene.rng.random() < 0.5:
        mails.append(
            Mail(organizer, [me], signed("Great, thanks! I'll bring the latest notes.", organizer))
        )
    return Conversation(topic, mails, labels=("Work",))


def budget_update(scene: Scene) -> Conversation:
    """A colleague shares numbers as a CSV, copying a teammate; the persona answers."""
    sender, teammate = scene.pick(scene.cast.colleagues, 2)
    me, quarter = scene.cast.me, f"Q{(scene.start.month - 1) // 3 + 1}"
    categories = (
        "Cloud hosting",
        "Contractors",
        "Software licenses",
        "Travel",
        "Events",
        "Hardware",
    )
    rows = []
    for category in categories:
        planned = scene.rng.randint(8, 120) * 500
        actual = planned + scene.rng.randint(-40, 40) * 250
        rows.append([category, planned, actual, actual - planned])
    sheet = csv_sheet(["Category", "Planned (USD)", "Actual (USD)", "Variance (USD)"], rows)
    total = sum(row[2] for row in rows)
    over = max(rows, key=lambda row: row[3])
    body = signed(
        f"Hi {me.first_name},\n\nAttached are the {quarter} budget numbers by category. "
        f"We spent ${total:,} in total; the biggest variance is {over[0]} "
        f"(${over[3]:+,}). Could you review before Friday's finance sync?\n\nThanks,",
        sender,
    )
    mails = [
        Mail(
            sender,
            [me],
            body,
            cc=[teammate],
            attachments=(Attachment(f"{quarter.lower()}-budget.csv", "text/csv", sheet),),
        ),
        Mail(
            me,
            [sender],
            signed(
                f"Thanks {sender.first_name} — looks right to me. Let's talk "
                f"about {over[0]} on Friday.\n\nBest,",
                me,
            ),
            cc=[teammate],
        ),
    ]
    return Conversation(f"{quarter} budget numbers", mails, labels=("Work",))


def colleague_question(scene: Scene) -> Conversation:
    """A colleague asks a quick question, the persona answers, they say thanks."""
    asker, me = scene.pick(scene.cast.colleagues)[0], scene.cast.me
    project = scene.rng.choice(PROJECTS)
    question, answer = scene.rng.choice(
        (
            (
                f"Do you know who owns the {project} dashboards now?",
                "I think the Data team took them over last month — try their channel.",
            ),
            (
                f"Is the {project} launch still planned for the end of the month?",
                "As far as I know, yes. The go/no-go meeting is next Tuesday.",
            ),
            (
                f"Where did we put the signed contract for {project}?",
                "It's in the shared drive under Legal > Contracts > 2026.",
            ),
            (
                f"Could you review my {project} pull request today?",
                "Sure, I'll take a look after lunch.",
            ),
        )
    )
    mails = [
        Mail(
            asker,
            [me],
            signed(f"Hi {me.first_name},\n\nQuick question: {question}\n\nThanks!", asker),
        ),
        Mail(me, [asker], signed(f"Hi {asker.first_name},\n\n{answer}\n\nBest,", me)),
    ]
    if scene.rng.random() < 0.6:
        mails.append(Mail(asker, [me], signed("Perfect, thank you!", asker)))
    return Conversation(f"Quick question about {project}", mails, labels=("Work",))


FRIEND_TOPICS = (
    (
        "Dinner Saturday?",
        "Are you free for dinner on Saturday? There's a new Thai place on "
        "{street} I've been wanting to try.",
        "Yes! 7 PM works for me.",
        "Booked a table for two at 7. See you there!",
    ),
    (
        "Hiking this weekend",
        "A few of us are doing the ridge trail on Sunday morning. Want to "
        "come? We're leaving at 8.",
        "I'm in. Should I bring anything?",
        "Just water and snacks. I'll pick you up at 7:40.",
    ),
    (
        "Book recommendation?",
        "I just finished the last book you lent me and loved it. What should I read next?",
        "Try 'The Lighthouse Year' — same author, even better.",
        "Ordered it. Thanks!",
    ),
    (
        "Can I borrow your tent?",
        "We're going camping in two weeks and ours has a broken pole. Could I borrow your tent?",
        "Of course. Come grab it any evening this week.",
        "Amazing, I'll swing by Thursday.",
    ),
    (
        "Concert tickets",
        "I have an extra ticket for the concert on Friday. Interested?",
        "Absolutely, how much do I owe you?",
        "$45. Pay me back whenever.",
    ),
    (
        "Moving help",
        "We're moving apartments next Saturday. Any chance you could help for a "
        "couple of hours? Pizza is on me.",
        "Count me in. What time?",
        "10 AM. Thank you so much!",
    ),
)


def friend_plans(scene: Scene, topic: int) -> Conversation:
    """A friend makes plans with the persona over a few messages."""
    friend, me = scene.pick(scene.cast.friends)[0], scene.cast.me
    subject, ask, reply, confirm = FRIEND_TOPICS[topic % len(FRIEND_TOPICS)]
    ask = ask.format(street=scene.fake.street_name())
    mails = [
        Mail(friend, [me], signed(f"Hey {me.first_name}!\n\n{ask}", friend)),
        Mail(me, [friend], signed(reply, me)),
        Mail(friend, [me], signed(confirm, friend)),
    ]
    return Conversation(subject, mails[: scene.rng.choice((1, 3, 3))])


def family_news(scene: Scene, topic: int) -> Conversation:
    """Family plans, news and recipes, some with attachments."""
    sender, other = scene.pick(scene.cast.family, 2)
    me = scene.cast.me
    dish, recipe = RECIPES[sum(map(ord, sender.first_name)) % len(RECIPES)]
    day = scene.start + timedelta(days=scene.rng.randint(5, 20))
    topics = (
        (
            "Birthday dinner for Mom",
            f"We're planning Mom's birthday dinner on {day_name(day)}. "
            "Can you bring dessert? I'm thinking the lemon cake.",
            "Happy to bring the cake!",
            (),
        ),
        (
            "Grandma's recipe",
            f"Found Grandma's {dish} recipe in the old box — typed it up for "
            "everyone. It's attached.",
            "This made my day. Thank you!",
            (
                Attachment(
                    f"{_slug(dish)}-recipe.txt",
                    "text/plain",
                    text_file([f"Grandma's {dish.title()}", "", *recipe]),
                ),
            ),
        ),
        (
            "Holiday plans",
            "Are you coming home for the holidays this year? Let us know your "
            "dates so we can sort out rooms.",
            "Yes — probably arriving the 23rd.",
            (),
        ),
        (
            "Photos from the weekend",
            "Such a fun weekend! I put all the photos in a shared album; "
            "the link is in the family chat.",
            "Love them, especially the one by the lake.",
            (),
        ),
    )
    subject, text, reply, attachments = topics[topic % len(topics)]
    mails = [
        Mail(
            sender,
            [me],
            signed(f"Hi {me.first_name},\n\n{text}\n\nLove,", sender),
            cc=[other],
            attachments=attachments,
        ),
        Mail(me, [sender], signed(reply, me), cc=[other]),
    ]
    return Conversation(subject, mails[: scene.rng.choice((1, 2, 2))], labels=("Family",))


def sent_note(scene: Scene, topic: int) -> Conversation:
    """A message the persona sent that got no answer (yet)."""
    me = scene.cast.me
    colleague = scene.pick(scene.cast.colleagues)[0]
    friend = scene.pick(scene.cast.friends)[0]
    notes = (
        (
            colleague,
            "Slides from today's meeting",
            "Here are the slides from today's meeting, "
            "as promised. Let me know if anything is unclear.",
            ("Work",),
        ),
        (
            friend,
            "Checking in",
            "It's been a while! How are things? We should get coffee soon.",
            (),
        ),
        (
            colleague,
            "Out of office next Friday",
            "Heads-up: I'll be out next Friday. "
            "I'll make sure the weekly report goes out on Thursday instead.",
            ("Work",),
        ),
        (
            friend,
            "Recipe you asked for",
            "Here's that pasta recipe: garlic, chili, lemon zest, "
            "good olive oil and lots of parmesan. Simple but amazing.",
            (),
        ),
    )
    person, subject, text, labels = notes[topic % len(notes)]
    body = signed(f"Hi {person.first_name},\n\n{text}\n\nBest,", me)
    return Conversation(subject, [Mail(me, [person], body)], labels=labels)


def unsent_draft(scene: Scene, topic: int) -> Conversation:
    """A message the persona started and saved as a draft."""
    me = scene.cast.me
    drafts = (
        (
            scene.pick(scene.cast.friends)[0],
            "Trip ideas",
            "Hey! I was thinking about the trip in the fall. What about the coast? We could",
        ),
        (
            scene.pick(scene.cast.colleagues)[0],
            "Feedback on the proposal",
            "Hi, I read through the proposal. Overall it looks solid, but I have a few notes on",
        ),
    )
    person, subject, text = drafts[topic % len(drafts)]
    return Conversation(subject, [Mail(me, [person], text)], folder="drafts", draft=True)

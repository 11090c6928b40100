"""What the seeded newsletters write about: each sender's own kind of story.

A story is a headline and a short blurb, both templates filled from the world's randomness, so
issues read like the sender's and differ between worlds. An issue's lead story is picked by its
issue number (see :func:`issue_stories`), so two issues of one newsletter never share a subject.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

#: Newsletter name -> its stories, as (headline, blurb) templates. The fields are filled by
#: :func:`_fields`: {weekday}, {date}, {count}, {percent}, {street}, {park}, {team}, {topic},
#: {tool}, {version}, {trail}, {peak}, {miles}, {time}.
STORIES: dict[str, tuple[tuple[str, str], ...]] = {
    "The Morning Dispatch": (
        (
            "City council approves the {street} bike lane",
            "After two hours of public comment, the council voted 6-3 to add a protected bike "
            "lane along {street}. Construction is expected to start in the spring.",
        ),
        (
            "Transit fares hold steady for another year",
            "The transit board kept the base fare unchanged, citing ridership that is up "
            "{percent}% since last year. Monthly passes also stay at their current price.",
        ),
        (
            "Library extends weekend hours",
            "Starting {weekday}, the main branch stays open until 8 PM on Saturdays and opens at "
            "noon on Sundays. Branch hours are unchanged.",
        ),
        (
            "Farmers market returns to {park}",
            "More than {count} vendors are signed up for the season, which opens {date}. The "
            "market runs from 8 AM to 1 PM every Saturday.",
        ),
        (
            "Road work closes part of {street} next week",
            "Crews will repave the stretch between the bridge and downtown overnight. Expect "
            "detours from 9 PM to 5 AM through {weekday}.",
        ),
        (
            "Local schools add a later start time",
            "The school board approved a 30-minute later start for high schools, beginning "
            "next fall. Bus schedules will be posted in August.",
        ),
        (
            "What's behind the rise in rents",
            "Rents in the metro area rose {percent}% over the past year. We asked three "
            "economists what is driving the increase and what might slow it down.",
        ),
        (
            "Weekend forecast: sun, then showers",
            "Expect clear skies on Saturday with highs in the low 70s. Showers move in late "
            "Sunday and linger into {weekday}.",
        ),
    ),
    "Frontend Weekly": (
        (
            "{tool} {version} is out",
            "The new release brings faster builds and a smaller runtime. The upgrade guide "
            "lists two breaking changes worth checking before you update.",
        ),
        (
            "A practical guide to container queries",
            "Container queries are supported in every major browser now. This walkthrough "
            "rebuilds a card layout with them, step by step.",
        ),
        (
            "Making forms accessible without a framework",
            "Labels, error messages and focus order matter more than any library. Here are "
            "the patterns that tested best with screen reader users.",
        ),
        (
            "How one team cut their bundle size by {percent}%",
            "Splitting routes, dropping an unused date library and lazy-loading images did "
            "most of the work. The write-up includes before-and-after numbers.",
        ),
        (
            "The state of CSS in {year}",
            "More than {count} developers answered this year's survey. Cascade layers and "
            "the :has() selector saw the biggest jump in use.",
        ),
        (
            "Testing UI components the way users use them",
            "Query by role and label, not by class name. A short talk on writing tests that "
            "survive a redesign.",
        ),
        (
            "Web performance: what to measure first",
            "Start with how long the main content takes to appear and how quickly the page "
            "responds to input. Everything else can wait.",
        ),
        (
            "Job board: {count} new frontend roles",
            "This week's listings include remote positions, two design-systems teams and a "
            "few internships. Browse them on our site.",
        ),
    ),
    "Trailhead Outdoor Club": (
        (
            "Group hike to {peak} on {weekday}",
            "We meet at the trailhead at 7:30 AM for a {miles}-mile loop with about 2,000 feet "
            "of climbing. Bring layers, lunch and at least two liters of water.",
        ),
        (
            "Trail work day at {trail}",
            "Volunteers are needed to clear brush and fix drainage on {trail}. Tools and "
            "gloves are provided; we finish by early afternoon.",
        ),
        (
            "Beginner's navigation clinic",
            "Learn to read a topo map and use a compass in one evening session on {date}. "
            "Space is limited to {count} people, so sign up early.",
        ),
        (
            "Gear swap this {weekday}",
            "Bring the gear you no longer use and trade it for something you need. Anything "
            "left over will be donated to the youth program.",
        ),
        (
            "Trail conditions update",
            "{trail} is open again after the washout, but the upper section is still muddy. "
            "Waterproof boots are a good idea for now.",
        ),
        (
            "Photo contest winners",
            "Thank you to everyone who sent in photos this season. The winning shot was "
            "taken at sunrise on {peak}; see all the finalists on our site.",
        ),
        (
            "Membership renewals are open",
            "Renew before the end of the month to keep your member discount at partner "
            "shops. Dues are unchanged this year.",
        ),
        (
            "Leave No Trace refresher",
            "A quick reminder of the seven principles before the busy season, and what to do "
            "with trash on a multi-day trip.",
        ),
    ),
    "City Parks & Recreation": (
        (
            "Summer camp registration opens {date}",
            "Day camps for ages 6 to 12 fill quickly. Registration opens online at 9 AM, and "
            "financial assistance is available for families who qualify.",
        ),
        (
            "Pool schedule for the season",
            "The outdoor pools open on Memorial Day weekend. Lap swim runs from 6 to 8 AM on "
            "weekdays; open swim starts at noon.",
        ),
        (
            "New playground at {park}",
            "The rebuilt playground has accessible equipment and a splash pad. A ribbon "
            "cutting is planned for {weekday} at 10 AM.",
        ),
        (
            "Volunteer for the spring cleanup",
            "Join neighbors at {park} to pick up litter and plant native flowers. Gloves, "
            "bags and coffee are provided.",
        ),
        (
            "Adult {team} league forming",
            "Teams of up to {count} players can sign up for the fall season. Games are on "
            "weeknights at the community center fields.",
        ),
        (
            "Outdoor movie nights return",
            "Bring a blanket to {park} on Friday evenings this summer. Movies start at dusk, "
            "and the first one is a family favorite.",
        ),
        (
            "Community garden plots available",
            "A limited number of plots are open for the season at the {street} garden. Plots "
            "are assigned by lottery on {date}.",
        ),
        (
            "Trail closures for maintenance",
            "Sections of the river trail will close on weekdays while crews replace a "
            "footbridge. Detour signs will be posted.",
        ),
    ),
}

STREETS = ("Main Street", "Oak Avenue", "Elm Street", "Park Road", "River Road", "Maple Avenue")
PARKS = ("Riverside Park", "Lincoln Park", "Cedar Grove Park", "Harbor Green", "Mill Pond Park")
TRAILS = ("the Ridge Trail", "the Falls Loop", "the Cedar Creek Trail", "the Lakeshore Trail")
PEAKS = ("Eagle Peak", "Mount Ellis", "Bald Knob", "Granite Dome", "Lookout Point")
TOOLS = ("Vite", "Astro", "Svelte", "Eleventy", "Remix")
TEAMS = ("softball", "kickball", "volleyball", "soccer", "pickleball")


def _fields(rng: random.Random, start: datetime) -> dict[str, object]:
    date = start + timedelta(days=rng.randint(5, 30))
    return {
        "weekday": f"{start + timedelta(days=rng.randint(2, 6)):%A}",
        "date": f"{date:%A, %B} {date.day}",
        "count": rng.choice((12, 15, 20, 24, 30, 40, 60)),
        "percent": rng.randint(4, 38),
        "street": rng.choice(STREETS),
        "park": rng.choice(PARKS),
        "trail": rng.choice(TRAILS),
        "peak": rng.choice(PEAKS),
        "tool": rng.choice(TOOLS),
        "version": f"{rng.randint(2, 6)}.{rng.randint(0, 9)}",
        "team": rng.choice(TEAMS),
        "miles": rng.randint(5, 11),
        "year": start.year,
    }


def issue_stories(
    rng: random.Random, newsletter: str, issue: int, start: datetime
) -> list[tuple[str, str]]:
    """Three stories of an issue, lead first.

    The lead is the newsletter's story number ``issue // 4``: the mailbox's issues of one
    newsletter are four numbers apart, so each has a different lead (and subject).
    """
    stories = STORIES[newsletter]
    lead = (issue // 4) % len(stories)
    others = rng.sample([index for index in range(len(stories)) if index != lead], 2)
    fields = _fields(rng, start)
    return [
        (headline.format(**fields), blurb.format(**fields))
        for headline, blurb in (stories[index] for index in (lead, *others))
    ]

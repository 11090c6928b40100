"""Fifth red-team round, and an answer battery: what an independent attack suite and a battery
of careful, sloppy-but-right and hedged answers found, each closed here.

- Answers (``webenv.answers.grade``): a second candidate without a numeral ("$58.20, or
  whatever the other order came to"), an open-ended count ("2 or more", "10+", "at least 5"),
  a day range ("March 6-7, 2026"), a second name joined by "maybe" or a list of names passed;
  an id spelled out a character at a time hid a second tracking number. And careful answers
  failed: a harmless "or" in another sentence ("Want me to save it or send it?"), "either
  way", a rating written "a 3.7 rating", dates "2025/10/09" and "6-Mar-2026", an id
  "EXP - 59759609", a phone "240/555-1942", "and" for "&".
- Checks: an agent that deleted what the check reads (the contact whose phone it checks, the
  message it checks is unread) made ``env.step`` raise instead of failing the check.
- Actions: a ``str`` subclass whose methods raise made ``env.step`` raise; one
  ``keyboard_type`` of 20,000 characters held the step (and the shared Chromium) for a minute.
"""

from __future__ import annotations

import sqlite3

import gymnasium as gym
import pytest

import webenv  # noqa: F401
from webenv.answers import grade
from webenv.tasks import Answer

#: Hedges that passed: each offers a second answer, or leaves the value open.
HEDGES = [
    ("money", "$187.41, or whatever the other order came to", 18741),
    ("date", "October 7, 2025, or the day after", "2025-10-07"),
    ("date", "March 11, 2026, maybe a week later", "2026-03-11"),
    ("identifier", "EXP-05615239, unless you meant the other submission's", "EXP-05615239"),
    ("phone", "(403) 555-9876, or try the office line", "(403) 555-9876"),
    ("number", "10, maybe more", 10),
    ("number", "2 or more", 2),
    ("number", "10+", 10),
    ("number", "At least 5.", 5),
    ("number", "It's 4. Or maybe the other folder has more.", 4),
    ("name", "Oakridge Mug Set, maybe the Modern Mug Set", "Oakridge Mug Set"),
    ("name", "invite.ics / meeting-notes.docx", "invite.ics"),
    ("name", "- apple-pie-recipe.txt\n- notes file", "apple-pie-recipe.txt"),
    ("name", "Dana Whitfield vs Ravi Patel", "Dana Whitfield"),
    ("name", "Dana Whitfield ou Ravi Patel", "Dana Whitfield"),
    ("name", "q1-budget.csv and meeting-notes.docx", "q1-budget.csv"),
    ("phone", "(975) 555-9660/(906) 555-5849", "(975) 555-9660"),
    # A sixth look at these rules: more words of a guess, and a guess after a note's mark.
    ("name", "The Puffer Vest, else the polo shirt.", "The Puffer Vest"),
    ("name", "The Puffer Vest; could also be the polo.", "The Puffer Vest"),
    ("name", "The Puffer Vest. If that's wrong try the polo.", "The Puffer Vest"),
    ("name", "The Puffer Vest, alternately the polo", "The Puffer Vest"),
    ("name", "The Puffer Vest. PS: maybe the polo.", "The Puffer Vest"),
    ("name", "The Puffer Vest\n2) maybe the polo", "The Puffer Vest"),
    ("name", "The Puffer Vest. Note - possibly the polo.", "The Puffer Vest"),
]


#: A candidate's name in look-alike letters is the candidate all the same.
def test_a_candidate_named_in_look_alike_letters_is_a_second_name():
    text = "Trailpeak Vest, and Solstice W\u043emen's Polo Shirt"
    result = grade("name", text, "Trailpeak Vest", candidates=["Solstice Women's Polo Shirt"])
    assert not result.passed, result


#: Day ranges, read as two dates when the task gives the year.
DAY_RANGES = ["March 6-7, 2026", "March 6/7, 2026", "March 6 and 7, 2026", "6-7 March 2026"]

#: Careful answers that failed.
CAREFUL = [
    ("name", "apple-pie-recipe.txt. Want me to save it or send it to you by e-mail?",
     "apple-pie-recipe.txt"),
    ("name", "Either way, the answer is invite.ics.", "invite.ics"),
    ("name", "At $28 or cheaper, the top-rated pick is the Pro String Lights.",
     "Pro String Lights"),
    ("name", "That's invite.ics. Anything else, or is that all?", "invite.ics"),
    ("name", "Terra and Twine Pro String Lights", "Terra & Twine Pro String Lights"),
    ("number", "It has 7 reviews and a 3.7 rating.", 7),
    ("number", "7 reviews, with an average rating of 3.7", 7),
    ("date", "2025/10/09", "2025-10-09"),
    ("date", "6-Mar-2026", "2026-03-06"),
    ("identifier", "EXP - 59759609", "EXP-59759609"),
    ("phone", "240/555-1942", "(240) 555-1942"),
    ("phone", "Her number is (403) 555-9876; she could be reached after 5 PM.", "(403) 555-9876"),
    ("name", "The Puffer Vest. Either way, I can check others if you want.", "The Puffer Vest"),
    ("name", "The Puffer Vest. If not in your size, I can check others.", "The Puffer Vest"),
    ("name", "The Puffer Vest - anything else I can help with?", "The Puffer Vest"),
    ("name", "Salt or Pepper Grinder", "Salt or Pepper Grinder"),
    ("date", "It was placed on December 7, 2025 to 42 Elm Street.", "2025-12-07"),
    ("number", "4. Either way, I can list them if you want.", 4),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "text", "expected"), HEDGES)
def test_a_second_answer_offered_without_a_second_number_is_a_hedge(kind, text, expected):
    result = grade(kind, text, expected)
    assert not result.passed, result


@pytest.mark.parametrize("text", DAY_RANGES)
def test_a_day_range_is_a_hedge(text):
    result = grade("date", text, "2026-03-06", year=2026)
    assert not result.passed, result


@pytest.mark.parametrize(("kind", "text", "expected"), CAREFUL)
def test_a_careful_answer_passes(kind, text, expected):
    result = grade(kind, text, expected)
    assert result.passed, result


def test_an_id_spelled_out_a_character_at_a_time_is_still_a_second_id():
    right, other = "1ZDB3F9UZ9TTU668EK", "1ZVJ7XGMXGOQAQ5WH9"
    spaced = "Tracking: " + " ".join(right) + " ; " + " ".join(other)
    assert not grade("identifier", spaced, right).passed
    assert grade("identifier", "Tracking: " + " ".join(right), right).passed


@pytest.mark.parametrize(
    ("name", "delete"),
    [
        ("mail.update_contact_phone", "DELETE FROM contacts WHERE id = {id}"),
        ("mail.mark_unread", "DELETE FROM messages WHERE id = {latest}"),
    ],
)
def test_deleting_what_the_check_reads_fails_the_check_instead_of_raising(fresh_task, name, delete):
    world, task = fresh_task(name, 1)
    with sqlite3.connect(world.db_path("mail")) as conn:
        conn.execute(delete.format(**task.params))
    result = task.check(world, Answer("message", "Done."))
    assert not result.success
    failed = [c for c in result.conditions if not c.passed]
    assert failed and "deleted" in " ".join(c.message for c in failed)


def test_a_check_that_raises_fails_with_its_reason(fresh_task, monkeypatch):
    world, task = fresh_task("shop.order_total", 1)

    def broken(*_args: object) -> None:
        raise KeyError("total_cents")

    monkeypatch.setattr(type(task.template), "check", broken)
    result = task.check(world, Answer("message", "$1.00"))
    assert not result.success
    assert "could not read it (KeyError" in result.conditions[0].message


class _Hostile(str):
    def __len__(self) -> int:
        raise RuntimeError("no length")

    def strip(self, *_: object) -> str:
        raise RuntimeError("no strip")


@pytest.mark.browser
def test_a_hostile_string_action_and_an_endless_typing_are_action_errors(browser):
    with gym.make("webenv/shop.order_total-v0") as env:
        env.reset(seed=0)
        observation, *_ = env.step(_Hostile("noop()"))
        assert observation["last_action_error"] == ""
        observation, *_ = env.step(f"keyboard_type({'x' * 1001!r})")
        assert "at most 1000" in observation["last_action_error"]
        observation, *_ = env.step(f"keyboard_type({'x' * 20!r})")
        assert observation["last_action_error"] == ""

"""A person's episode: the env, recorded as a demonstration, driven one action at a time.

Whatever the person does (a click on a screenshot, typing, a key, an answer) becomes an
action string in the agents' own language and goes through ``env.step``, so a played episode
is recorded, rewarded and replayed exactly like an agent's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym

from .. import actions
from ..errors import ActionError, WebEnvError
from ..record import RecordEpisode
from ..tasks import DONE, env_id, get_template
from ..trusted import grader_view

#: What a played episode observes: the screenshot to show, the boxes to map clicks to ids,
#: and the axtree for the person who prefers text.
OBSERVE = ("axtree", "elements", "screenshot")
#: ``episode.json`` fields that mark a record as a person's demonstration.
HUMAN = {"agent": "human"}
#: Roles whose element takes typed text (``fill``) rather than key presses.
TEXT_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})


class PlayError(WebEnvError):
    """A person's command that cannot be carried out (the message says what to do instead)."""


def format_action(name: str, *args: Any) -> str:
    """``name(arg, …)`` with each argument as a literal the action parser reads back as is."""
    return f"{name}({', '.join(json.dumps(arg, ensure_ascii=False) for arg in args)})"


class PlaySession:
    """One episode of ``task`` at ``seed``, played by a person and recorded under ``out``.

    Playwright's sync API is bound to the thread that starts it: create, drive and close a
    session from one thread.
    """

    def __init__(
        self,
        task: str,
        seed: int,
        *,
        perturb: str | Mapping[str, float] = "none",
        out: str | Path = "runs/play",
        headless: bool = True,
    ):
        template = get_template(task)
        suffix = f"-{perturb}" if isinstance(perturb, str) and perturb != "none" else ""
        env = gym.make(env_id(template), observe=OBSERVE, perturb=perturb, headless=headless)
        self.env = RecordEpisode(env, out, screenshots=True, suffix=suffix, extra=HUMAN)
        self.out = Path(out)
        try:
            self.observation, self.info = self.env.reset(seed=seed)
        except BaseException:
            self.env.close()
            raise
        self.seed = seed
        self.steps = 0
        self.reward = 0.0
        self.terminated = False
        self.truncated = False
        #: The element the person last acted on (id and role): typing goes there.
        self.target: tuple[str, str] | None = None
        self._closed = False

    # -- acting -------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def record_path(self) -> Path:
        """The episode's record folder."""
        assert self.env.path is not None
        return self.env.path

    def act(self, action: str) -> dict[str, Any]:
        """Run ``action`` through ``env.step``; the new :meth:`state`.

        An action that does not parse is refused before it reaches the env (a typo is not
        part of the demonstration): :class:`PlayError` says what was wrong.
        """
        if self.done:
            raise PlayError(
                f"The episode is over; replay it with `webenv view {self.out}`, or start "
                "another with `webenv play`."
            )
        try:
            calls = actions.parse(action)
        except ActionError as error:
            raise PlayError(str(error)) from None
        roles = self._roles()
        url = self.observation.get("url")
        self.observation, self.reward, self.terminated, self.truncated, self.info = self.env.step(
            action
        )
        self.steps += 1
        if self.observation.get("url") != url:
            self.target = None  # on another page, ids name other elements
        else:
            for call in calls:
                bid = call.args.get("bid")
                if isinstance(bid, str):
                    self.target = (bid, roles.get(bid, ""))
        return self.state()

    def click_at(self, x: float, y: float) -> dict[str, Any]:
        """Click the point ``(x, y)`` of the viewport: as ``click("<id>")`` of the smallest
        clickable element there, so that the demonstration speaks the agents' language, else
        as ``mouse_click(x, y)``."""
        element = self.element_at(x, y)
        if element is None:
            return self.act(format_action("mouse_click", round(x, 1), round(y, 1)))
        return self.act(format_action("click", str(element["id"])))

    def element_at(self, x: float, y: float) -> dict[str, Any] | None:
        """The smallest clickable element of the last observation whose box holds the point."""
        hits = [
            element
            for element in self._elements()
            if element.get("clickable")
            and element["box"][2] * element["box"][3] > 0
            and element["box"][0] <= x <= element["box"][0] + element["box"][2]
            and element["box"][1] <= y <= element["box"][1] + element["box"][3]
        ]
        return min(hits, key=lambda element: element["box"][2] * element["box"][3], default=None)

    def type_text(self, text: str) -> dict[str, Any]:
        """Type ``text`` into the element last clicked when it takes text (``fill``), else
        into whatever has the focus (``keyboard_type``)."""
        if self.target is not None and self.target[1] in TEXT_ROLES:
            return self.act(format_action("fill", self.target[0], text))
        return self.act(format_action("keyboard_type", text))

    def press_key(self, key: str) -> dict[str, Any]:
        """Press ``key`` in the element last clicked when it takes text, else in the page."""
        if self.target is not None and self.target[1] in TEXT_ROLES:
            return self.act(format_action("press", self.target[0], key))
        return self.act(format_action("keyboard_press", key))

    def answer(self, text: str) -> dict[str, Any]:
        """Answer the user (``send_msg_to_user``), which ends the episode."""
        return self.act(format_action("send_msg_to_user", text))

    def finish(self) -> dict[str, Any]:
        """Say the task is done (``send_msg_to_user("Done.")``), which ends the episode and
        grades it: an action task ends only when the person says so, as an agent must."""
        return self.act(DONE)

    def infeasible(self, reason: str) -> dict[str, Any]:
        """Say the task cannot be done (``report_infeasible``), which ends the episode."""
        return self.act(format_action("report_infeasible", reason))

    # -- what the person sees -----------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The episode as JSON-able data: goal, page, step, outcome and the check's breakdown."""
        observation, info = self.observation, self.info
        # Shown once the episode is over, to the person who played it (the trusted side).
        trusted = grader_view(self.env)
        check = trusted.check or {}
        return {
            "task": trusted.task.id,
            "seed": self.seed,
            "goal": observation.get("goal", ""),
            "url": observation.get("url", ""),
            "tabs": observation.get("tabs", ""),
            "dialog": observation.get("dialog", ""),
            "focused": observation.get("focused", ""),
            "step": self.steps,
            "last_action": observation.get("last_action", ""),
            "error": observation.get("last_action_error", "") or info.get("error") or "",
            "target": self.target[0] if self.target else None,
            "reward": self.reward,
            "done": self.done,
            "terminated": self.terminated,
            "truncated": self.truncated,
            "success": bool(info.get("success")) if self.done else False,
            "check": check.get("conditions", []) if self.done else [],
            "screenshot_step": self.steps,
            "axtree": observation.get("axtree", ""),
            "record": str(self.record_path),
            "episode": self.record_path.name,
        }

    def screenshot_file(self) -> Path | None:
        """The PNG of the last observation's screenshot, as the record saved it."""
        return self.env.last_screenshot

    def close(self) -> None:
        """End the episode (an unfinished one is recorded as ``interrupted``) and the env."""
        if not self._closed:
            self._closed = True
            self.env.close()

    def __enter__(self) -> PlaySession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ------------------------------------------------------------------------

    def _elements(self) -> list[dict[str, Any]]:
        try:
            found = json.loads(self.observation.get("elements") or "[]")
        except ValueError:
            return []
        return [e for e in found if isinstance(e, dict) and len(e.get("box") or ()) == 4]

    def _roles(self) -> dict[str, str]:
        return {str(e["id"]): str(e.get("role", "")) for e in self._elements()}

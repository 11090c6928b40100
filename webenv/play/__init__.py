"""A person plays a task; the episode is recorded as a demonstration.

``webenv play TASK --seed N`` opens the task in a headed browser window (:mod:`.headed`), or,
where there is no display, on a page served on loopback that shows the screenshots
(:mod:`.live`). Either way every thing the person does becomes an action string that goes
through ``env.step`` (:class:`PlaySession`), so the record has the format of an agent's
episode, marked ``"agent": "human"``, and the task's own check rewards it.
"""

from .headed import HeadedPlay
from .live import LivePlay, create_live_app, serve_live
from .run import default_mode, play
from .session import PlayError, PlaySession, format_action

__all__ = [
    "HeadedPlay",
    "LivePlay",
    "PlayError",
    "PlaySession",
    "create_live_app",
    "default_mode",
    "format_action",
    "play",
    "serve_live",
]

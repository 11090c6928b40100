"""Every task template as a Gymnasium id: ``webenv/<template>-v<version>``."""

from __future__ import annotations

import gymnasium as gym

from .tasks import TaskTemplate, env_id, registered, templates

#: Steps every episode gets beyond its template's own budget, for getting past perturbations
#: (a pop-up to close, a sign-in, a page to load again); the same with or without them, so
#: that a profile changes the web, not the budget.
RECOVERY_STEPS = 10


def register_envs(loaded_only: bool = False) -> list[str]:
    """Register the templates' ids with Gymnasium (again-safe), the plugins' too; returns
    them. ``loaded_only``: those registered so far, loading no plugin."""
    ids = []
    chosen: dict[str, TaskTemplate] = registered() if loaded_only else templates()
    for template in chosen.values():
        name = env_id(template)
        if name not in gym.registry:
            gym.register(
                name,
                entry_point="webenv.env:WebEnv",
                vector_entry_point="webenv.vector:WebVectorEnv",
                kwargs={"task": template.name},
                max_episode_steps=template.max_steps + RECOVERY_STEPS,
            )
        ids.append(name)
    return ids

"""Every task template as a Gymnasium id: ``webenv/<template>-v<version>``."""

from __future__ import annotations

import gymnasium as gym

from .tasks import env_id, templates


def register_envs() -> list[str]:
    """Register the templates' ids with Gymnasium (again-safe); returns them."""
    ids = []
    for template in templates().values():
        name = env_id(template)
        if name not in gym.registry:
            gym.register(
                name,
                entry_point="webenv.env:WebEnv",
                kwargs={"task": template.name},
                max_episode_steps=template.max_steps,
            )
        ids.append(name)
    return ids

"""webenv: realistic mock websites as a Gymnasium environment for web agents.

``import webenv`` registers every task template as ``webenv/<template>-v<version>``::

    import gymnasium as gym
    import webenv

    env = gym.make("webenv/shop.buy_product-v0", observe=("axtree", "screenshot"))
    observation, info = env.reset(seed=0)

    envs = gym.make_vec("webenv/shop.buy_product-v0", num_envs=8)  # a WebVectorEnv

``info`` carries nothing an agent could score with; graders and records read the task's
parameters, the perturbation plan and the check through ``webenv.grader_view(env)``.
"""

import warnings
from typing import Any

from .actions import describe as describe_actions
from .env import WebEnv, unwrap
from .errors import (
    ActionError,
    BrowserNotFoundError,
    PluginError,
    UnknownTaskError,
    WebEnvError,
)
from .registration import register_envs
from .site import Site
from .tasks import Answer, CheckResult, Checks, Condition, Task, TaskTemplate, register, templates
from .trusted import GraderView, grader_view
from .validate import (
    PolicyRun,
    TemplateReport,
    ValidationReport,
    check_instances,
    run_policy,
    validate_template,
    validate_templates,
)
from .vector import WebVectorEnv

__version__ = "0.1.0"


def server_app(tasks: Any = ("*",), **options: Any) -> Any:
    """The env server (:mod:`webenv.envserver`) as an ASGI app, for embedding; needs
    ``pip install 'webenv[server]'``."""
    from .envserver.app import server_app as make

    return make(tasks, **options)


__all__ = [
    "ActionError",
    "Answer",
    "BrowserNotFoundError",
    "CheckResult",
    "Checks",
    "Condition",
    "GraderView",
    "PluginError",
    "PolicyRun",
    "Site",
    "Task",
    "TaskTemplate",
    "TemplateReport",
    "UnknownTaskError",
    "ValidationReport",
    "WebEnv",
    "WebEnvError",
    "WebVectorEnv",
    "__version__",
    "check_instances",
    "describe_actions",
    "grader_view",
    "register",
    "register_envs",
    "run_policy",
    "server_app",
    "templates",
    "unwrap",
    "validate_template",
    "validate_templates",
]


def _register_at_import() -> None:
    """Every template's Gymnasium id; a broken plugin costs its own ids only (a warning here,
    its :class:`PluginError` wherever its templates are asked for)."""
    try:
        register_envs()
    except PluginError as error:
        warnings.warn(f"{error} Its templates have no Gymnasium ids.", RuntimeWarning, stacklevel=3)
        register_envs(loaded_only=True)


_register_at_import()

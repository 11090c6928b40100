"""N envs in one process, sharing its Chromium, stepped at the same time.

``gym.make_vec("webenv/<task>-v0", num_envs=N)`` makes a :class:`WebVectorEnv`: N
:class:`~webenv.env.WebEnv` of the task, each with its own browser context, world and site
server, in this process and thread. They share one Chromium and one Playwright driver, so an
env costs its renderer, its server and its world, not a browser of its own (``bench/``
measures both ways).

Their steps run at once: each env's ``step`` (or ``reset``) runs in a greenlet of its own
(:class:`webenv.ahead.Ahead`), and while one waits for Chromium, Playwright's event loop
carries on with the others' calls. The envs' Python code takes turns; their browsers' work
overlaps. Both of Gymnasium's autoreset modes are there (``autoreset_mode``, as for
Gymnasium's own vector envs): next-step (the default), where the step after an episode ends
resets that env (its action is ignored) and returns its first observation with reward 0; and
same-step, where the step that ends an episode resets the env at once and returns its first
observation, the last one and its info in ``infos["final_obs"]`` and ``infos["final_info"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from copy import deepcopy
from typing import Any, TypeVar

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array, iterate
from playwright.sync_api import Browser

from .ahead import Ahead
from .browser import acquire_browser, release_browser
from .env import WebEnv, unwrap
from .trusted import GraderView, grader_view
from .watchdog import watchdog_for

T = TypeVar("T")


class WebVectorEnv(VectorEnv):  # type: ignore[type-arg]
    """``num_envs`` envs of ``task`` (keyword arguments as for :class:`WebEnv`), each ended
    after ``max_episode_steps`` steps (truncated; by default the template's step budget),
    stepped concurrently in this thread;
    ``autoreset_mode`` is Gymnasium's (``AutoresetMode`` or its value, e.g. ``"SameStep"``)."""

    metadata: dict[str, Any] = {  # noqa: RUF012
        **WebEnv.metadata,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int,
        *,
        task: str,
        max_episode_steps: int | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        **kwargs: Any,
    ):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}.")
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = ", ".join(repr(mode.value) for mode in AutoresetMode)
            raise ValueError(
                f"autoreset_mode must be an AutoresetMode or one of {modes}, not "
                f"{autoreset_mode!r}."
            ) from None
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.envs: list[gym.Env[Any, Any]] = []
        for _ in range(num_envs):
            self.envs.append(WebEnv(task, max_episode_steps=max_episode_steps, **kwargs))
        first = self.envs[0]
        self.num_envs = num_envs
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = first.action_space
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._headless = unwrap(first).headless
        #: A hold on the thread's Chromium, so that the envs never launch or close it from
        #: their greenlets (see :meth:`_browser_up`).
        self._browser: Browser | None = None
        self._observations: Any = create_empty_array(self.single_observation_space, num_envs)
        #: Each env's last observation (None before its first reset).
        self._env_observations: list[Any] = [None] * num_envs
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Any, dict[str, Any]]:
        """Reset every env (or those of ``options["reset_mask"]``); an int ``seed`` seeds
        them ``seed``, ``seed + 1``, …"""
        if seed is None or isinstance(seed, int):
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
        if len(seeds) != self.num_envs:
            raise ValueError(f"{len(seeds)} seeds given for {self.num_envs} envs.")
        options = dict(options or {})
        mask = np.asarray(options.pop("reset_mask", np.ones(self.num_envs, dtype=np.bool_)))
        if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
            raise ValueError(f"options['reset_mask'] must be {self.num_envs} booleans.")
        chosen = [i for i in range(self.num_envs) if mask[i]]

        def reset(i: int) -> Callable[[], Any]:
            return lambda: self.envs[i].reset(seed=seeds[i], options=options)

        results = self._concurrently([reset(i) for i in chosen])
        observations = [None] * self.num_envs
        infos: dict[str, Any] = {}
        for i, (observation, info) in zip(chosen, results, strict=True):
            observations[i] = observation
            infos = self._add_info(infos, info, i)
            self._rewards[i] = 0.0
            self._terminations[i] = self._truncations[i] = self._autoreset[i] = False
        return self._batch(observations), infos

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        """One action per env. An env whose episode ended is reset: next-step, at this step
        instead of acting; same-step, right after the step that ended it."""
        actions = list(iterate(self.action_space, actions))
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions given for {self.num_envs} envs.")
        mode = self.autoreset_mode
        if mode == AutoresetMode.DISABLED and self._autoreset.any():
            ended = [i for i in range(self.num_envs) if self._autoreset[i]]
            raise ValueError(
                f"Envs {ended} ended their episodes: reset them first "
                "(reset(options={'reset_mask': ...})), as autoreset is disabled."
            )

        def advance(i: int) -> Callable[[], Any]:
            env = self.envs[i]
            if mode == AutoresetMode.NEXT_STEP and self._autoreset[i]:
                return lambda: ("reset", env.reset())
            if mode == AutoresetMode.SAME_STEP:
                return lambda: _step_then_reset(env, actions[i])
            return lambda: ("step", env.step(actions[i]))

        results = self._concurrently([advance(i) for i in range(self.num_envs)])
        observations = []
        infos: dict[str, Any] = {}
        for i, (kind, result) in enumerate(results):
            if kind == "reset":
                observation, info = result
                self._rewards[i] = 0.0
                self._terminations[i] = self._truncations[i] = False
            else:
                observation, reward, terminated, truncated, info = result[:5]
                self._rewards[i] = reward
                self._terminations[i], self._truncations[i] = terminated, truncated
                if kind == "step, reset":  # same-step: result[5:] is the reset's
                    final = {"final_obs": observation, "final_info": info}
                    infos = self._add_info(infos, final, i)
                    observation, info = result[5:]
            observations.append(observation)
            infos = self._add_info(infos, info, i)
        finished = self._terminations | self._truncations
        self._autoreset = finished if mode != AutoresetMode.SAME_STEP else np.zeros_like(finished)
        return (
            self._batch(observations),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def grader_views(self) -> list[GraderView]:
        """Each env's trusted view (:func:`webenv.grader_view`): its task's parameters, plan
        and last check. Never for the policy."""
        return [grader_view(env) for env in self.envs]

    def render(self) -> tuple[Any, ...] | None:
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        try:
            for env in self.envs:
                env.close()
        finally:
            if self._browser is not None:
                release_browser(self._browser)
                self._browser = None

    # -- inside ---------------------------------------------------------------------------

    def _add_info(
        self, vector_infos: dict[str, Any], env_info: dict[str, Any], env_num: int
    ) -> dict[str, Any]:
        """Gymnasium's batching of infos (a key's values in an array, ``_key`` saying which
        envs have one), except that the task's description is kept whole: ``infos["task"][i]``
        is env ``i``'s public description (:func:`webenv.trusted.public_task`: no parameters),
        rather than split key by key into arrays and masks."""
        task = env_info.get("task")
        rest = {key: value for key, value in env_info.items() if key != "task"}
        vector_infos = super()._add_info(vector_infos, rest, env_num)
        if task is not None:
            tasks = vector_infos.setdefault("task", np.full(self.num_envs, None, dtype=object))
            present = vector_infos.setdefault("_task", np.zeros(self.num_envs, dtype=np.bool_))
            tasks[env_num], present[env_num] = task, True
        return vector_infos

    def _batch(self, observations: list[Any]) -> Any:
        """The envs' observations as one batch; an env not reset keeps its last one."""
        for i, observation in enumerate(observations):
            if observation is not None:
                self._env_observations[i] = observation
        if any(observation is None for observation in self._env_observations):
            raise ValueError("Every env must be reset once before the first batch.")
        self._observations = concatenate(
            self.single_observation_space, self._env_observations, self._observations
        )
        return deepcopy(self._observations)

    def _browser_up(self) -> Browser:
        """The thread's Chromium, launched (or launched again, after a crash) here, before
        the envs' greenlets start, so that they share one launch rather than each making its
        own. The envs' own holds never close it while this one lasts."""
        if self._browser is None or not self._browser.is_connected():
            browser = acquire_browser(self._headless)
            if self._browser is not None:
                release_browser(self._browser)
            self._browser = browser
            watchdog_for(browser)  # made once, not by two greenlets at a time
        return self._browser

    def _concurrently(self, calls: list[Callable[[], T]]) -> list[T]:
        """Run ``calls`` (the envs' resets and steps) at the same time; their results, in
        order, once all have ended. If one raised, its error is raised then, after the others
        have taken their steps (whose results are lost: reset before going on)."""
        browser = self._browser_up()
        running = [Ahead(browser, call) for call in calls]
        results: list[Any] = []
        errors = []
        for ahead in running:
            try:
                results.append(ahead.result())
            except Exception as error:
                results.append(None)
                errors.append(error)
        if errors:
            raise errors[0]
        return results


def _step_then_reset(env: gym.Env[Any, Any], action: Any) -> tuple[str, tuple[Any, ...]]:
    """Same-step autoreset: the step, and the reset after it if it ended the episode."""
    result = env.step(action)
    if result[2] or result[3]:
        return "step, reset", (*result, *env.reset())
    return "step", result

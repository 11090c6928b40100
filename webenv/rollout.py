"""Running one episode of an agent, and many in one process with their envs reused.

The unit every evaluation backend shares: the in-process loop, the worker processes of
:mod:`webenv.workers` and a Ray backend all run :class:`Rollouts` and send back
:class:`EpisodeResult` objects, which are plain, picklable dataclasses.
"""

from __future__ import annotations

import inspect
import time
import traceback
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium as gym

from .agents import Agent, load_agent
from .browser import acquire_browser, release_browser
from .env import unwrap
from .errors import InfrastructureError, WebEnvError
from .perturb import PROFILES as PERTURB_PROFILES
from .record import RecordEpisode
from .tasks import env_id, get_template
from .trusted import grader_view

#: What ``record`` may be: nothing, an episode record (steps; plus screenshots; plus a
#: Playwright trace, ``trace.zip``, in the episode's folder).
RECORD_MODES = ("none", "steps", "screenshots", "trace")
#: Perturbation profiles an evaluation can name.
PROFILES = tuple(PERTURB_PROFILES)


@dataclass(frozen=True)
class Episode:
    """One episode to run: a task template, a seed and a perturbation profile."""

    task: str
    seed: int
    perturb: str = "none"

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.task, self.seed, self.perturb)


@dataclass(frozen=True)
class EvalConfig:
    """How every episode of an evaluation runs; sent as is to worker processes."""

    agent: str = "oracle"
    #: Keyword arguments of the agent's constructor (``openai``: model, base_url, api_key…).
    agent_options: Mapping[str, Any] = field(default_factory=dict)
    observe: tuple[str, ...] = ("axtree",)
    max_steps: int | None = None
    record: str = "none"
    #: Episode records go to ``out_dir/episodes/<task>-<seed>`` (``…-<seed>-<profile>`` when
    #: perturbed); needed unless ``record`` is ``none``.
    out_dir: Path | None = None


@dataclass
class EpisodeResult:
    """The outcome of one episode, one line of ``results.jsonl``."""

    task: str
    seed: int
    success: bool
    reward: float
    steps: int
    duration: float
    goal: str = ""
    terminated: bool = False
    truncated: bool = False
    #: Why the episode could not finish (the agent raised, the browser or worker died, it
    #: timed out); None for an episode that ran to its end, succeeded or not.
    error: str | None = None
    check: dict[str, Any] = field(default_factory=dict)
    perturb: str = "none"
    #: The template's sites.
    sites: list[str] = field(default_factory=list)
    #: Every perturbation event, in order and in full (``{"kind", "site", "what", "step",
    #: …}``, with the details ``info`` leaves out).
    events: list[dict[str, Any]] = field(default_factory=list)
    #: The episode record's folder, relative to the output folder (None: not recorded).
    record: str | None = None

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.task, self.seed, self.perturb)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EpisodeResult:
        """A result from a ``results.jsonl`` line (also one written by an older webenv)."""
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})


def failed_episode(episode: Episode, error: str, duration: float = 0.0) -> EpisodeResult:
    """The result of an episode that could not run to its end (its process died or hung)."""
    try:
        sites = list(get_template(episode.task).sites)
    except WebEnvError:
        sites = []
    return EpisodeResult(
        task=episode.task,
        seed=episode.seed,
        success=False,
        reward=0.0,
        steps=0,
        duration=duration,
        error=error,
        perturb=episode.perturb,
        sites=sites,
    )


def run_episode(
    env: gym.Env[Any, Any],
    agent_spec: str,
    seed: int,
    *,
    agent_options: Mapping[str, Any] | None = None,
    perturb: str = "none",
    reset_options: Mapping[str, Any] | None = None,
) -> EpisodeResult:
    """One episode of the agent named by ``agent_spec``; never raises for the agent's faults.

    ``env`` must end episodes by itself (``gym.make`` wraps it in a ``TimeLimit``). A
    :class:`WebEnvError` (a misconfigured run, not one episode's fault) is raised.
    """
    started = time.perf_counter()
    template = unwrap(env).template
    steps, terminated, truncated = 0, False, False
    reward: SupportsFloat = 0.0
    info: dict[str, Any] = {}
    check: dict[str, Any] = {}
    goal = ""
    events: list[dict[str, Any]] = []
    error: str | None = None
    try:
        agent = load_agent(agent_spec, env, seed, agent_options)
        options = dict(reset_options) if reset_options is not None else None
        observation, info = env.reset(seed=seed, options=options)
        events.extend(grader_view(env).events)
        goal = observation["goal"]
        # The agent gets the public observation and info only; the result, for people, is
        # written from the trusted view (full events, the check's breakdown).
        _reset_agent(agent, observation, info)
        while not (terminated or truncated):
            action = agent.act(observation)
            observation, reward, terminated, truncated, info = env.step(action)
            steps += 1
            trusted = grader_view(env)
            events.extend(trusted.events)
            check = trusted.check or {}
    except InfrastructureError as exc:  # a fault of the browser or machine: this episode's
        error = str(exc)[:2000]
        info, reward, terminated, truncated = {}, 0.0, False, False
    except WebEnvError:
        raise
    except Exception as exc:  # the agent's or the page's fault: recorded, the run goes on
        error = "".join(traceback.format_exception_only(exc)).strip()[:2000]
        info, check, reward, terminated, truncated = {}, {}, 0.0, False, False
    return EpisodeResult(
        task=template.name,
        seed=seed,
        success=bool(info.get("success", False)),
        reward=float(reward),
        steps=steps,
        duration=time.perf_counter() - started,
        goal=goal,
        terminated=terminated,
        truncated=truncated,
        error=error if error is not None else info.get("error"),
        check=check,
        perturb=perturb,
        sites=list(template.sites),
        events=events,
    )


def _reset_agent(agent: Agent, observation: Any, info: Any) -> None:
    """Call ``agent.reset(observation, info)``, or ``reset(observation)`` if that is all it
    takes; agents without ``reset`` are left alone."""
    reset = getattr(agent, "reset", None)
    if reset is None:
        return
    try:
        parameters = inspect.signature(reset).parameters.values()
    except (TypeError, ValueError):
        reset(observation, info)
        return
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) >= 2 or any(p.kind is p.VAR_POSITIONAL for p in parameters):
        reset(observation, info)
    else:
        reset(observation)


class Rollouts:
    """Runs episodes in this process, keeping an env per (template, profile) for reuse.

    Holds a reference to the process's Chromium for its whole life, so that envs closed to
    make room do not close the browser the others share. ``keep`` bounds the envs kept open
    (each holds a world, a site server and its databases).
    """

    def __init__(self, config: EvalConfig, keep: int = 4):
        if config.record not in RECORD_MODES:
            raise WebEnvError(
                f"record must be one of {', '.join(RECORD_MODES)}, not {config.record!r}."
            )
        if config.record != "none" and config.out_dir is None:
            raise WebEnvError("Recording episodes needs an output folder (out_dir).")
        self.config = config
        self.keep = keep
        self._envs: OrderedDict[tuple[str, str], gym.Env[Any, Any]] = OrderedDict()
        self._browser = acquire_browser()
        #: The version of the Chromium the episodes run in.
        self.chromium_version: str = self._browser.version

    def run(self, episode: Episode) -> EpisodeResult:
        env = self._env(episode.task, episode.perturb)
        folder = self.record_folder(episode)
        trace = folder / "trace.zip" if self.config.record == "trace" and folder else None
        result = run_episode(
            env,
            self.config.agent,
            episode.seed,
            agent_options=self.config.agent_options,
            perturb=episode.perturb,
            reset_options={"trace_path": str(trace)} if trace is not None else None,
        )
        if folder is not None and self.config.out_dir is not None and folder.exists():
            result.record = folder.relative_to(self.config.out_dir).as_posix()
        return result

    def record_folder(self, episode: Episode) -> Path | None:
        """Where ``episode``'s record goes (None: not recorded)."""
        if self.config.record == "none" or self.config.out_dir is None:
            return None
        suffix = _suffix(episode.perturb)
        return self.config.out_dir / "episodes" / f"{episode.task}-{episode.seed}{suffix}"

    def close(self) -> None:
        """Close every env (saving the last episode's trace) and let go of Chromium."""
        while self._envs:
            _, env = self._envs.popitem(last=False)
            env.close()
        if self._browser is not None:
            release_browser(self._browser)
            self._browser = None  # type: ignore[assignment]

    def __enter__(self) -> Rollouts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _env(self, task: str, perturb: str) -> gym.Env[Any, Any]:
        key = (task, perturb)
        env = self._envs.get(key)
        if env is not None:
            self._envs.move_to_end(key)
            return env
        while len(self._envs) >= self.keep:
            _, oldest = self._envs.popitem(last=False)
            oldest.close()
        config = self.config
        kwargs: dict[str, Any] = {"observe": tuple(config.observe)}
        if config.max_steps:
            kwargs["max_episode_steps"] = config.max_steps
        if perturb != "none":
            kwargs["perturb"] = perturb
        name = env_id(get_template(task))
        try:
            env = gym.make(name, **kwargs)
        except WebEnvError:
            raise
        except Exception as error:
            raise WebEnvError(f"Cannot make {name} with {kwargs}: {error}") from error
        if config.record != "none" and config.out_dir is not None:
            env = RecordEpisode(
                env,
                config.out_dir / "episodes",
                screenshots=config.record == "screenshots",
                suffix=_suffix(perturb),
            )
        self._envs[key] = env
        return env


def _suffix(perturb: str) -> str:
    """Record folders of perturbed episodes end in their profile, apart from clean ones."""
    return "" if perturb == "none" else f"-{perturb}"

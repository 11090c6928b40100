"""Running an agent over tasks and seeds, and summarising the results.

The CLI's ``webenv eval`` is a thin shell over :func:`evaluate`.
"""

from __future__ import annotations

import json
import math
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import gymnasium as gym

from .agents import load_agent
from .errors import WebEnvError
from .record import RecordEpisode, versions
from .tasks import TaskTemplate, env_id

RECORD_MODES = ("none", "steps", "screenshots")


@dataclass
class EpisodeResult:
    task: str
    seed: int
    success: bool
    reward: float
    steps: int
    duration: float
    goal: str = ""
    terminated: bool = False
    truncated: bool = False
    error: str | None = None
    check: dict[str, Any] = field(default_factory=dict)


def run_episode(env: gym.Env[Any, Any], agent_spec: str, seed: int) -> EpisodeResult:
    """One episode of the agent named by ``agent_spec``; never raises for the agent's faults.

    ``env`` must end episodes by itself (``gym.make`` wraps it in a ``TimeLimit``).
    """
    started = time.perf_counter()
    task_name = env.unwrapped.template.name  # type: ignore[attr-defined]
    steps, reward, info, terminated, truncated = 0, 0.0, {}, False, False
    goal = ""
    try:
        agent = load_agent(agent_spec, env, seed)
        observation, info = env.reset(seed=seed)
        goal = observation["goal"]
        if hasattr(agent, "reset"):
            agent.reset(observation, info)
        while not (terminated or truncated):
            action = agent.act(observation)
            observation, reward, terminated, truncated, info = env.step(action)
            steps += 1
    except WebEnvError:
        raise
    except Exception as error:  # the agent's or the page's fault: recorded, run goes on
        return EpisodeResult(
            task_name,
            seed,
            False,
            0.0,
            steps,
            time.perf_counter() - started,
            goal,
            error="".join(traceback.format_exception_only(error)).strip()[:2000],
        )
    return EpisodeResult(
        task=task_name,
        seed=seed,
        success=bool(info.get("success", False)),
        reward=float(reward),
        steps=steps,
        duration=time.perf_counter() - started,
        goal=goal,
        terminated=terminated,
        truncated=truncated,
        error=info.get("error"),
        check=info.get("check", {}),
    )


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a success rate (Wilson score)."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: Sequence[EpisodeResult]) -> dict[str, Any]:
    successes = sum(r.success for r in results)
    by_task: dict[str, dict[str, Any]] = {}
    for result in results:
        entry = by_task.setdefault(result.task, {"episodes": 0, "successes": 0})
        entry["episodes"] += 1
        entry["successes"] += result.success
    for entry in by_task.values():
        entry["success_rate"] = entry["successes"] / entry["episodes"]
    return {
        "episodes": len(results),
        "successes": successes,
        "success_rate": successes / len(results) if results else 0.0,
        "success_rate_95ci": wilson_interval(successes, len(results)),
        "errors": sum(r.error is not None for r in results),
        "mean_steps": sum(r.steps for r in results) / len(results) if results else 0.0,
        "by_task": by_task,
    }


def evaluate(
    templates: Iterable[TaskTemplate],
    agent: str,
    seeds: Sequence[int],
    out_dir: Path,
    *,
    max_steps: int | None = None,
    observe: Sequence[str] = ("axtree",),
    record: str = "none",
    on_result: Callable[[EpisodeResult], None] | None = None,
) -> dict[str, Any]:
    """Run ``agent`` on every template for every seed; write results and return the summary.

    ``record``: ``none``, ``steps`` (an episode record per episode under ``out_dir/episodes``)
    or ``screenshots`` (the same, with a screenshot per step).
    """
    if record not in RECORD_MODES:
        raise WebEnvError(f"--record must be one of {', '.join(RECORD_MODES)}, not {record!r}.")
    out_dir.mkdir(parents=True, exist_ok=True)
    results: list[EpisodeResult] = []
    with (out_dir / "results.jsonl").open("w", encoding="utf-8") as lines:
        for template in templates:
            limit = {"max_episode_steps": max_steps} if max_steps else {}
            env: gym.Env[Any, Any] = gym.make(env_id(template), observe=tuple(observe), **limit)
            if record != "none":
                env = RecordEpisode(env, out_dir / "episodes", screenshots=record == "screenshots")
            try:
                for seed in seeds:
                    result = run_episode(env, agent, seed)
                    results.append(result)
                    lines.write(json.dumps(asdict(result)) + "\n")
                    lines.flush()
                    if on_result:
                        on_result(result)
            finally:
                env.close()
    summary = summarise(results)
    summary["agent"] = agent
    summary["versions"] = versions()
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    write_junit(results, out_dir / "junit.xml")
    return summary


def write_junit(results: Sequence[EpisodeResult], path: Path) -> None:
    """JUnit XML, one testcase per episode, so that CI systems show evaluations as tests."""
    suite = ElementTree.Element(
        "testsuite",
        name="webenv",
        tests=str(len(results)),
        failures=str(sum(not r.success and r.error is None for r in results)),
        errors=str(sum(r.error is not None for r in results)),
        time=f"{sum(r.duration for r in results):.3f}",
    )
    for result in results:
        case = ElementTree.SubElement(
            suite,
            "testcase",
            classname=result.task,
            name=f"seed {result.seed}",
            time=f"{result.duration:.3f}",
        )
        if result.error is not None:
            ElementTree.SubElement(case, "error", message=result.error[:200]).text = result.error
        elif not result.success:
            conditions = result.check.get("conditions", [])
            failed = [c for c in conditions if not c["passed"]] or conditions
            message = "; ".join(f"{c['name']}: {c['message']}" for c in failed) or "not done"
            detail = f"goal: {result.goal}\nsteps: {result.steps}\n" + "\n".join(
                f"[{'pass' if c['passed'] else 'FAIL'}] {c['name']}: {c['message']}"
                for c in conditions
            )
            ElementTree.SubElement(case, "failure", message=message[:500]).text = detail
    ElementTree.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)

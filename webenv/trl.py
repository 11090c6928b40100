"""TRL's ``GRPOTrainer(environment_factory=...)``: webenv as a class of async tools, each
instance one session of ``webenv server``.

::

    # webenv server --port 8000 --tasks 'shop.*' --max-sessions 64
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer
    import webenv.trl

    WebTools = webenv.trl.environment(url="http://127.0.0.1:8000", max_tokens=3000)
    rows = webenv.trl.dataset(["shop.order_total", "mail.mark_unread"], seeds=range(64))
    trainer = GRPOTrainer(model=..., args=GRPOConfig(...), train_dataset=Dataset.from_list(rows),
                          environment_factory=WebTools)

What TRL 1.16 asks of the class (``trl/trainer/grpo_trainer.py``, read where
``environment_factory`` is used): a constructor with no argument; ``reset(**row)`` returning
``None`` or a string, which is appended to the last user message; every public function of
the class (``inspect.getmembers(type(instance), inspect.isfunction)``) but ``reset`` and
``get_reward`` is a tool, described to the model by transformers' ``get_json_schema`` from its
type hints and Google-style docstring; and ``get_reward()``, called once per rollout.

TRL runs ``async`` tools on an event loop of its own, concurrently across rollouts, and sync
ones one at a time; ``reset`` it calls, sync, from the training loop. A Playwright env cannot
run inside an event loop, so the class is a client of ``webenv server``: one WebSocket per
instance, opened at the first ``reset`` and reopened when the server has closed it (an idle
session is reaped), all of them served by one event loop in a daemon thread of this module.
The tools are async and queue on their instance in the order they were called, so the calls
of one assistant message run one after another, in order.

Tools are generated from the action grammar (:mod:`webenv.actions`), one per action, with the
descriptions of :func:`webenv.chat.tools`: real functions, with real signatures and
docstrings. An optional argument defaults to None (the action's own default). A call that
does not make a valid action raises :class:`~webenv.errors.ActionError` with the reason, which
TRL sends back to the model as the tool's error. A tool returns the next page, rendered by
:func:`webenv.chat.render_text` within the class's budget.

Rewards come from the server. A fault on the server's side (Chromium crashed, a step past the
server's bound) or a connection lost mid-episode ends the episode unscored:
:meth:`get_reward` returns None, which TRL leaves out (see its docstring).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import itertools
import json
import os
import threading
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from . import chat
from .actions import ACTIONS, ActionSpec
from .envserver.auth import TOKEN_VARIABLE
from .errors import ActionError, UnknownTaskError, WebEnvError

#: Where the server is when neither ``url`` nor :data:`URL_VARIABLE` says.
DEFAULT_URL = "http://127.0.0.1:8000"
#: The environment variable naming the server's URL.
URL_VARIABLE = "WEBENV_SERVER_URL"
#: How long a request may wait for the server's answer, in seconds (the server bounds each
#: reset and step at 120 s and answers with a fault past it).
DEFAULT_TIMEOUT = 180.0

_KIND_TYPES: dict[str, Any] = {
    "str": str,
    "int": int,
    "number": float,
    "str or list of str": str | list[str],
}


class ServerError(WebEnvError):
    """The server cannot be reached, is full, or refused a request."""


# --- the event loop the connections live on ----------------------------------------------------


class _Loop:
    """One event loop in a daemon thread, started on first use, for every instance."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def submit(self, coroutine: Coroutine[Any, Any, Any]) -> concurrent.futures.Future[Any]:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                self._loop = asyncio.new_event_loop()
                threading.Thread(
                    target=self._loop.run_forever, name="webenv-trl", daemon=True
                ).start()
            loop = self._loop
        return asyncio.run_coroutine_threadsafe(coroutine, loop)

    def running(self) -> asyncio.AbstractEventLoop | None:
        loop = self._loop
        return loop if loop is not None and loop.is_running() else None


_LOOP = _Loop()


# --- the class TRL instantiates ------------------------------------------------------------------


class WebEnvTools:
    """One webenv session of ``webenv server`` as TRL tools; make a configured subclass with
    :func:`environment`. After an episode, :attr:`observation` is the last observation the
    server sent, :attr:`info` its public info, :attr:`reward` the summed reward and
    :attr:`fault` what failed on the server's side (None if nothing did)."""

    url: ClassVar[str] = DEFAULT_URL
    budget: ClassVar[chat.Budget] = chat.DEFAULT_BUDGET
    timeout: ClassVar[float] = DEFAULT_TIMEOUT
    token: ClassVar[str | None] = None
    tasks: ClassVar[tuple[str, ...]] = ()
    seed: ClassVar[int] = 0
    perturb: ClassVar[str | None] = None
    _draws: ClassVar[itertools.count[int]] = itertools.count()

    def __init__(self) -> None:
        self.observation: dict[str, Any] = {}
        self.info: dict[str, Any] = {}
        self.session_id: str | None = None
        self.reward = 0.0
        self.done = True
        self.fault: dict[str, Any] | None = None
        self.steps = 0
        self._socket: Any = None
        self._queue: asyncio.Lock | None = None

    # -- what TRL calls -------------------------------------------------------------------------

    def reset(self, **row: Any) -> str:
        """Start an episode and return its first page (the goal first), which TRL appends to
        the last user message. ``row`` is the dataset's row: its ``task``, ``seed`` and
        ``perturb`` choose the episode (see :func:`dataset`); without a ``task``, the class's
        ``tasks`` are drawn in turn, else the server's suite. A fault at the start is tried
        once more; if it comes again, the episode is unscored (:meth:`get_reward`: None)."""
        options = self._options(row)
        self.observation, self.info, self.session_id = {}, {}, None
        self.reward, self.done, self.fault, self.steps = 0.0, True, None, 0
        for _ in range(2):
            self.fault = None
            data = _LOOP.submit(self._reset(options)).result()
            self._take(data)
            if self.fault is None or not self.fault.get("retry", True):
                break
        if self.fault is not None:
            return self._ended()
        return chat.render_text(self.observation, self.budget)

    def get_reward(self) -> float | None:
        """The episode's reward (the server's rewards, summed), or None if it ended in a
        fault of the infrastructure (Chromium crashed or was killed, a request past the
        server's bound, the connection lost): no verdict on the agent.

        TRL (1.16, ``trl/trainer/grpo_trainer.py``) leaves such an episode out rather than
        scoring it 0: ``_calculate_rewards`` turns None into NaN ("Convert None values to
        NaN"), and ``_generate_and_score_completions`` marks a completion whose rewards are
        all NaN as unscorable: out of its group's mean and standard deviation (``nanmean``,
        ``nanstd``), its advantage set to 0 (``nan_to_num``). An episode the model did not
        finish is the model's failure, not a fault: its reward is what it earned (0.0)."""
        return None if self.fault is not None else self.reward

    # -- the tools' common body ------------------------------------------------------------------

    async def _act(self, name: str, arguments: Mapping[str, Any]) -> str:
        action = chat.action_from_tool_call(name, dict(arguments))
        if self.done:
            raise ActionError(
                "The episode is over: no more actions are taken. Stop calling tools."
                if self.session_id or self.fault
                else "No episode has started: reset() first."
            )
        data = await asyncio.wrap_future(_LOOP.submit(self._step(action)))
        self._take(data)
        if self.done:
            return self._ended()
        return chat.render_text(self.observation, self.budget)

    def _ended(self) -> str:
        if self.fault is not None:
            return (
                f"The environment failed ({self.fault.get('kind')}: {self.fault.get('message')}"
                "); this episode is not scored. Stop calling tools."
            )
        return "The episode is over. Stop calling tools."

    def _take(self, data: Mapping[str, Any]) -> None:
        """Take in one result of the server."""
        observation = dict(data.get("observation") or {})
        metadata = dict(data.get("metadata") or {})
        self.observation = observation
        self.info = dict(metadata.get("info") or self.info)
        self.session_id = metadata.get("session_id", self.session_id)
        fault = observation.get("fault") or metadata.get("fault")
        if fault:
            self.fault = dict(fault)
        elif data.get("reward") is not None:
            self.reward += float(data["reward"])
        self.done = bool(data.get("done")) or self.fault is not None

    def _options(self, row: Mapping[str, Any]) -> dict[str, Any]:
        options = {key: row[key] for key in ("task", "seed", "perturb") if row.get(key) is not None}
        if "task" not in options and self.tasks:
            index = next(type(self)._draws)
            options["task"] = self.tasks[index % len(self.tasks)]
            options.setdefault("seed", self.seed + index // len(self.tasks))
        if self.perturb is not None:
            options.setdefault("perturb", self.perturb)
        return options

    # -- the wire ----------------------------------------------------------------------------------

    async def _reset(self, options: dict[str, Any]) -> dict[str, Any]:
        async with self._turn():
            for attempt in range(2):
                if not self._open():
                    await self._connect()
                try:
                    frame = await self._exchange({"type": "reset", "data": options})
                except _Closed as lost:
                    await self._disconnect()
                    if attempt:
                        return _lost("connection_lost", str(lost))
                    continue  # the server closed the connection while it was idle
                except TimeoutError:
                    await self._disconnect()
                    return _lost("timeout", f"No answer from {self.url} in {self.timeout:g} s.")
                if frame["type"] == "error" and frame["data"].get("code") == "SESSION_EXPIRED":
                    await self._disconnect()
                    continue  # reaped while idle between episodes: a new session
                return self._answer(frame, "reset")
        raise ServerError(f"The server at {self.url} closed every new session; see its log.")

    async def _step(self, action: str) -> dict[str, Any]:
        async with self._turn():
            if self.done:  # an earlier call of the same message ended the episode
                return {"observation": self.observation, "done": True, "reward": None}
            try:
                frame = await self._exchange({"type": "step", "data": {"action": action}})
            except _Closed as lost:
                await self._disconnect()
                return _lost("connection_lost", str(lost))
            except TimeoutError:
                await self._disconnect()
                return _lost("timeout", f"No answer from {self.url} in {self.timeout:g} s.")
            if frame["type"] == "error" and frame["data"].get("code") == "SESSION_EXPIRED":
                await self._disconnect()
                return _lost("session_expired", str(frame["data"].get("message")))
            self.steps += 1
            return self._answer(frame, "step")

    def _answer(self, frame: Mapping[str, Any], what: str) -> dict[str, Any]:
        if frame.get("type") == "observation":
            return dict(frame["data"])
        data = frame.get("data") or {}
        message, code = data.get("message", frame), data.get("code")
        if code == "CAPACITY_REACHED":
            raise ServerError(
                f"webenv server at {self.url} is full ({data.get('max_sessions')} sessions): "
                "each instance holds one; start it with --max-sessions at least the number of "
                "rollouts generated at once."
            )
        raise ServerError(f"webenv server at {self.url} refused the {what}: {message} ({code}).")

    def _turn(self) -> asyncio.Lock:
        if self._queue is None:
            self._queue = asyncio.Lock()  # FIFO: calls run in the order they were made
        return self._queue

    def _open(self) -> bool:
        from websockets.protocol import State

        return self._socket is not None and self._socket.state is State.OPEN

    async def _connect(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake, InvalidStatus, InvalidURI

        address = _ws_url(self.url)
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        try:
            self._socket = await connect(
                address, max_size=None, open_timeout=self.timeout, additional_headers=headers
            )
        except InvalidStatus as error:
            if error.response.status_code not in (401, 403):
                raise ServerError(
                    f"webenv server at {address} refused the connection ({error})."
                ) from None
            given = "its token was not accepted" if self.token else "it asks for a token"
            raise ServerError(
                f"webenv server at {address} refused the connection: {given}. Pass the "
                f"server's --token as token= (or set ${TOKEN_VARIABLE})."
            ) from None
        except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
            raise ServerError(
                f"Cannot reach webenv server at {address} ({error}): start it with "
                f"`webenv server --port 8000`, or point {URL_VARIABLE} (or url=) at it."
            ) from None

    async def _disconnect(self) -> None:
        socket, self._socket = self._socket, None
        if socket is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(), 5)

    async def _exchange(self, message: Mapping[str, Any]) -> dict[str, Any]:
        from websockets.exceptions import ConnectionClosed

        try:
            await self._socket.send(json.dumps(message))
            raw = await asyncio.wait_for(self._socket.recv(), self.timeout)
        except ConnectionClosed as closed:
            raise _Closed(f"The connection to {self.url} was closed ({closed}).") from None
        frame = json.loads(raw)
        if not isinstance(frame, dict) or "type" not in frame:
            raise ServerError(f"webenv server at {self.url} sent {raw[:200]!r}: not a frame.")
        return frame

    def __del__(self) -> None:
        socket = getattr(self, "_socket", None)
        loop = _LOOP.running()
        if socket is not None and loop is not None:
            with contextlib.suppress(Exception):  # the loop may be closing with the process
                asyncio.run_coroutine_threadsafe(socket.close(), loop)


class _Closed(Exception):
    """The WebSocket closed under a request."""


def _lost(kind: str, message: str) -> dict[str, Any]:
    """A result for a request the server never answered: a fault of the client's side."""
    fault = {
        "kind": kind,
        "message": message,
        "where": "client",
        "infrastructure_error": True,
        "retry": True,
    }
    return {"observation": {"fault": fault}, "reward": None, "done": True, "metadata": {}}


def _ws_url(url: str) -> str:
    url = url.rstrip("/")
    for plain, secure in (("http://", "ws://"), ("https://", "wss://")):
        if url.startswith(plain):
            url = secure + url[len(plain) :]
    return url if url.endswith("/ws") else url + "/ws"


# --- the tools -----------------------------------------------------------------------------------


def _tool(spec: ActionSpec, described: Mapping[str, Any]) -> Any:
    """The async method for one action: its signature from the action's parameters, its
    docstring (Google style, as ``get_json_schema`` reads it) from ``described``, the
    action's tool in :func:`webenv.chat.tools`."""
    names = [param.name for param in spec.params]
    name = spec.name

    async def tool(self: WebEnvTools, *args: Any, **kwargs: Any) -> str:
        if len(args) > len(names):
            raise ActionError(f"{name} takes {len(names)} arguments, not {len(args)}.")
        arguments: dict[str, Any] = dict.fromkeys(names)
        arguments.update(zip(names, args, strict=False))
        arguments.update(kwargs)
        return await self._act(name, arguments)

    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for param in spec.params:
        hint = _KIND_TYPES[param.kind]
        if not param.required:
            hint = hint | None
        annotations[param.name] = hint
        parameters.append(
            inspect.Parameter(
                param.name,
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=inspect.Parameter.empty if param.required else None,
                annotation=hint,
            )
        )
    annotations["return"] = str
    tool.__name__ = tool.__qualname__ = name
    tool.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    tool.__annotations__ = annotations
    tool.__doc__ = _docstring(described)
    return tool


def _docstring(described: Mapping[str, Any]) -> str:
    lines = [str(described["description"])]
    properties = described["parameters"]["properties"]
    if properties:
        lines += ["", "Args:"]
        lines += [f"    {key}: {value['description']}" for key, value in properties.items()]
    lines += ["", "Returns:", "    The page after the action, or how the episode ended."]
    return "\n".join(lines)


def tool_names(cls: type) -> list[str]:
    """The tools TRL finds on ``cls``, as it finds them: the public functions of the class
    but ``reset`` and ``get_reward``."""
    return [
        name
        for name, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
        if name not in ("reset", "get_reward") and not name.startswith("_")
    ]


def environment(
    tasks: Sequence[str] | str | None = None,
    *,
    url: str | None = None,
    max_tokens: int | None = chat.DEFAULT_MAX_TOKENS,
    max_chars: int | None = None,
    actions: Sequence[str] | None = None,
    seed: int = 0,
    perturb: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    token: str | None = None,
    name: str = "WebEnvTools",
) -> type[WebEnvTools]:
    """A :class:`WebEnvTools` subclass for ``GRPOTrainer(environment_factory=...)``.

    Args:
        tasks: template names or glob patterns (``"shop.*"``) drawn in turn, seeds counting
            up from ``seed``, by a reset whose row names no task; None: the server's suite.
        url: the server, ``http://host:port`` (default: ``$WEBENV_SERVER_URL``, else
            :data:`DEFAULT_URL`).
        max_tokens: the budget of each rendered page, in :func:`webenv.chat.count_tokens`
            tokens (None: no bound in tokens).
        max_chars: a budget in characters, besides or instead of ``max_tokens``.
        actions: the actions given as tools (default: every action of
            :data:`webenv.actions.ACTIONS`).
        seed: the first seed of ``tasks``' draws.
        perturb: a perturbation profile for every episode whose row names none.
        timeout: how long to wait for each answer of the server, in seconds.
        token: the server's ``--token`` (default: ``$WEBENV_SERVER_TOKEN``; None: no token).
        name: the class's name (TRL logs the reward under it).
    """
    from .tasks import matching

    chosen = list(ACTIONS) if actions is None else list(actions)
    unknown = [action for action in chosen if action not in ACTIONS]
    if unknown:
        raise ActionError(f"No action {', '.join(unknown)}; webenv.actions.ACTIONS lists them.")
    patterns = [tasks] if isinstance(tasks, str) else list(tasks or [])
    names: tuple[str, ...] = ()
    if patterns:
        names = tuple(sorted(template.name for template in matching(patterns)))
        if not names:
            raise UnknownTaskError(
                f"No task matches {', '.join(patterns)!r}; `webenv list` shows them all."
            )
    described = {tool["function"]["name"]: tool["function"] for tool in chat.tools()}
    namespace: dict[str, Any] = {
        "url": url or os.environ.get(URL_VARIABLE) or DEFAULT_URL,
        "budget": chat.Budget(max_chars=max_chars, max_tokens=max_tokens),
        "timeout": timeout,
        "token": token or os.environ.get(TOKEN_VARIABLE) or None,
        "tasks": names,
        "seed": seed,
        "perturb": perturb,
        "_draws": itertools.count(),
        "__module__": __name__,
        "__doc__": WebEnvTools.__doc__,
    }
    for action in chosen:
        namespace[action] = _tool(ACTIONS[action], described[action])
    return type(name, (WebEnvTools,), namespace)


def dataset(
    tasks: Sequence[str] | str,
    seeds: Iterable[int] = range(8),
    *,
    perturb: str = "none",
    system_prompt: bool = True,
) -> list[dict[str, Any]]:
    """Rows for ``datasets.Dataset.from_list``: one per (template, seed), each with a
    ``prompt`` (the system prompt of :func:`webenv.chat.system_prompt` and an empty user
    message, which the first page completes) and the ``task``, ``seed`` and ``perturb`` that
    :meth:`WebEnvTools.reset` starts. GRPO compares the rollouts of one row, so each row
    names its episode exactly."""
    from .tasks import matching

    patterns = [tasks] if isinstance(tasks, str) else list(tasks)
    names = sorted(template.name for template in matching(patterns))
    if not names:
        raise UnknownTaskError(
            f"No task matches {', '.join(patterns)!r}; `webenv list` shows them all."
        )
    prompt = [{"role": "user", "content": ""}]
    if system_prompt:
        prompt.insert(0, {"role": "system", "content": chat.system_prompt()})
    return [
        {"prompt": prompt, "task": task, "seed": seed, "perturb": perturb}
        for seed in seeds
        for task in names
    ]

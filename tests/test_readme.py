"""Every command of the README, as written.

The commands are read from the README itself (each line of its ``sh`` and ``bash`` blocks, and
each ``webenv …`` it names inline), so a command changed there is checked as changed. In every
run, each ``webenv`` command is parsed by webenv's own parser, each ``make`` target and each
file a command names exists, and each command has its walk in :data:`WALKS` (a command added
to the README without one fails here).

In the full matrix (``make test-full``) each block is walked as a user walks it: command after
command, in a folder of its own, with this environment's ``webenv``, ``python`` and ``pip`` on
the ``PATH`` and no display. A command that ends in seconds is run to its end. A longer one (a
run over every task, a server) runs until it shows it is doing its job (its first episode done,
its page or API answering) and is then stopped as Ctrl-C stops it, which it must take quietly.
The user's own names mean what the README says they mean: ``my_package.agents:MyAgent`` is a
module in the folder the command runs in; ``my_site.my_task`` is the user's template (a built-in
one here). A chat model's endpoint (OpenAI's, or the README's local one) is a stand-in on
loopback that scrolls, whatever the page.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

from webenv.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_BLOCK = re.compile(r"^```(?:sh|bash)\n(.*?)^```", re.DOTALL | re.MULTILINE)
_INLINE = re.compile(r"`((?:\.venv-demo/bin/)?webenv [a-z][^`]*)`")
#: Where the README's commands say a service listens.
PORTS = {"server": 8000, "viewer": 8765, "play": 8766}


@dataclass(frozen=True)
class Finish:
    """Run to its end: exit status ``returncode``, output matching ``expect``."""

    expect: str
    returncode: int = 0
    #: Words run instead of the README's, where running them as written would change the
    #: test's own environment; ``why`` says so.
    instead: str = ""
    why: str = ""


@dataclass(frozen=True)
class Start:
    """Run until a line of its output matches ``ready`` (then GET ``get`` at the URL it printed,
    if given), then Ctrl-C: it must stop within a minute, without a traceback."""

    ready: str
    get: str | None = None
    #: A line that shows it failed (an episode ended in an error): the walk fails at once.
    failed: str = r"^\[\s*\d+/\d+\] ERR |^Traceback"
    instead: str = ""
    why: str = ""


@dataclass(frozen=True)
class Elsewhere:
    """Not walked here, for ``why``."""

    why: str


Walk = Finish | Start | Elsewhere

FIRST_EPISODE = r"^\[\s*1/\d+\] ok "
ANY_EPISODE = r"^\[\s*\d+/\d+\] (ok |-- )"
NO_CLUSTER = (
    "a cluster of machines: a Ray head binds to the machine's network address, which the "
    "suite's machines may not reach; tests/test_ray.py runs `webenv eval --backend ray` on a "
    "local Ray"
)
NO_DOCKER = "needs a Docker engine (none runs on the machines the suite runs on); the files exist"

#: How each command of the README is walked, by its words joined by spaces.
WALKS: dict[str, Walk] = {
    "make demo": Elsewhere("run by hand at each change of the demo (the README gives its time)"),
    "make test": Elsewhere("this suite: CI runs it (.ci/run)"),
    "webenv validate": Start(r": the oracle under "),
    "webenv validate --tasks shop.* --seeds 30 --workers 2 --json runs/validate.json": Start(
        r"^shop\.\w+: the oracle under "
    ),
    "webenv validate --tasks shop.* --seeds 30 --workers 2 --json runs/validate.json --resume": (
        Start(r"^shop\.\w+: the oracle under ")
    ),
    "webenv validate --tasks my_site.my_task --profiles none --seeds 2": Finish(
        r"1 of 1 templates? passed every check",
        instead="webenv validate --tasks shop.order_total --profiles none --seeds 2",
        why="the user's template: a built-in one",
    ),
    "pip install ./examples/webenv-example-plugin": Finish(
        r"",
        instead="pip install --quiet --no-deps --no-build-isolation --target site-packages "
        "./examples/webenv-example-plugin",
        why="into a folder of the walk's own (on PYTHONPATH after it), not the test's environment",
    ),
    "webenv list": Finish(r"webenv/example\.archive_note-v0"),
    "webenv validate --tasks example.* --seeds 2": Finish(r"2 of 2 templates? passed every check"),
    "webenv eval --agent oracle --tasks example.* --episodes 2 --out runs/example": Finish(
        r"all\s+4\s+100%"
    ),
    "webenv eval --agent oracle --tasks shop.* --episodes 20 --workers 2 --out runs/oracle": Start(
        FIRST_EPISODE
    ),
    "webenv eval --agent my_package.agents:MyAgent --tasks * --seeds 0-99 --min-success 0.5": (
        Start(ANY_EPISODE)
    ),
    "webenv eval --agent openai --model gpt-4o-mini --tasks mail.* --perturb none,heavy "
    "--out runs/llm": Start(ANY_EPISODE),
    "webenv eval --agent openai --model qwen --base-url http://localhost:8000/v1 --tasks * "
    "--resume": Start(ANY_EPISODE),
    "webenv demos --tasks shop.* mail.* --seeds 0-999 --perturb none,heavy --out demos/": Start(
        r"^\d+/\d+ episodes"
    ),
    "webenv demos --tasks shop.order_total --seeds 0-4,10 --include-failures --out demos-small/": (
        Finish(r"^Wrote \d+ episodes .* to demos-small/demos\.jsonl")
    ),
    "python -c import datasets; print(datasets.load_dataset('json', "
    "data_files='demos/demos.jsonl'))": Finish(r"num_rows: [1-9]"),
    "webenv play shop.change_phone --seed 0": Start(r"^Play shop\.change_phone", get=""),
    "webenv play shop.change_phone --seed 0 --live": Start(r"^Play shop\.change_phone", get=""),
    "webenv view runs/play": Start(r"^Viewer of ", get=""),
    "ray start --head --port=6379": Elsewhere(NO_CLUSTER),
    "ray start --address=HEAD_ADDRESS:6379": Elsewhere(NO_CLUSTER),
    "webenv eval --backend ray --address auto --workers 0 --agent my_package.agents:MyAgent "
    "--tasks * --seeds 0-99 --out runs/cluster": Elsewhere(NO_CLUSTER),
    "webenv server --host 127.0.0.1 --port 8000 --tasks shop.* mail.* --perturb none,light "
    "--max-sessions 8 --idle-timeout 300": Start(r"^webenv server on ", get="metadata"),
    "nice python bench/server_throughput.py --sizes 1,4,8 --seconds 10": Start(
        r"^\s+1 (?:server|vector)\s+[0-9]"
    ),
    "webenv server --host 127.0.0.1 --port 8000 --tasks shop.* mail.* forms.* --max-sessions 64": (
        Start(r"^webenv server on ", get="metadata")
    ),
    "docker build -f docker/Dockerfile -t webenv .": Elsewhere(NO_DOCKER),
    "docker run --rm -v webenv-runs:/runs webenv": Elsewhere(NO_DOCKER),
    "docker run --rm -v webenv-runs:/runs webenv webenv eval --tasks shop.* --episodes 5 "
    "--out /runs/shop": Elsewhere(NO_DOCKER),
    "docker compose -f docker/compose.yaml run --rm eval": Elsewhere(NO_DOCKER),
    "docker compose -f docker/compose.yaml up viewer": Elsewhere(NO_DOCKER),
}

#: What a user's agent module holds, for ``--agent my_package.agents:MyAgent``.
MY_AGENT = '''class MyAgent:
    """Looks around, and says so."""

    def act(self, observation):
        return "scroll(0, 300)"
'''


def readme_blocks() -> list[list[list[str]]]:
    """The README's shell blocks, each a list of its commands' words (a line continued with
    a backslash is one command; comments are left out)."""
    blocks = []
    for text in _BLOCK.findall(README.read_text(encoding="utf-8")):
        commands = []
        for line in text.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                commands.append(words)
        blocks.append(commands)
    return blocks


def key(words: list[str]) -> str:
    return " ".join(words)


def inline_commands() -> list[list[str]]:
    return [shlex.split(found) for found in _INLINE.findall(README.read_text(encoding="utf-8"))]


def webenv_words(words: list[str]) -> list[str] | None:
    """The arguments of the ``webenv`` command in ``words`` (after ``nice`` or a virtualenv's
    path; after the image of a ``docker run``), or None."""
    if words[:2] == ["docker", "run"]:
        image = words.index("webenv") if "webenv" in words else len(words)
        words = words[image + 1 :]
    if words[:1] == ["nice"]:
        words = words[1:]
    if words and (words[0] == "webenv" or words[0].endswith("/bin/webenv")):
        return words[1:]
    return None


# -- in every run ---------------------------------------------------------------------------


def test_every_command_of_the_readme_has_its_walk():
    written = [key(words) for block in readme_blocks() for words in block]
    assert len(written) >= 30, written
    assert [k for k in written if k not in WALKS] == [], "commands without a walk in WALKS"
    assert [k for k in WALKS if k not in written] == [], "walks of commands the README lost"


@pytest.mark.parametrize(
    "words",
    [w for block in readme_blocks() for w in block if webenv_words(w) is not None]
    + inline_commands(),
    ids=key,
)
def test_every_webenv_command_of_the_readme_parses(words):
    args = webenv_words(words)
    assert args is not None
    try:
        build_parser().parse_args(args)
    except SystemExit as exit:
        pytest.fail(f"`{key(words)}` does not parse (exit {exit.code})")


def test_the_files_and_make_targets_the_readme_names_exist():
    commands = [words for block in readme_blocks() for words in block]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    compose = (ROOT / "docker/compose.yaml").read_text(encoding="utf-8")
    for words in commands:
        if words[0] == "make":
            for target in words[1:]:
                assert re.search(rf"^{re.escape(target)}:", makefile, re.MULTILINE), target
        if words[:3] == ["docker", "compose", "-f"]:
            assert (ROOT / words[3]).is_file(), words[3]
            assert re.search(rf"^  {re.escape(words[-1])}:$", compose, re.MULTILINE), words[-1]
        for word in words:
            if re.fullmatch(r"\.?/?(?:bench|examples|docker)/[\w./-]+", word):
                assert (ROOT / word).exists(), word
    assert "make test-full" in README.read_text(encoding="utf-8")
    assert re.search(r"^test-full:", makefile, re.MULTILINE)


# -- the full matrix: each block walked ------------------------------------------------------


def create_model() -> Flask:
    """An OpenAI-compatible chat endpoint whose every reply is an action in prose."""
    app = Flask("model")

    @app.post("/v1/chat/completions")
    def chat() -> Any:
        reply = "Let me look further down.\n```python\nscroll(0, 300)\n```"
        return jsonify(
            id="chatcmpl-walk",
            object="chat.completion",
            created=0,
            model=request.get_json()["model"],
            choices=[
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": reply},
                    "finish_reason": "stop",
                }
            ],
            usage={"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        )

    return app


@pytest.fixture(scope="module")
def openai_standin() -> Iterator[str]:
    """OpenAI's endpoint, as the stand-in: ``OPENAI_BASE_URL`` for ``--model gpt-4o-mini``."""
    server = make_server("127.0.0.1", 0, create_model(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()


@pytest.fixture
def local_model() -> Iterator[None]:
    """The stand-in at the README's ``http://localhost:8000/v1``, for the block that asks it."""
    server = make_server("127.0.0.1", PORTS["server"], create_model(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield
    server.shutdown()
    server.server_close()


def _block_ids() -> list[str]:
    return [f"{index}-{block[0][0]}-{block[0][1]}" for index, block in enumerate(readme_blocks())]


@pytest.mark.suite
@pytest.mark.browser
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("index", range(len(readme_blocks())), ids=_block_ids())
def test_each_block_of_the_readme_does_what_it_says(index, tmp_path, openai_standin, request):
    block = readme_blocks()[index]
    if any(key(words).startswith("webenv eval --agent openai --model qwen") for words in block):
        request.getfixturevalue("local_model")
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copytree(ROOT / "examples", folder / "examples", ignore=shutil.ignore_patterns(
        "build", "*.egg-info", "__pycache__"))  # fmt: skip
    (folder / "my_package").mkdir()
    (folder / "my_package" / "agents.py").write_text(MY_AGENT)
    for name in ("bench",):
        shutil.copytree(ROOT / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        OPENAI_BASE_URL=openai_standin,
        OPENAI_API_KEY="sk-stand-in",
        PYTHONUNBUFFERED="1",  # each line as it is printed, as a terminal shows it
    )
    walked = []
    for words in block:
        walk = WALKS[key(words)]
        if isinstance(walk, Elsewhere):
            continue
        if words[0] == "pip":
            env["PYTHONPATH"] = str(folder / "site-packages")
        _walk(shlex.split(walk.instead) or words, walk, folder, env)
        walked.append(key(words))
    if not walked:
        pytest.skip("; ".join({WALKS[key(w)].why for w in block}))  # type: ignore[union-attr]


def _walk(words: list[str], walk: Finish | Start, cwd: Path, env: dict[str, str]) -> None:
    program = shutil.which(words[0], path=env["PATH"])
    assert program is not None, f"{words[0]} is not on the PATH"
    process = subprocess.Popen(
        [program, *words[1:]], cwd=cwd, env=env, text=True, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
        preexec_fn=_ctrl_c_at_its_default,
    )  # fmt: skip
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_read, args=(process, lines), daemon=True)
    reader.start()
    output: list[str] = []
    shown = f"`{key(words)}`"
    try:
        if isinstance(walk, Finish):
            _until(lines, output, None, deadline=time.monotonic() + 600)
            status = process.wait(60)
            assert status == walk.returncode, f"{shown} exited {status}:\n" + "".join(output[-60:])
            assert re.search(walk.expect, "".join(output), re.MULTILINE), "".join(output[-60:])
            return
        found = _until(lines, output, f"{walk.ready}|{walk.failed}", time.monotonic() + 600)
        shows = "".join(output[-60:])
        assert found, (
            f"{shown} ended (or took 10 minutes) before it showed {walk.ready!r}:\n{shows}"
        )
        assert not re.search(walk.failed, output[-1]), f"{shown} failed:\n{shows}"
        if walk.get is not None:
            url = re.search(r"http://[\w.:-]+/?", "".join(output))
            assert url is not None, "".join(output)
            _get(url[0].rstrip("/") + "/" + walk.get)
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C, to the command's process group
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{shown} did not stop within a minute of Ctrl-C")
        _until(lines, output, None, deadline=time.monotonic() + 10)
        text = "".join(output)
        assert "Traceback" not in text, f"{shown} on Ctrl-C:\n{text[-4000:]}"
        assert process.returncode in (0, 130, -signal.SIGINT), (process.returncode, text[-2000:])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever it left running
        process.wait()
        reader.join(30)
        assert process.stdout is not None
        process.stdout.close()


def _get(url: str) -> None:
    """GET ``url``: 200, once it answers (a server may say where it is a moment before it
    listens)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url, timeout=60) as page:
                assert page.status == 200, (url, page.status)
                return
        except urllib.error.URLError as error:
            if not isinstance(error.reason, ConnectionRefusedError) or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _ctrl_c_at_its_default() -> None:
    # As in a terminal: a suite run as a script's background job has SIGINT ignored, which
    # every process it starts would inherit (and Python then never raises KeyboardInterrupt).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.put(line)
    lines.put(None)


def _until(
    lines: queue.Queue[str | None], output: list[str], pattern: str | None, deadline: float
) -> bool:
    """Collect lines into ``output`` until one matches ``pattern`` (True), the output ends or
    the deadline passes (False)."""
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return False
        if line is None:
            lines.put(None)  # for a later call
            return False
        output.append(line)
        if pattern is not None and re.search(pattern, line):
            return True

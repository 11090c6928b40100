"""A ``webenv server`` in the test's own process, for the env server's and its clients' tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from tests.processes import chromium_pids, descendants
from webenv.envserver import EnvServer


class Served:
    """A running server: the object (for the trusted view in tests), its addresses, and the
    Chromium processes there were before it."""

    def __init__(self, server: EnvServer, port: int, chromium_before: set[int]):
        self.server = server
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"
        self.chromium_before = chromium_before


def serve(tasks: Sequence[str], **options: Any) -> Iterator[Served]:
    """Serve ``EnvServer(tasks, **options)`` with uvicorn in a thread until the generator is
    closed; then check that the server stopped and left no Chromium behind."""
    import uvicorn

    before = chromium_pids()
    server = EnvServer(tuple(tasks), **options)
    config = uvicorn.Config(
        server.app, host="127.0.0.1", port=0, log_level="warning", ws="websockets-sansio"
    )
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not uv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    port = uv.servers[0].sockets[0].getsockname()[1]
    try:
        yield Served(server, port, before)
    finally:
        uv.should_exit = True
        thread.join(60)
    assert not thread.is_alive()
    left = {pid: descendants().get(pid, b"")[:300] for pid in chromium_pids() - before}
    assert not left, f"the server left its Chromium behind: {left}"

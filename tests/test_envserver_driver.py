"""The env server's browser thread when Playwright's driver goes (a Ctrl-C at a terminal
reaches every process of the command, the driver too): it ends quietly, and work handed to it
afterwards fails with a clear error rather than waiting for ever."""

from __future__ import annotations

import gc
import logging
import os
import signal
import threading

import pytest

from tests.processes import descendants
from webenv.envserver.hub import BrowserHub
from webenv.errors import WebEnvError

pytestmark = pytest.mark.browser  # Chromium in a thread of its own


def _drivers() -> set[int]:
    return {pid for pid, command in descendants().items() if b"run-driver" in command}


def test_the_hub_ends_quietly_when_its_driver_goes(monkeypatch, caplog):
    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    before = _drivers()
    hub = BrowserHub()
    hub.start()
    try:
        assert hub.submit(lambda: 1 + 1).result(60) == 2
        (driver,) = _drivers() - before
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            os.kill(driver, signal.SIGINT)
            hub._thread.join(60)
            assert not hub._thread.is_alive()
            gc.collect()
        with pytest.raises(WebEnvError):
            hub.submit(lambda: 1).result(10)
    finally:
        hub.stop()
    assert raised == []
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]

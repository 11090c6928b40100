"""Browser calls that return as soon as they open a JavaScript dialog.

An ``alert``, ``confirm`` or ``prompt`` pauses the page's script until it is answered, and a
browser input event is not done until the page has handled it: so a click whose handler
calls ``confirm()`` does not return before the dialog closes. The env holds dialogs for the
agent to answer at its next step, so without this guard such a click would wait out
Playwright's action timeout, and a ``mouse_click`` or ``keyboard_press`` (which have no
timeout) would wait until the watchdog closed the tab, dialog and all.

How: Playwright's sync API blocks a call by switching to its dispatcher greenlet, which runs
the event loop until the call's result arrives. The guarded call runs in a greenlet of its
own; when a dialog opens meanwhile, the caller is resumed at once and the call is left to
finish in the background once the dialog has been answered (its result, or error, is
dropped).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import greenlet
from playwright.sync_api import BrowserContext


def until_dialog(context: BrowserContext, call: Callable[[], Any]) -> None:
    """Run ``call`` (browser calls in ``context``); return early if it opens a dialog.

    Errors of ``call`` are raised as usual unless a dialog opened first; the dialog itself goes
    to the page's own dialog listeners (the session's holds it for the agent).
    """
    caller = greenlet.getcurrent()
    abandoned = False

    def run() -> None:
        try:
            call()
        except BaseException:
            if not abandoned:
                raise  # to the caller; an abandoned call's error concerns nobody

    worker = greenlet.greenlet(run)

    def release() -> None:
        # A loop callback, so in the dispatcher greenlet, after every dialog listener (the
        # session's among them) has run.
        nonlocal abandoned
        if worker.dead or abandoned:
            return
        abandoned = True
        # The dispatcher resumes the worker when its call ends; then the worker ends there.
        worker.parent = greenlet.getcurrent()
        caller.switch()

    def on_dialog(_dialog: Any) -> None:
        if not worker.dead and not abandoned:
            asyncio.get_running_loop().call_soon(release)

    context.on("dialog", on_dialog)
    try:
        worker.switch()
    finally:
        context.remove_listener("dialog", on_dialog)

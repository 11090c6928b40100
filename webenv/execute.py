"""Carrying out parsed actions in an episode's browser session."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator

from .actions import Call
from .dialog_guard import until_dialog
from .errors import ActionError
from .session import Session

#: Longest wait an agent may ask for with noop(wait_ms).
MAX_WAIT_MS = 10_000


def execute(session: Session, call: Call, files_dir: Path) -> None:
    """Run ``call``; raise :class:`ActionError` with a short, useful message when it fails."""
    if session.dialog is not None and call.name not in _DIALOG_SAFE:
        dialog = session.dialog
        raise ActionError(
            f"A {dialog.type} dialog is open ({dialog.message[:200]!r}); "
            "answer it first with dialog_accept() or dialog_dismiss()."
        )
    handler = _HANDLERS.get(call.name)
    if handler is None:  # final actions: nothing to do in the page
        return
    try:
        # An action that opens a JavaScript dialog returns at once, the dialog held for the
        # agent; without the guard it would wait for the dialog's answer.
        until_dialog(session.context, lambda: handler(session, files_dir=files_dir, **call.args))
    except ActionError:
        raise
    except PlaywrightError as error:
        if session.dialog is not None:
            return  # the action opened a JavaScript dialog, which holds the page until answered
        raise ActionError(f"{call.name} failed: {_summarise(error)}") from None


def _summarise(error: PlaywrightError) -> str:
    """Playwright's first line, plus the line that says what blocked it, if any."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    summary = lines[0] if lines else "unknown error"
    summary = summary.split(": ", 1)[-1] if summary.startswith(("Locator.", "Page.")) else summary
    for line in lines[1:]:
        if "intercepts pointer events" in line or "not visible" in line or "not enabled" in line:
            summary += f" ({line.lstrip('- ').split(' retrying')[0]})"
            break
    return summary[:500]


#: The element with an id (searched in open shadow roots and same-origin frames too), as
#: ``[in the main frame, visible, enabled, opens a tab]``, or null; one round trip, through
#: the observation script, instead of a locator's several.
_LOCATE_JS = """bid => {
  const el = window.__webenv ? window.__webenv.find(bid) : null;
  if (!el) return null;
  // Placed above or left of the page (a skip link), no scrolling reaches it; a keyboard user
  // tabs to it, which shows it: focus it, as they would.
  const beyond = () => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && (box.right + scrollX <= 0 || box.bottom + scrollY <= 0);
  };
  if (beyond() && el.focus) el.focus();
  // Visible as Playwright's actions mean it: shown, and with a box of some size (an empty
  // status region is not), so that an action on it fails now, not after its timeout.
  const shown = el.checkVisibility ? el.checkVisibility({visibilityProperty: true}) : true;
  const box = el.getBoundingClientRect();
  const sized = (box.width > 0 && box.height > 0) || getComputedStyle(el).display === "contents";
  return [
    el.ownerDocument === document,
    shown && sized,
    !(el.disabled || el.getAttribute("aria-disabled") === "true"),
    !!el.closest("a[href], area[href]"),
    !beyond(),
  ];
}"""


def _element(session: Session, bid: str, usable: bool = True) -> Locator:
    """The element with id ``bid``; with ``usable``, one that is visible and enabled."""
    return _checked_element(session, bid, usable)[0]


def _checked_element(session: Session, bid: str, usable: bool = True) -> tuple[Locator, bool]:
    """The element with id ``bid``, and whether it is (in) a link.

    Fails at once rather than waiting out the action timeout for a state that may never come.
    """
    selector = f'[data-webenv-id="{_safe_id(bid)}"]'
    found = session.page.evaluate(_LOCATE_JS, bid)
    if found is None:
        raise ActionError(f"No element with id {bid!r} on this page; use an id from the axtree.")
    in_main_frame, visible, enabled, link, reachable = found
    if in_main_frame:
        element = session.page.locator(selector).first
    else:
        element = _in_frames(session, selector)
    if not usable:
        return element, link
    if not visible:
        raise ActionError(f"Element {bid} is not visible; open or scroll to what shows it.")
    if not enabled:
        raise ActionError(f"Element {bid} is disabled.")
    if not reachable:
        raise ActionError(
            f"Element {bid} is placed off the page, where no scrolling reaches it; use a "
            "control shown on the page, or focus() it and press keys."
        )
    return element, link


def _in_frames(session: Session, selector: str) -> Locator:
    """The element in a same-origin frame (their ids are of the page's one sequence)."""
    for frame in session.page.frames[1:]:
        locator = frame.locator(selector)
        if locator.count():
            return locator.first
    raise ActionError("The element's frame has gone; observe the page again.")


def _safe_id(bid: str) -> str:
    if not bid.isdigit() or len(bid) > 9:
        raise ActionError(f'{bid!r} is not an element id; ids are numbers such as "12".')
    return bid


def _click(session: Session, bid: str, button: str, modifiers: Any, **_: Any) -> None:
    element, link = _checked_element(session, bid)
    keys = _modifiers(modifiers)

    def click() -> None:
        element.click(button=_button(button), modifiers=keys)

    if link and _in_new_tab(button, keys):
        # As in a browser: a middle- or Ctrl-click opens the link in a background tab (with
        # Shift, in a tab brought to the front), listed at once; the step waits for neither
        # its load nor, in the background, its settling.
        session.open_tab_by(click, background="Shift" not in keys)
    else:
        # A window it opens (a link's or a form's target, a script's window.open) is waited
        # for by the settling after it, which knows whether one is on its way.
        click()


def _in_new_tab(button: str, keys: list[str]) -> bool:
    """Whether a click of a link with ``button`` and ``keys`` held opens it in a new tab."""
    return button == "middle" or bool({"Control", "ControlOrMeta", "Meta"} & set(keys))


def _dblclick(session: Session, bid: str, button: str, modifiers: Any, **_: Any) -> None:
    _element(session, bid).dblclick(button=_button(button), modifiers=_modifiers(modifiers))


def _button(button: str) -> Any:
    if button not in ("left", "middle", "right"):
        raise ActionError(f"button must be left, middle or right, not {button!r}.")
    return button


#: The keys a key combination may hold down while it presses its last one.
MODIFIERS = frozenset({"Alt", "Control", "ControlOrMeta", "Meta", "Shift"})


def _modifiers(modifiers: Any) -> Any:
    keys = [modifiers] if isinstance(modifiers, str) else list(modifiers)
    if not set(keys) <= MODIFIERS:
        raise ActionError(f"modifiers must be among {sorted(MODIFIERS)}.")
    return keys


def _chord(key: str) -> tuple[list[str], str]:
    """The keys ``key`` holds down and the one it presses ("Shift++": ["Shift"], "+")."""
    parts = key.split("+")
    if key.endswith("++") or key == "+":  # the "+" key itself, last
        parts = [*parts[:-2], "+"]
    *held, last = parts
    return held, last


def _combination(key: str) -> str:
    """``key`` as Playwright presses it, if it is one key with modifiers held ("Enter",
    "Control+A", "Shift++"); a run of keys ("a+b+c", each a key press, so a way to type
    without keyboard_type's bound) is refused."""
    held, _last = _chord(key)
    if not set(held) <= MODIFIERS:
        raise ActionError(
            f"{key[:40]!r} is not a key combination: keys held with '+' must be among "
            f"{sorted(MODIFIERS)} (e.g. 'Control+A'); type text with keyboard_type or fill."
        )
    return key


#: The most characters an episode's clipboard holds.
MAX_CLIPBOARD_CHARS = 20_000
#: The selection a copy takes: in the focused field (a password field gives nothing, as in a
#: browser), else the page's; through same-origin frames to the focused one.
_SELECTION_JS = """() => {
  let doc = document, el = doc.activeElement;
  while (el && el.tagName === "IFRAME" && el.contentDocument) {
    doc = el.contentDocument;
    el = doc.activeElement;
  }
  const field = el instanceof doc.defaultView.HTMLTextAreaElement
    || (el instanceof doc.defaultView.HTMLInputElement && el.selectionStart !== null);
  if (field) {
    const text = el.type === "password" ? "" : el.value.slice(el.selectionStart, el.selectionEnd);
    return { text, editable: !el.readOnly && !el.disabled };
  }
  return { text: String(doc.defaultView.getSelection() || ""), editable: false };
}"""


def _clipboard_command(key: str) -> str | None:
    """ "copy", "cut" or "paste" if ``key`` is a chord that does one ("Control+C",
    "Meta+V", "Control+Shift+V", "Control+KeyC", "Control+Insert", "Shift+Insert",
    "Shift+Delete"). The browser's own copy, cut and paste do nothing in an
    episode's pages (see :mod:`webenv.session`), whatever chord this does not know."""
    held_keys, last = _chord(key)
    held, last = {k.lower() for k in held_keys}, last.lower().removeprefix("key")
    command = held & {"control", "meta", "controlormeta"}
    if len(command) == 1 and held - command <= {"shift"}:
        return {"c": "copy", "x": "cut", "v": "paste", "insert": "copy"}.get(last)
    if held == {"shift"}:
        return {"insert": "paste", "delete": "cut"}.get(last)
    return None


def _press(session: Session, key: str, element: Locator | None = None) -> None:
    """Press ``key`` (on ``element``, else where the focus is). Copy, cut and paste use the
    episode's own clipboard (``session.clipboard``): Chromium's is one for the whole browser,
    shared by every env it serves and kept across resets, so one episode could read what
    another copied, or paste a megabyte it left there."""
    command = _clipboard_command(_combination(key))
    if command is None:
        if element is not None:
            element.press(key)
        else:
            session.page.keyboard.press(key)
        return
    if element is not None:
        element.focus()
    if command == "paste":
        if session.clipboard:
            session.page.keyboard.insert_text(session.clipboard)
        return
    selected = session.page.evaluate(_SELECTION_JS)
    text = str(selected["text"])
    if not text:
        return  # nothing selected: the clipboard keeps what it had, as in a browser
    session.clipboard = text[:MAX_CLIPBOARD_CHARS]
    if command == "cut" and selected["editable"]:
        session.page.keyboard.press("Delete")
    if len(text) > MAX_CLIPBOARD_CHARS:
        raise ActionError(
            f"Copied the first {MAX_CLIPBOARD_CHARS:,} of the {len(text):,} characters selected: "
            "the most the clipboard holds."
        )


#: Characters one keyboard_type may type: each is a key press of its own (about 4 ms), so a
#: long text would hold the step (and the other envs' steps) for a minute; fill() sets a
#: field's whole value at once.
MAX_TYPED_CHARS = 1000


def _keyboard_type(session: Session, text: str) -> None:
    if len(text) > MAX_TYPED_CHARS:
        raise ActionError(
            f"keyboard_type of {len(text)} characters; at most {MAX_TYPED_CHARS} a step. "
            'Use fill("<id>", text) to set a field\'s whole value, or type it in parts.'
        )
    session.page.keyboard.type(text)


def _fill(session: Session, bid: str, value: str, **_: Any) -> None:
    _element(session, bid).fill(value)


def _select_option(session: Session, bid: str, options: Any, **_: Any) -> None:
    element = _element(session, bid)
    wanted = [options] if isinstance(options, str) else options
    choices = element.evaluate(
        "el => el.options ? Array.from(el.options, o => [o.label, o.value]) : null"
    )
    if choices is None:
        raise ActionError(f"Element {bid} is not a select element.")
    # By label, as the axtree shows it, else by value.
    by_label = {label: value for label, value in choices}
    values = {value for _, value in choices}
    missing = [w for w in wanted if w not in by_label and w not in values]
    if missing:
        labels = ", ".join(repr(label) for label, _ in choices[:30])
        raise ActionError(f"No option {missing[0]!r} in select {bid}; options: {labels}.")
    element.select_option(value=[by_label.get(w, w) for w in wanted])


def _upload_file(session: Session, bid: str, file: Any, files_dir: Path, **_: Any) -> None:
    names = [file] if isinstance(file, str) else file
    paths = []
    root = files_dir.resolve()
    for name in names:
        try:
            path = (root / name).resolve()
            found = path.is_relative_to(root) and path.is_file()
        except (OSError, ValueError):  # a NUL byte, a lone surrogate, a name too long
            found = False
        if not found:
            available = ", ".join(sorted(p.name for p in root.iterdir())) or "none"
            raise ActionError(f"No file {name!r} among this episode's files ({available}).")
        paths.append(path)
    _element(session, bid, usable=False).set_input_files(paths)


#: Notes, as the wheel event reaches the page (before its default action scrolls anything),
#: what it will scroll: the first element from its target up that can move in its direction,
#: else the page; and where that stood. A page's own handler may cancel it.
_WHEEL_WATCH = """() => {
  const seen = window.__webenvWheel = {target: null, top: 0, left: 0, prevented: false,
                                       scrolls: 0, ended: -1};
  seen.count = () => { seen.scrolls += 1; };
  seen.end = () => { seen.ended = seen.scrolls; };
  addEventListener("scroll", seen.count, {capture: true, passive: true});
  addEventListener("scrollend", seen.end, {capture: true, passive: true});
  // (the page scrolls unless its root or body hides its overflow, as a modal's page may)
  const locked = axis => [document.documentElement, document.body].some(
    el => el && /(hidden|clip)/.test(getComputedStyle(el)[axis]));
  const movable = (el, dx, dy, root) => {
    const style = root ? null : getComputedStyle(el);
    const can = (delta, pos, size, view, overflow) => delta !== 0 && size > view + 1
      && (root ? !locked(overflow) : /(auto|scroll|overlay)/.test(overflow))
      && (delta > 0 ? pos + view < size - 1 : pos > 0);
    const [overflowY, overflowX] = root ? ["overflowY", "overflowX"]
      : [style.overflowY, style.overflowX];
    return can(dy, el.scrollTop, el.scrollHeight, el.clientHeight, overflowY)
      || can(dx, el.scrollLeft, el.scrollWidth, el.clientWidth, overflowX);
  };
  addEventListener("wheel", event => {
    const root = document.scrollingElement || document.documentElement;
    let el = event.target instanceof Element ? event.target : null;
    const [dx, dy] = [event.deltaX, event.deltaY];
    while (el && el !== root && !movable(el, dx, dy, false)) el = el.parentElement;
    if (!el || el === root) el = movable(root, dx, dy, true) ? root : null;
    seen.target = el;
    seen.wheeled = true;
    seen.root = el === root;
    if (el) [seen.top, seen.left] = seen.root ? [scrollY, scrollX] : [el.scrollTop, el.scrollLeft];
  }, {capture: true, once: true, passive: false});
  addEventListener("wheel", event => { seen.prevented = event.defaultPrevented; },
                   {once: true, passive: true});
}"""
#: Resolves once the scrolling the wheel set off has ended (its last scroll event followed by a
#: ``scrollend``). Where the wheel can scroll nothing it resolves after two frames (ten where the
#: page's own handler took the wheel, as it may scroll itself). Where it can scroll, it waits for
#: the scroll to begin however long a busy machine takes to start it (up to five seconds): the
#: browser may start it after many frames, and a scroll started once the page stopped drawing
#: frames would wait for the next input. Waiting for the scroll's own end, not for a number of
#: frames at rest, keeps a busy machine's late or slow scroll out of the observation (120 frames
#: after the first scroll bound one that never ends; a browser without ``scrollend`` takes two
#: frames at rest after the move).
_WHEEL_SETTLED = """() => new Promise(done => {
  const seen = window.__webenvWheel || {};
  const start = performance.now();
  let last = null, same = 0, frames = 0, scrolling = 0;
  const tick = () => {
    const el = seen.target;
    const [top, left] = !el ? [0, 0]
      : seen.root ? [scrollY, scrollX] : [el.scrollTop, el.scrollLeft];
    const now = top + "," + left + "," + seen.scrolls;
    const moved = el && (top !== seen.top || left !== seen.left);
    same = now === last ? same + 1 : 0;
    last = now;
    const ended = seen.scrolls > 0 && seen.ended === seen.scrolls;
    // nothing to move (a wheel not seen here went to a frame inside the page; a page's own
    // handler may scroll instead)
    const still = !seen.wheeled || !el || seen.prevented;
    const quiet = seen.scrolls === 0 && (still ? ++frames >= (seen.prevented ? 10 : 2)
                                                : performance.now() - start > 5000);
    const rest = "onscrollend" in window ? ended : moved && same >= 2;
    if (rest || quiet || (seen.scrolls > 0 && ++scrolling > 120)) {
      removeEventListener("scroll", seen.count, {capture: true});
      removeEventListener("scrollend", seen.end, {capture: true});
      done();
    } else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def _scroll(session: Session, delta_x: float, delta_y: float, **_: Any) -> None:
    # The wheel event returns before the page has scrolled; wait for what it scrolls to move.
    session.page.evaluate(_WHEEL_WATCH)
    session.page.mouse.wheel(delta_x, delta_y)
    session.page.evaluate(_WHEEL_SETTLED)


def _noop(session: Session, wait_ms: float, **_: Any) -> None:
    if wait_ms > 0:
        session.page.wait_for_timeout(min(float(wait_ms), MAX_WAIT_MS))


def _new_tab(session: Session, **_: Any) -> None:
    session.new_tab()


def _mouse(method: str) -> Callable[..., None]:
    def act(session: Session, x: float, y: float, button: str = "left", **_: Any) -> None:
        mouse = session.page.mouse
        if method == "move":
            mouse.move(x, y)
        elif method in ("down", "up"):
            mouse.move(x, y)
            getattr(mouse, method)(button=_button(button))
        else:
            getattr(mouse, method)(x, y, button=_button(button))

    return act


def _history(session: Session, back: bool) -> None:
    """Go back or forward in the tab's history, or say there is nowhere to go."""
    page = session.page
    if not page.evaluate("back => back ? navigation.canGoBack : navigation.canGoForward", back):
        where = "previous" if back else "next"
        raise ActionError(f"There is no {where} page in this tab's history.")
    if back:
        page.go_back(wait_until="load")
    else:
        page.go_forward(wait_until="load")


_HANDLERS: dict[str, Callable[..., None]] = {
    "noop": _noop,
    "click": _click,
    "dblclick": _dblclick,
    "hover": lambda s, bid, **_: _element(s, bid).hover(),
    "fill": _fill,
    "clear": lambda s, bid, **_: _element(s, bid).clear(),
    "select_option": _select_option,
    "check": lambda s, bid, **_: _element(s, bid).check(),
    "uncheck": lambda s, bid, **_: _element(s, bid).uncheck(),
    "press": lambda s, bid, key_comb, **_: _press(s, key_comb, _element(s, bid)),
    "focus": lambda s, bid, **_: _element(s, bid, usable=False).focus(),
    "scroll": _scroll,
    "upload_file": _upload_file,
    "drag_and_drop": lambda s, from_bid, to_bid, **_: _element(s, from_bid).drag_to(
        _element(s, to_bid)
    ),
    "goto": lambda s, url, **_: s.goto(url),
    "go_back": lambda s, **_: _history(s, back=True),
    "go_forward": lambda s, **_: _history(s, back=False),
    "new_tab": _new_tab,
    "tab_focus": lambda s, index, **_: s.focus_tab(index),
    "tab_close": lambda s, **_: s.close_tab(),
    "mouse_move": _mouse("move"),
    "mouse_click": _mouse("click"),
    "mouse_dblclick": _mouse("dblclick"),
    "mouse_down": _mouse("down"),
    "mouse_up": _mouse("up"),
    "keyboard_press": lambda s, key, **_: _press(s, key),
    "keyboard_type": lambda s, text, **_: _keyboard_type(s, text),
    "dialog_accept": lambda s, prompt_text, **_: s.answer_dialog(True, prompt_text),
    "dialog_dismiss": lambda s, **_: s.answer_dialog(False),
}

_DIALOG_SAFE = frozenset(
    {
        "dialog_accept",
        "dialog_dismiss",
        "noop",
        "send_msg_to_user",
        "report_infeasible",
        "tab_focus",
    }
)

// In-page half of headed play: turns what a person does in the real window into commands for
// the env. Clicks on elements are stopped here and replayed by the env as click("<id>"), so
// they happen once, through the agents' own action; typing happens natively and is reported
// on "change" as a fill; Enter in a text field and <select> changes are stopped, reported and
// replayed too. While the env replays an action, window.__webenvPlay.paused lets events through.
(() => {
  if (window.__webenvPlay) return;
  const ID = "data-webenv-id";
  const EMIT = "__webenvPlayEmit";
  const TEXT_TYPES = new Set(["", "text", "search", "email", "tel", "url", "password", "number",
    "date", "datetime-local", "month", "time", "week"]);
  const state = { paused: false, reported: new WeakMap() };
  window.__webenvPlay = state;

  const emit = (event) => {
    if (typeof window[EMIT] === "function") window[EMIT](event);
  };
  const idOf = (el) => {
    const owner = el && el.closest ? el.closest(`[${ID}]`) : null;
    return owner ? owner.getAttribute(ID) : null;
  };
  const isTextField = (el) =>
    !!el && ((el.tagName === "INPUT" && TEXT_TYPES.has((el.getAttribute("type") || "").toLowerCase()))
      || el.tagName === "TEXTAREA" || el.isContentEditable);
  const valueOf = (el) => (el.isContentEditable ? el.innerText : el.value);

  function reportText(el) {
    // A fill of the field's text, once per value (a change after a replay repeats nothing).
    if (!isTextField(el)) return;
    const id = el.getAttribute(ID);
    const value = valueOf(el);
    if (!id || state.reported.get(el) === value) return;
    state.reported.set(el, value);
    emit({ kind: "fill", id, value });
  }

  function pagePoint(event) {
    // The event's point in the top page's viewport, through same-origin frames.
    let x = event.clientX, y = event.clientY, view = window;
    while (view !== view.top) {
      const box = view.frameElement.getBoundingClientRect();
      x += box.x; y += box.y; view = view.parent;
    }
    return { x, y };
  }

  window.addEventListener("click", (event) => {
    if (state.paused || !event.isTrusted || event.button !== 0) return;
    const el = event.target;
    if (isTextField(el) || (el.closest && el.closest("select, option"))) return; // focus natively
    event.preventDefault();
    event.stopImmediatePropagation();
    const active = document.activeElement;
    if (active && active !== el) reportText(active); // typed text first, if not reported yet
    const id = idOf(el);
    if (id) {
      emit({ kind: "click", id });
    } else {
      try { emit({ kind: "mouse_click", ...pagePoint(event) }); } catch (_) { /* cross-origin frame */ }
    }
  }, true);

  window.addEventListener("change", (event) => {
    if (state.paused || !event.isTrusted) return;
    const el = event.target;
    if (el.tagName === "SELECT") {
      const labels = Array.from(el.selectedOptions, (option) => option.label || option.value);
      event.stopImmediatePropagation(); // the replay's own change reaches the page instead
      emit({ kind: "select", id: el.getAttribute(ID), values: labels, multiple: el.multiple });
    } else if (isTextField(el)) {
      reportText(el); // the page sees this change: the replayed fill only sets the same text
    }
  }, true);

  window.addEventListener("keydown", (event) => {
    if (state.paused || !event.isTrusted || event.key !== "Enter" || event.isComposing) return;
    const el = event.target;
    if (!isTextField(el) || el.tagName === "TEXTAREA" || el.isContentEditable) return;
    const id = el.getAttribute(ID);
    if (!id) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    reportText(el);
    emit({ kind: "press", id, key: "Enter" });
  }, true);
})();

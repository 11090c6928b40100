// In-page half of webenv's observations. Installed as an init script, so it is defined in
// every document before the page's own scripts run; the env calls window.__webenv.observe().
//
// Every element gets a stable `data-webenv-id` (kept while the element lives); the
// accessibility-tree text, the pruned DOM and the element boxes all name elements by it.
(() => {
  if (window.__webenv) return;
  const ID = "data-webenv-id";
  let nextId = 1;

  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK", "TITLE", "BASE"]);
  const INLINE = new Set(["SPAN", "B", "STRONG", "EM", "I", "SMALL", "CODE", "ABBR", "TIME", "MARK",
    "SUB", "SUP", "S", "U", "Q", "CITE", "KBD", "VAR", "BDI", "BDO", "DATA", "BR", "WBR", "FONT", "INS", "DEL"]);
  // Roles whose accessible name is their content: shown as one line, children not repeated.
  const NAME_FROM_CONTENT = new Set(["button", "link", "heading", "option", "menuitem", "tab",
    "checkbox", "radio", "switch", "treeitem", "columnheader", "rowheader", "cell", "listitem",
    "paragraph", "caption", "legend", "term", "definition", "status", "alert", "tooltip", "code"]);
  const INTERACTIVE = new Set(["button", "link", "textbox", "searchbox", "combobox", "listbox",
    "option", "checkbox", "radio", "switch", "slider", "spinbutton", "menuitem", "tab", "treeitem"]);
  const INPUT_ROLES = { button: "button", submit: "button", reset: "button", image: "button",
    checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton", search: "searchbox",
    email: "textbox", tel: "textbox", text: "textbox", url: "textbox", password: "textbox",
    date: "textbox", "datetime-local": "textbox", month: "textbox", time: "textbox", week: "textbox",
    file: "button", color: "button" };
  const TAG_ROLES = { A: "link", AREA: "link", BUTTON: "button", SELECT: "combobox", TEXTAREA: "textbox",
    OPTION: "option", H1: "heading", H2: "heading", H3: "heading", H4: "heading", H5: "heading",
    H6: "heading", IMG: "img", NAV: "navigation", MAIN: "main", ASIDE: "complementary",
    UL: "list", OL: "list", LI: "listitem", DL: "list", DT: "term", DD: "definition",
    TABLE: "table", THEAD: "rowgroup", TBODY: "rowgroup", TFOOT: "rowgroup", TR: "row", TH: "columnheader",
    TD: "cell", DIALOG: "dialog", FIELDSET: "group", LEGEND: "legend", P: "paragraph",
    PROGRESS: "progressbar", METER: "meter", DETAILS: "group", SUMMARY: "button", CAPTION: "caption",
    BLOCKQUOTE: "blockquote", FIGURE: "figure", HR: "separator", OUTPUT: "status",
    ARTICLE: "article", PRE: "code", SVG: "img" };
  const LANDMARK_IN_SECTION = new Set(["ARTICLE", "ASIDE", "MAIN", "NAV", "SECTION"]);

  const clean = (text) => (text || "").replace(/\s+/g, " ").trim();
  const quote = (text) => JSON.stringify(text);

  function idOf(el) {
    let id = el.getAttribute(ID);
    if (!id) {
      id = String(nextId++);
      el.setAttribute(ID, id);
    }
    return id;
  }

  function isHidden(el) {
    if (el.hidden || el.getAttribute("aria-hidden") === "true") return true;
    if (el.tagName === "INPUT" && el.type === "hidden") return true;
    if (el.tagName === "OPTION" || el.tagName === "OPTGROUP") return false; // drawn by the select
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) {
      // display:contents elements have no box but their children may be visible.
      return getComputedStyle(el).display !== "contents";
    }
    return false;
  }

  function roleOf(el) {
    const explicit = clean(el.getAttribute("role")).split(" ")[0];
    if (explicit && explicit !== "none" && explicit !== "presentation") return explicit;
    if (explicit) return null;
    const tag = el.tagName.toUpperCase();
    if (tag === "INPUT") {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (el.hasAttribute("list") && ["text", "search", "email", "tel", "url"].includes(type)) return "combobox";
      return INPUT_ROLES[type] || "textbox";
    }
    if (tag === "A" || tag === "AREA") return el.hasAttribute("href") ? "link" : null;
    if (tag === "SELECT") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "IMG") return el.getAttribute("alt") === "" ? null : "img";
    if (tag === "SVG") return el.getAttribute("aria-label") || el.querySelector("title") ? "img" : null;
    if (tag === "HEADER" || tag === "FOOTER") {
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (LANDMARK_IN_SECTION.has(up.tagName)) return null;
      }
      return tag === "HEADER" ? "banner" : "contentinfo";
    }
    if (tag === "SECTION") return nameOf(el, "region") ? "region" : null;
    if (tag === "FORM") return nameOf(el, "form") ? "form" : null;
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return "textbox";
    return TAG_ROLES[tag] || null;
  }

  function textOf(node, depth = 0) {
    // Accessible text of a subtree: text nodes, alt text and names of embedded controls.
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || SKIP.has(node.tagName) || depth > 20) return "";
    if (isHidden(node)) return "";
    const label = node.getAttribute("aria-label");
    if (label && depth > 0) return " " + label + " ";
    if (node.tagName === "IMG") return " " + (node.getAttribute("alt") || "") + " ";
    if (node.tagName === "INPUT" || node.tagName === "SELECT" || node.tagName === "TEXTAREA") return "";
    let out = "";
    const children = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
    for (const child of children) out += textOf(child, depth + 1);
    const display = node.nodeType === Node.ELEMENT_NODE ? getComputedStyle(node).display : "inline";
    return display === "inline" ? out : " " + out + " ";
  }

  function labelsOf(el) {
    const parts = [];
    if (el.labels) for (const label of el.labels) parts.push(textOf(label));
    return clean(parts.join(" "));
  }

  function nameOf(el, role) {
    const labelledBy = el.getAttribute("aria-labelledby");
    if (labelledBy) {
      const text = labelledBy.split(/\s+/).map((id) => {
        const ref = el.ownerDocument.getElementById(id);
        return ref ? textOf(ref) : "";
      }).join(" ");
      if (clean(text)) return clean(text);
    }
    const label = clean(el.getAttribute("aria-label"));
    if (label) return label;
    const tag = el.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (["submit", "reset", "button"].includes(type)) {
        return clean(el.value) || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
      }
      if (type === "image") return clean(el.getAttribute("alt")) || "Submit";
      return labelsOf(el) || clean(el.getAttribute("title")) || clean(el.getAttribute("placeholder"));
    }
    if (tag === "IMG") return clean(el.getAttribute("alt")) || clean(el.getAttribute("title"));
    if (tag === "FIELDSET") {
      const legend = el.querySelector(":scope > legend");
      if (legend) return clean(textOf(legend));
    }
    if (tag === "TABLE") {
      const caption = el.querySelector(":scope > caption");
      if (caption) return clean(textOf(caption));
    }
    if (tag === "SVG") {
      const title = el.querySelector("title");
      if (title) return clean(title.textContent);
    }
    if (role && NAME_FROM_CONTENT.has(role)) return clean(textOf(el));
    return clean(el.getAttribute("title"));
  }

  function statesOf(el, role) {
    const states = [];
    const attr = (name) => el.getAttribute(name);
    if (role === "heading") states.push("level=" + (attr("aria-level") || el.tagName.slice(1)));
    if (role === "checkbox" || role === "radio" || role === "switch") {
      const checked = "checked" in el ? el.checked : attr("aria-checked") === "true";
      states.push(checked ? "checked" : "unchecked");
    }
    if (role === "option" && (el.selected || attr("aria-selected") === "true")) states.push("selected");
    if (attr("aria-expanded")) states.push(attr("aria-expanded") === "true" ? "expanded" : "collapsed");
    if (el.tagName === "DETAILS") states.push(el.open ? "expanded" : "collapsed");
    if (el.disabled || attr("aria-disabled") === "true") states.push("disabled");
    if (el.required || attr("aria-required") === "true") states.push("required");
    if (attr("aria-invalid") && attr("aria-invalid") !== "false") states.push("invalid");
    if (el.readOnly && ["textbox", "searchbox", "spinbutton"].includes(role)) states.push("readonly");
    if (attr("aria-current") && attr("aria-current") !== "false") states.push("current");
    if (el === focusedElement() && el.tagName !== "BODY") states.push("focused");
    return states;
  }

  function valueOf(el, role) {
    if (el.tagName === "SELECT") {
      return clean(Array.from(el.selectedOptions).map((o) => o.label || o.text).join(", "));
    }
    if (el.tagName === "INPUT") {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (["checkbox", "radio", "submit", "reset", "button", "image"].includes(type)) return null;
      if (type === "password") return "•".repeat(el.value.length);
      if (type === "file") return Array.from(el.files || []).map((f) => f.name).join(", ");
      return el.value;
    }
    if (el.tagName === "TEXTAREA") return el.value;
    if (role === "textbox" && el.isContentEditable) return clean(el.innerText);
    if (["progressbar", "meter", "slider", "spinbutton"].includes(role)) {
      return el.getAttribute("aria-valuenow") || (el.value !== undefined ? String(el.value) : null);
    }
    return null;
  }

  function hasInteractiveDescendant(el) {
    return !!el.querySelector("a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], [tabindex], [contenteditable=true]");
  }

  function focusedElement() {
    // The element with the keyboard focus, inside open shadow roots and same-origin frames
    // too (where document.activeElement names only the shadow host or the frame).
    let active = document.activeElement;
    for (;;) {
      if (active && active.shadowRoot && active.shadowRoot.activeElement) {
        active = active.shadowRoot.activeElement;
        continue;
      }
      let inner = null;
      try {
        if (active && active.tagName === "IFRAME" && active.contentDocument) inner = active.contentDocument.activeElement;
      } catch (e) { /* cross-origin */ }
      if (!inner || inner === inner.ownerDocument.body) return active;
      active = inner;
    }
  }

  function inViewport(el) {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  }

  function childNodesOf(el) {
    if (el.shadowRoot) return el.shadowRoot.childNodes;
    if (el.tagName === "IFRAME") {
      try {
        const doc = el.contentDocument;
        return doc && doc.body ? [doc.body] : [];
      } catch (e) {
        return []; // cross-origin: out of reach, as for any script
      }
    }
    if (el.tagName === "SLOT") return el.assignedNodes({ flatten: true });
    return el.childNodes;
  }

  function axtree(options) {
    const lines = [];
    const onlyViewport = !!options.viewportOnly;
    let run = "";
    let runDepth = 0;
    const flush = () => {
      const text = clean(run);
      if (text) lines.push("  ".repeat(runDepth) + "StaticText " + quote(text));
      run = "";
    };
    const emit = (depth, text) => {
      flush();
      lines.push("  ".repeat(depth) + text);
    };

    function walk(node, depth) {
      if (node.nodeType === Node.TEXT_NODE) {
        if (run === "") runDepth = depth;
        run += node.textContent;
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE || SKIP.has(node.tagName.toUpperCase())) return;
      const el = node;
      if (isHidden(el)) return;
      const id = idOf(el);
      const role = roleOf(el);
      if (el.tagName === "LABEL" && el.control) {
        // The control carries the label's text as its name; keep only nested controls.
        for (const child of el.querySelectorAll("input, select, textarea, button, a[href]")) walk(child, depth);
        return;
      }
      if (!role || role === "generic") {
        const inline = INLINE.has(el.tagName.toUpperCase());
        if (!inline) flush();
        for (const child of childNodesOf(el)) walk(child, depth);
        if (!inline) flush();
        return;
      }
      if (onlyViewport && INTERACTIVE.has(role) && !inViewport(el)) return;
      const name = nameOf(el, role);
      let line = `[${id}] ${role}`;
      if (name) line += " " + quote(name);
      const value = valueOf(el, role);
      if (value !== null && value !== undefined && (value !== "" || INTERACTIVE.has(role))) {
        line += " value=" + quote(value);
      }
      if (role === "link" && el.getAttribute("href")) line += " -> " + el.getAttribute("href");
      const states = statesOf(el, role);
      if (states.length) line += " " + states.join(" ");
      emit(depth, line);
      if (el.tagName === "SELECT") {
        for (const option of el.options) {
          const selected = option.selected ? " selected" : "";
          const disabled = option.disabled ? " disabled" : "";
          emit(depth + 1, `[${idOf(option)}] option ${quote(clean(option.label || option.text))}${selected}${disabled}`);
        }
        return;
      }
      if (el.tagName === "TEXTAREA" || el.tagName === "INPUT") return;
      if (NAME_FROM_CONTENT.has(role) && name && !hasInteractiveDescendant(el)) return;
      for (const child of childNodesOf(el)) walk(child, depth + 1);
      flush();
    }

    const root = document.body || document.documentElement;
    if (root) walk(root, 0);
    flush();
    return lines.join("\n");
  }

  // Attributes kept in the pruned DOM: what tells an agent what an element is and does.
  const KEEP_ATTRS = new Set([ID, "id", "href", "type", "name", "value", "placeholder", "role", "alt",
    "title", "for", "checked", "selected", "disabled", "required", "readonly", "multiple", "action",
    "method", "label", "min", "max", "step", "pattern", "maxlength", "accept", "colspan", "rowspan",
    "open", "contenteditable", "tabindex", "src"]);
  const VOID = new Set(["AREA", "BASE", "BR", "COL", "EMBED", "HR", "IMG", "INPUT", "LINK", "META", "SOURCE", "TRACK", "WBR"]);
  const escapeText = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const escapeAttr = (t) => escapeText(t).replace(/"/g, "&quot;");

  function dom() {
    const out = [];
    function walk(node) {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.textContent.replace(/\s+/g, " ");
        if (text.trim()) out.push(escapeText(text));
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE || SKIP.has(node.tagName.toUpperCase())) return;
      const el = node;
      if (isHidden(el)) return;
      idOf(el);
      const tag = el.tagName.toLowerCase();
      let open = "<" + tag;
      for (const attr of el.attributes) {
        if (!(KEEP_ATTRS.has(attr.name) || attr.name.startsWith("aria-"))) continue;
        let value = attr.value;
        if (attr.name === "src" && value.startsWith("data:")) value = "data:…";
        open += ` ${attr.name}="${escapeAttr(value.slice(0, 300))}"`;
      }
      // Live state, which attributes do not show once the user has typed or clicked.
      if (tag === "input" || tag === "textarea" || tag === "select") {
        if (tag !== "select" && el.type !== "password" && el.value !== el.getAttribute("value") && !["checkbox", "radio", "file"].includes(el.type)) {
          open += ` value="${escapeAttr(el.value)}"`;
        }
        if ((el.type === "checkbox" || el.type === "radio") && el.checked !== el.hasAttribute("checked")) {
          open += el.checked ? " checked" : " data-unchecked";
        }
      }
      if (tag === "option" && el.selected && !el.hasAttribute("selected")) open += " selected";
      out.push(open + ">");
      if (VOID.has(el.tagName.toUpperCase())) return;
      if (tag === "svg") {
        const title = el.querySelector("title");
        if (title) out.push(escapeText(title.textContent));
      } else {
        for (const child of childNodesOf(el)) walk(child);
      }
      out.push(`</${tag}>`);
    }
    const root = document.body || document.documentElement;
    if (root) walk(root);
    return out.join("");
  }

  function elements() {
    // Boxes of every element with an id, for coordinate-based agents and set-of-marks.
    const result = [];
    for (const el of document.querySelectorAll(`[${ID}]`)) {
      if (isHidden(el)) continue;
      const role = roleOf(el);
      if (!role) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      result.push({
        id: el.getAttribute(ID), role, name: nameOf(el, role).slice(0, 200),
        box: [r.x, r.y, r.width, r.height], visible: inViewport(el), clickable: INTERACTIVE.has(role),
      });
    }
    return result;
  }

  // Which version of this document the last observation saw: a token of the document and a
  // count of the DOM changes since it loaded (observe()'s own id attributes do not count);
  // and when the document last changed and finished loading (performance.now() keeps real
  // time under Playwright's fixed clock).
  const documentToken = Math.random().toString(36).slice(2);
  let changes = 0;
  let changedAt = performance.now();
  let loadedAt = null;
  const watcher = new MutationObserver(() => { changes += 1; changedAt = performance.now(); });
  watcher.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  window.addEventListener("load", () => { loadedAt = performance.now(); });
  // The page's own timers and animation frames not yet run, each with when it was meant to
  // run. On a busy machine a timer runs late, after a wait for quiet that began behind it has
  // timed its window by the machine's clock; so a wait for quiet also waits for every timer
  // meant to run within its window (see settle), and what it shows does not depend on the
  // machine's load. Timers given as strings are not followed.
  const owed = new Map(); // a timer's pool and handle -> when it is next meant to run
  const track = (name, clear, pool, dueIn, repeats) => {
    const schedule = window[name];
    const cancel = window[clear];
    if (typeof schedule !== "function" || typeof cancel !== "function") return;
    window[name] = function (callback, ...rest) {
      if (typeof callback !== "function") return schedule.call(window, callback, ...rest);
      let key = null;
      const run = function (...args) {
        if (repeats) owed.set(key, performance.now() + dueIn(rest)); else owed.delete(key);
        return callback.apply(this, args);
      };
      const handle = schedule.call(window, run, ...rest);
      key = `${pool}:${handle}`;
      owed.set(key, performance.now() + dueIn(rest));
      return handle;
    };
    window[clear] = function (handle) {
      owed.delete(`${pool}:${handle}`);
      return cancel.call(window, handle);
    };
  };
  // setTimeout and setInterval share one pool of handles (either clear ends either).
  const delay = (rest) => Math.max(0, Number(rest[0]) || 0);
  track("setTimeout", "clearTimeout", "timer", delay, false);
  track("setInterval", "clearInterval", "timer", delay, true);
  track("requestAnimationFrame", "cancelAnimationFrame", "frame", () => 1000 / 60, false);
  function owes(by) {
    for (const due of owed.values()) if (due <= by) return true;
    return false;
  }
  // When a navigation away from this document began (the Navigation API's navigate event,
  // fired as it starts: a link followed once a dialog closes, a script's location change):
  // the document is about to be replaced, though its request may not have reached the
  // server yet. Same-document navigations end with navigatesuccess or navigateerror.
  let leavingAt = null;
  // How long one settle waits for such a document to be replaced.
  const LEAVE_MS = 1000;
  if (window.navigation) {
    navigation.addEventListener("navigate", (event) => {
      if (!event.hashChange && !event.downloadRequest) leavingAt = performance.now();
    });
    const stay = () => { leavingAt = null; };
    navigation.addEventListener("navigatesuccess", stay);
    navigation.addEventListener("navigateerror", stay);
  }
  function version() {
    if (watcher.takeRecords().length) { changes += 1; changedAt = performance.now(); }
    return `${documentToken}:${changes}`;
  }

  function settle(quietMs, maxMs, since, untouched) {
    // Resolves once the document has loaded and its DOM has not changed for quietMs, or
    // after maxMs. `since` is the version the last observation saw. The quiet time counts
    // from the later of the last change and: now, for a document seen before (an action was
    // just done to it); its load, for a document new since then (a navigation's own end).
    // It is real time, and also turns of the page's event loop (timer ticks, which wait
    // behind the page's own queued work, an input event's handlers say), so that a busy
    // machine, where a tick comes late, does not shorten it: as many ticks since the last
    // change as fit in quietMs at a tick per 10 ms for a document seen before, and one for a
    // new one. Nor is it quiet while a timer or animation frame of the page meant to run by
    // the end of that window (or by this call) has not run. An `untouched` document (nothing
    // was done to the page) unchanged since then, and owing no timer, is settled already.
    // A document being navigated away from is not settled: its replacement ends this wait
    // (and the caller waits for the next document), for at most LEAVE_MS of this call (a
    // navigation may end without one: a 204, a download).
    const called = performance.now();
    const current = version();
    const seen = typeof since === "string" && since.split(":")[0] === documentToken;
    const complete = () => document.readyState === "complete";
    const leaving = () => leavingAt !== null && performance.now() - Math.max(leavingAt, called) < LEAVE_MS;
    if (untouched && since === current && complete() && !leaving() && !owes(called)) {
      return Promise.resolve("complete");
    }
    const turns = seen ? Math.ceil(quietMs / 10) : 1;
    return new Promise((resolve) => {
      let ticks = 0;
      let counted = changes;
      const step = () => {
        version();
        if (changes !== counted) { counted = changes; ticks = 0; }
        const now = performance.now();
        const from = Math.max(changedAt, seen || loadedAt === null ? called : loadedAt);
        const quiet = complete() && ticks >= turns && now - from >= quietMs && !leaving()
          && !owes(Math.max(from + quietMs, called));
        if (quiet || now - called >= maxMs) {
          resolve(document.readyState);
        } else {
          ticks += 1;
          setTimeout(step, 5);
        }
      };
      step();
    });
  }

  function observe(options) {
    // A document with no element yet has just begun to load after a navigation: the caller
    // waits for it as for any navigation (its message says "navigation"). A document whose
    // scripts removed its root is observed as empty.
    if (!document.documentElement && document.readyState === "loading") {
      throw new Error("observed at the start of a navigation, before the document had an element");
    }
    // Ids first, so that every view below sees the same ones.
    const result = { axtree: null, dom: null, elements: null, focused: null, title: document.title };
    const before = version();
    if (options.axtree !== false) result.axtree = axtree(options);
    if (options.dom) result.dom = dom();
    if (options.elements) result.elements = elements();
    const active = focusedElement();
    if (active && active !== document.body) result.focused = active.getAttribute(ID);
    watcher.takeRecords(); // the ids just assigned are not a change of the page
    result.version = before;
    return result;
  }

  function find(id) {
    // Searches open shadow roots and same-origin frames too.
    const selector = `[${ID}="${CSS.escape(String(id))}"]`;
    const stack = [document];
    while (stack.length) {
      const root = stack.pop();
      const hit = root.querySelector(selector);
      if (hit) return hit;
      for (const el of root.querySelectorAll("*")) {
        if (el.shadowRoot) stack.push(el.shadowRoot);
        if (el.tagName === "IFRAME") {
          try { if (el.contentDocument) stack.push(el.contentDocument); } catch (e) { /* cross-origin */ }
        }
      }
    }
    return null;
  }

  Object.defineProperty(window, "__webenv", {
    value: Object.freeze({ observe, settle, find, idAttribute: ID }),
    enumerable: false,
  });
})();

// The live play page: every control posts one command; the answer is the episode's new
// state, which the page shows. Plain script, no build step.
(function () {
  "use strict";
  const token = document.querySelector('meta[name="webenv-token"]').content;
  const $ = (id) => document.getElementById(id);
  const image = $("screenshot");

  function show(state) {
    $("goal").textContent = state.goal;
    $("step").textContent = String(state.step);
    $("url").textContent = state.url;
    $("target").textContent = state.target || "the focused element";
    $("axtree").textContent = state.axtree;
    $("error").textContent = state.error || "";
    $("dialog").hidden = !state.dialog;
    $("dialog").textContent = state.dialog
      ? "Dialog open: " + state.dialog + " (answer with dialog_accept() or dialog_dismiss())"
      : "";
    image.src = "/screenshot.png?step=" + state.screenshot_step;
    $("status").textContent = state.done
      ? "The episode is over."
      : "Step " + state.step + (state.last_action ? ": " + state.last_action : "");
    if (state.done) {
      $("result").hidden = false;
      const outcome = $("outcome");
      outcome.textContent = state.success ? "success" : "failure";
      outcome.className = "badge " + (state.success ? "success" : "failure");
      $("reward").textContent = Number(state.reward).toFixed(1);
      const list = $("conditions");
      list.replaceChildren();
      for (const condition of state.check) {
        const item = document.createElement("li");
        item.className = condition.passed ? "passed" : "failed";
        item.textContent = condition.name + ": " + condition.message;
        list.append(item);
      }
      for (const control of document.querySelectorAll(".controls button, .controls input, .controls textarea")) {
        control.disabled = true;
      }
    }
  }

  let busy = false;
  // Resolves to whether the command ran.
  async function send(command, body) {
    if (busy) return false;
    busy = true;
    document.body.classList.add("busy");
    $("status").textContent = "Working…";
    try {
      const response = await fetch("/api/" + command, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Webenv-Token": token },
        body: JSON.stringify(body),
      });
      const data = await response.json();
      if (response.ok) {
        show(data);
        return true;
      } else {
        if (data.state) show(data.state);
        $("error").textContent = data.error || "The command failed (" + response.status + ").";
      }
    } catch (error) {
      $("error").textContent = "The play server did not answer: " + error;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
    return false;
  }

  image.addEventListener("click", (event) => {
    if (!image.complete || !image.naturalWidth) {
      // No picture, no coordinates: a click here would land at (0, 0) of the page.
      $("error").textContent = "The screenshot has not loaded yet; wait for it, or reload the page.";
      return;
    }
    const rect = image.getBoundingClientRect();
    const x = ((event.clientX - rect.left) * image.naturalWidth) / rect.width;
    const y = ((event.clientY - rect.top) * image.naturalHeight) / rect.height;
    send("click", { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
  });
  $("type-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send("type", { text: $("type-text").value }).then((ran) => { if (ran) $("type-text").value = ""; });
  });
  for (const button of document.querySelectorAll("[data-key]")) {
    button.addEventListener("click", () => send("key", { key: button.dataset.key }));
  }
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => send("act", { action: button.dataset.action }));
  }
  $("action-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send("act", { action: $("action-text").value });
  });
  $("answer-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = event.submitter ? event.submitter.name : "answer";
    const command = name === "infeasible" || name === "done" ? name : "answer";
    send(command, command === "done" ? {} : { text: $("answer-text").value });
  });
  fetch("/api/state").then((response) => response.json()).then(show);
})();

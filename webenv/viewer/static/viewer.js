// The replay viewer's behaviour: filtering and sorting the episode list, stepping through an
// episode with the arrow keys, and "#step-N" deep links. Plain script (no modules), so that
// an export works when opened from file://.
(function () {
  "use strict";

  function setupList(table) {
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const field = (id) => document.getElementById(id);
    const inputs = ["filter-task", "filter-site", "filter-outcome", "filter-profile",
                    "filter-min-steps", "filter-max-steps"].map(field);

    function number(text) {
      return text === "" ? NaN : Number(text);
    }

    function filter() {
      const [task, site, outcome, profile, minSteps, maxSteps] = inputs.map((el) => el.value.trim());
      let shown = 0;
      for (const row of rows) {
        const steps = number(row.dataset.steps);
        const visible =
          (!task || row.dataset.task.toLowerCase().includes(task.toLowerCase())) &&
          (!site || row.dataset.sites.split(" ").includes(site)) &&
          (!outcome || row.dataset.outcome === outcome) &&
          (!profile || row.dataset.profile === profile) &&
          (minSteps === "" || steps >= Number(minSteps)) &&
          (maxSteps === "" || steps <= Number(maxSteps));
        row.hidden = !visible;
        shown += visible;
      }
      field("shown").textContent = `${shown} of ${rows.length} episodes`;
    }

    function sort(button) {
      const header = button.closest("th");
      const key = button.dataset.sort;
      const direction = header.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
      for (const th of table.tHead.rows[0].cells) th.setAttribute("aria-sort", "none");
      header.setAttribute("aria-sort", direction);
      const sign = direction === "ascending" ? 1 : -1;
      const value = (row) => row.dataset[key];
      rows.sort((a, b) => {
        const [x, y] = [value(a), value(b)];
        const [nx, ny] = [number(x), number(y)];
        const order = !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
        return sign * order || a.dataset.name.localeCompare(b.dataset.name);
      });
      for (const row of rows) body.appendChild(row);
    }

    for (const input of inputs) input.addEventListener("input", filter);
    for (const button of table.querySelectorAll("th button[data-sort]")) {
      button.addEventListener("click", () => sort(button));
    }
    filter();
  }

  function setupEpisode() {
    // "#step-N": go to step N's page (the server's ?step=N, or the export's step-N.html).
    const match = /^#step-(\d+)$/.exec(location.hash);
    if (match) {
      const link = document.querySelector(`.timeline a[data-step-link="${match[1]}"]`);
      if (link && !link.hasAttribute("aria-current")) {
        location.replace(link.href);
        return;
      }
    }
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target;
      if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
      const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
      const link = rel && document.querySelector(`.stepper a[rel="${rel}"]`);
      if (link) {
        event.preventDefault();
        location.href = link.href;
      }
    });
    const current = document.querySelector(".timeline a[aria-current]");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const table = document.getElementById("episodes");
    if (table) setupList(table);
    if (document.body.classList.contains("episode-page")) setupEpisode();
  });
})();

// Enhancements only: every form works without this script.
(function () {
  "use strict";

  // Move focus to the error summary so that screen readers announce the problems.
  var summary = document.querySelector(".error-summary");
  if (summary) summary.focus();

  // Keep the total of the line items up to date while amounts are typed.
  var total = document.querySelector("[data-total]");
  if (!total) return;
  var form = total.closest("form");
  function cents(text) {
    var match = /^\$?\s*(\d[\d,]*)(\.(\d{1,2}))?$/.exec(text.trim());
    if (!match) return 0;
    return parseInt(match[1].replace(/,/g, ""), 10) * 100 + parseInt((match[3] || "0").padEnd(2, "0"), 10);
  }
  function update() {
    var sum = 0;
    form.querySelectorAll(".money-input").forEach(function (input) { sum += cents(input.value); });
    total.textContent = "$" + (sum / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  form.addEventListener("input", update);
})();

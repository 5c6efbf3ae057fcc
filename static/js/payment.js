// Orléans Online: the torture payment form (games/partials/_decision_form.html) says how much
// is still owed as the player fills it in. Progressive enhancement: without this script the
// form posts the same fields and the server says what is missing. Event delegation, so
// decision panels swapped in by htmx work too; no inline handlers (the CSP forbids them).
(function () {
  function count(input) {
    if (input.type === "checkbox") return input.checked ? 1 : 0;
    var n = parseInt(input.value, 10);
    return isNaN(n) || n < 0 ? 0 : n;
  }

  function update(fieldset) {
    var form = fieldset.closest("form");
    var output = form && form.querySelector("[data-pay-remaining]");
    if (!output) return;
    var debt = parseInt(fieldset.dataset.debt, 10) || 0;
    var given = 0;
    fieldset.querySelectorAll("[data-pay-count]").forEach(function (input) { given += count(input); });
    var remaining = debt - given;
    output.textContent = remaining >= 0 ? String(remaining) : orleansText("tooMany", "0 ({n} too many)", {n: -remaining});
    output.dataset.state = remaining === 0 ? "settled" : (remaining < 0 ? "over" : "short");
  }

  function onChange(event) {
    var target = event.target;
    if (!target.matches || !target.matches("[data-pay-count]")) return;
    var fieldset = target.closest("fieldset.payment-items");
    if (fieldset) update(fieldset);
  }

  document.addEventListener("input", onChange);
  document.addEventListener("change", onChange);
})();

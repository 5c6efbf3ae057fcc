// Orléans Online: a failed htmx request is never silent (issue 8). Refusals (an illegal
// move, a stale version) come back as 200 with their own #flash message; everything else
// that fails -- an error status, no connection, no answer in time -- is said here, in the
// page's #flash area, and the control that sent the request works again.
// orleansText(key, fallback, params): a sentence shown by the scripts, in the page's language:
// the data-* attribute ``key`` of #game-texts (the game page) or of this script's tag
// (templates/base.html), rendered there with {% translate %}; "{name}" placeholders are
// filled from ``params``; ``fallback`` (English) when the page has no such text.
var orleansText = (function () {
  var siteTexts = (document.currentScript && document.currentScript.dataset) || {};
  return function (key, fallback, params) {
    var holder = document.getElementById("game-texts");
    var text = (holder && holder.dataset[key]) || siteTexts[key] || fallback;
    Object.keys(params || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(params[name])); });
    return text;
  };
})();

(function () {
  htmx.config.timeout = 20000;  // ms; without one a request that never answers looks frozen
  htmx.config.allowEval = false;  // the Content-Security-Policy allows no eval (no hx-on, no "js:")

  function flashArea() {
    var flash = document.getElementById("flash");
    if (!flash) {  // pages without game regions get one at the top of <main>
      flash = document.createElement("div");
      flash.id = "flash";
      flash.setAttribute("role", "alert");
      flash.setAttribute("aria-live", "polite");
      var main = document.querySelector("main") || document.body;
      main.insertBefore(flash, main.firstChild);
    }
    return flash;
  }

  // kind "network": cleared by the next request that gets through (a poll, say);
  // kind "response": cleared only by the next successful post (the player's next action).
  function say(message, kind) {
    var p = document.createElement("p");
    p.className = "flash";
    p.dataset.clientError = kind;
    p.textContent = message;
    flashArea().replaceChildren(p);
  }

  function statusMessage(status) {
    var params = {status: status};
    if (status === 403) return orleansText("error403", "You are not allowed to do that (error 403). Reload the page: you may have been logged out.");
    if (status === 404) return orleansText("error404", "That is no longer here (error 404). Reload the page.");
    if (status === 429) return orleansText("error429", "Too many requests (error 429). Wait a moment, then try again.");
    if (status >= 500) return orleansText("error500", "Something went wrong on the site (error {status}). Your last click may not have been saved: try again, or reload the page.", params);
    return orleansText("errorOther", "The site could not take this request (error {status}). Reload the page and try again.", params);
  }

  // Re-enable what the request disabled (hx-disabled-elt), whatever htmx already did.
  function release(detail) {
    var elt = detail && detail.elt;
    if (!elt || !elt.closest) return;
    var target = elt.closest("form") || elt;
    var controls = target.matches("button, input[type=submit]") ? [target]
      : Array.from(target.querySelectorAll("button, input[type=submit]"));
    controls.forEach(function (control) { control.disabled = false; });
  }

  document.body.addEventListener("htmx:responseError", function (evt) {
    say(statusMessage(evt.detail.xhr.status), "response");
    release(evt.detail);
  });
  document.body.addEventListener("htmx:sendError", function (evt) {
    say(orleansText("errorNetwork", "Could not reach the site: check your connection, then try again."), "network");
    release(evt.detail);
  });
  document.body.addEventListener("htmx:timeout", function (evt) {
    say(orleansText("errorTimeout", "The site did not answer in time. Try again in a moment."), "network");
    release(evt.detail);
  });
  // Plain forms and fields: data-confirm="question" asks before submitting, and
  // data-select-on-click selects a field's text (inline handlers are refused by the CSP).
  document.addEventListener("submit", function (evt) {
    var question = evt.target.dataset && evt.target.dataset.confirm;
    if (question && !window.confirm(question)) evt.preventDefault();
  });
  document.addEventListener("click", function (evt) {
    if (evt.target.matches && evt.target.matches("[data-select-on-click]")) evt.target.select();
  });
  // data-copy="<field id>" copies that field's text; the button says data-copied once done.
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("button[data-copy]");
    var field = button && document.getElementById(button.dataset.copy);
    if (!field) return;
    var done = function () { button.textContent = button.dataset.copied || button.textContent; };
    var byHand = function () {  // no clipboard API (a plain-http address): select and copy
      field.select();
      try { if (document.execCommand("copy")) done(); } catch (e) { /* the text stays selected */ }
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(field.value).then(done, byHand);
    else byHand();
  });

  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (!evt.detail.successful) return;
    var posted = evt.detail.requestConfig && evt.detail.requestConfig.verb !== "get";
    document.querySelectorAll(posted ? "#flash [data-client-error]" : '#flash [data-client-error="network"]')
      .forEach(function (p) { p.remove(); });
  });
})();

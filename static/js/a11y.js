// Orléans Online: after a decision is sent, the keyboard focus goes to the next decision (the
// first target on the board, else the first control of the text view, else the status line
// saying whom the game waits for); "your turn" and refusals are announced in the page's one
// polite live region (#game-announce, outside every swapped region). Issue 9.
(function () {
  var wasMyTurn = null;

  function announce(text) {
    var live = document.getElementById("game-announce");
    if (live && text) { live.textContent = ""; live.textContent = text; }
  }

  function status() { return document.getElementById("game-status"); }
  function myTurn() { var s = status(); return !!(s && s.classList.contains("my-turn")); }

  // The next decision's first control, in the order a player meets it.
  function nextDecision() {
    var selectors = [
      "#game-mine [data-act-target]:not([disabled])",
      "#game-mine button.pick",
      "#game-actions form.decision button:not([disabled]), #game-actions form.decision select, #game-actions form.decision input:not([type=hidden])",
    ];
    if (myTurn()) {
      for (var i = 0; i < selectors.length; i++) {
        var el = document.querySelector(selectors[i]);
        if (el) return el;
      }
    }
    var s = status();
    if (s) s.setAttribute("tabindex", "-1");
    return s;
  }

  function turnChanged() {
    var now = myTurn();
    if (now && wasMyTurn === false) {
      var banner = document.querySelector("#game-status .turn-banner");
      announce(banner ? banner.textContent.trim() : orleansText("yourTurn", "Your turn."));
    }
    wasMyTurn = now;
  }

  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var config = evt.detail.requestConfig;
    if (!evt.detail.successful || !config || config.verb === "get") return;
    if (!document.getElementById("game-page")) return;
    var refusal = document.querySelector("#flash .flash");
    if (refusal) announce(refusal.textContent.trim());
    // htmx has swapped the answer's regions in before this event: the next decision is there
    var target = nextDecision();
    if (target) target.focus();
  });

  // A region swapped in (a poll, an answer) replaces the focused element: focus its copy in the
  // new region (found by the same path from the nearest element with an id), not <body>.
  function pathOf(el) {
    var parts = [];
    while (el && el.nodeType === 1 && !el.id) {
      var n = 1, sib = el;
      while ((sib = sib.previousElementSibling)) if (sib.tagName === el.tagName) n++;
      parts.unshift(el.tagName.toLowerCase() + ":nth-of-type(" + n + ")");
      el = el.parentElement;
    }
    return el && el.id ? "#" + CSS.escape(el.id) + (parts.length ? " > " + parts.join(" > ") : "") : null;
  }
  // Where the focus last was (kept as a path, so its copy is found once a swap replaced it).
  var focusedPath = null;
  document.addEventListener("focusin", function (evt) {
    focusedPath = evt.target && evt.target !== document.body ? pathOf(evt.target) : null;
  });
  // the player moving the focus away to nothing (a click on the page) is left alone
  document.addEventListener("focusout", function (evt) {
    var left = evt.target;
    window.setTimeout(function () {
      if (left.isConnected && (!document.activeElement || document.activeElement === document.body)) focusedPath = null;
    }, 0);
  });
  function restoreFocus() {
    var here = document.activeElement;
    if (!focusedPath || (here && here !== document.body && here.isConnected)) return;
    var copy = document.querySelector(focusedPath);
    if (copy) { if (copy.id === "game-status") copy.setAttribute("tabindex", "-1"); copy.focus(); }
  }
  document.body.addEventListener("htmx:afterRequest", restoreFocus);
  document.body.addEventListener("htmx:afterSettle", restoreFocus);

  htmx.onLoad(function (elt) {
    if (elt === document.body || elt.id === "game-status") turnChanged();
    restoreFocus();
  });
})();

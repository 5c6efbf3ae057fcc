// Orléans Online: the planning board (issue 9). Pick a follower of your market: the circles
// the engine lets it go on light up; click one. Click a planned follower to take it back.
//
// No rule is known here. Every clickable thing, and the action it stands for, comes from
// the server: a circle's data-targets maps each follower to the engine's legal "place"
// action for it, a planned follower's data-action is the engine's legal "unplace". The
// draft plan is the list of those actions, kept in localStorage under the board's
// data-plan-key (game, seat, round) and sent with every request of the game page as
// plan_draft; the server replays it through the engine and renders the board for it
// (games/presenters/planning.py), echoing the draft it used in data-plan-sent. The plan
// reaches the engine once, as the one submit_plan of the board's "Submit my plan" form.
(function () {
  var PREFIX = "orleans-plan:";
  var memory = {};  // the drafts when localStorage is refused (private windows)
  var picked = null;  // the follower tile picked; kept when the board is re-rendered
  var refocus = null;  // a CSS selector to focus once the board is re-rendered
  var busy = false;  // a preview request is on its way: clicks wait for its answer

  var SENT = "orleans-plan-sent:";  // + game, in sessionStorage: {key, draft} of the plan this tab sent
  var planning = null;  // the plan key of the board last seen planning

  function board() { return document.getElementById("game-mine"); }
  function planKey() { var b = board(); return b ? b.dataset.planKey || null : null; }

  function load(key) {
    try { var text = window.localStorage.getItem(PREFIX + key); if (text !== null) return text; } catch (e) { /* refused */ }
    return memory[key] || null;
  }
  function save(key, text) {
    var empty = !text || text === "[]";
    if (empty) delete memory[key]; else memory[key] = text;
    try {
      if (empty) window.localStorage.removeItem(PREFIX + key);
      else window.localStorage.setItem(PREFIX + key, text);
    } catch (e) { /* refused: memory keeps it for this page */ }
  }
  // Drafts of this game other than ``keep`` (another round, or a plan already sent).
  function forgetOthers(game, keep) {
    Object.keys(memory).forEach(function (key) { if (key.indexOf(game + ":") === 0 && key !== keep) delete memory[key]; });
    try {
      for (var i = window.localStorage.length - 1; i >= 0; i--) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf(PREFIX + game + ":") === 0 && key !== PREFIX + keep) window.localStorage.removeItem(key);
      }
    } catch (e) { /* refused */ }
  }

  var live = null;
  function announce(text) {  // one polite live region outside the swapped regions
    if (!live) {
      live = document.createElement("p");
      live.className = "visually-hidden";
      live.setAttribute("aria-live", "polite");
      live.id = "plan-announce";
      document.body.appendChild(live);
    }
    live.textContent = text;
  }

  function targetsOf(el) {
    try { return JSON.parse(el.dataset.targets || "{}"); } catch (e) { return {}; }
  }
  function pickButton(tile) {
    var b = board();
    return b && b.querySelector('button.pick[data-pick="' + CSS.escape(tile) + '"]');
  }
  function lit() { var b = board(); return b ? Array.from(b.querySelectorAll("button.plan-target.lit")) : []; }

  // Light the circles ``tile`` may go on (as the server said); every other target stays disabled.
  function pick(tile, focusFirst) {
    var b = board(), button = tile && pickButton(tile);
    if (!b || !button) { picked = null; return; }
    picked = tile;
    b.querySelectorAll("button.pick").forEach(function (p) { p.setAttribute("aria-pressed", String(p === button)); });
    b.classList.add("picking");
    b.querySelectorAll("button.plan-target").forEach(function (circle) {
      var target = targetsOf(circle)[tile];
      circle.disabled = !target;
      circle.classList.toggle("lit", !!target);
      if (target) { circle.title = target.label; circle.setAttribute("aria-label", target.label); }
    });
    var circles = lit();
    if (focusFirst && circles.length) circles[0].focus();
    return circles.length;
  }

  function unpick() {
    var b = board();
    picked = null;
    if (!b) return;
    b.classList.remove("picking");
    b.querySelectorAll("button.pick").forEach(function (p) { p.setAttribute("aria-pressed", "false"); });
    b.querySelectorAll("button.plan-target").forEach(function (circle) {
      circle.disabled = true;
      circle.classList.remove("lit");
    });
  }

  // Ask for the board with the stored draft applied (the regions that changed come back).
  function preview() {
    var b = board();
    if (!b || !b.dataset.planUrl) return;
    busy = true;
    b.setAttribute("aria-busy", "true");
    var done = function () { busy = false; var now = board(); if (now) now.removeAttribute("aria-busy"); };
    htmx.ajax("GET", b.dataset.planUrl, { source: b, swap: "none" }).then(done, done);
  }

  // Add one of the engine's actions (as the server rendered it) to the draft.
  function edit(action) {
    var key = planKey();
    if (!key || busy) return;
    var draft = [];
    try { draft = JSON.parse(load(key) || board().dataset.planDraft || "[]"); } catch (e) { draft = []; }
    draft.push(action);
    save(key, JSON.stringify(draft));
    preview();
  }

  // The plan this tab sends, kept for this tab (not another tab's older copy of the draft):
  // taking the submitted plan back (same game, seat and round) brings it back as the draft
  // rather than an empty board.
  function keepSent(game, key) {
    var draft = load(key);
    try {
      if (draft && draft !== "[]") window.sessionStorage.setItem(SENT + game, JSON.stringify({key: key, draft: draft}));
    } catch (e) { /* refused: the plan is not kept */ }
  }
  function takeSent(game, key) {
    var kept = null;
    try {
      kept = JSON.parse(window.sessionStorage.getItem(SENT + game) || "null");
      window.sessionStorage.removeItem(SENT + game);
    } catch (e) { kept = null; }
    return kept && kept.key === key ? kept.draft : null;
  }

  // After the board is (re-)rendered: keep the stored draft and the board in step.
  function sync() {
    var b = board();
    if (!b) return;
    var key = b.dataset.planKey;
    if (!key) {  // not planning (any more): this game's drafts are done with
      planning = null;
      forgetOthers(b.dataset.game, null);
      picked = null;
      return;
    }
    var sent = planning === null ? takeSent(b.dataset.game, key) : null;
    planning = key;
    forgetOthers(b.dataset.game, key);
    if (sent && !load(key) && (b.dataset.planDraft || "[]") === "[]") save(key, sent);  // a plan taken back
    var stored = load(key);
    if (stored && stored !== b.dataset.planSent) {
      preview();  // the board shows another draft (a reload, an answer to an older request)
    } else if (stored) {
      save(key, b.dataset.planDraft);  // the same plan, in the server's short form
    }
    if (picked && !pick(picked, false)) picked = null;
    if (refocus) {
      var el = b.querySelector(refocus) || b.querySelector("button.pick") || b.querySelector(".plan-submit button");
      refocus = null;
      if (el) el.focus();
    }
  }

  document.addEventListener("click", function (evt) {
    var b = board();
    if (!b || !b.dataset.planKey || !b.contains(evt.target)) return;
    var button = evt.target.closest("button");
    if (!button || button.disabled) return;
    if (button.classList.contains("pick")) {
      var tile = button.dataset.pick;
      if (picked === tile) { unpick(); announce(orleansText("nothingPicked", "Nothing picked.")); return; }
      var n = pick(tile, evt.detail === 0);  // a keyboard "click" (Enter) moves on to the circles
      var params = {follower: button.textContent.trim(), n: n};
      announce(n === 1 ? orleansText("pickedOne", "{follower} picked: {n} circle lights up. Escape cancels.", params)
                       : orleansText("pickedOther", "{follower} picked: {n} circles light up. Escape cancels.", params));
    } else if (button.classList.contains("plan-target") && picked) {
      var target = targetsOf(button)[picked];
      if (!target || busy) return;
      refocus = 'button.pick[data-pick="' + CSS.escape(picked) + '"]';
      unpick();
      announce(target.label + ".");
      edit(target.action);
    } else if (button.classList.contains("plan-undo")) {
      if (busy) return;
      refocus = "button.plan-undo, button.pick";
      announce(button.getAttribute("aria-label") + ".");
      edit(JSON.parse(button.dataset.action));
    }
  });

  // Escape cancels the pick; the arrow keys move between the buttons of the same kind.
  document.addEventListener("keydown", function (evt) {
    var b = board();
    if (!b || !b.dataset.planKey || !b.contains(document.activeElement)) return;
    if (evt.key === "Escape" && picked) {
      var back = pickButton(picked);
      unpick();
      if (back) back.focus();
      announce(orleansText("cancelled", "Cancelled."));
      evt.preventDefault();
      return;
    }
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[evt.key];
    var here = document.activeElement;
    if (!step || !here.matches("button.pick, button.plan-target.lit, button.plan-undo")) return;
    var kind = here.matches("button.pick") ? "button.pick" : here.matches("button.plan-undo") ? "button.plan-undo"
      : "button.plan-target.lit";
    var group = Array.from(b.querySelectorAll(kind)).filter(function (el) { return !el.disabled; });
    var next = group[(group.indexOf(here) + step + group.length) % group.length];
    if (next) { next.focus(); evt.preventDefault(); }
  });

  // While there is a draft, the text view's place / take-back forms edit it (their values
  // are the same engine actions), so the board and the text view never disagree; without a
  // draft (or without JavaScript) they post their provisional step as ever.
  document.addEventListener("submit", function (evt) {
    var form = evt.target, key = planKey();
    if (key && form.id === "decision-submit_plan") keepSent(board().dataset.game, key);
    if (!key || !load(key) || !form.closest || !form.closest("#game-actions")) return;
    var value = new FormData(form).get("action");
    var action;
    try { action = JSON.parse(value); } catch (e) { return; }
    if (!action || (action.type !== "place" && action.type !== "unplace")) return;
    evt.preventDefault();
    evt.stopPropagation();
    edit(action);
  }, true);

  // Every request from the game page carries the draft, so any answer (a poll after another
  // player's move, a refusal) renders the board with it.
  document.body.addEventListener("htmx:configRequest", function (evt) {
    var key = planKey();
    if (!key || !evt.detail.elt.closest || !evt.detail.elt.closest("#game-page")) return;
    var stored = load(key);
    if (stored) evt.detail.parameters["plan_draft"] = stored;
  });

  htmx.onLoad(function (elt) {
    if (elt === document.body || elt.id === "game-mine" || (elt.querySelector && elt.querySelector("#game-mine"))) sync();
  });
})();

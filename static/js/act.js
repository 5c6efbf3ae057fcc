// Orléans Online: the board as the control outside planning (issue 9). Click a ready place to
// use it; a place with a choice opens its choices on its card, and what they name lights up:
// the routes on the map (Ship, Wagon, Horse Wagon), the single deed spaces that fit (Town
// Hall, Gunpowder Tower), the place tiles (Village: Trader). Clicking a lit route, deed space
// or place tile chooses it.
//
// No rule is known here. Every choice is a form the server rendered around one of the
// engine's legal actions (games/presenters/act_board.py); its button's data-route,
// data-good, data-deed-spaces (the single deed spaces its followers fill) and data-place-tile
// say what it names. This script only opens and
// closes the choice lists, lights what the open list names, and clicks the matching choice.
(function () {
  var open = null;  // the id of the open choice list; kept when the board is re-rendered

  function board() { return document.getElementById("game-mine"); }
  function acting() { var b = board(); return b && b.classList.contains("act-board") ? b : null; }
  function panel() { return open ? document.getElementById(open) : null; }
  function opener(list) { return list && document.querySelector('[aria-controls="' + list.id + '"]'); }
  function choices(list) { return list ? Array.from(list.querySelectorAll("button.act-choice")) : []; }

  var live = null;
  function announce(text) {  // a polite live region outside the swapped regions
    live = live || document.getElementById("game-announce");
    if (live) live.textContent = text;
  }

  // What a choice names elsewhere on the page, as [selector, label] pairs.
  function namedBy(button) {
    var found = [], d = button.dataset;
    if (d.route) {
      found.push(['#game-map path.route[data-route="' + CSS.escape(d.route) + '"]', button.title]);
      if (d.good) found.push(['#game-map .good-marker[data-route="' + CSS.escape(d.route) + '"][data-good="' +
                              CSS.escape(d.good) + '"]', button.title]);
    }
    (d.deedSpaces || "").split(" ").filter(Boolean).forEach(function (space) {  // the single spaces filled
      found.push(['#game-deeds .deed-space[data-deed-space="' + CSS.escape(space) + '"]', button.title]);
    });
    if (d.placeTile) found.push(['#game-place-tiles li[data-place="' + CSS.escape(d.placeTile) + '"]', button.title]);
    return found;
  }

  function unlight() {
    document.querySelectorAll(".act-lit").forEach(function (el) {
      el.classList.remove("act-lit");
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    });
  }

  // Light everything the open list's choices name; each lit thing becomes a keyboard target.
  function light(list) {
    unlight();
    var labels = {};
    choices(list).forEach(function (button) {
      namedBy(button).forEach(function (pair) {
        document.querySelectorAll(pair[0]).forEach(function (el) {
          el.classList.add("act-lit");
          el.setAttribute("tabindex", "0");
          el.setAttribute("role", "button");
          var key = el.dataset.route || el.dataset.deedSpace || el.dataset.place;
          labels[key] = (labels[key] || []).concat(pair[1]);
          el.setAttribute("aria-label", labels[key].join("; or "));
        });
      });
    });
    document.dispatchEvent(new CustomEvent("orleans:lit"));  // fold.js unfolds what is lit
  }

  function close(focusBack) {
    var list = panel(), button = opener(list);
    open = null;
    unlight();
    if (list) list.hidden = true;
    if (button) { button.setAttribute("aria-expanded", "false"); if (focusBack) button.focus(); }
    document.querySelectorAll(".act-choice.match").forEach(function (c) { c.classList.remove("match"); });
  }

  function show(list, focusFirst, quiet) {
    if (open && open !== list.id) close(false);
    open = list.id;
    list.hidden = false;
    var button = opener(list);
    if (button) button.setAttribute("aria-expanded", "true");
    light(list);
    var first = choices(list)[0];
    if (focusFirst && first) first.focus();
    var n = choices(list).length;
    var place = button ? button.textContent.replace("▾", "").split(":")[0].trim() : "";
    if (!quiet) announce(n === 1 ? orleansText("choicesOne", "{place}: {n} choice. Escape cancels.", {place: place, n: n})
                                 : orleansText("choicesOther", "{place}: {n} choices. Escape cancels.", {place: place, n: n}));
  }

  // A lit route, deed or place tile was chosen: its one choice is sent; several (a route
  // with two goods, a deed in several combinations) are marked in the list to pick from.
  function chooseLit(el) {
    var list = panel();
    if (!list) return;
    var matches = choices(list).filter(function (button) {
      return namedBy(button).some(function (pair) { return el.matches(pair[0]); });
    });
    if (matches.length === 1) { matches[0].click(); return; }
    document.querySelectorAll(".act-choice.match").forEach(function (c) { c.classList.remove("match"); });
    matches.forEach(function (c) { c.classList.add("match"); });
    if (matches.length) {
      matches[0].focus();
      announce(orleansText("matches", "{n} choices for that: pick one.", {n: matches.length}));
    }
  }

  document.addEventListener("click", function (evt) {
    if (!acting()) return;
    var lit = evt.target.closest && evt.target.closest(".act-lit");
    if (lit) { chooseLit(lit); return; }
    var button = evt.target.closest && evt.target.closest("#game-mine button");
    if (!button) return;
    if (button.classList.contains("act-open")) {
      var list = document.getElementById(button.getAttribute("aria-controls"));
      if (open === list.id) close(true); else show(list, evt.detail === 0);
    } else if (button.classList.contains("act-cancel")) {
      close(true);
      announce(orleansText("cancelled", "Cancelled."));
    }
  });

  // Escape closes the open list; Enter or Space on a lit map element chooses it; the arrow
  // keys move between the targets of the same kind (places, choices, lit elements).
  document.addEventListener("keydown", function (evt) {
    if (!acting()) return;
    var here = document.activeElement;
    if (evt.key === "Escape" && open) { close(true); announce(orleansText("cancelled", "Cancelled.")); evt.preventDefault(); return; }
    if ((evt.key === "Enter" || evt.key === " ") && here && here.classList && here.classList.contains("act-lit")) {
      chooseLit(here);
      evt.preventDefault();
      return;
    }
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[evt.key];
    if (!step || !here || !here.matches) return;
    var kind = here.matches("#game-mine button.act-choice") ? "#" + open + " button.act-choice"
      : here.matches(".act-lit") ? ".act-lit"
      : here.matches("#game-mine button.use-place, #game-mine button.tech-target, #game-mine button[data-end]")
        ? "#game-mine button.use-place:enabled, #game-mine button.tech-target:enabled, #game-mine button[data-end]"
        : null;
    if (!kind) return;
    var group = Array.from(document.querySelectorAll(kind));
    var next = group[(group.indexOf(here) + step + group.length) % group.length];
    if (next) { next.focus(); evt.preventDefault(); }
  });

  // After the board is re-rendered (a poll, a refusal), keep the list that was open.
  htmx.onLoad(function (elt) {
    if (!(elt === document.body || elt.id === "game-mine" || elt.id === "game-map" || elt.id === "game-deeds" ||
          elt.id === "game-place-tiles")) return;
    var list = open && document.getElementById(open);
    if (list && acting()) show(list, false, true); else if (open) { open = null; unlight(); }
  });
})();

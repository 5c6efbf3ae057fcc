// Orléans Online: on a phone the page folds what a turn rarely needs (issue 9): the other
// players' boards, the deeds, the place tiles, the development track, the supply and the
// players list (details.phone-fold), so the decision and the player's own board come first;
// a tap on a title unfolds it. The action queue folds too unless it has entries or a note;
// each character track is one line (the seats' steps) whose steps a tap shows. Regions
// re-rendered by polls keep what the player unfolded.
(function () {
  var phone = window.matchMedia("(max-width: 40rem)");
  var unfolded = {};  // data-fold-key -> true once the player opened it on this page

  var tracksOpen = {};  // data-track -> true: the character tracks whose steps the player opened

  // A fold's state: the player's own choice, else open when it holds something lit or says it
  // should be (data-fold-open: the action queue with entries or a note), else folded.
  function fold() {
    document.querySelectorAll("details.phone-fold[data-fold-key]").forEach(function (el) {
      var key = el.dataset.foldKey;
      el.open = !phone.matches || !!el.querySelector(".act-lit") ||
        (key in unfolded ? unfolded[key] : el.hasAttribute("data-fold-open"));
    });
    // each character track is one line on a phone; a tap on it shows its steps
    document.querySelectorAll("table.tracks").forEach(function (table) {
      table.classList.add("compact");
      table.querySelectorAll("tr[data-track]").forEach(function (row) {
        var open = !!tracksOpen[row.dataset.track];
        row.classList.toggle("open", open);
        var button = row.querySelector("button.track-toggle");
        if (button) button.setAttribute("aria-expanded", String(open));
      });
    });
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("table.tracks button.track-toggle");
    if (!button) return;
    var track = button.closest("tr").dataset.track;
    tracksOpen[track] = !tracksOpen[track];
    fold();
  });
  // the player's own taps only (a toggle event also follows the page's own folding, later)
  document.addEventListener("click", function (evt) {
    var summary = evt.target.closest && evt.target.closest("details.phone-fold[data-fold-key] > summary");
    if (summary && phone.matches) unfolded[summary.parentElement.dataset.foldKey] = !summary.parentElement.open;
  });
  phone.addEventListener("change", fold);
  window.addEventListener("load", fold);  // a phone's viewport may be known only once the page is laid out
  htmx.onLoad(function (elt) {
    if (elt === document.body || (elt.querySelector && elt.querySelector(".phone-fold, table.tracks"))) fold();
  });
  // a skip link to a folded region unfolds it
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest && evt.target.closest('a[href^="#"]');
    var target = link && document.getElementById(link.getAttribute("href").slice(1));
    if (target) target.querySelectorAll("details.phone-fold").forEach(function (el) { el.open = true; });
  });
  // what the board lights up (static/js/act.js) is unfolded to be seen
  document.addEventListener("orleans:lit", function () {
    document.querySelectorAll(".act-lit").forEach(function (el) {
      var fold = el.closest("details.phone-fold");
      if (fold) fold.open = true;
    });
  });
})();

// Orléans Online: on a phone the page folds what a turn rarely needs (issue 9): the other
// players' boards, the deeds, the place tiles, the development track, the supply and the
// players list (details.phone-fold), so the decision and the player's own board come first;
// a tap on a title unfolds it. Regions re-rendered by polls keep what the player unfolded.
(function () {
  var phone = window.matchMedia("(max-width: 40rem)");
  var unfolded = {};  // data-fold-key -> true once the player opened it on this page

  function fold() {
    document.querySelectorAll("details.phone-fold[data-fold-key]").forEach(function (el) {
      el.open = !phone.matches || !!unfolded[el.dataset.foldKey] || !!el.querySelector(".act-lit");
    });
  }
  // the player's own taps only (a toggle event also follows the page's own folding, later)
  document.addEventListener("click", function (evt) {
    var summary = evt.target.closest && evt.target.closest("details.phone-fold[data-fold-key] > summary");
    if (summary && phone.matches) unfolded[summary.parentElement.dataset.foldKey] = !summary.parentElement.open;
  });
  phone.addEventListener("change", fold);
  window.addEventListener("load", fold);  // a phone's viewport may be known only once the page is laid out
  htmx.onLoad(function (elt) { if (elt === document.body || (elt.querySelector && elt.querySelector(".phone-fold"))) fold(); });
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

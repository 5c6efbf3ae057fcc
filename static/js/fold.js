// Orléans Online: on a phone the other players' boards are folded (issue 9): the decision and
// the player's own board come first, a tap on a name unfolds that board. The boards region is
// re-rendered by polls: a board the player unfolded stays unfolded.
(function () {
  var phone = window.matchMedia("(max-width: 40rem)");
  var unfolded = {};  // seat -> true once the player opened it on this page

  function fold() {
    document.querySelectorAll("details.board-fold[data-fold-seat]").forEach(function (el) {
      el.open = !phone.matches || !!unfolded[el.dataset.foldSeat];
    });
  }
  document.addEventListener("toggle", function (evt) {
    var el = evt.target;
    if (el.matches && el.matches("details.board-fold[data-fold-seat]") && phone.matches) unfolded[el.dataset.foldSeat] = el.open;
  }, true);
  phone.addEventListener("change", fold);
  htmx.onLoad(function (elt) { if (elt === document.body || elt.id === "game-boards") fold(); });
})();

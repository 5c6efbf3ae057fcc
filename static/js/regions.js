// Orléans Online: tell the server which version of each page region this page shows, so an
// answer sends only the regions that changed (games/views/regions.py render_regions).
function orleansRegionHashes() {
  return Array.from(document.querySelectorAll("[data-region-hash]"))
    .map(function (el) { return el.id + ":" + el.dataset.regionHash; })
    .join(",");
}
// Every htmx request from inside the game page carries them (no hx-vals "js:": the
// Content-Security-Policy allows no eval).
document.body.addEventListener("htmx:configRequest", function (evt) {
  if (evt.detail.elt.closest && evt.detail.elt.closest("#game-page")) {
    evt.detail.parameters["regions"] = orleansRegionHashes();
  }
});

// Running clocks count down between updates: "2 d 3 h", "5 h 12 min", "4 min" (as games/clock.py).
function orleansCountdown() {
  document.querySelectorAll("[data-deadline]").forEach(function (el) {
    var seconds = Math.max(0, Math.floor((Date.parse(el.dataset.deadline) - Date.now()) / 1000));
    var days = Math.floor(seconds / 86400), hours = Math.floor(seconds % 86400 / 3600),
        minutes = Math.floor(seconds % 3600 / 60);
    var params = {d: days, h: hours, m: minutes};
    el.textContent = days ? orleansText("daysHours", "{d} d {h} h", params)
      : hours ? orleansText("hoursMinutes", "{h} h {m} min", params) : orleansText("minutes", "{m} min", params);
  });
}
setInterval(orleansCountdown, 30000);

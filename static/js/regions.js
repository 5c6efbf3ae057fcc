// Orléans Online: tell the server which version of each page region this page shows, so an
// answer sends only the regions that changed (games/views/regions.py render_regions).
function orleansRegionHashes() {
  return Array.from(document.querySelectorAll("[data-region-hash]"))
    .map(function (el) { return el.id + ":" + el.dataset.regionHash; })
    .join(",");
}

// The replay viewer's keys (templates/games/replay.html): each stepping link carries the key
// that follows it in data-key ("ArrowRight", "Shift+ArrowLeft", ...). No inline JS (CSP).
(function () {
  function keyName(event) {
    return (event.shiftKey ? "Shift+" : "") + event.key;
  }

  function scrollCurrentIntoView() {
    var current = document.querySelector("#replay-log li.current");
    if (current && current.scrollIntoView) current.scrollIntoView({block: "nearest"});
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    var link = document.querySelector('.replay-nav a[data-key="' + keyName(event) + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", scrollCurrentIntoView);
  } else {
    scrollCurrentIntoView();
  }
})();

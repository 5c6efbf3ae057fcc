// Orléans Online: the chat form (templates/games/partials/_chat_form.html) is emptied once
// its message was taken (a refusal comes back in #flash and the text stays to be mended).
document.body.addEventListener("htmx:afterRequest", function (evt) {
  var form = evt.detail.elt;
  if (!form || form.id !== "chat-form" || !evt.detail.successful) return;
  var flash = document.querySelector("#flash .flash");
  if (!flash) form.reset();
});

// The chat's lists scroll in their own boxes, newest message last: show the first unread
// message at the top of its box, else the newest, when the page loads and whenever the chat
// region is swapped in again (a new region starts at its top). htmx fires htmx:load on the
// body at start and on every element it swaps in, out of band too.
function orleansChatScroll(root) {
  var region = root && root.id === "game-chat" ? root : root && root.querySelector && root.querySelector("#game-chat");
  if (!region) return;
  region.querySelectorAll(".chat-messages").forEach(function (list) {
    var unread = list.querySelector(".chat-line.new");
    list.scrollTop = unread ? list.scrollTop + unread.getBoundingClientRect().top - list.getBoundingClientRect().top
      : list.scrollHeight;
  });
}
document.body.addEventListener("htmx:load", function (evt) { orleansChatScroll(evt.detail.elt); });

// Orléans Online: the chat form (templates/games/partials/_chat_form.html) is emptied once
// its message was taken (a refusal comes back in #flash and the text stays to be mended).
document.body.addEventListener("htmx:afterRequest", function (evt) {
  var form = evt.detail.elt;
  if (!form || form.id !== "chat-form" || !evt.detail.successful) return;
  var flash = document.querySelector("#flash .flash");
  if (!flash) form.reset();
});

// The newest message is the last of its list, in a box that scrolls: show it, when the page
// loads and whenever the chat region is swapped in again (a new region starts at its top).
function orleansChatToNewest(root) {
  var region = root && root.id === "game-chat" ? root : root && root.querySelector && root.querySelector("#game-chat");
  if (!region) return;
  region.querySelectorAll(".chat-messages").forEach(function (list) { list.scrollTop = list.scrollHeight; });
}
document.addEventListener("DOMContentLoaded", function () { orleansChatToNewest(document.body); });
document.body.addEventListener("htmx:load", function (evt) { orleansChatToNewest(evt.detail.elt); });

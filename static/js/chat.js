// Orléans Online: the chat form (templates/games/partials/_chat_form.html) is emptied once
// its message was taken (a refusal comes back in #flash and the text stays to be mended).
document.body.addEventListener("htmx:afterRequest", function (evt) {
  var form = evt.detail.elt;
  if (!form || form.id !== "chat-form" || !evt.detail.successful) return;
  var flash = document.querySelector("#flash .flash");
  if (!flash) form.reset();
});

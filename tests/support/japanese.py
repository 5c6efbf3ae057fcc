"""Find English left on a page rendered in Japanese (issue 11).

``english_left(html)`` lists the Latin-script words a Japanese reader would see: the visible
text and the user-facing attributes (``title``, ``aria-label``, ``alt``, ``placeholder``,
the ``value`` of buttons), outside ``<script>``/``<style>``, outside elements marked
``translate="no"`` (the HTML attribute for content that must not be translated: usernames,
game names, chat text, bot names) and outside an allow-list of proper names. Single letters
(the goods' and followers' initials on tokens), numbers, URLs and email addresses pass.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

#: Proper names and marks a Japanese page may show in Latin script.
ALLOWED = frozenset({
    "Orléans", "Online", "Orleans", "dlp", "games", "Reiner", "Stockhausen", "Board", "Game", "Arena",
    "BGA", "HTMX", "OK", "UTC", "Email", "SVG", "PDF", "JSON", "English",
})
_ATTRIBUTES = ("title", "aria-label", "alt", "placeholder", "aria-description")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ'’-]+")
_SKIP = re.compile(r"https?://\S+|\S+@\S+\.\S+|\{[a-z_]+\}")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: is its content excluded?
        self.texts: list[str] = []

    def _excluded(self) -> bool:
        return bool(self.stack) and self.stack[-1]

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        excluded = self._excluded() or tag in ("script", "style", "template") or a.get("translate") == "no"
        if not excluded:
            self.texts.extend(a[name] for name in _ATTRIBUTES if a.get(name))
            if tag == "input" and a.get("type") in ("submit", "button") and a.get("value"):
                self.texts.append(a["value"])
        if tag not in _VOID:
            self.stack.append(excluded)

    def handle_startendtag(self, tag, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag) -> None:
        if tag not in _VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data) -> None:
        if not self._excluded():
            self.texts.append(data)


def english_left(html: str, allowed=()) -> list[str]:
    """The Latin-script words of ``html`` outside user content and the allow-list.

    ``html``: a page or fragment as text; ``allowed``: extra words to let pass (e.g. the
    usernames the test created). Returns the words in page order, repeated as they occur.
    """
    collector = _Collector()
    collector.feed(html)
    collector.close()
    ok = ALLOWED | set(allowed)
    words = []
    for text in collector.texts:
        for word in _WORD.findall(_SKIP.sub(" ", text)):
            if word not in ok:
                words.append(word)
    return words


def game_page_in_both(client_for, game, order: int = 0) -> tuple[str, str]:
    """The game page as seat ``order``'s player sees it, asked for in Japanese and in
    English (``Accept-Language``, as a browser asks): ``(japanese, english)`` HTML."""
    from django.urls import reverse

    seat = game.seats.select_related("user").get(order=order)
    url = reverse("games-detail", kwargs={"game_id": game.pk})
    client = client_for(seat.user)
    return client.get(url, HTTP_ACCEPT_LANGUAGE="ja").text, client.get(url, HTTP_ACCEPT_LANGUAGE="en").text

"""The shell's per-language pieces (``{% per_language %}``, games.templatetags.page_shell):
rendered once per language and kept, they give every page exactly what rendering them
afresh gives, in each language, for players, spectators and visitors alike."""
import re

import pytest
from django.urls import reverse
from django.utils.translation import get_language

from games.templatetags import page_shell

#: Differs from one rendering to the next whatever the caching: the CSRF mask.
TOKEN = re.compile(r'(?<=name="csrfmiddlewaretoken" value=")[^"]+|(?<="X-CSRFToken": ")[^"]+')


@pytest.fixture
def fresh_pieces(monkeypatch):
    """Pieces rendered afresh for every page while on (``fresh_pieces(True)``); while off,
    ``switch.missed`` counts the pieces not found kept."""
    kept = page_shell.PerLanguageNode.render

    def counted(self, context):
        switch.missed += get_language() not in self.rendered
        return kept(self, context)

    def switch(on: bool) -> None:
        monkeypatch.setattr(page_shell.PerLanguageNode, "render",
                            (lambda self, context: self.nodelist.render(context)) if on else counted)
    switch.missed = 0
    return switch


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_page_with_kept_pieces_is_the_page_rendered_afresh(language, client, client_for, started_game, alice,
                                                            carol, fresh_pieces):
    viewers = {"player": client_for(alice), "spectator": client_for(carol), "visitor": client}
    game_url = reverse("games-detail", kwargs={"game_id": started_game.pk})
    urls = (game_url, reverse("home"), reverse("games-lobby"))
    for other in ("en", "ja"):  # the pieces of both languages are kept first, on every page
        for viewer in viewers.values():
            for url in urls:
                viewer.get(url, HTTP_ACCEPT_LANGUAGE=other)
    fresh_pieces(False)
    fresh_pieces.missed = 0
    for name, viewer in viewers.items():
        for url in urls:
            fresh_pieces(False)
            kept = viewer.get(url, HTTP_ACCEPT_LANGUAGE=language).text
            fresh_pieces(True)
            fresh = viewer.get(url, HTTP_ACCEPT_LANGUAGE=language).text
            assert TOKEN.sub("", kept) == TOKEN.sub("", fresh), f"{name} on {url} in {language}"
            assert f'<html lang="{"ja" if language == "ja" else "en-gb"}">' in kept
    assert fresh_pieces.missed == 0, "the pages' pieces were kept from the first pages"

"""An open game's invite link in a real browser: its button copies it to the clipboard and
says so. Skipped where chromium is absent."""
import pytest
from django.urls import reverse

from tests.browser.conftest import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


def test_the_invite_links_button_copies_it(page_for, make_game, alice, live_server):
    game = make_game(alice, seats=2, is_public=False)
    page = page_for(alice)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    link = page.locator("#invite-link").input_value()
    assert link.startswith(live_server.url) and str(game.pk) in link
    button = page.locator("button[data-copy='invite-link']")
    assert button.inner_text() == "Copy the link"
    button.click()
    page.wait_for_function("() => document.querySelector(\"button[data-copy='invite-link']\").textContent === 'Copied'")
    assert page.evaluate("() => navigator.clipboard.readText()") == link

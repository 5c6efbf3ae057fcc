"""The game page in a real browser (Debian's chromium driven by Playwright).

Proves the htmx wiring unit tests cannot: the CSRF header from <body hx-headers>, the
out-of-band region swaps after a decision, the #flash message for a refused one, and
version-keyed polling picking up another player's move. Skipped where chromium is absent.
"""
import pytest
from django.urls import reverse

from games.models import Move
from games.services import game_submit_action
from tests.browser.conftest import CHROMIUM
from tests.support.game_driver import awaited_move

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


def game_url(game):
    return reverse("games-detail", kwargs={"game_id": game.pk})


def test_a_decision_is_posted_by_htmx_and_the_regions_refresh(page_for, started_game):
    seat, _ = awaited_move(started_game)
    page = page_for(seat.user)
    page.goto(game_url(started_game))
    page.locator("#game-actions form button").first.click()
    page.wait_for_selector('#game-poll[data-version="1"]', state="attached")
    assert Move.objects.filter(game=started_game).count() == 1
    assert page.locator('#game-actions input[name="expected_version"]').first.input_value() == "1"
    assert page.url.endswith(game_url(started_game))  # no full-page navigation


def test_a_refused_decision_shows_its_reason_beside_the_form(page_for, started_game):
    seat, _ = awaited_move(started_game)
    page = page_for(seat.user)
    page.goto(game_url(started_game))
    form = page.locator('#game-actions form:has(input[type="hidden"][name="action"])').first
    form.locator('input[name="action"]').evaluate(
        """input => { input.value = '{"type": "no_such_action"}'; }""")
    form.locator("button").click()
    page.wait_for_selector("#flash .flash")
    assert page.locator("#flash .flash").inner_text()
    started_game.refresh_from_db()
    assert started_game.version == 0


def test_polling_shows_another_players_move(settings, page_for, started_game, carol):
    settings.GAMES_POLL_SECONDS = 1
    page = page_for(carol)
    page.goto(game_url(started_game))
    seat, action = awaited_move(started_game)
    game_submit_action(game_id=started_game.pk, user=seat.user, action=action, expected_version=0)
    page.wait_for_selector('#game-poll[data-version="1"]', state="attached", timeout=10_000)

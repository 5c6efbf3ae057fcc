"""A failed htmx request is never silent (issue 8): the page says what went wrong in #flash
and the button works again. The failures are made by Playwright route interception (the
site's code is unchanged); Debian's chromium, skipped where it is absent."""
import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse

from games.models import Move
from tests.browser.conftest import CHROMIUM
from tests.support.game_driver import awaited_move

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]
BUTTON = "#game-actions form button"


def _open(page_for, game):
    seat, _ = awaited_move(game)
    page = page_for(seat.user)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    return page


def _fail_posts_once(page, **fulfil):
    """The next POST to an /act/ URL fails as given (fulfilled or aborted), later ones pass."""
    state = {"failed": False}

    def handle(route):
        if route.request.method == "POST" and not state["failed"]:
            state["failed"] = True
            route.abort("connectionrefused") if fulfil.get("abort") else route.fulfill(**fulfil)
        else:
            route.continue_()

    page.route("**/act/**", handle)


def test_a_server_error_shows_a_message_and_the_button_works_again(page_for, started_game):
    page = _open(page_for, started_game)
    _fail_posts_once(page, status=500, body="Internal Server Error")
    page.locator(BUTTON).first.click()
    page.wait_for_selector("#flash .flash")
    assert "error 500" in page.locator("#flash .flash").inner_text()
    assert page.locator(BUTTON).first.is_enabled()
    assert Move.objects.filter(game=started_game).count() == 0
    page.locator(BUTTON).first.click()  # works again: this time it goes through
    page.wait_for_selector('#game-poll[data-version="1"]', state="attached")
    assert Move.objects.filter(game=started_game).count() == 1
    assert page.locator("#flash [data-client-error]").count() == 0  # the message is gone


def test_a_network_error_says_the_site_cannot_be_reached(page_for, started_game):
    page = _open(page_for, started_game)
    _fail_posts_once(page, abort=True)
    page.locator(BUTTON).first.click()
    page.wait_for_selector("#flash .flash")
    assert "Could not reach the site" in page.locator("#flash .flash").inner_text()
    assert page.locator(BUTTON).first.is_enabled()


def test_the_game_page_plays_under_the_content_security_policy(page_for, started_game):
    seat, _ = awaited_move(started_game)
    page = page_for(seat.user)
    refused = []
    page.on("console", lambda msg: refused.append(msg.text) if "Content Security Policy" in msg.text else None)
    response = page.goto(reverse("games-detail", kwargs={"game_id": started_game.pk}))
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.locator(BUTTON).first.click()
    page.wait_for_selector('#game-poll[data-version="1"]', state="attached")
    assert refused == []


def test_a_click_after_logging_out_elsewhere_opens_the_login_page_saying_why(page_for, started_game):
    page = _open(page_for, started_game)
    game_path = reverse("games-detail", kwargs={"game_id": started_game.pk})
    # logged out in another tab: the session is gone, the page stays open
    Session.objects.all().delete()
    page.locator(BUTTON).first.click()
    page.wait_for_url(lambda url: reverse("account_login") in url)
    assert "You have been logged out, so that was not sent." in page.locator(".messages").inner_text()
    assert page.url.endswith(f"?next={game_path}")
    assert Move.objects.filter(game=started_game).count() == 0

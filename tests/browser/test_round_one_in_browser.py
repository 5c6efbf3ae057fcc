"""The issue's flow in a real browser: two people sign up (verification link from the
email outbox), one opens a private two-player game, the other joins by the invite link,
and both play round 1 through the game page's forms. Screenshots go to test-artifacts/."""
import re

import pytest
from django.urls import reverse

from games.models import Game
from tests.browser.conftest import CHROMIUM
from tests.conftest import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]
TIMEOUT = 15_000


def sign_up(page, mailoutbox, name: str) -> None:
    """Sign up through allauth's form, then follow the link of the verification email."""
    page.goto(reverse("account_signup"))
    page.fill('input[name="email"]', f"{name}@example.com")
    page.fill('input[name="username"]', name)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('main form button[type="submit"]').click()
    page.wait_for_load_state()
    mail = next(m for m in reversed(mailoutbox) if m.to == [f"{name}@example.com"])
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.body).group(0)
    page.goto(link[link.index("/accounts/"):])
    page.locator('main form button[type="submit"]').click()
    page.wait_for_load_state()
    page.goto(reverse("games-profile"))
    assert name in page.locator(".site-header").inner_text()


def version(page) -> int:
    return int(page.locator("#game-poll").get_attribute("data-version"))


def submit(page, form) -> None:
    """Click the form's button and wait for the regions of the next version.

    When the other player moved meanwhile (simultaneous planning), the server refuses the
    stale form and sends the current regions with the reason: click again, as a person would.
    """
    for _attempt in range(3):
        before = version(page)
        page.evaluate("() => { document.querySelector('#flash').innerHTML = ''; }")
        form.locator("button").click()
        page.wait_for_function(
            f"() => Number(document.querySelector('#game-poll').dataset.version) > {before}"
            " || document.querySelector('#flash .flash') !== null", timeout=TIMEOUT)
        flash = page.locator("#flash .flash")
        if not flash.count():
            return
        assert "moved on" in flash.inner_text(), flash.inner_text()
        page.wait_for_function(
            f"() => Number(document.querySelector('#game-poll').dataset.version) > {before}",
            timeout=TIMEOUT)
    raise AssertionError("the form stayed stale")


def plan_farmhouse(page) -> None:
    """Put the starting Boatman and Craftsman on the Farmhouse, then submit the plan."""
    form = page.locator('#game-actions form[data-form="place-farmhouse"]')
    form.locator("select").select_option(label="Starting Boatman")
    submit(page, form)
    submit(page, page.locator('#game-actions form[data-form="place-farmhouse"]'))
    assert page.locator('#game-boards .player-board.mine [data-place="farmhouse"] .tile.planned').count() == 2


def test_two_new_players_play_round_one_in_the_browser(
    settings, page_for, mailoutbox, screenshot
):
    settings.GAMES_POLL_SECONDS = 1
    erin, frank = page_for(), page_for()
    sign_up(erin, mailoutbox, "erin")
    sign_up(frank, mailoutbox, "frank")

    erin.goto(reverse("games-new"))
    erin.fill('input[name="name"]', "Erin and Frank")
    erin.select_option('select[name="seats"]', "2")
    erin.uncheck('input[name="is_public"]')
    erin.locator('main form button[type="submit"]').click()
    invite = erin.locator(".invite input[readonly]").input_value()
    frank.goto(invite[invite.index("/games/"):])
    frank.locator('#lobby-actions form button[type="submit"]').click()
    frank.wait_for_selector("#game-actions")
    game = Game.objects.get(name="Erin and Frank")
    assert game.is_active and not game.is_public
    # erin's lobby page polls and turns into the game page by itself once the table is full
    # (a goto here would race that refresh: net::ERR_ABORTED)
    erin.wait_for_selector("#game-actions", timeout=TIMEOUT)

    # Round 1 starts at planning, for both at once.
    for page in (erin, frank):
        assert "Your turn" in page.locator("#game-status").inner_text()
    plan_farmhouse(erin)
    screenshot(erin, "round1-planning-erin")
    frank.reload()
    # erin's market and plan stay hidden from frank while planning
    erin_board = frank.locator('#game-boards .player-board:not(.mine)')
    assert "hidden until the action phase" in erin_board.inner_text()
    assert frank.locator(".tile.planned").count() == 0
    assert frank.locator("#game-mine").count() == 1 and erin_board.locator(".market-row .tile").count() == 0
    submit(erin, erin.locator('#game-actions form[data-form="submit_plan"]'))
    plan_farmhouse(frank)
    submit(frank, frank.locator('#game-actions form[data-form="submit_plan"]'))

    # The action phase: whoever's turn it is uses the Farmhouse, then passes.
    frank.wait_for_selector("#game-status:has-text('Actions')", timeout=TIMEOUT)
    erin.wait_for_selector("#game-status:has-text('Actions')", timeout=TIMEOUT)
    screenshot(frank, "round1-actions-frank")
    for _ in range(40):
        if all("Round 2" in p.locator("#game-status").inner_text() for p in (erin, frank)):
            break
        for page in (erin, frank):
            form = page.locator('#game-actions form[data-form="activate-farmhouse"], '
                                '#game-actions form[data-form="pass"]')
            if form.count():
                submit(page, form.first)
        erin.wait_for_timeout(600)
    for page in (erin, frank):
        page.wait_for_selector("#game-status:has-text('Round 2')", timeout=TIMEOUT)
    game.refresh_from_db()
    assert game.is_active
    # each used the Farmhouse: a farmer on the track and in the bag
    for page in (erin, frank):
        assert page.locator('#game-tracks [data-track="farmer"] td').nth(1).locator(".seat-token").count() >= 1
        assert "Farmer" in page.locator("#my-bag").inner_html()
    screenshot(erin, "round2-erin")
    screenshot(frank, "round2-frank-full", full_page=True)

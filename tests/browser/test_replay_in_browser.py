"""The replay viewer in a real browser: stepping with the keyboard (static/js/replay.js)
moves by move, by phase and back, and the current step's log line is highlighted; the page
runs under the site's Content-Security-Policy (no inline JS). Skipped where chromium is absent."""
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from tests.browser.conftest import CHROMIUM
from tests.history.fixture_games import load

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


def test_stepping_through_a_finished_game_with_the_keyboard(page_for, alice, screenshot):
    game = services.game_import(document=load("2p-default"))
    page = page_for(alice)
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(reverse("games-replay", kwargs={"game_id": game.pk}) + "?step=0")
    expect(page.locator("#replay-step")).to_have_text("0")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("1")
    expect(page.locator("#replay-log li.current")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("2")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_text("1")
    expect(page.locator('#replay-log li[aria-current="step"] a')).to_have_attribute("href", "?step=1")
    page.keyboard.press("Shift+ArrowRight")  # the next phase: the action phase of round 1
    expect(page).to_have_url(re.compile(r"step=(\d+)"))
    phase_step = int(page.locator("#replay-step").inner_text())
    assert phase_step > 2
    expect(page.locator("#replay-where")).to_contain_text("Actions")  # the phase by name
    screenshot(page, "replay-action-phase", full_page=True)
    page.keyboard.press("End")
    expect(page.locator("#replay-step")).to_have_text(str(game.version))
    expect(page.locator("#replay-where")).to_contain_text("Game over")
    assert not [e for e in errors if "Content Security Policy" in e]

"""A torture debt paid in one decision in a real browser (issue 9; RULES §10.1): the payment
form says what is still owed as it is filled in (static/js/payment.js), and one click on
"Pay" posts the whole payment. Skipped where chromium is absent."""
import pytest
from django.urls import reverse

from games.models import Move
from tests.browser.conftest import CHROMIUM
from tests.games.views.test_torture_payment import seven_short
from tests.support.game_driver import install, state_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


def test_a_seven_coin_debt_is_paid_in_one_decision(page_for, started_game, screenshot):
    game = install(started_game, seven_short())
    page = page_for(game.seats.get(order=0).user)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    form = page.locator('form[data-form="pay_debt"]')
    remaining = form.locator("output[data-pay-remaining]")
    assert remaining.inner_text() == "7"
    form.get_by_label("Wool (you have 4)").fill("4")
    assert remaining.inner_text() == "3"
    form.get_by_label("Trading stations from your supply (you have 2)").fill("2")
    form.get_by_label("Followers drawn at random from your bag", exact=False).check()
    assert remaining.inner_text() == "0"
    assert remaining.get_attribute("data-state") == "settled"
    screenshot(page, "torture-payment")
    form.get_by_role("button", name="Pay").click()
    page.wait_for_selector('form[data-form="pay_debt"]', state="detached")
    (move,) = Move.objects.filter(game=game, seat=0)
    assert move.action["type"] == "pay_debt" and len(move.action["items"]) == 7
    p = state_of(game).data["players"][0]
    assert (p["prompts"], p["goods"]["wool"], p["stations_left"], p["bag"]) == ([], 0, 0, {})
    assert page.locator('form[data-form="pay_debt"]').count() == 0

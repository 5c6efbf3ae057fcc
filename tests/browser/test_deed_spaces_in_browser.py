"""Town Hall played on the board in a browser (issue 9): opening it lights the single deed
spaces that fit — exactly those its legal actions fill, never whole deed boxes; clicking a lit
space marks the choices that fill it, and one of them is sent."""
import pytest
from django.urls import reverse

import engine
from tests.browser.conftest import CHROMIUM
from tests.browser.test_act_on_the_board import version, wait_version_above
from tests.browser.test_plan_on_the_board import TIMEOUT
from tests.games.views.test_deed_spaces_on_the_board import TAKEN, TOWN_HALL
from tests.support import engine_states as H
from tests.support.act_board import act_board
from tests.support.game_driver import install, seats

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


def test_the_town_hall_lights_the_deed_spaces_that_fit(started_game, page_for, client_for, screenshot):
    state = H.action_state(TOWN_HALL, deeds={**H.new_data()["deeds"], **TAKEN})
    game = install(started_game, state)
    alice = seats(game)[0].user
    text = client_for(alice).get(reverse("games-detail", kwargs={"game_id": game.pk})).content.decode()
    named = {}  # deed space -> the Town Hall actions filling it, as the server rendered them
    for place, action, attrs in act_board(text).targets:
        if place == "town_hall":
            for space in attrs["data-deed-spaces"].split():
                named.setdefault(space, []).append(action)
    page = page_for(alice)
    page.goto(reverse("games-detail", kwargs={"game_id": game.pk}))
    page.locator('#game-mine [data-place="town_hall"] button.act-open').click()
    lit = page.locator(".act-lit")
    lit.first.wait_for(timeout=TIMEOUT)
    assert sorted(lit.evaluate_all("els => els.map(el => el.dataset.deedSpace)")) == sorted(named)
    assert page.locator("#game-deeds .deed.act-lit").count() == 0
    screenshot(page, "town-hall-deed-spaces")
    # a lit space filled by several choices marks them to pick from; one is sent
    space = next(s for s, actions in named.items() if len(actions) > 1)
    page.locator(f'#game-deeds [data-deed-space="{space}"]').click()
    marked = page.locator("#act-town_hall button.act-choice.match")
    assert marked.count() == len(named[space])
    before = version(page)
    marked.first.click()
    wait_version_above(page, before)
    game.refresh_from_db()
    assert engine.from_json(game.state).data["deeds"] != state.data["deeds"]

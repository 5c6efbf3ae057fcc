"""The queue panel's choices (what each queued use of a place reads and gives) are engine
messages shown in the viewer's language; in English they are the engine's own words."""
import html
import re

from django.utils.translation import override

import engine
from games.messages import queue_option_texts
from tests.support.game_driver import VILLAGE_PLAN, seats, submit
from tests.support.japanese import english_left


def village_planned(game):
    """alice's plan fills the Village (her queue may offer its recruits)."""
    alice = seats(game)[0]
    for placement in VILLAGE_PLAN:
        submit(game, alice, {"type": "place", **placement})
    return alice


def queue_choices(page: str) -> list[str]:
    region = page.split('id="game-queue"')[1].split("</section>")[0]
    return [html.unescape(t) for t in re.findall(r'<optgroup label="([^"]*)"|<option [^>]*>([^<]*)</option>', region)
            for t in t if t]


def test_the_queue_panels_choices_read_in_japanese(started_game, client_for):
    alice = village_planned(started_game)
    page = client_for(alice.user).get(f"/games/{started_game.pk}/", HTTP_ACCEPT_LANGUAGE="ja").text
    choices = queue_choices(page)
    assert any("村" in c for c in choices) and any("トラック1段目" in c for c in choices)
    assert [w for c in choices for w in english_left(c)] == []


def test_in_english_each_choice_is_the_engines_label_and_gives():
    state = state_of_village()
    options = engine.queue.queue_options(state, 0)
    assert any(o["gives_message"] for o in options)
    with override("en-gb"):
        for option in options:
            assert queue_option_texts(option) == (option["label"], option["gives"])


def test_a_choice_without_messages_shows_the_engines_english():
    option = {"label": "Use Castle", "gives": "something new", "label_message": None}
    with override("ja"):
        assert queue_option_texts(option) == ("Use Castle", "something new")


def state_of_village() -> engine.GameState:
    state = engine.new_game(engine.GameOptions(players=2), 3)
    while engine.awaiting(state).get(0) == "draw" or engine.awaiting(state).get(1) == "draw":
        for seat, kind in engine.awaiting(state).items():
            if kind == "draw":
                state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    for placement in VILLAGE_PLAN:
        state, _ = engine.apply(state, 0, {"type": "place", **placement})
    return state

"""A refusal from the engine reads in the player's language: its code and params are
rendered by the site at display time (games.messages), never the engine's English."""
import pytest
from django.utils.translation import override

import engine
from games import rules
from games.errors import ServiceError
from games.messages import render_refusal
from games.models import Game
from tests.games.views.test_refusal_messages import act, flash_of
from tests.support.game_driver import both_plan_the_castle, seats, state_of
from tests.support.html_forms import HTMX


@pytest.fixture
def action_phase(started_game, django_capture_on_commit_callbacks):
    """Round 1's action phase; the seat whose turn it is."""
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)
    (turn,) = engine.awaiting(state_of(started_game))
    return started_game, seats(started_game)[turn]


def illegal_castle() -> engine.IllegalAction:
    state = engine.new_game(engine.GameOptions(players=2), 3)
    with pytest.raises(engine.RulesError) as caught:
        engine.apply(state, 0, {"type": "activate", "space": "castle"})
    return caught.value


def test_an_illegal_action_is_refused_in_japanese_under_a_japanese_language():
    refusal = illegal_castle()
    with override("ja"):
        japanese = rules.player_message(refusal)
    with override("en"):
        english = rules.player_message(refusal)
    assert english == refusal.message
    assert japanese != english and japanese.endswith("。")


def test_a_place_refusal_names_the_place_and_track_in_japanese():
    refusal = engine.IllegalAction("", code="track_end", params={"place": "castle", "track": "knight"})
    with override("ja"):
        assert render_refusal(refusal) == "城は使えません：兵士トラックが最後のマスに達しています。"
    with override("en"):
        assert render_refusal(refusal) == "The Castle cannot be used: the Knight track is at its last space."


def test_a_nested_refusal_translates_both_sentences():
    refusal = engine.IllegalAction("", code="payment_item",
                                   params={"index": 2, "why": "torture_item", "why_params": {"item": "good"}})
    with override("ja"):
        assert render_refusal(refusal) == "支払いの2番目の項目は認められません。それは差し出せません：持っていません。"


def test_a_site_refusal_keeps_its_own_sentence():
    with override("ja"):
        assert rules.player_message(ServiceError("You do not have a seat at this game.")) == \
            "You do not have a seat at this game."


def test_the_refusal_flash_of_an_illegal_move_is_in_japanese(action_phase, client_for):
    game, seat = action_phase
    data = dict(game.state)
    data["players"][seat.order]["tracks"]["knight"] = 5
    Game.objects.filter(pk=game.pk).update(state=data)
    response = act(client_for(seat.user), game, {"type": "activate", "space": "castle"}, game.version,
                   HTTP_ACCEPT_LANGUAGE="ja", **HTMX)
    assert flash_of(response) == "城は使えません：兵士トラックが最後のマスに達しています。"

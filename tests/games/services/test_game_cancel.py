"""games.services.game_cancel"""
import pytest

from games.models import GameStatus
from games.services import NotCreator, WrongStatus, game_cancel


def test_the_creator_cancels_an_open_game(make_game, alice, bob):
    game = make_game(alice, bob)
    game_cancel(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED


def test_only_the_creator_cancels(make_game, alice, bob):
    game = make_game(alice, bob)
    with pytest.raises(NotCreator):
        game_cancel(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_a_started_game_cannot_be_cancelled(started_game, alice):
    with pytest.raises(WrongStatus):
        game_cancel(game_id=started_game.pk, user=alice)
    started_game.refresh_from_db()
    assert started_game.status == GameStatus.ACTIVE

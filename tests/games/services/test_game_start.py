"""games.services.game_start"""
import random

import pytest

import engine
from games.models import GameStatus
from games.services import NotCreator, NotEnoughPlayers, WrongStatus, game_start


def test_it_starts_with_the_seated_players(make_game, alice, bob, carol):
    game = make_game(alice, bob, carol, seats=4)
    game = game_start(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.options["players"] == 3
    assert game.engine_version == engine.ENGINE_VERSION
    assert engine.from_json(game.state) is not None


def test_it_orders_seats_by_the_seed(make_game, alice, bob, carol, dave):
    game = make_game(alice, bob, carol)
    joined = [alice, bob, carol]
    expected = list(joined)
    random.Random(game.seed).shuffle(expected)
    game_start(game_id=game.pk, user=alice)
    seats = list(game.seats.order_by("order"))
    assert [s.user for s in seats] == expected
    assert [s.colour for s in seats] == ["red", "blue", "green"]


def test_it_gives_the_engine_the_game_seed(make_game, alice, bob):
    game = make_game(alice, bob)
    game_start(game_id=game.pk, user=alice)
    game.refresh_from_db()
    expected = engine.new_game(engine.GameOptions.from_dict(game.options), game.seed)
    assert game.state == engine.to_json(expected)


def test_it_marks_the_awaited_seats(make_game, alice, bob):
    game = make_game(alice, bob)
    game_start(game_id=game.pk, user=alice)
    awaited = engine.awaiting(engine.from_json(game.__class__.objects.get(pk=game.pk).state))
    assert {s.order for s in game.seats.all() if s.awaiting} == set(awaited)


def test_it_needs_two_players(make_game, alice):
    game = make_game(alice)
    with pytest.raises(NotEnoughPlayers):
        game_start(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_only_the_creator_starts(make_game, alice, bob):
    game = make_game(alice, bob)
    with pytest.raises(NotCreator):
        game_start(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN


def test_it_does_not_start_twice(started_game, alice):
    with pytest.raises(WrongStatus):
        game_start(game_id=started_game.pk, user=alice)

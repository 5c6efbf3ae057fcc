"""games.services.game_create"""
import pytest

from games.models import Game, GameStatus
from games.services import InvalidGameOptions, game_create


def test_it_opens_a_game_with_the_creator_in_the_first_seat(alice):
    game = game_create(creator=alice, name="Loire", max_seats=3, options={})
    assert game.status == GameStatus.OPEN
    assert game.version == 0 and game.state is None
    assert [(s.user, s.order) for s in game.seats.all()] == [(alice, 0)]
    assert game.options["players"] == 3


def test_it_stores_the_chosen_options(alice):
    options = {
        "simultaneous_followers": False,
        "place_tile_market": "market5",
        "event_strength": "constant",
        "hourglass_order": "classic_shuffle",
    }
    game = game_create(creator=alice, name="x", max_seats=2, options=options, is_public=False)
    assert {k: game.options[k] for k in options} == options
    assert game.is_public is False


def test_it_defaults_the_options(alice):
    game = game_create(creator=alice, name="x", max_seats=4, options={})
    assert game.options["simultaneous_followers"] is True
    assert game.options["place_tile_market"] == "normal"
    assert game.options["event_strength"] == "phased"
    assert game.options["hourglass_order"] == "abc"


def test_it_draws_a_random_seed(alice):
    seeds = {game_create(creator=alice, name="x", max_seats=2, options={}).seed for _ in range(3)}
    assert len(seeds) == 3


@pytest.mark.parametrize("seats", [1, 5])
def test_it_rejects_a_bad_seat_count(alice, seats):
    with pytest.raises(InvalidGameOptions):
        game_create(creator=alice, name="x", max_seats=seats, options={})
    assert not Game.objects.exists()


def test_it_rejects_options_the_engine_refuses(alice):
    with pytest.raises(InvalidGameOptions):
        game_create(creator=alice, name="x", max_seats=2, options={"place_tile_market": "bazaar"})
    assert not Game.objects.exists()


def test_it_names_an_unnamed_game_after_its_creator(alice):
    assert game_create(creator=alice, name="  ", max_seats=2, options={}).name == "alice's game"


def test_it_keeps_a_given_seed(alice):
    assert game_create(creator=alice, name="x", max_seats=2, options={}, seed=42).seed == 42
